// A game's payoffs (game:finish{returns = {...}}) through the real binary:
// the log's result, the argument errors, and the reports of simulate,
// merge, compare, sweep, arena and export.
#include <filesystem>

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

// Two seats pick 1 to 3; seat 0 earns the difference (plus options.bonus), seat 1 half its pick.
std::string returns_game(const std::string& finish = "") {
  const std::string dir = temp_folder("returns");
  write_file(dir + "/game.yaml",
             "name: payoffs\ntitle: Payoffs\nplayers: {min: 2, max: 2, default: 2}\nscript: rules.lua\noptions: {bonus: 0}\n");
  write_file(dir + "/rules.lua", R"(return {setup = function() end, play = function(game)
  local a = game:choose(0, "Pick", {1, 2, 3})
  local b = game:choose(1, "Pick", {1, 2, 3})
  )" + (finish.empty() ? std::string("game:finish{winners = {0}, returns = {a - b + game.options.bonus, b / 2}}")
                       : finish) +
                                     R"(
end})");
  return dir;
}

}  // namespace

TEST_CASE("returns: the log's result carries them; a game without keeps its result as it was", "[returns]") {
  const std::string dir = returns_game(), out = temp_folder("returns-log");
  REQUIRE(run_rulebook("play " + dir + " --seed 4 --log " + out + "/g.json").exit_code == 0);
  auto log = nlohmann::json::parse(read_text(out + "/g.json"));
  check_schema(log, "log.schema.json");
  REQUIRE(log["result"].contains("returns"));
  const auto& r = log["result"]["returns"];
  REQUIRE(r.size() == 2);
  CHECK(r[0].is_number_integer());  // whole numbers are written as such
  const double half = r[1].get<double>();
  CHECK((half == 0.5 || half == 1.0 || half == 1.5));
  CHECK(run_rulebook("replay " + out + "/g.json").exit_code == 0);
  REQUIRE(run_rulebook("play pass-the-pandas --seed 1 --log " + out + "/p.json").exit_code == 0);
  CHECK_FALSE(nlohmann::json::parse(read_text(out + "/p.json"))["result"].contains("returns"));
}

TEST_CASE("returns: a number for each seat, finite, or a clear error", "[returns]") {
  for (const auto& [finish, message] : std::vector<std::pair<std::string, std::string>>{
           {"game:finish{returns = {1}}", "field 'returns' must hold a number for each of the 2 seats, got 1"},
           {"game:finish{returns = {1, 2, 3}}", "field 'returns' must hold a number for each of the 2 seats, got 3"},
           {"game:finish{returns = {1, 'x'}}", "returns[2] (seat 1) must be a finite number, got string"},
           {"game:finish{returns = {1/0, 0}}", "returns[1] (seat 0) must be a finite number, got inf"},
           {"game:finish{returns = {0/0, 0}}", "returns[1] (seat 0) must be a finite number"},
           {"game:finish{returns = 3}", "field 'returns' must be a list of numbers, got number"}}) {
    const std::string bad = returns_game(finish);
    auto r = run_rulebook("play " + bad);
    INFO(finish << "\n" << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("bad argument #1 to 'finish'") != std::string::npos);
    CHECK(r.err.find(message) != std::string::npos);
  }
}

TEST_CASE("returns: simulate reports each seat's mean with its interval; other games' reports are as they were",
          "[returns]") {
  const std::string dir = returns_game();
  auto j = json_of(run_rulebook("simulate " + dir + " --games 400 --seed 3 --json"));
  check_schema(j, "simulate.schema.json");
  REQUIRE(j.contains("returns"));
  const auto& seats = j["returns"]["by_seat"];
  REQUIRE(seats.size() == 2);
  // Seat 0 earns a - b (mean 0, from -2 to 2), seat 1 b / 2 (mean 1).
  CHECK(seats[0]["seat"] == 0);
  CHECK(seats[0]["games"] == 400);
  CHECK(seats[0]["low"].get<double>() < 0.0);
  CHECK(seats[0]["high"].get<double>() > 0.0);
  CHECK(seats[1]["low"].get<double>() < 1.0);
  CHECK(seats[1]["high"].get<double>() > 1.0);
  CHECK(seats[1]["mean"].get<double>() == Approx(1.0).epsilon(0.1));
  CHECK(seats[0]["sd"].get<double>() > 0.5);
  auto text = run_rulebook("simulate " + dir + " --games 400 --seed 3");
  CHECK(text.out.find("returns by seat (game:finish returns), mean with its 95% interval:\n  seat 0: mean ") !=
        std::string::npos);
  CHECK(text.out.find("  seat 1: mean +") != std::string::npos);
  CHECK_FALSE(json_of(run_rulebook("simulate pass-the-pandas --games 20 --json")).contains("returns"));
  CHECK(run_rulebook("simulate pass-the-pandas --games 20").out.find("returns by seat") == std::string::npos);
}

TEST_CASE("returns: shards merge to exactly the single run", "[returns]") {
  const std::string dir = returns_game("game:finish{winners = {0}, returns = {(a - b) / 3, b / 7}}");
  const std::string parts = temp_folder("returns-parts");
  const std::string run = "simulate " + dir + " --games 301 --seed 5";
  for (int k = 0; k < 3; ++k)
    REQUIRE(run_rulebook(run + " --shard " + std::to_string(k) + "/3 --out " + parts + "/p" + std::to_string(k) + ".json")
                .exit_code == 0);
  auto merged = json_of(run_rulebook("merge " + parts + "/p2.json " + parts + "/p0.json " + parts + "/p1.json --json"));
  auto single = json_of(run_rulebook(run + " --json --jobs 2"));
  REQUIRE(merged.contains("returns"));
  CHECK(merged["returns"] == single["returns"]);  // bit for bit: the parts keep exact histograms
  auto part = nlohmann::json::parse(read_text(parts + "/p0.json"));
  CHECK(part["statistics"]["returns"].size() == 2);
  // The text's returns lines too.
  auto returns_lines = [](const std::string& text) { return text.substr(text.find("returns by seat")); };
  CHECK(returns_lines(run_rulebook("merge " + parts + "/p0.json " + parts + "/p1.json " + parts + "/p2.json").out) ==
        returns_lines(run_rulebook(run).out));
  // A part whose returns contradict its games is refused.
  part["statistics"]["returns"][1] = nlohmann::json::array({nlohmann::json::array({1, 100000})});
  write_file(parts + "/bad.json", part.dump());
  auto bad = run_rulebook("merge " + parts + "/bad.json");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("returns") != std::string::npos);
}

TEST_CASE("returns: compare gives each seat's paired difference; sweep each setting's; export a column a seat",
          "[returns]") {
  const std::string dir = returns_game();
  auto j = json_of(run_rulebook("compare " + dir + " --games 200 --json --with '--set options.bonus=2'"));
  check_schema(j, "compare.schema.json");
  const auto& d = j["differences"]["returns"]["by_seat"];
  REQUIRE(d.size() == 2);
  CHECK(d[0]["seat"] == 0);
  CHECK(d[0]["difference"]["estimate"] == 2.0);
  CHECK(d[0]["significant"] == true);
  CHECK(d[1]["no_game_differed"] == true);
  CHECK(j["with"]["returns"]["by_seat"][0]["games"] == 200);
  CHECK_FALSE(json_of(run_rulebook("compare pass-the-pandas --games 20 --json --with '--set options.points_target=10'"))
                  ["differences"].contains("returns"));
  auto text = run_rulebook("compare " + dir + " --games 200 --with '--set options.bonus=2'");
  CHECK(text.out.find("return seat 0 (mean)") != std::string::npos);
  auto sweep = run_rulebook("sweep " + dir + " --games 100 --set options.bonus=0..1");
  CHECK(sweep.exit_code == 0);
  CHECK(sweep.out.find("returns by seat, options.bonus=1 (game:finish returns)") != std::string::npos);
  auto sj = json_of(run_rulebook("sweep " + dir + " --games 50 --set options.bonus=0..1 --json"));
  check_schema(sj, "sweep.schema.json");
  CHECK(sj["settings"][1]["returns"]["by_seat"][0]["games"] == 50);
  const std::string out = temp_folder("returns-export");
  REQUIRE(run_rulebook("simulate " + dir + " --games 5 --export " + out + "/e.csv").exit_code == 0);
  const std::string csv = read_text(out + "/e.csv");
  // The metrics' columns follow the returns' (each metrics.NAME); without them the header ends there.
  CHECK(csv.find(",details,returns.seat0,returns.seat1,metrics.") != std::string::npos);
  REQUIRE(run_rulebook("simulate " + dir + " --games 5 --no-metrics --export " + out + "/plain.csv").exit_code == 0);
  CHECK(read_text(out + "/plain.csv").find(",details,returns.seat0,returns.seat1\n") != std::string::npos);
  REQUIRE(run_rulebook("simulate " + dir + " --games 3 --export " + out + "/e.jsonl").exit_code == 0);
  const std::string jsonl = read_text(out + "/e.jsonl");
  CHECK(nlohmann::json::parse(jsonl.substr(0, jsonl.find('\n')))["returns"].size() == 2);
}

TEST_CASE("returns: arena reports each agent per seat, in returns where the game has them", "[returns][arena]") {
  const std::string dir = returns_game();
  auto j = json_of(run_rulebook("arena " + dir + " --agent first --agent random --games 40 --json"));
  REQUIRE(j["agents"].size() == 2);
  const auto& first = j["agents"][0];
  REQUIRE(first["seats"].size() == 2);
  CHECK(first["seats"][0]["games"] == 20);
  CHECK(first["seats"][1]["games"] == 20);
  // 'first' always picks 1: in seat 1 it earns 1 / 2 every game.
  CHECK(first["seats"][1]["returns"]["mean"] == 0.5);
  CHECK(first["seats"][1]["returns"]["sd"] == 0.0);
  CHECK(first["seats"][0]["returns"]["games"] == 20);
  CHECK(first["returns"]["games"] == 40);
  CHECK(first["seats"][0]["win_rate"]["estimate"] == 1.0);
  auto text = run_rulebook("arena " + dir + " --agent first --agent random --games 40");
  CHECK(text.out.find("By seat: win rate (95% CI); mean return (95% CI, Student t)") != std::string::npos);
  CHECK(text.out.find("mean return over every seat:") != std::string::npos);
  // A game without returns: per seat too, no returns.
  auto plain = json_of(run_rulebook("arena pass-the-pandas --players 2 --agent first --agent random --games 10 --json"));
  CHECK(plain["agents"][0]["seats"].size() == 2);
  CHECK_FALSE(plain["agents"][0]["seats"][0].contains("returns"));
  CHECK_FALSE(plain["agents"][0].contains("returns"));
}

TEST_CASE("returns: scenarios check them by seat order or by name", "[returns][scenario]") {
  const std::string dir = returns_game();
  auto scenario = [&](const std::string& name, const std::string& expect) {
    write_file(dir + "/scenarios/" + name + ".yaml", "name: " + name + "\nplayers: 2\nnames: [Ann, Bob]\nset: ['options.bonus=1']\n"
               "answers: ['3', '1']\nexpect:\n  " + expect + "\n");
  };
  scenario("list", "returns: [3, 0.5]");
  scenario("names", "returns: {Bob: 0.5}");
  auto good = run_rulebook("test " + dir);
  INFO(good.out << good.err);
  CHECK(good.exit_code == 0);
  scenario("wrong", "returns: {Ann: 2}");
  auto wrong = run_rulebook("test " + dir);
  CHECK(wrong.exit_code == 1);
  CHECK((wrong.out + wrong.err).find("Ann's return: expected 2, got 3") != std::string::npos);
  std::filesystem::remove(dir + "/scenarios/wrong.yaml");
  scenario("count", "returns: [3]");
  auto count = run_rulebook("test " + dir);
  CHECK((count.out + count.err).find("returns: expected 2 numbers, one a seat, got 1") != std::string::npos);
}

TEST_CASE("returns: the report shows each seat's mean return and its paired difference", "[returns][report]") {
  const std::string dir = returns_game(), out = temp_folder("returns-report");
  auto r = run_rulebook("report " + dir + " --set options.bonus=2 --games 100 --skill-games 0 --out " + out +
                        "/r.html --json " + out + "/r.json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(read_text(out + "/r.json"));
  const auto& d = j["differences"]["returns"]["by_seat"];
  REQUIRE(d.size() == 2);
  CHECK(d[0]["difference"]["estimate"] == 2.0);  // the bonus, every game
  CHECK(d[0]["significant"] == true);
  CHECK(d[1]["no_game_differed"] == true);
  CHECK(j["sides"][1]["returns"]["by_seat"][0]["games"] == 100);
  CHECK(j["verdict"].get<std::string>().find("returns: seat 0 +2.00") != std::string::npos);
  bool said = false;
  for (const auto& f : j["findings"]) said = said || f["topic"] == "returns";
  CHECK(said);
  const std::string page = read_text(out + "/r.html");
  CHECK(page.find("id=\"returns\"") != std::string::npos);
  CHECK(page.find("data-json=\"/differences/returns/by_seat/0/difference/estimate\"") != std::string::npos);
  CHECK(page.find("data-json=\"/sides/1/returns/by_seat/0/mean\"") != std::string::npos);
  // A game without returns has no such table.
  REQUIRE(run_rulebook("report pass-the-pandas --games 20 --skill-games 0 --out " + out + "/p.html").exit_code == 0);
  CHECK(read_text(out + "/p.html").find("id=\"returns\"") == std::string::npos);
}
