// rulebook serve's HTTP server under load it must shrug off: hundreds of
// open spectator streams and slowloris connections while the players play,
// a cap on connections per address, requests too large (the caps a table or a
// lobby is given in its config reach its server). Functional checks
// with generous bounds, no timing assertions (bench/serve_load.cpp measures).
#include <atomic>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>
#include <httplib.h>

#include "cli/web_lobby.hpp"
#include "raw_client.hpp"
#include "cli/web_table.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using namespace rulebook::cli;
using nlohmann::json;

namespace {

std::unique_ptr<WebTable> open_table(uint64_t seed, size_t max_per_address) {
  WebTableConfig c;
  c.definition = load_game("hai-noon");
  c.spec = GameSpec{"hai-noon", {}, {}, 2, seed, {}};
  c.kinds = {"human", "human"};
  c.port = 0;
  c.server.max_per_address = max_per_address;
  auto table = std::make_unique<WebTable>(std::move(c));
  table->start();
  return table;
}

// Reads every client until `done` holds for all of them, or 60 s pass.
template <class Done>
bool read_until(std::vector<std::unique_ptr<RawClient>>& clients, Done done) {
  for (int round = 0; round < 6000; ++round) {
    bool all = true;
    for (auto& c : clients) {
      c->read_ready();
      all = all && done(*c);
    }
    if (all) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

struct Open {
  Seat seat;
  int decision = 0;
};

// The decision the game waits for, read over HTTP as a page would (bounded: 60 s).
std::optional<Open> open_decision(httplib::Client& client, const WebTable& table) {
  for (int tries = 0; tries < 600; ++tries) {
    for (Seat seat : Seat::all(2)) {
      auto r = client.Get(("/api/messages?token=" + table.token(seat)).c_str());
      REQUIRE(r);
      REQUIRE(r->status == 200);
      std::optional<Open> open;
      for (const auto& m : json::parse(r->body)) {
        if (m["type"] == "decide") open = Open{seat, m["decision"].get<int>()};
        if (m["type"] == "answered" && open && m["decision"] == open->decision) open.reset();
      }
      if (open) return open;
    }
    if (table.over()) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  FAIL("no decision was published within 60 s");
  return std::nullopt;
}

}  // namespace

TEST_CASE("serve: 300 open spectator streams and 100 slowloris connections do not stall the players",
          "[serve][load]") {
  auto table = open_table(31, 0);  // every client here has one address: no per-address cap
  const int port = table->port();

  // 300 spectators open the stream and stay.
  std::vector<std::unique_ptr<RawClient>> spectators;
  for (int i = 0; i < 300; ++i) {
    spectators.push_back(std::make_unique<RawClient>(port));
    REQUIRE(spectators.back()->send_text("GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n"));
  }
  // All of them at once receive the stream's first message.
  CHECK(read_until(spectators, [](const RawClient& c) { return c.received.find("id: 0.") != std::string::npos; }));

  // 100 slowloris connections: a request line, then a header byte a second.
  std::vector<std::unique_ptr<RawClient>> slow;
  for (int i = 0; i < 100; ++i) {
    slow.push_back(std::make_unique<RawClient>(port));
    REQUIRE(slow.back()->send_text("GET /watch HTTP/1.1\r\n"));
  }
  std::atomic<bool> trickling{true};
  std::thread trickle([&] {
    for (int second = 0; second < 60 && trickling; ++second) {
      for (auto& c : slow) c->send_text("X");  // a closed one just fails
      for (int i = 0; i < 10 && trickling; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });

  // Meanwhile the players: the page, the messages, answers; the game moves on.
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(30, 0);
  client.set_read_timeout(30, 0);
  for (int step = 0; step < 4; ++step) {
    const Open open = *open_decision(client, *table);
    auto page = client.Get(("/play?token=" + table->token(open.seat)).c_str());
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("<html") != std::string::npos);
    auto r = client.Post(("/api/answer?token=" + table->token(open.seat)).c_str(),
                         json{{"choose", 0}, {"decision", open.decision}}.dump(), "application/json");
    REQUIRE(r);
    CHECK(r->status == 200);
  }
  open_decision(client, *table);
  CHECK(table->answered() == 4);

  // Every spectator saw the game move: the answers' messages reached all of them.
  const size_t messages = table->messages("").size();
  const std::string last_id = "id: " + std::to_string(messages - 1) + ".";
  CHECK(read_until(spectators, [&](const RawClient& c) { return c.received.find(last_id) != std::string::npos; }));
  for (const auto& c : spectators) CHECK_FALSE(c->ended);

  // A slowloris connection never finishes its headers: the server closes it
  // (10 s after its first byte), whatever it still trickles.
  CHECK(read_until(slow, [](const RawClient& c) { return c.ended; }));
  trickling = false;
  trickle.join();
  table->stop();
  // Stopping ends every stream: its chunked body is closed.
  CHECK(read_until(spectators, [](const RawClient& c) { return c.ended; }));
  for (const auto& c : spectators) CHECK(c->received.find("\r\n0\r\n\r\n") != std::string::npos);
}

TEST_CASE("serve: an address holding too many connections is refused with 429, in our words", "[serve][load]") {
  auto table = open_table(32, 5);
  std::vector<std::unique_ptr<RawClient>> idle;
  for (int i = 0; i < 5; ++i) idle.push_back(std::make_unique<RawClient>(table->port()));
  // The five are accepted before the sixth (one acceptor, in order): it is refused.
  httplib::Client client("127.0.0.1", table->port());
  client.set_read_timeout(30, 0);
  auto refused = client.Get(("/play?token=" + table->token(Seat{0})).c_str());
  REQUIRE(refused);
  CHECK(refused->status == 429);
  CHECK(json::parse(refused->body)["error"] == "too many connections from your address: at most 5");
  // One leaves: the next one is served.
  idle.pop_back();
  int status = 0;
  for (int tries = 0; tries < 300 && status != 200; ++tries) {
    httplib::Client again("127.0.0.1", table->port());
    auto r = again.Get(("/play?token=" + table->token(Seat{0})).c_str());
    status = r ? r->status : -1;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(status == 200);
}

TEST_CASE("serve: a request too large is refused with 413 or 431, in our words, and changes nothing", "[serve][load]") {
  auto table = open_table(33, 128);
  httplib::Client client("127.0.0.1", table->port());
  client.set_read_timeout(30, 0);
  const Open open = *open_decision(client, *table);
  const std::string answer = "/api/answer?token=" + table->token(open.seat);
  const size_t before = table->messages("").size();

  const std::string big = R"({"choose": 0, "padding": ")" + std::string(100000, 'x') + "\"}";
  auto r = client.Post(answer.c_str(), big, "application/json");
  REQUIRE(r);
  CHECK(r->status == 413);
  CHECK(json::parse(r->body)["error"] == "the request is too large: at most 65536 bytes");

  httplib::Client other("127.0.0.1", table->port());
  auto headers = other.Get("/watch", httplib::Headers{{"X-Filler", std::string(20000, 'y')}});
  REQUIRE(headers);
  CHECK(headers->status == 431);
  CHECK(json::parse(headers->body)["error"] == "the request's headers are too large: at most 8192 bytes");

  // A method the route does not take: 405, in our words too.
  httplib::Client third("127.0.0.1", table->port());
  auto wrong = third.Delete("/api/answer");
  REQUIRE(wrong);
  CHECK(wrong->status == 405);
  CHECK(json::parse(wrong->body)["error"] == "DELETE is not a way to ask for /api/answer");

  CHECK(table->messages("").size() == before);
  CHECK(table->answered() == 0);
  httplib::Client player("127.0.0.1", table->port());
  auto ok = player.Post(answer.c_str(), json{{"choose", 0}, {"decision", open.decision}}.dump(), "application/json");
  REQUIRE(ok);
  CHECK(ok->status == 200);
}

TEST_CASE("serve: the single table and the lobby both take the server's limits from one member of their config",
          "[serve][load][lobby]") {
  const std::string big = std::string(2000, ' ');
  WebTableConfig t;
  t.definition = load_game("hai-noon");
  t.spec = GameSpec{"hai-noon", {}, {}, 2, 34, {}};
  t.kinds = {"human", "human"};
  t.port = 0;
  t.server.max_body_bytes = 1024;
  WebTable table(std::move(t));
  table.start();
  httplib::Client to_table("127.0.0.1", table.port());
  auto refused = to_table.Post(("/api/answer?token=" + table.token(Seat{0})).c_str(), big, "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 413);
  CHECK(json::parse(refused->body)["error"] == "the request is too large: at most 1024 bytes");

  WebLobbyConfig l;
  l.port = 0;
  l.server.max_body_bytes = 1024;
  WebLobby lobby(std::move(l));
  lobby.start();
  httplib::Client to_lobby("127.0.0.1", lobby.port());
  auto also_refused = to_lobby.Post("/api/tables", big, "application/json");
  REQUIRE(also_refused);
  CHECK(also_refused->status == 413);
  CHECK(json::parse(also_refused->body)["error"] == "the request is too large: at most 1024 bytes");
}
