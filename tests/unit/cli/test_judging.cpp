// Judging a house rule through the real binary (issue 30): results that
// say what produced them, merge refusing parts that contradict themselves
// or were played by other rules, one row per game exported, agents per
// side in compare (skill on common seeds).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>

#include "cli_runner.hpp"
#include "json_output.hpp"

using rulebook::test::check_schema;
using rulebook::test::json_of;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;
using rulebook::test::write_file;

namespace {


const char* const kCoinRules = R"(return {setup = function() end, play = function(game)
  local pick = game:choose(0, "Call", {"heads", "tails"})
  if pick == "heads" then game:finish{winners = {0}, details = {call = pick}} end
  game:finish{winners = {0, 1}, reason = "shared", details = {call = pick}}
end})";

std::string coin_game(const std::string& name) {
  const std::string dir = temp_folder(name);
  write_file(dir + "/game.yaml", "name: coin\ntitle: Coin\nplayers: {min: 2, max: 2, default: 2}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", kCoinRules);
  return dir;
}

}  // namespace

TEST_CASE("merge: a part whose figures contradict themselves is refused", "[judging]") {
  const std::string dir = temp_folder("contradiction");
  const std::string run = "simulate hai-noon --players 3 --games 40 --seed 7";
  for (int k = 0; k < 2; ++k)
    REQUIRE(run_rulebook(run + " --shard " + std::to_string(k) + "/2 --out " + dir + "/p" + std::to_string(k) + ".json")
                .exit_code == 0);
  REQUIRE(run_rulebook("merge " + dir + "/p0.json " + dir + "/p1.json").exit_code == 0);
  auto edit = [&](const std::string& what, auto change) {
    auto part = nlohmann::json::parse(read_text(dir + "/p1.json"));
    change(part["statistics"]);
    write_file(dir + "/bad.json", part.dump());
    auto r = run_rulebook("merge " + dir + "/p0.json " + dir + "/bad.json");
    INFO(what << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("contradict themselves") != std::string::npos);
    return r.err;
  };
  CHECK(edit("more wins than games", [](nlohmann::json& s) { s["wins_by_seat"][0] = 25; }).find("won 25 of 20 games") !=
        std::string::npos);
  CHECK(edit("turn sum", [](nlohmann::json& s) { s["turns"]["sum"] = s["turns"]["sum"].get<int64_t>() + 1; })
            .find("the turns add up to") != std::string::npos);
}

TEST_CASE("results carry rulebook_version and rules_hash; merge refuses other rules", "[judging]") {
  const std::string game = coin_game("hashed");
  const std::string dir = temp_folder("hashed-parts");
  const std::string run = "simulate " + game + " --games 30 --seed 2";
  auto first = json_of(run_rulebook(run + " --json"));
  check_schema(first, "simulate.schema.json");
  CHECK(first["rules_hash"] == json_of(run_rulebook(run + " --json"))["rules_hash"]);  // stable
  CHECK(first["rules_hash"] != json_of(run_rulebook(run + " --json --set players.default=2"))["rules_hash"]);
  REQUIRE(run_rulebook(run + " --shard 0/2 --out " + dir + "/p0.json").exit_code == 0);
  write_file(game + "/rules.lua", std::string(kCoinRules) + "\n-- a changed comment\n");
  CHECK(json_of(run_rulebook(run + " --json"))["rules_hash"] != first["rules_hash"]);
  REQUIRE(run_rulebook(run + " --shard 1/2 --out " + dir + "/p1.json").exit_code == 0);
  auto r = run_rulebook("merge " + dir + "/p0.json " + dir + "/p1.json");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("played by other rules") != std::string::npos);
  auto compare = json_of(run_rulebook("compare --json " + game + " --games 20 --with '--set players.default=2'"));
  CHECK(compare["rulebook_version"] == first["rulebook_version"]);
  CHECK(compare["base"]["rules_hash"] != compare["with"]["rules_hash"]);
}

TEST_CASE("export: --export writes one row per game, CSV or JSON lines", "[judging]") {
  const std::string game = coin_game("exported");
  const std::string dir = temp_folder("exports");
  auto j = json_of(run_rulebook("simulate " + game + " --games 25 --seed 3 --jobs 2 --json --export " + dir + "/g.jsonl"));
  std::istringstream lines(read_text(dir + "/g.jsonl"));
  std::string line;
  int rows = 0, shared = 0;
  int64_t turns = 0;
  while (std::getline(lines, line)) {
    const auto row = nlohmann::json::parse(line);
    CHECK(row["game"] == rows);  // in game order whatever the jobs
    CHECK(row["seed"].is_number_unsigned());
    CHECK(row["details"]["call"].is_string());
    shared += row["winners"].size() == 2 ? 1 : 0;
    CHECK(row["end_reason"] == (row["winners"].size() == 2 ? "shared" : "unspecified"));
    turns += row["turns"].get<int64_t>();
    ++rows;
  }
  CHECK(rows == 25);
  CHECK(shared == j["shared_wins"]["games"]);
  CHECK(turns == static_cast<int64_t>(j["turns"]["mean"]["estimate"].get<double>() * 25 + 0.5));
  REQUIRE(run_rulebook("simulate " + game + " --games 5 --export " + dir + "/g.csv").exit_code == 0);
  const std::string csv = read_text(dir + "/g.csv");
  // The metrics of how the games felt follow, a column each (none with --no-metrics).
  CHECK(csv.rfind("game,seed,winners,turns,end_reason,decisions,details,metrics.", 0) == 0);
  REQUIRE(run_rulebook("simulate " + game + " --games 5 --no-metrics --export " + dir + "/n.csv").exit_code == 0);
  CHECK(read_text(dir + "/n.csv").rfind("game,seed,winners,turns,end_reason,decisions,details\n0,", 0) == 0);
  CHECK(csv.find("\"{\"\"call\"\":") != std::string::npos);  // details quoted as RFC 4180 says
  REQUIRE(run_rulebook("compare " + game + " --games 5 --with '' --export " + dir + "/c.csv").exit_code == 0);
  CHECK(read_text(dir + "/c.csv").find("0,base,") != std::string::npos);
  auto bad = run_rulebook("simulate " + game + " --games 5 --export " + dir + "/g.txt");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("must end in .csv or .jsonl") != std::string::npos);
}

TEST_CASE("compare: agents per side, and the skill they show on common seeds", "[judging]") {
  // Before: '--agent' inside --with was refused.
  auto r = run_rulebook("compare --json hai-noon --games 120 --jobs 2 --with '--agent 0=greedy'");
  auto j = json_of(r);
  check_schema(j, "compare.schema.json");
  CHECK(j["base"]["agents"][0] == "random");
  CHECK(j["with"]["agents"][0] == "greedy");
  CHECK(j["differences"]["skill"]["seats"] == nlohmann::json{0});
  CHECK(j["differences"]["skill"]["difference"]["low"].get<double>() > 0);  // greedy beats random
  CHECK(j["differences"]["skill"]["difference"]["estimate"] == j["differences"]["win_rate_by_seat"][0]["difference"]["estimate"]);
  CHECK(j["verdict"].get<std::string>().find("skill: greedy in seat 0 wins +") != std::string::npos);
  CHECK(j["verdict"].get<std::string>().find("of win rate against random (significant)") != std::string::npos);
  // Fairness: greedy in one seat makes the seats unequal.
  CHECK(j["differences"]["fairness"]["significant"] == true);
  CHECK(j["verdict"].get<std::string>().find("less fair") != std::string::npos);
  auto same = json_of(run_rulebook("compare --json hai-noon --games 20 --with '--variant short'"));
  CHECK_FALSE(same["differences"].contains("skill"));
  CHECK(run_rulebook("compare hai-noon --games 5 --with '--agent 0=genius'").exit_code == 2);
}
