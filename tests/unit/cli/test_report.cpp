// The metrics of how a game felt and the designer's report, through the real
// binary, on games whose true values are known by construction: a winner
// fixed before the first decision (no lead change, decided from the start,
// no drama), a seat knocked out halfway, a kingmaker seat by design (and
// the same game where its choice does not matter); compare's paired
// differences, sweep, export; the report's page and JSON agree figure by
// figure; people's logs beside the bots'; the skill trace.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>

#include "cli_runner.hpp"
#include "json_output.hpp"

using rulebook::test::check_schema;
using rulebook::test::json_of;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;
using rulebook::test::write_file;

namespace {

// Two seats move three times each; seat 0 wins, and rules.evaluate says so from the start.
std::string fixed_winner_game() {
  const std::string dir = temp_folder("fixed");
  write_file(dir + "/game.yaml", "name: fixed\ntitle: Fixed\nplayers: {min: 2, max: 2, default: 2}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", R"(local rules = {}
function rules.setup(game) end
function rules.play(game)
  for i = 1, 3 do
    game:begin_turn(0) game:choose(0, "Move", {"a", "b"})
    game:begin_turn(1) game:choose(1, "Move", {"a", "b"})
  end
  game:finish{winners = {0}}
end
function rules.evaluate(game, seat) return seat == 0 and 0.8 or 0.2 end
return rules
)");
  return dir;
}

// Seats 0 and 1 bid, then seat 2 -- who never wins -- crowns one of them.
// With options.matters = 0 the higher bid wins whatever seat 2 says.
// Seat 2 is out (eliminated) after its crowning, before seat 0's last move.
std::string kingmaker_game() {
  const std::string dir = temp_folder("kingmaker");
  write_file(dir + "/game.yaml",
             "name: kingmaker\ntitle: Kingmaker\nplayers: {min: 3, max: 3, default: 3}\nscript: rules.lua\n"
             "options: {matters: 1}\n");
  write_file(dir + "/rules.lua", R"(local rules = {}
function rules.setup(game) end
function rules.play(game)
  local a = game:choose(0, "Bid", {1, 2})
  local b = game:choose(1, "Bid", {1, 2})
  local crown = game:choose(2, "Crown", {0, 1})
  game:eliminate(2)
  game:choose(0, "Bow", {"low", "deep"})
  local winner
  if game.options.matters == 1 then winner = crown else winner = a >= b and 0 or 1 end
  game:finish{winners = {winner}}
end
function rules.evaluate(game, seat) return seat == 2 and 0 or 0.5 end
return rules
)");
  return dir;
}

// No rules.evaluate: the scores lead, seat 0 then seat 1; the game names no
// winner, but its returns make seat 1 the eventual winner (the sole best).
std::string returns_winner_game() {
  const std::string dir = temp_folder("returns-winner");
  write_file(dir + "/game.yaml", "name: payout\ntitle: Payout\nplayers: {min: 2, max: 2, default: 2}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", R"(local rules = {}
function rules.setup(game) end
function rules.play(game)
  game:choose(0, "Go", {"a", "b"})
  game:add_score(0, 2)
  game:choose(1, "Go", {"a", "b"})
  game:add_score(1, 3)
  game:choose(0, "Go", {"a", "b"})
  game:finish{returns = {0, 1}}
end
return rules
)");
  return dir;
}

// No rules.evaluate, no scores, no returns: seat 0's first decision names
// the winner (its first option, "yours", crowns seat 1), then each seat
// waits twice (options.waits). Only a search can tell who leads before the end.
std::string unscored_game() {
  const std::string dir = temp_folder("unscored");
  write_file(dir + "/game.yaml", "name: pick\ntitle: Pick\nplayers: {min: 2, max: 2, default: 2}\nscript: rules.lua\n"
                                 "options: {waits: 2}\n");
  write_file(dir + "/rules.lua", R"(local rules = {}
function rules.setup(game) end
function rules.play(game)
  game:begin_turn(0)
  local pick = game:choose(0, "Pick", {"yours", "mine"})
  for i = 1, game.options.waits do
    game:begin_turn(1) game:choose(1, "Wait", {"a", "b"})
    game:begin_turn(0) game:choose(0, "Wait", {"a", "b"})
  end
  game:finish{winners = {pick == "mine" and 0 or 1}}
end
return rules
)");
  return dir;
}

double mean_of(const nlohmann::json& figures, const std::string& name) {
  return figures["metrics"][name]["mean"]["estimate"].get<double>();
}

}  // namespace

TEST_CASE("metrics: a winner fixed before the first decision", "[metrics][report]") {
  const std::string dir = fixed_winner_game();
  auto r = run_rulebook("simulate " + dir + " --games 50 --json");
  REQUIRE(r.exit_code == 0);
  auto j = json_of(r);
  check_schema(j, "simulate.schema.json");
  CHECK(mean_of(j, "lead_changes") == 0);
  CHECK(mean_of(j, "decisiveness") == 1);
  CHECK(mean_of(j, "drama") == 0);
  CHECK(mean_of(j, "downtime") == 1);  // the other seat's one move between two of one's own
  CHECK(mean_of(j, "downtime_p90_seat1") == 1);
  CHECK(mean_of(j, "sit_out") == 0);
  CHECK(j["metrics"]["sit_out"]["mean"]["low"] == 0.0);  // a share's interval stays within [0, 1]
  CHECK(j["metrics"]["sit_out"]["mean"]["high"] > 0.0);
  CHECK(j["metrics"]["decisiveness"]["mean"]["high"] == 1.0);
  CHECK(j["metrics"]["lead_changes"]["games"] == 50);
  auto text = run_rulebook("simulate " + dir + " --games 50");
  CHECK(text.out.find("how the games felt (metrics, see docs/judging-a-rule.md):") != std::string::npos);
  // Decided in every game: within [0, 1], so shown as the interval itself, not a symmetric ±.
  CHECK(text.out.find("  decisiveness: mean 1.00 [0.93, 1.00] ") != std::string::npos);
  CHECK(text.out.find("  sit_out: mean 0.00 [0.00, 0.07] ") != std::string::npos);
  // --no-metrics: none, as before.
  CHECK_FALSE(json_of(run_rulebook("simulate " + dir + " --games 5 --json --no-metrics")).contains("metrics"));
}

TEST_CASE("metrics: the returns value the final position and name the eventual winner", "[metrics][report]") {
  auto r = run_rulebook("simulate " + returns_winner_game() + " --games 20 --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = json_of(r);
  check_schema(j, "simulate.schema.json");
  // Scores before each decision: tied, seat 0 by 2, seat 1 by 1; the returns: seat 1.
  CHECK(mean_of(j, "lead_changes") == 1);
  CHECK(mean_of(j, "drama") == 2);  // seat 1 trailed by 2 at the one decision where it trailed
  CHECK(mean_of(j, "decisiveness") == Approx(1.0 / 3));  // it led from the third decision of three
}

TEST_CASE("metrics: --evaluator values the positions of a game with neither evaluate nor scores", "[metrics][report]") {
  const std::string dir = unscored_game();
  // Without a search nothing tells the seats apart: no lead metrics.
  auto plain = run_rulebook("simulate " + dir + " --games 10 --agent all=first --json");
  REQUIRE(plain.exit_code == 0);
  const auto p = json_of(plain);
  CHECK(p["metrics"].contains("downtime"));
  for (const char* name : {"lead_changes", "drama", "decisiveness"}) CHECK_FALSE(p["metrics"].contains(name));
  // With it: seat 0's search, before its pick, rates itself ahead (it would
  // pick "mine"); "yours" hands seat 1 the lead for good from the second of
  // five decisions on.
  auto searched = run_rulebook("simulate " + dir + " --games 10 --agent all=first --json --evaluator ismcts:iterations=200");
  INFO(searched.err);
  REQUIRE(searched.exit_code == 0);
  const auto s = json_of(searched);
  check_schema(s, "simulate.schema.json");
  CHECK(mean_of(s, "lead_changes") == 1);
  CHECK(mean_of(s, "decisiveness") == Approx(0.8));
  CHECK(mean_of(s, "drama") > 0.5);  // seat 1 trailed by the search's margin, the better move's value
  CHECK(s["metrics"]["drama"]["max"].get<double>() <= 1);
  // The games are the same games: only the metrics and the timing differ.
  nlohmann::json a = p, b = s;
  for (auto* j : {&a, &b})
    for (const char* key : {"metrics", "seconds", "games_per_second"}) j->erase(key);
  CHECK(a == b);
  // compare, sweep and report take it too.
  CHECK(json_of(run_rulebook("compare " + dir + " --games 4 --agent all=first --json --evaluator mcts:iterations=20 "
                             "--with \"--set options.waits=1\""))["base"]["metrics"]
            .contains("lead_changes"));
  CHECK(run_rulebook("sweep " + dir + " --set options.waits=1,2 --games 4 --evaluator mcts:iterations=20").out.find("lead_changes") !=
        std::string::npos);
  const std::string out = temp_folder("evaluator-report");
  REQUIRE(run_rulebook("report " + dir + " --games 4 --skill-games 0 --evaluator mcts:iterations=20 --json " + out + "/r.json")
              .exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(out + "/r.json"));
  CHECK(report["sides"][0]["metrics"].contains("lead_changes"));
  // An agent that is not a search, or no agent at all: a usage error that says so.
  auto greedy = run_rulebook("simulate " + dir + " --games 2 --evaluator greedy");
  CHECK(greedy.exit_code == 2);
  CHECK(greedy.err.find("--evaluator: error: 'greedy' is not a search agent") != std::string::npos);
  auto unknown = run_rulebook("simulate " + dir + " --games 2 --evaluator oracle:iterations=5");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--evaluator: error: unknown agent 'oracle'") != std::string::npos);
  CHECK(run_rulebook("report " + dir + " --games 2 --evaluator ismcts:iterations=0 --json " + out + "/x.json").exit_code == 2);
}

TEST_CASE("metrics: a kingmaker seat by design, and a seat out before the end", "[metrics][report]") {
  const std::string dir = kingmaker_game();
  auto r = run_rulebook("compare " + dir + " --games 60 --json --with \"--set options.matters=0\"");
  REQUIRE(r.exit_code == 0);
  auto j = json_of(r);
  check_schema(j, "compare.schema.json");
  // Seat 2 waits the last decision (of 4) out: sit_out in every game, a quarter of it.
  CHECK(mean_of(j["base"], "sit_out") == 1);
  CHECK(mean_of(j["base"], "sit_out_wait") == Approx(0.25));
  CHECK(j["differences"]["metrics"]["sit_out"]["difference"]["estimate"] == 0.0);
  CHECK(j["differences"]["metrics"].contains("downtime"));
  // Kingmaking is measured on request: every game of the base, none with the change.
  auto page_dir = temp_folder("kingmaking");
  auto k = run_rulebook("report " + dir + " --set options.matters=0 --games 40 --kingmaking --json " + page_dir + "/k.json");
  REQUIRE(k.exit_code == 0);
  auto report = nlohmann::json::parse(read_text(page_dir + "/k.json"));
  CHECK(report["sides"][0]["metrics"]["kingmaking"]["mean"]["estimate"] == 1.0);
  CHECK(report["sides"][1]["metrics"]["kingmaking"]["mean"]["estimate"] == 0.0);
  CHECK(report["differences"]["metrics"]["kingmaking"]["significant"] == true);
  // Search bots cannot be replayed from a decision alone: a clear usage error.
  auto bad = run_rulebook("report " + dir + " --games 2 --kingmaking --agent 0=greedy --json " + page_dir + "/x.json");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--kingmaking: error: agent 'greedy'") != std::string::npos);
}

TEST_CASE("metrics: export has a column each, sweep a section", "[metrics][report]") {
  const std::string dir = kingmaker_game(), out = temp_folder("export") + "/games.csv";
  REQUIRE(run_rulebook("simulate " + dir + " --games 5 --export " + out).exit_code == 0);
  const std::string csv = read_text(out);
  CHECK(csv.find(",metrics.sit_out,") != std::string::npos);
  auto sweep = run_rulebook("sweep " + dir + " --set options.matters=0,1 --games 30");
  CHECK(sweep.out.find("how the games felt by setting (metrics") != std::string::npos);
}

TEST_CASE("report: the page shows the JSON's figures, self-contained", "[report]") {
  const std::string out = temp_folder("report");
  auto r = run_rulebook("report pass-the-pandas --variant panda-monium --games 200 --jobs 2 --skill-games 8 --budgets 5,10 "
                        "--out " + out + "/r.html --json " + out + "/r.json");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("verdict: ") == 0);
  const std::string page = read_text(out + "/r.html");
  const auto j = nlohmann::json::parse(read_text(out + "/r.json"));
  // Self-contained: no link, script or image from elsewhere.
  CHECK(page.find("http://") == std::string::npos);
  CHECK(page.find("https://") == std::string::npos);
  CHECK(page.find("<svg") != std::string::npos);
  CHECK(page.find(j["verdict"].get<std::string>().substr(0, 20)) != std::string::npos);
  // Every figure on the page names its JSON value and shows it.
  const std::regex shown(R"re(<span data-json="([^"]+)" data-value="([^"]*)">([^<]*)</span>)re");
  int figures = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), shown); it != std::sregex_iterator(); ++it) {
    const std::string pointer = (*it)[1], value = (*it)[2];
    INFO(pointer);
    REQUIRE(j.contains(nlohmann::json::json_pointer(pointer)));
    const auto& v = j.at(nlohmann::json::json_pointer(pointer));
    CHECK(nlohmann::json::parse(value) == v);
    if (v.is_number() && (*it)[3].str().find('%') == std::string::npos) {
      const double printed = std::stod((*it)[3]);
      CHECK(printed == Approx(v.get<double>()).margin(0.051));
    }
    ++figures;
  }
  CHECK(figures > 40);
  for (const char* name : {"lead_changes", "drama", "decisiveness", "downtime", "sit_out"}) {
    INFO(name);
    CHECK(j["sides"][0]["metrics"].contains(name));
    CHECK(j["differences"]["metrics"].contains(name));
    CHECK(page.find("/differences/metrics/" + std::string(name) + "/difference/estimate") != std::string::npos);
  }
  CHECK(j["skill"]["points"].size() == 2);
  CHECK(j["command"].get<std::string>().find("rulebook report pass-the-pandas --variant panda-monium") == 0);
  CHECK(j["sides"][0]["rules_hash"] != j["sides"][1]["rules_hash"]);
}

TEST_CASE("report: people's logs beside the bots'", "[report]") {
  const std::string dir = fixed_winner_game(), logs = temp_folder("logs"), out = temp_folder("people");
  for (int seed = 1; seed <= 6; ++seed)
    REQUIRE(run_rulebook("play " + dir + " --agent all=random --seed " + std::to_string(seed) + " --log " + logs + "/g" +
                         std::to_string(seed) + ".json").exit_code == 0);
  write_file(logs + "/notes.json", "{\"not\": \"a log\"}");
  auto r = run_rulebook("report " + dir + " --games 50 --logs " + logs + " --json " + out + "/p.json --out " + out + "/p.html");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(read_text(out + "/p.json"));
  CHECK(j["people"]["games"] == 6);
  CHECK(j["people"]["skipped"].size() == 1);
  bool decisiveness = false;
  for (const auto& f : j["people"]["figures"])
    if (f["name"] == "base: decisiveness") {
      decisiveness = true;
      CHECK(f["people"]["estimate"] == 1.0);
      CHECK(f["bots"]["estimate"] == 1.0);
      CHECK(f["significant"] == false);
    }
  CHECK(decisiveness);
  CHECK(read_text(out + "/p.html").find("People beside bots") != std::string::npos);
  CHECK(run_rulebook("report " + dir + " --games 5 --logs /nonexistent --json " + out + "/q.json").exit_code == 2);
}

TEST_CASE("skill: a search agent at doubling budgets with intervals", "[report][skill]") {
  auto r = run_rulebook("skill " + fixed_winner_game() + " --games 10 --budgets 2,4 --json");
  REQUIRE(r.exit_code == 0);
  auto j = json_of(r);
  REQUIRE(j["points"].size() == 2);
  // Seat 0 always wins: the search agent wins exactly the games it sits in seat 0.
  CHECK(j["points"][0]["wins"] == 5);
  CHECK(j["points"][1]["games"] == 10);
  CHECK(j["levels_off_at"] == 2);
  CHECK(run_rulebook("skill pass-the-pandas --budgets 5,3").exit_code == 2);
}
