// simulate, compare and merge through the real binary: JSON against the
// schemas, shards that merge to the single run, common random numbers,
// known effects of variants, pictures and their errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
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


// The report without its wall-clock figures.
nlohmann::json without_timing(nlohmann::json j) {
  for (const char* key : {"seconds", "games_per_second", "jobs"}) j.erase(key);
  return j;
}
std::string without_time_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind("time:", 0) != 0) out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE("simulate: every figure with its interval, as the schema says", "[simulate]") {
  auto r = run_rulebook("simulate pass-the-pandas --players 4 --games 400 --seed 5 --json");
  auto j = json_of(r);
  CHECK(r.err.empty());  // no progress bar without a terminal
  check_schema(j, "simulate.schema.json");
  for (const char* key : {"games", "seconds", "games_per_second", "mean_turns", "win_rate_by_seat"}) CHECK(j.contains(key));
  CHECK(j["games"] == 400);
  for (int s = 0; s < 4; ++s) {
    const auto& rate = j["seats"][s]["win_rate"];
    CHECK(rate["estimate"] == j["win_rate_by_seat"][s]);
    CHECK(rate["low"].get<double>() <= rate["estimate"].get<double>());
    CHECK(rate["high"].get<double>() >= rate["estimate"].get<double>());
  }
  CHECK(j["turns"]["mean"]["estimate"] == j["mean_turns"]);
  CHECK(j["turns"]["min"].get<int>() <= j["turns"]["quantiles"]["median"]["estimate"].get<int>());
  int64_t binned = 0;
  for (const auto& b : j["turns"]["histogram"]) binned += b["games"].get<int64_t>();
  CHECK(binned == 400);
  CHECK(j["fair_win_rate"] == Approx(0.25));
  // Pass the Pandas names its ends (game:finish{reason=}): one game ends when a player has no dice left.
  CHECK(j["end_reasons"].size() == 1);
  CHECK(j["end_reasons"][0]["reason"] == "no-dice-left");
  CHECK(j["end_reasons"][0]["games"] == 400);
  CHECK(j["decisions_per_game"]["mean"]["estimate"].get<double>() > 1);

  auto text = run_rulebook("simulate pass-the-pandas --players 4 --games 400 --seed 5");
  CHECK(text.exit_code == 0);
  CHECK(text.err.empty());
  CHECK(text.out.find("against a fair 25%") != std::string::npos);
  CHECK(text.out.find("equal seats: Cochran's Q") != std::string::npos);
  CHECK(text.out.find("unfairness: ") != std::string::npos);
  CHECK(j["rulebook_version"].is_string());
  CHECK(j["rules_hash"].get<std::string>().rfind("sha256:", 0) == 0);
  CHECK(text.out.find("game length in turns: min") != std::string::npos);
}

TEST_CASE("simulate: compare and merge are commands with help", "[simulate]") {
  auto help = run_rulebook("--help");
  CHECK(help.out.find("compare") != std::string::npos);
  CHECK(help.out.find("merge") != std::string::npos);
  for (const char* cmd : {"compare --help", "merge --help", "simulate --help"}) {
    auto r = run_rulebook(cmd);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("--plot") != std::string::npos);
  }
  CHECK(run_rulebook("merge").exit_code == 2);
  CHECK(run_rulebook("compare pass-the-pandas").exit_code == 2);  // --with is required
}

TEST_CASE("simulate: an agent per seat", "[simulate]") {
  auto all_random = json_of(run_rulebook("simulate hai-noon --games 60 --seed 2 --json"));
  auto first = json_of(run_rulebook("simulate hai-noon --games 60 --seed 2 --json --agent 0=first"));
  CHECK(first["agents"] == nlohmann::json{"first", "random", "random", "random"});
  CHECK(first["win_rate_by_seat"] != all_random["win_rate_by_seat"]);
  auto bad = run_rulebook("simulate hai-noon --games 5 --agent 0=genius");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("unknown agent 'genius'") != std::string::npos);
  CHECK(run_rulebook("simulate hai-noon --games 5 --agent 7=random").exit_code == 2);
  CHECK(run_rulebook("simulate hai-noon --games 5 --jobs 2 --agent 0=human").exit_code == 2);
}

TEST_CASE("simulate: games end for the reason the rules give", "[simulate]") {
  const std::string dir = temp_folder("reason");
  write_file(dir + "/game.yaml", "name: coin\ntitle: Coin\nplayers: {min: 2, max: 2, default: 2}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", R"(return {setup = function() end, play = function(game)
  local pick = game:choose(0, "Call", {"heads", "tails", "quit"})
  if pick == "quit" then game:finish{reason = "resigned", winners = {1}} end
  game:finish{winners = {0}}
end})");
  auto j = json_of(run_rulebook("simulate " + dir + " --games 300 --json"));
  REQUIRE(j["end_reasons"].size() == 2);
  CHECK(j["end_reasons"][0]["reason"] == "resigned");
  CHECK(j["end_reasons"][0]["games"] == j["seats"][1]["wins"]);
  CHECK(j["end_reasons"][1]["reason"] == "unspecified");
  CHECK(j["decisions_per_game"]["mean"]["estimate"] == 1.0);
}

TEST_CASE("merge: shards merge to exactly the single run", "[simulate]") {
  const std::string dir = temp_folder("shards");
  const std::string run = "simulate hai-noon --players 3 --games 91 --seed 7 --variant short";
  for (int k = 0; k < 3; ++k) {
    auto part = run_rulebook(run + " --shard " + std::to_string(k) + "/3 --out " + dir + "/part" + std::to_string(k) + ".json");
    INFO(part.err);
    REQUIRE(part.exit_code == 0);
  }
  const std::string parts = dir + "/part2.json " + dir + "/part0.json " + dir + "/part1.json";
  auto merged = json_of(run_rulebook("merge " + parts + " --json"));
  auto single = json_of(run_rulebook(run + " --json --jobs 2"));
  check_schema(merged, "simulate.schema.json");
  CHECK(without_timing(merged).dump() == without_timing(single).dump());
  CHECK(merged["jobs"] == 3);
  auto merged_text = run_rulebook("merge " + parts);
  auto single_text = run_rulebook(run);
  CHECK(merged_text.exit_code == 0);
  CHECK(without_time_line(merged_text.out) == without_time_line(single_text.out));

  // Parts of different runs, a missing shard, a shard twice, not a part.
  auto missing = run_rulebook("merge " + dir + "/part0.json " + dir + "/part2.json");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("missing shard 1/3") != std::string::npos);
  auto twice = run_rulebook("merge " + parts + " " + dir + "/part1.json");
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("shard 1/3 given twice") != std::string::npos);
  REQUIRE(run_rulebook("simulate hai-noon --players 3 --games 91 --seed 8 --variant short --shard 1/3 --out " + dir +
                       "/other.json").exit_code == 0);
  auto other = run_rulebook("merge " + dir + "/part0.json " + dir + "/other.json " + dir + "/part2.json");
  CHECK(other.exit_code == 2);
  CHECK(other.err.find("not the same run") != std::string::npos);
  CHECK(other.err.find("seed 8 against 7") != std::string::npos);
  write_file(dir + "/junk.json", "{\"hello\": 1}");
  auto junk = run_rulebook("merge " + dir + "/junk.json");
  CHECK(junk.exit_code == 2);
  CHECK(junk.err.find("not a part written by 'rulebook simulate --out'") != std::string::npos);
  CHECK(run_rulebook(run + " --shard 3/3 --out " + dir + "/x.json").exit_code == 2);
  CHECK(run_rulebook(run + " --shard two --out " + dir + "/x.json").exit_code == 2);
}

TEST_CASE("compare: identical sides differ in nothing, and each side is plain simulate", "[compare]") {
  auto r = run_rulebook("compare --json pass-the-pandas --games 300 --seed 4 --jobs 2 --with ''");
  auto j = json_of(r);
  check_schema(j, "compare.schema.json");
  for (const char* key : {"mean_turns", "decisions_per_game", "no_winner_rate", "shared_win_rate"})
    CHECK(j["differences"][key]["significant"] == false);
  for (const auto& seat : j["differences"]["win_rate_by_seat"]) CHECK(seat["significant"] == false);
  for (const auto& seat : j["differences"]["seat_advantage_by_seat"]) CHECK(seat["significant"] == false);
  CHECK(j["verdict"].get<std::string>().find("does not change the game's length significantly (no game differed") !=
        std::string::npos);
  CHECK(j["verdict"].get<std::string>().find("no significant change in fairness") != std::string::npos);
  // No game differed: never a zero-width interval.
  CHECK(j["differences"]["mean_turns"]["no_game_differed"] == true);
  CHECK(j["differences"]["mean_turns"]["difference"]["high"].get<double>() > 0);
  CHECK(j["differences"]["fairness"]["difference"]["high"].get<double>() > 0);

  auto panda = json_of(run_rulebook(
      "compare --json pass-the-pandas --games 150 --seed 4 --with '--variant panda-monium --set options.points_target=6'"));
  auto base = json_of(run_rulebook("simulate pass-the-pandas --games 150 --seed 4 --json"));
  auto with = json_of(run_rulebook(
      "simulate pass-the-pandas --games 150 --seed 4 --json --variant panda-monium --set options.points_target=6"));
  for (const char* key : {"win_rate_by_seat", "seats", "turns", "decisions_per_game", "equal_seats_test", "no_winner"}) {
    CHECK(panda["base"][key] == base[key]);
    CHECK(panda["with"][key] == with[key]);
  }
  CHECK(panda["with"]["variants"] == nlohmann::json{"panda-monium"});
  CHECK(panda["with"]["sets"] == nlohmann::json{"options.points_target=6"});
  CHECK(panda["verdict"].get<std::string>().rfind("Panda-monium + options.points_target=6 lengthens the game by", 0) == 0);

  CHECK(run_rulebook("compare pass-the-pandas --games 5 --with '--variant nope'").exit_code == 2);
  CHECK(run_rulebook("compare pass-the-pandas --games 5 --with '--colour red'").exit_code == 2);
}

TEST_CASE("compare: Hai Noon's short and long games and Hao Hao's full game change the length as the rulebooks say",
          "[compare]") {
  auto short_game = json_of(run_rulebook("compare --json hai-noon --games 150 --jobs 2 --with '--variant short'"));
  CHECK(short_game["differences"]["mean_turns"]["difference"]["high"].get<double>() < 0);
  CHECK(short_game["verdict"].get<std::string>().rfind("Short game shortens the game by", 0) == 0);
  auto long_game = json_of(run_rulebook("compare --json hai-noon --games 150 --jobs 2 --with '--variant long'"));
  CHECK(long_game["differences"]["mean_turns"]["difference"]["low"].get<double>() > 0);
  CHECK(long_game["verdict"].get<std::string>().find("lengthens the game by") != std::string::npos);
  // Against the short game as the base: the long game is longer still.
  auto both = json_of(run_rulebook("compare --json hai-noon --games 100 --jobs 2 --base '--variant short' --with '-v long'"));
  CHECK(both["differences"]["mean_turns"]["difference"]["low"].get<double>() > 0);
  CHECK(both["verdict"].get<std::string>().rfind("Long game instead of Short game lengthens", 0) == 0);
  auto full = json_of(run_rulebook("compare --json hao-hao --games 60 --jobs 2 --with '--variant full'"));
  CHECK(full["differences"]["mean_turns"]["difference"]["low"].get<double>() > 0);
  auto text = run_rulebook("compare hao-hao --games 20 --with '--variant full'");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("verdict: Full game") != std::string::npos);
}

TEST_CASE("plots: SVG and PNG pictures, and clear errors", "[plot]") {
  const std::string dir = temp_folder("plots");
  auto svg = run_rulebook("simulate pass-the-pandas --games 200 --plot " + dir + "/run.svg");
  INFO(svg.err);
  REQUIRE(svg.exit_code == 0);
  const std::string picture = read_text(dir + "/run.svg");
  CHECK(picture.find("<svg") != std::string::npos);
  CHECK(picture.find("Win rate by seat") != std::string::npos);
  CHECK(picture.find("</svg>") != std::string::npos);
  REQUIRE(run_rulebook("compare pass-the-pandas --games 100 --with '-v panda-monium' --plot " + dir + "/both.png").exit_code == 0);
  CHECK(read_text(dir + "/both.png").rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  // The comparison's picture shows the comparison: paired differences, the fair rates, the agents.
  REQUIRE(run_rulebook("compare pass-the-pandas --games 100 --with '-v panda-monium --agent 0=first' --plot " + dir +
                       "/both.svg").exit_code == 0);
  const std::string both = read_text(dir + "/both.svg");
  for (const char* text : {"Paired differences, with - base", "fair rate (base)", "fair rate (with)", "no change",
                           "agents: 0=first", "skill", "unfairness"})
    CHECK(both.find(text) != std::string::npos);
  REQUIRE(run_rulebook("simulate pass-the-pandas --games 30 --shard 0/1 --out " + dir + "/p.json").exit_code == 0);
  REQUIRE(run_rulebook("merge " + dir + "/p.json --plot " + dir + "/merged.svg").exit_code == 0);
  CHECK(read_text(dir + "/merged.svg").find("<svg") != std::string::npos);

  auto bad = run_rulebook("simulate pass-the-pandas --games 10 --plot " + dir + "/run.gif");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("must end in .svg or .png") != std::string::npos);
  setenv("RULEBOOK_GNUPLOT", "/nonexistent/gnuplot", 1);
  auto missing = run_rulebook("simulate pass-the-pandas --games 10 --plot " + dir + "/none.svg");
  unsetenv("RULEBOOK_GNUPLOT");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("--plot needs gnuplot") != std::string::npos);
  CHECK(missing.out.empty());  // checked before any game is played
}
