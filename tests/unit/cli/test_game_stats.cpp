// A game's own statistics (game:finish{stats = {...}}) through the real
// binary: the log's result, simulate's text and JSON, shards that merge to
// the single run (and older parts without stats), compare's paired
// difference, sweep's settings, export and the argument errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "json_output.hpp"

using rulebook::test::check_schema;
using rulebook::test::json_of;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;
using rulebook::test::write_file;

namespace {

// Two seats pick 1 to 3; the margin is seat 0's pick minus seat 1's plus options.bonus.
std::string stats_game(const std::string& finish_extra = "") {
  const std::string dir = temp_folder("stats");
  write_file(dir + "/game.yaml",
             "name: picks\ntitle: Picks\nplayers: {min: 2, max: 2, default: 2}\nscript: rules.lua\noptions: {bonus: 0}\n");
  write_file(dir + "/rules.lua", R"(return {setup = function() end, play = function(game)
  local a = game:choose(0, "Pick", {1, 2, 3})
  local b = game:choose(1, "Pick", {1, 2, 3})
  local margin = a - b + game.options.bonus
  )" + finish_extra + R"(
  game:finish{winners = margin > 0 and {0} or {1}, stats = {margin = margin, half = margin / 2}}
end})");
  return dir;
}

}  // namespace

TEST_CASE("game stats: simulate tallies each with its mean, interval and quantiles", "[stats]") {
  const std::string dir = stats_game();
  auto j = json_of(run_rulebook("simulate " + dir + " --games 400 --seed 3 --json"));
  check_schema(j, "simulate.schema.json");
  REQUIRE(j["stats"].contains("margin"));
  const auto& m = j["stats"]["margin"];
  CHECK(m["games"] == 400);
  CHECK(m["min"] == -2.0);
  CHECK(m["max"] == 2.0);
  CHECK(m["median"] == 0.0);
  CHECK(m["mean"]["low"].get<double>() < m["mean"]["estimate"].get<double>());
  CHECK(m["mean"]["estimate"].get<double>() < m["mean"]["high"].get<double>());
  CHECK(j["stats"]["half"]["mean"]["estimate"].get<double>() == Approx(m["mean"]["estimate"].get<double>() / 2));
  auto text = run_rulebook("simulate " + dir + " --games 400 --seed 3");
  CHECK(text.out.find("the game's statistics (game:finish stats):") != std::string::npos);
  CHECK(text.out.find("  margin: mean ") != std::string::npos);
  CHECK(text.out.find("; min -2, 25% -1, median 0, 75% 1, max 2") != std::string::npos);
  CHECK(text.out.find("  half: mean ") != std::string::npos);
  // A game without stats: no such section, and an empty object in JSON.
  auto plain = run_rulebook("simulate pass-the-pandas --games 20");
  CHECK(plain.out.find("statistics (game:finish") == std::string::npos);
  CHECK(json_of(run_rulebook("simulate pass-the-pandas --games 20 --json"))["stats"] == nlohmann::json::object());
}

TEST_CASE("game stats: shards merge to the single run; parts without stats still merge", "[stats]") {
  const std::string dir = stats_game(), parts = temp_folder("stat-parts");
  const std::string run = "simulate " + dir + " --games 61 --seed 5";
  for (int k = 0; k < 2; ++k)
    REQUIRE(run_rulebook(run + " --shard " + std::to_string(k) + "/2 --out " + parts + "/p" + std::to_string(k) + ".json")
                .exit_code == 0);
  auto merged = json_of(run_rulebook("merge " + parts + "/p1.json " + parts + "/p0.json --json"));
  auto single = json_of(run_rulebook(run + " --json --jobs 2"));
  CHECK(merged["stats"] == single["stats"]);
  // The part keeps each value's count.
  auto part = nlohmann::json::parse(read_text(parts + "/p0.json"));
  CHECK(part["version"] == 2);
  CHECK(part["statistics"]["stats"]["margin"].is_array());
  // A part of a game without stats has none, as before, and merges.
  const std::string old = "simulate pass-the-pandas --games 10";
  REQUIRE(run_rulebook(old + " --shard 0/1 --out " + parts + "/plain.json").exit_code == 0);
  CHECK_FALSE(nlohmann::json::parse(read_text(parts + "/plain.json"))["statistics"].contains("stats"));
  CHECK(run_rulebook("merge " + parts + "/plain.json").exit_code == 0);
  // A damaged histogram is refused.
  part["statistics"]["stats"]["margin"] = nlohmann::json::array({nlohmann::json::array({1, -3})});
  write_file(parts + "/bad.json", part.dump());
  auto bad = run_rulebook("merge " + parts + "/bad.json " + parts + "/p1.json");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("stats.margin") != std::string::npos);
}

TEST_CASE("game stats: compare gives the paired difference of each mean; sweep each setting's", "[stats]") {
  const std::string dir = stats_game();
  auto j = json_of(run_rulebook("compare " + dir + " --games 200 --json --with '--set options.bonus=2'"));
  check_schema(j, "compare.schema.json");
  const auto& d = j["differences"]["stats"]["margin"];
  CHECK(d["difference"]["estimate"] == 2.0);
  CHECK(d["games"] == 200);
  CHECK(d["significant"] == true);
  CHECK(j["with"]["stats"]["margin"]["games"] == 200);
  auto text = run_rulebook("compare " + dir + " --games 200 --with '--set options.bonus=2'");
  CHECK(text.out.find("stats.margin (mean)") != std::string::npos);
  auto sweep = run_rulebook("sweep " + dir + " --games 100 --set options.bonus=0..1");
  CHECK(sweep.exit_code == 0);
  CHECK(sweep.out.find("the game's statistics by setting (game:finish stats):") != std::string::npos);
  CHECK(sweep.out.find("options.bonus=1") != std::string::npos);
  auto sj = json_of(run_rulebook("sweep " + dir + " --games 50 --set options.bonus=0..1 --json"));
  check_schema(sj, "sweep.schema.json");
  CHECK(sj["settings"][1]["stats"]["margin"]["games"] == 50);
}

TEST_CASE("game stats: the log's result and the export carry them; bad stats are clear errors", "[stats]") {
  const std::string dir = stats_game(), out = temp_folder("stat-log");
  REQUIRE(run_rulebook("play " + dir + " --log " + out + "/g.json").exit_code == 0);
  auto log = nlohmann::json::parse(read_text(out + "/g.json"));
  REQUIRE(log["result"].contains("stats"));
  CHECK(log["result"]["stats"]["margin"].is_number_integer());
  CHECK(run_rulebook("replay " + out + "/g.json").exit_code == 0);
  REQUIRE(run_rulebook("simulate " + dir + " --games 5 --no-metrics --export " + out + "/e.csv").exit_code == 0);
  CHECK(read_text(out + "/e.csv").find("details,stats.half,stats.margin\n") != std::string::npos);
  for (const auto& [extra, message] : std::vector<std::pair<std::string, std::string>>{
           {"game:finish{stats = {margin = 'x'}}", "stats.margin must be a finite number, got string"},
           {"game:finish{stats = {margin = 0/0}}", "stats.margin must be a finite number"},
           {"game:finish{stats = {['two words'] = 1}}", "'two words' cannot name a statistic"},
           {"game:finish{stats = {1, 2}}", "field 'stats' must map names to numbers, got a number key"},
           {"game:finish{stats = 3}", "field 'stats' must be a table, got number"}}) {
    const std::string bad = stats_game(extra);
    auto r = run_rulebook("play " + bad);
    INFO(extra << "\n" << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find("bad argument #1 to 'finish'") != std::string::npos);
    CHECK(r.err.find(message) != std::string::npos);
  }
}
