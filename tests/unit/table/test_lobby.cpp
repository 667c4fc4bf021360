// The lobby without any transport (runtime/table/lobby.hpp): its catalogue
// (bundled games and --games-dir folders), tables created from a request
// and every bad request refused in our words, the cap on tables, cleanup
// of idle and ended tables on a clock the test moves, and logs that
// replay. The HTTP side is tests/unit/cli/test_web_lobby.cpp.
#include <atomic>
#include <thread>

#include <catch2/catch.hpp>

#include "files.hpp"
#include "inline_game.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "table/lobby.hpp"

using namespace rulebook;
using nlohmann::json;
using namespace std::chrono_literals;
using Why = LobbyError::Why;

namespace {

// A clock the test moves by hand.
struct TestClock {
  std::shared_ptr<std::atomic<int64_t>> seconds = std::make_shared<std::atomic<int64_t>>(1000000);
  Lobby::Clock::time_point now() const { return Lobby::Clock::time_point(std::chrono::seconds(seconds->load())); }
  void pass(std::chrono::seconds s) { *seconds += s.count(); }
};

LobbyConfig config_with(const TestClock& clock) {
  LobbyConfig c;
  c.clock = [clock] { return clock.now(); };
  c.idle_limit = 2h;
  c.keep_ended = 1h;
  return c;
}

// The refusal a request gets: its kind and message.
std::pair<Why, std::string> refusal(Lobby& lobby, const std::string& request) {
  try {
    lobby.create(request);
  } catch (const LobbyError& e) {
    return {e.why, e.what()};
  }
  FAIL("the lobby created a table for " << request);
  return {Why::malformed, ""};
}

void refused(Lobby& lobby, const std::string& request, const std::string& words) {
  const auto [why, message] = refusal(lobby, request);
  INFO(request << " -> " << message);
  CHECK(why == Why::malformed);
  CHECK(message.find(words) != std::string::npos);
  CHECK(message.find("json.exception") == std::string::npos);
  CHECK(message.find(rules_root()) == std::string::npos);  // no folder of the server's
}

// The stream of the seat the game waits for, once its decision is out (the
// table is still until someone answers). Bounded: 30 s.
Table::StreamId deciding(const Table& table) {
  for (int tries = 0; tries < 3000; ++tries) {
    for (Seat s : Seat::all(table.config().spec.players)) {
      const Table::StreamId stream = table.stream_of(table.token(s));
      if (stream != Table::kNoStream && table.seen(stream).decision > 0) return stream;
    }
    std::this_thread::sleep_for(10ms);
  }
  FAIL("no decision was published within 30 s");
  return Table::kNoStream;
}

// Answers every person's decision with its first option until the game ends.
void finish(Table& table) {
  for (int guard = 0; guard < 5000 && !table.over(); ++guard) {
    bool answered = false;
    for (Seat s : Seat::all(table.config().spec.players)) {
      const Table::StreamId stream = table.stream_of(table.token(s));
      if (stream == Table::kNoStream) continue;
      const int decision = table.seen(stream).decision;
      if (decision == 0) continue;
      table.answer(stream, json{{"choose", 0}, {"decision", decision}}.dump());
      answered = true;
    }
    if (!answered) std::this_thread::sleep_for(1ms);
  }
  REQUIRE(table.wait_over(30));
}

// A table of one person and two bots, played to its end.
std::shared_ptr<Table> played_game(Lobby& lobby, uint64_t seed) {
  auto table = lobby.create(json{{"game", "pass-the-pandas"}, {"players", 3}, {"seed", seed},
                                 {"agents", {{"1", "random"}, {"2", "random"}}}}.dump());
  finish(*table);
  return table;
}

// Waits until the game waits for a person: its version holds still.
void settle(const Table& table) {
  for (Table::Version v = table.version();;) {
    std::this_thread::sleep_for(200ms);
    if (table.version() == v) return;
    v = table.version();
  }
}

}  // namespace

TEST_CASE("lobby: the catalogue lists every bundled game with its players, variants and options", "[lobby]") {
  Lobby lobby(LobbyConfig{});
  const json catalogue = lobby.games_json();
  std::vector<std::string> names;
  for (const json& g : catalogue["games"]) names.push_back(g["name"]);
  CHECK(names == list_games());
  const json& hai = *std::find_if(catalogue["games"].begin(), catalogue["games"].end(), [](const json& g) { return g["name"] == "hai-noon"; });
  CHECK(hai["title"] == "Hai Noon");
  CHECK(hai["players"] == json{{"min", 2}, {"max", 4}, {"default", 4}});
  CHECK(hai["variants"].size() == 3);
  CHECK(hai["variants"][0]["name"] == "last-diver-swimming");
  CHECK(hai["options"]["sharks_start"]["default"] == "rulebook");
  CHECK(hai["options"]["sharks_start"]["help"].get<std::string>().find("how the sharks start") == 0);
  CHECK(hai["origin"] == "bundled");
  // People, and the bots that need nothing of the server's: no scripted:FILE, no exec:COMMAND.
  std::vector<std::string> kinds;
  for (const json& a : catalogue["agents"]) kinds.push_back(a["kind"]);
  CHECK(kinds.front() == "human");
  CHECK(std::find(kinds.begin(), kinds.end(), "random") != kinds.end());
  CHECK(std::find(kinds.begin(), kinds.end(), "mcts") != kinds.end());
  CHECK(std::find(kinds.begin(), kinds.end(), "exec") == kinds.end());
  CHECK(std::find(kinds.begin(), kinds.end(), "scripted") == kinds.end());
  CHECK(catalogue["limits"]["max_tables"] == 100);
  CHECK(catalogue["limits"]["idle_minutes"] == 120);
  CHECK(catalogue["limits"]["keep_minutes"] == 60);
}

TEST_CASE("lobby: --games-dir adds game folders by name; a bad one is refused at start", "[lobby]") {
  const std::string club = test::temp_folder("club");
  test::write_file(club + "/duel/game.yaml", test::one_die_game_yaml("duel", "Duel"));
  test::write_file(club + "/duel/rules.lua", test::rules_lua("game:choose(0, 'Pick', {'a', 'b'})\ngame:finish{}"));
  test::write_file(club + "/notes/readme.txt", "not a game");
  LobbyConfig c;
  c.games_dirs = {club};
  Lobby lobby(c);
  const LobbyGame& duel = lobby.games().back();
  CHECK(duel.name == "duel");
  CHECK(duel.origin == club);
  CHECK(lobby.games().size() == list_games().size() + 1);
  // Its table is logged by the folder, so that its log replays.
  auto table = lobby.create(R"({"game": "duel", "agents": {"1": "first"}})");
  finish(*table);
  CHECK(table->error() == "");
  CHECK(json::parse(lobby.log(table->id()))["game"] == duel.source);
  CHECK(replay_log(json::parse(lobby.log(table->id()))).ok);

  // A game folder itself is a games dir of one game.
  LobbyConfig one;
  one.games_dirs = {club + "/duel"};
  CHECK(Lobby(one).games().back().name == "duel");

  auto fails = [](const std::vector<std::string>& dirs, const std::string& words) {
    LobbyConfig bad;
    bad.games_dirs = dirs;
    try {
      Lobby lobby(bad);
      FAIL("a lobby opened with " << dirs.front());
    } catch (const SetupError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(words) != std::string::npos);
    }
  };
  fails({club + "/none"}, "--games-dir: error: no folder");
  fails({club + "/notes"}, "holds no game folder");
  fails({club, club + "/duel"}, "two games are named 'duel'");
  const std::string broken = test::temp_folder("broken");
  test::write_file(broken + "/oops/game.yaml", "name: oops\ntitle: [\n");
  fails({broken}, "game.yaml");
  std::filesystem::remove_all(club);
  std::filesystem::remove_all(broken);
}

TEST_CASE("lobby: a table from a request: seats, variants, overrides, names, seed", "[lobby]") {
  Lobby lobby(LobbyConfig{});
  auto table = lobby.create(R"({"game": "hai-noon", "players": 3, "variants": ["short"], "set": ["options.last_diver_swimming=true"],
                               "agents": {"2": "greedy"}, "seed": 42, "names": ["Ann", "Bob"]})");
  const TableConfig& c = table->config();
  CHECK(c.spec.game == "hai-noon");
  CHECK(c.spec.players == 3);
  CHECK(c.spec.seed == 42);
  CHECK(c.spec.variants == std::vector<std::string>{"short"});
  CHECK(c.spec.sets == std::vector<std::string>{"options.last_diver_swimming=true"});
  CHECK(c.definition->options["last_diver_swimming"] == true);
  CHECK(c.kinds == std::vector<std::string>{"human", "human", "greedy"});
  CHECK(table->token(Seat{0}).size() == 32);
  CHECK(table->token(Seat{2}).empty());  // a bot's seat opens no page
  CHECK(table->state() == TableState::playing);
  CHECK(lobby.find(table->id()) == table);
  CHECK(lobby.find("0123456789abcdef") == nullptr);

  const json listed = lobby.tables_json();
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["table"] == table->id());
  CHECK(listed[0]["game"] == "hai-noon");
  CHECK(listed[0]["title"] == "Hai Noon");
  CHECK(listed[0]["players"] == 3);
  CHECK(listed[0]["state"] == "playing");
  CHECK(listed[0]["variants"] == json{"short"});
  CHECK(listed[0]["seats"][0] == json{{"seat", 0}, {"agent", "human"}, {"name", "Ann"}});
  CHECK(listed[0]["seats"][2] == json{{"seat", 2}, {"agent", "greedy"}});
  CHECK(listed[0]["created"].get<std::string>().size() == 20);  // 2026-11-28T12:00:00Z
  CHECK(lobby.table_json(table->id()) == listed[0]);
  CHECK_THROWS_AS(lobby.table_json("nope"), LobbyError);

  // "all" first, then the seats named.
  auto mixed = lobby.create(R"({"game": "hai-noon", "players": 3, "agents": {"all": "random", "1": "human"}})");
  CHECK(mixed->config().kinds == std::vector<std::string>{"random", "human", "random"});
  // The game's default count, every seat a person's.
  auto plain = lobby.create(R"({"game": "hao-hao"})");
  CHECK(plain->config().spec.players == plain->config().definition->default_players);
  CHECK(plain->config().kinds == std::vector<std::string>(static_cast<size_t>(plain->config().spec.players), "human"));
  CHECK(lobby.size() == 3);
}

TEST_CASE("lobby: bad requests are refused in our words and create nothing", "[lobby]") {
  Lobby lobby(LobbyConfig{});
  refused(lobby, "{\"game\": ", "the request is not JSON");
  refused(lobby, "[1, 2]", "a table's request is a JSON object");
  refused(lobby, R"({"players": 2})", "which game?");
  refused(lobby, R"({"game": "hai-non"})", "no game 'hai-non' here; did you mean `hai-noon`?");
  refused(lobby, R"({"game": "../../etc"})", "no game '../../etc' here");
  refused(lobby, R"({"game": "hai-noon", "player": 2})", "unknown field \"player\"; did you mean `players`?");
  refused(lobby, R"({"game": "hai-noon", "players": 9})", "hai-noon takes 2 to 4 players, not 9");
  refused(lobby, R"({"game": "hai-noon", "players": "two"})", "\"players\" must be a whole number, got \"two\"");
  refused(lobby, R"({"game": "hai-noon", "variants": ["shrot"]})", "hai-noon has no variant 'shrot'; did you mean `short`?");
  refused(lobby, R"({"game": "hai-noon", "variants": ["/etc/passwd"]})", "hai-noon has no variant '/etc/passwd'");
  refused(lobby, R"({"game": "hai-noon", "variants": "short"})", "\"variants\" must be a list of strings");
  refused(lobby, R"({"game": "hai-noon", "set": ["options.sharks"]})", "set: expected PATH=VALUE, got 'options.sharks'");
  refused(lobby, R"({"game": "hai-noon", "set": ["options.sharks=1"]})", "error: unknown key 'sharks'");
  refused(lobby, R"({"game": "hai-noon", "set": [3]})", "\"set\" must be a list of strings, got 3");
  refused(lobby, R"({"game": "hai-noon", "agents": {"1": "rnadom"}})", "seat 1: no agent kind 'rnadom'; did you mean `random`?");
  refused(lobby, R"({"game": "hai-noon", "agents": {"1": "exec:rm -rf /"}})", "seat 1: the lobby does not seat 'exec' bots");
  refused(lobby, R"({"game": "hai-noon", "agents": {"0": "scripted:/etc/passwd"}})", "seat 0: the lobby does not seat 'scripted' bots");
  refused(lobby, R"({"game": "hai-noon", "agents": {"0": "mcts:iterations=99999999"}})", "the lobby seats a bot by its kind alone");
  refused(lobby, R"({"game": "hai-noon", "agents": {"all": "exec"}})", "seat all: the lobby does not seat 'exec' bots");
  refused(lobby, R"({"game": "hai-noon", "agents": {"all": "random"}})", "a table needs at least one person");
  refused(lobby, R"({"game": "hai-noon", "players": 2, "agents": {"0": "greedy", "1": "mcts"}})", "a table needs at least one person");
  refused(lobby, R"({"game": "hai-noon", "players": 2, "agents": {"2": "random"}})", "no seat '2' at a table of 2 players");
  refused(lobby, R"({"game": "hai-noon", "agents": {"west": "random"}})", "no seat 'west'");
  refused(lobby, R"({"game": "hai-noon", "agents": ["random"]})", "\"agents\" must be an object");
  refused(lobby, R"({"game": "hai-noon", "agents": {"0": 7}})", "seat 0: a kind is a string");
  refused(lobby, R"({"game": "hai-noon", "seed": -1})", "\"seed\" must be a whole number from 0");
  refused(lobby, R"({"game": "hai-noon", "players": 2, "names": ["A", "B", "C"]})", "3 names for 2 players");
  CHECK(lobby.size() == 0);
}

TEST_CASE("lobby: a player's name from the network is short and has no control characters", "[lobby][text]") {
  Lobby lobby(LobbyConfig{});
  // An OSC title, a clear screen, CR + erase line: shown on the operator's terminal.
  refused(lobby, R"({"game": "hai-noon", "names": ["\u001b]0;pwned\u0007"]})", "\"names\": name 1 holds a control character (U+001B)");
  refused(lobby, R"({"game": "hai-noon", "names": ["Ann", "\u001b[2J"]})", "name 2 holds a control character (U+001B)");
  refused(lobby, R"({"game": "hai-noon", "names": ["ok\r\u001b[2Kfake"]})", "name 1 holds a control character (U+000D)");
  refused(lobby, R"({"game": "hai-noon", "names": ["\u009b31m"]})", "holds a control character (U+009B)");
  refused(lobby, "{\"game\": \"hai-noon\", \"names\": [\"" + std::string(65, 'x') + "\"]}",
          "name 1 is longer than 64 characters (65)");
  CHECK(lobby.size() == 0);
  CHECK_NOTHROW(lobby.create("{\"game\": \"hai-noon\", \"names\": [\"" + std::string(64, 'x') + "\", \"Zo\u00eb\"]}"));
}

TEST_CASE("lobby: a finished table's log replays; a playing one's is not ready", "[lobby]") {
  Lobby lobby(LobbyConfig{});
  auto table = played_game(lobby, 5);
  CHECK(table->state() == TableState::finished);
  const json log = json::parse(lobby.log(table->id()));
  CHECK(log["game"] == "pass-the-pandas");
  CHECK(log["seed"] == 5);
  CHECK(log["agents"] == json{"human", "random", "random"});
  const ReplayReport report = replay_log(log);
  INFO(report.message);
  CHECK(report.ok);
  CHECK(lobby.table_json(table->id())["state"] == "finished");
  CHECK(lobby.table_json(table->id()).contains("result"));

  auto playing = lobby.create(R"({"game": "hai-noon", "players": 2})");
  try {
    lobby.log(playing->id());
    FAIL("a playing table gave a log");
  } catch (const LobbyError& e) {
    CHECK(e.why == Why::not_yet);
    CHECK(std::string(e.what()) == "table " + playing->id() + " is still playing: its log is ready when the game ends");
  }
  try {
    lobby.log("nope");
    FAIL("no table gave a log");
  } catch (const LobbyError& e) {
    CHECK(e.why == Why::missing);
  }
}

TEST_CASE("lobby: idle tables are stopped, ended ones dropped after their time", "[lobby]") {
  TestClock clock;
  std::vector<std::string> saved;
  std::mutex saved_mutex;
  LobbyConfig c = config_with(clock);
  c.save_log = [&](const std::string& id, const std::string& log) {
    std::lock_guard lock(saved_mutex);
    saved.push_back(id + (log.empty() ? "" : " log"));
  };
  Lobby lobby(c);
  auto idle = lobby.create(R"({"game": "hai-noon", "players": 2})");
  deciding(*idle);
  settle(*idle);
  auto finished = played_game(lobby, 8);
  const std::string idle_id = idle->id(), finished_id = finished->id();
  idle.reset();
  finished.reset();

  const Lobby::Swept first = lobby.sweep();  // notes the end of the finished one, now
  CHECK(first.ended == std::vector<std::string>{finished_id});
  CHECK(first.dropped.empty());
  clock.pass(59min);
  CHECK(lobby.sweep().dropped.empty());
  CHECK(lobby.find(finished_id));
  clock.pass(1min);
  CHECK(lobby.sweep().dropped == std::vector<std::string>{finished_id});  // an hour after its end
  CHECK_FALSE(lobby.find(finished_id));

  // Nobody moved at the other for two hours: it is stopped, kept an hour, dropped.
  clock.pass(59min);
  CHECK(lobby.sweep().dropped.empty());
  CHECK(lobby.find(idle_id)->state() == TableState::playing);
  clock.pass(1min);
  const Lobby::Swept swept = lobby.sweep();
  CHECK(swept.dropped.empty());
  CHECK(swept.stopped == std::vector<std::string>{idle_id});
  REQUIRE(lobby.find(idle_id));
  CHECK(lobby.find(idle_id)->state() == TableState::abandoned);
  CHECK(lobby.table_json(idle_id)["state"] == "abandoned");
  CHECK(lobby.table_json(idle_id)["error"].get<std::string>().find("the table closed") != std::string::npos);
  CHECK_FALSE(lobby.log(idle_id).empty());  // the game as far as it went
  clock.pass(1h);
  CHECK(lobby.sweep().dropped.size() == 1);
  CHECK(lobby.size() == 0);
  std::lock_guard lock(saved_mutex);
  CHECK(saved.size() == 2);
  CHECK(std::find(saved.begin(), saved.end(), finished_id + " log") != saved.end());
  CHECK(std::find(saved.begin(), saved.end(), idle_id + " log") != saved.end());
}

TEST_CASE("lobby: a table where something happens is not idle", "[lobby]") {
  TestClock clock;
  Lobby lobby(config_with(clock));
  auto table = lobby.create(R"({"game": "hai-noon", "players": 2, "seed": 3})");
  const Table::StreamId open = deciding(*table);
  settle(*table);
  lobby.sweep();
  clock.pass(119min);
  // A seat answers: the table moved.
  const int decision = table->seen(open).decision;
  REQUIRE(table->answer(open, json{{"choose", 0}, {"decision", decision}}.dump()).ok());
  deciding(*table);
  settle(*table);
  lobby.sweep();
  clock.pass(119min);
  lobby.sweep();
  CHECK(table->state() == TableState::playing);
  clock.pass(1min);
  lobby.sweep();
  CHECK(table->state() == TableState::abandoned);
}

TEST_CASE("lobby: at most max_tables; an ended table makes room, playing ones never", "[lobby]") {
  TestClock clock;
  LobbyConfig c = config_with(clock);
  c.max_tables = 2;
  Lobby lobby(c);
  auto ended = played_game(lobby, 1);
  auto playing = lobby.create(R"({"game": "hai-noon", "players": 2})");
  // Full, but one has ended: it goes for the new one.
  auto third = lobby.create(R"({"game": "hai-noon", "players": 2})");
  CHECK(lobby.size() == 2);
  CHECK_FALSE(lobby.find(ended->id()));
  CHECK(lobby.find(playing->id()));
  const auto [why, message] = refusal(lobby, R"({"game": "hai-noon", "players": 2})");
  CHECK(why == Why::full);
  CHECK(message == "the lobby is full: 2 tables are playing (at most 2); try again when one ends");
  // A bad request to a full lobby still hears it is full first: nothing is loaded.
  CHECK(refusal(lobby, R"({"game": "nope"})").first == Why::full);
  CHECK(lobby.size() == 2);
}

TEST_CASE("lobby: closing the lobby stops its tables", "[lobby]") {
  std::shared_ptr<Table> table;
  {
    Lobby lobby(LobbyConfig{});
    table = lobby.create(R"({"game": "hai-noon", "players": 2})");
    CHECK(table->state() == TableState::playing);
  }
  CHECK(table->state() == TableState::abandoned);
  CHECK(table->closed());
}

TEST_CASE("lobby: a request sets the game's options only, never a script, a path or another key", "[lobby][security]") {
  // Two games side by side: a request for one must not run the other's files.
  const std::string club = test::temp_folder("club");
  test::write_file(club + "/duel/game.yaml",
                   test::one_die_game_yaml("duel", "Duel") + "options: {target: 3, fast: false, mode: slow, ratio: 0.5}\n");
  test::write_file(club + "/duel/rules.lua", test::rules_lua("game:choose(0, 'Pick', {'a', 'b'})\ngame:finish{}"));
  test::write_file(club + "/other/game.yaml", test::one_die_game_yaml("other", "Other"));
  test::write_file(club + "/other/rules.lua", "error('the other game ran')\n");
  LobbyConfig c;
  c.games_dirs = {club};
  Lobby lobby(c);
  const std::string refusal_words = "the lobby sets only the game's options";
  for (const char* set : {"script=../other/rules.lua", "script=rules.lua", "players.max=9", "components+=[]", "zones=[]",
                          "options=7", "options", "name=x"}) {
    refused(lobby, json{{"game", "duel"}, {"set", {set}}}.dump(), std::string(set) == "options" ? "expected PATH=VALUE" : refusal_words);
  }
  refused(lobby, R"({"game": "duel", "set": ["options.script=../other/rules.lua"]})", "unknown key 'script'");
  refused(lobby, R"({"game": "duel", "set": ["options.targte=4"]})", "did you mean `target`?");
  refused(lobby, R"({"game": "duel", "set": ["options.target=4", "options.target=5"]})", "options.target is given twice");
  refused(lobby, R"({"game": "duel", "set": ["options.target="]})", "options.target takes a whole number, not ''");
  refused(lobby, R"({"game": "duel", "set": ["options.target=2.5"]})", "options.target takes a whole number");
  refused(lobby, R"({"game": "duel", "set": ["options.target={script: x}"]})", "options.target takes a whole number");
  refused(lobby, R"({"game": "duel", "set": ["options.fast=yes"]})", "options.fast takes a boolean");
  refused(lobby, R"({"game": "duel", "set": ["options.ratio=.nan"]})", "options.ratio takes a number");
  refused(lobby, json{{"game", "duel"}, {"set", {"options.mode=" + std::string(2000, 'x')}}}.dump(), "more than the lobby takes");
  CHECK(lobby.size() == 0);

  // What the page sends is taken, each value as its option's kind; a text
  // option's value is its text.
  const TableConfig ok = lobby.check(
      R"({"game": "duel", "set": ["options.target=5", "options.fast=true", "options.mode=8", "options.ratio=2"]})");
  CHECK(ok.definition->options["target"] == 5);
  CHECK(ok.definition->options["fast"] == true);
  CHECK(ok.definition->options["mode"] == "8");
  CHECK(ok.definition->options["ratio"] == 2);
  CHECK(ok.definition->script == "rules.lua");
  CHECK(ok.spec.sets == std::vector<std::string>{"options.target=5", "options.fast=true", "options.mode=\"8\"", "options.ratio=2"});
  std::filesystem::remove_all(club);
}

TEST_CASE("lobby: a table's error is shown to clients without the server's paths or source lines", "[lobby][security]") {
  const std::string club = test::temp_folder("club");
  test::write_file(club + "/broken/game.yaml", test::one_die_game_yaml("broken", "Broken"));
  test::write_file(club + "/broken/rules.lua", test::rules_lua("local secret_line = nil\nreturn secret_line.x"));
  LobbyConfig c;
  c.games_dirs = {club};
  Lobby lobby(c);
  auto table = lobby.create(R"({"game": "broken"})");
  REQUIRE(table->wait_over(30));
  // The operator's text is whole: the source line is in it.
  CHECK(table->error().find("secret_line.x") != std::string::npos);
  const json listed = lobby.table_json(table->id());
  REQUIRE(listed.contains("error"));
  const std::string shown = listed["error"];
  INFO(shown);
  CHECK(shown.rfind("rules.lua:5: attempt to index a nil value", 0) == 0);
  CHECK(shown.find(club) == std::string::npos);
  CHECK(shown.find('/') == std::string::npos);
  CHECK(shown.find("secret_line.x") == std::string::npos);  // the source line stays on the server
  CHECK(shown.find("traceback") == std::string::npos);
  CHECK(shown == table->public_error());
  CHECK(lobby.tables_json()[0]["error"] == shown);
  std::filesystem::remove_all(club);
}
