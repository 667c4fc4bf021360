// rulebook serve's lobby: the real server on an ephemeral loopback port,
// driven over HTTP by httplib's client. Its page and catalogue, tables
// opened by POST /api/tables (links for people's seats only), every bad
// request a 4xx JSON error in our words, each table's routes under
// /t/ID/, a whole game played there whose downloaded log replays, the cap
// on tables, and the command line's checks of serve's two modes.
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <httplib.h>

#include "cli/web_lobby.hpp"
#include "cli_runner.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using namespace rulebook::cli;
using nlohmann::json;

namespace {

std::unique_ptr<WebLobby> open_lobby(size_t max_tables = 100) {
  WebLobbyConfig c;
  c.port = 0;
  c.server.threads = 32;
  c.lobby.max_tables = max_tables;
  auto lobby = std::make_unique<WebLobby>(std::move(c));
  lobby->start();
  return lobby;
}

json body_of(const httplib::Result& r, int status) {
  REQUIRE(r);
  INFO(r->body);
  CHECK(r->status == status);
  return json::parse(r->body);
}

void check_error(const httplib::Result& r, int status, const std::string& words) {
  const json body = body_of(r, status);
  REQUIRE(body.contains("error"));
  const std::string message = body["error"];
  INFO(message);
  CHECK(message.find(words) != std::string::npos);
  CHECK(message.find("json.exception") == std::string::npos);
}

httplib::Result post_table(httplib::Client& client, const json& request) {
  return client.Post("/api/tables", request.dump(), "application/json");
}

// The part of a link after the host: "/t/ID/play?token=...".
std::string path_of(const std::string& link) {
  const auto scheme = link.find("://");
  return link.substr(link.find('/', scheme + 3));
}

// Answers the first option for each of `people` through their links until
// the table's game is over; returns the answers the table took.
int answer_until_over(httplib::Client& client, const json& created, Table& table, const std::vector<Seat>& people) {
  const std::string id = created["table"];
  int answers = 0;
  for (int guard = 0; guard < 20000 && !table.over(); ++guard) {
    bool answered = false;
    for (Seat seat : people) {
      const Table::Seen seen = table.seen(table.stream_of(table.token(seat)));
      if (seen.decision == 0) continue;
      const std::string link = created["links"][std::to_string(seat.value())];
      const std::string token = link.substr(link.find("token=") + 6);
      const auto r = client.Post("/t/" + id + "/api/answer?token=" + token,
                                 json{{"choose", 0}, {"decision", seen.decision}}.dump(), "application/json");
      REQUIRE(r);
      if (r->status == 200) ++answers;
      answered = true;
    }
    if (!answered) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return answers;
}

}  // namespace

TEST_CASE("lobby over HTTP: its page, the catalogue and a table opened with a link per person", "[serve][lobby]") {
  auto server = open_lobby();
  httplib::Client client("127.0.0.1", server->port());
  const auto page = client.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->get_header_value("Content-Type").find("text/html") == 0);
  CHECK(page->body.find("lobby.js") != std::string::npos);
  CHECK(client.Get("/lobby.js")->status == 200);

  const json catalogue = body_of(client.Get("/api/games"), 200);
  CHECK(catalogue["games"].size() == list_games().size());
  CHECK(catalogue["agents"][0]["kind"] == "human");
  CHECK(catalogue["limits"]["max_tables"] == 100);

  const json created = body_of(post_table(client, {{"game", "hai-noon"}, {"players", 3}, {"agents", {{"2", "random"}}}}), 201);
  const std::string id = created["table"];
  CHECK(id.size() == 16);
  const json& links = created["links"];
  CHECK(links.size() == 4);  // seats 0 and 1, the spectators and the hot seat: the bot's seat has none
  const std::string base = "http://127.0.0.1:" + std::to_string(server->port()) + "/t/" + id + "/";
  CHECK(links["0"].get<std::string>().rfind(base + "play?token=", 0) == 0);
  CHECK(links["1"].get<std::string>().rfind(base + "play?token=", 0) == 0);
  CHECK_FALSE(links.contains("2"));
  CHECK(links["spectators"] == base + "watch");
  CHECK(created["seats"][2] == json{{"seat", 2}, {"agent", "random"}});
  const auto table = server->lobby().find(id);
  REQUIRE(table);
  CHECK(links["0"] == base + "play?token=" + table->token(Seat{0}));
  // One page for both people at one screen (pass the device): both tokens, the bot's seat none.
  CHECK(links["hot_seat"] == base + "play?seats=0:" + table->token(Seat{0}) + ",1:" + table->token(Seat{1}));

  // The table's page and assets under its prefix; its streams by token.
  const auto play = client.Get(path_of(links["0"]));
  REQUIRE(play);
  CHECK(play->status == 200);
  CHECK(play->body.find("src=\"table.js\"") != std::string::npos);
  CHECK(client.Get("/t/" + id + "/table.js")->status == 200);
  CHECK(client.Get("/t/" + id + "/table.css")->status == 200);
  CHECK(client.Get("/t/" + id + "/watch")->status == 200);
  const json messages = body_of(client.Get("/t/" + id + "/api/messages?token=" + table->token(Seat{1})), 200);
  CHECK(messages[0]["type"] == "table");
  CHECK(messages[0]["seat"] == 1);
  check_error(client.Get("/t/" + id + "/api/messages?token=nope"), 403, "unknown token");
  check_error(client.Post("/t/" + id + "/api/answer", R"({"choose": 0})", "application/json"), 403, "");

  // The list: this table, its spectators' link, no seat's secret.
  const json tables = body_of(client.Get("/api/tables"), 200);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0]["table"] == id);
  CHECK(tables[0]["state"] == "playing");
  CHECK(tables[0]["links"] == json{{"spectators", base + "watch"}});
  CHECK(tables.dump().find(table->token(Seat{0})) == std::string::npos);
  CHECK(body_of(client.Get("/api/tables/" + id), 200)["game"] == "hai-noon");
  check_error(client.Get("/t/" + id + "/log"), 409, "is still playing");

  // Behind a proxy, links follow the address the request came to.
  const auto proxied = client.Post("/api/tables", httplib::Headers{{"Host", "games.example.org"}, {"X-Forwarded-Proto", "https"}},
                                   R"({"game": "hao-hao"})", "application/json");
  CHECK(body_of(proxied, 201)["links"]["spectators"].get<std::string>().rfind("https://games.example.org/t/", 0) == 0);
}

TEST_CASE("lobby over HTTP: bad requests are 4xx errors in our words and open nothing", "[serve][lobby]") {
  auto server = open_lobby();
  httplib::Client client("127.0.0.1", server->port());
  check_error(client.Post("/api/tables", "{\"game\": ", "application/json"), 400, "the request is not JSON");
  check_error(post_table(client, {{"game", "chess"}}), 400, "no game 'chess' here");
  check_error(post_table(client, {{"game", "hai-noon"}, {"players", 1}}), 400, "hai-noon takes 2 to 4 players, not 1");
  check_error(post_table(client, {{"game", "hai-noon"}, {"variants", {"tiny"}}}), 400, "hai-noon has no variant 'tiny'");
  check_error(post_table(client, {{"game", "hai-noon"}, {"set", {"options.nope=1"}}}), 400, "unknown key 'nope'");
  // Nothing a network client sends names a file of the server's: no script, no path, no key but an option.
  for (const char* set : {"script=../coin-race/rules.lua", "script=../../tests/data/x.lua", "players.max=9", "components=[]"})
    check_error(post_table(client, {{"game", "hai-noon"}, {"set", {set}}}), 400, "the lobby sets only the game's options");
  check_error(post_table(client, {{"game", "hai-noon"}, {"agents", {{"0", "exec:sh"}}}}), 400, "the lobby does not seat 'exec' bots");
  check_error(post_table(client, {{"game", "hai-noon"}, {"agents", {{"0", "wizard"}}}}), 400, "no agent kind 'wizard'");
  check_error(client.Post("/api/tables", std::string(100 * 1024, ' '), "application/json"), 413, "too large");
  CHECK(body_of(client.Get("/api/tables"), 200).empty());

  // A table that is not there, on every route of a table.
  for (const std::string path : {"/play", "/watch", "/api/messages", "/api/events", "/display/0", "/log"})
    check_error(client.Get("/t/0123456789abcdef" + path), 404, "no table '0123456789abcdef' here");
  check_error(client.Post("/t/0123456789abcdef/api/answer", R"({"choose": 0})", "application/json"), 404, "no table");
  check_error(client.Get("/api/tables/0123456789abcdef"), 404, "no table");
  check_error(client.Get("/t/ZZ/play"), 404, "nothing here");
}

TEST_CASE("lobby over HTTP: a game played at a lobby's table; its downloaded log replays", "[serve][lobby]") {
  auto server = open_lobby();
  httplib::Client client("127.0.0.1", server->port());
  const json created = body_of(post_table(client, {{"game", "pass-the-pandas"}, {"players", 3}, {"seed", 12},
                                                   {"agents", {{"1", "random"}}}, {"names", {"Ann", "", "Cy"}}}), 201);
  const std::string id = created["table"];
  const auto table = server->lobby().find(id);
  REQUIRE(table);
  const int answers = answer_until_over(client, created, *table, {Seat{0}, Seat{2}});
  REQUIRE(table->wait_over(30));
  CHECK(answers > 0);
  CHECK(table->state() == TableState::finished);

  const auto log = client.Get("/t/" + id + "/log");
  REQUIRE(log);
  CHECK(log->status == 200);
  CHECK(log->get_header_value("Content-Disposition") == "attachment; filename=\"pass-the-pandas-" + id + ".json\"");
  const json parsed = json::parse(log->body);
  CHECK(parsed["names"][0] == "Ann");
  CHECK(parsed["agents"] == json{"human", "random", "human"});
  const ReplayReport report = replay_log(parsed);
  INFO(report.message);
  CHECK(report.ok);
  const std::string file = rulebook::test::temp_folder("lobby-log") + "/game.json";
  rulebook::test::write_file(file, log->body);
  const auto replay = rulebook::test::run_rulebook("replay --quiet '" + file + "'");
  INFO(replay.out << replay.err);
  CHECK(replay.exit_code == 0);

  const json listed = body_of(client.Get("/api/tables"), 200);
  CHECK(listed[0]["state"] == "finished");
  CHECK(listed[0]["links"]["log"] == "http://127.0.0.1:" + std::to_string(server->port()) + "/t/" + id + "/log");
}

TEST_CASE("lobby over HTTP: the log of a table with search bots replays", "[serve][lobby][replay]") {
  auto server = open_lobby();
  httplib::Client client("127.0.0.1", server->port());
  const json created = body_of(post_table(client, {{"game", "pass-the-pandas"}, {"players", 4}, {"seed", 12},
                                                   {"agents", {{"1", "greedy"}, {"2", "mcts"}, {"3", "ismcts"}}}}), 201);
  const auto table = server->lobby().find(created["table"]);
  REQUIRE(table);
  answer_until_over(client, created, *table, {Seat{0}});
  REQUIRE(table->wait_over(60));
  const auto log = client.Get("/t/" + created["table"].get<std::string>() + "/log");
  REQUIRE(log);
  REQUIRE(log->status == 200);
  CHECK(json::parse(log->body)["agents"] == json{"human", "greedy", "mcts", "ismcts"});
  const std::string file = rulebook::test::temp_folder("lobby-bots") + "/game.json";
  rulebook::test::write_file(file, log->body);
  const auto replay = rulebook::test::run_rulebook("replay '" + file + "'");
  INFO(replay.out << replay.err);
  CHECK(replay.exit_code == 0);
  CHECK(replay.out.find("replay OK") != std::string::npos);
}

TEST_CASE("lobby over HTTP: a full lobby answers 503; an ended table makes room", "[serve][lobby]") {
  auto server = open_lobby(1);
  httplib::Client client("127.0.0.1", server->port());
  const std::string first = body_of(post_table(client, {{"game", "hai-noon"}, {"players", 2}}), 201)["table"];
  check_error(post_table(client, {{"game", "hai-noon"}, {"players", 2}}), 503, "the lobby is full: 1 tables are playing (at most 1)");
  server->lobby().find(first)->stop();  // ended (abandoned): it makes room
  body_of(post_table(client, {{"game", "hai-noon"}, {"players", 2}}), 201);
  CHECK_FALSE(server->lobby().find(first));
}

TEST_CASE("serve: a lobby or one game, each with its own options", "[serve][lobby][cli]") {
  const auto game_option = rulebook::test::run_rulebook("serve --players 2 --port 0");
  CHECK(game_option.exit_code == 2);
  CHECK(game_option.err.find("--players: error: a lobby's tables are set up on its page; give GAME to serve one game") !=
        std::string::npos);
  // A lobby's people choose one screen on its page (the hot_seat link).
  const auto hot_seat = rulebook::test::run_rulebook("serve --hot-seat --port 0");
  CHECK(hot_seat.exit_code == 2);
  CHECK(hot_seat.err.find("--hot-seat: error: a lobby's tables are set up on its page") != std::string::npos);
  const auto lobby_option = rulebook::test::run_rulebook("serve hai-noon --games-dir rules --port 0");
  CHECK(lobby_option.exit_code == 2);
  CHECK(lobby_option.err.find("--games-dir: error: only a lobby takes it (serve with no GAME)") != std::string::npos);
  const auto no_dir = rulebook::test::run_rulebook("serve --games-dir no/such/folder --port 0");
  CHECK(no_dir.exit_code == 2);
  CHECK(no_dir.err.find("--games-dir: error: no folder 'no/such/folder'") != std::string::npos);
  const auto clash = rulebook::test::run_rulebook("serve --games-dir rules --port 0");
  CHECK(clash.exit_code == 2);
  CHECK(clash.err.find("two games are named") != std::string::npos);
}
