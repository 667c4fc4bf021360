// rulebook serve's web table: the real server on an ephemeral loopback
// port, driven over HTTP by httplib's client. Every bad request gets a 4xx
// JSON error and leaves the game as it was; secrets stay with their seat.
#include <atomic>
#include <map>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>
#include <httplib.h>

#include "cli/web_table.hpp"
#include "cli_runner.hpp"
#include "core/rng.hpp"
#include "play/match.hpp"
#include "play/undo.hpp"
#include "schema/json_schema.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using namespace rulebook::cli;
using nlohmann::json;

namespace {

std::unique_ptr<WebTable> open_table(uint64_t seed, const std::string& log = "") {
  WebTableConfig c;
  c.definition = load_game("hai-noon");
  c.spec = GameSpec{"hai-noon", {}, {}, 2, seed, {}};
  c.kinds = {"human", "human"};
  c.host = "127.0.0.1";
  c.port = 0;
  c.log_file = log;
  c.server.threads = 160;
  auto table = std::make_unique<WebTable>(std::move(c));
  table->start();
  return table;
}

std::vector<json> parsed(const std::vector<std::string>& texts) {
  std::vector<json> out;
  for (const auto& t : texts) out.push_back(json::parse(t));
  return out;
}

struct Open {
  Seat seat;
  int decision = 0;
  int count = 0;
};

// The decision the game waits for (seat, number, options), once it is
// published; nothing when the game is over. Bounded: 30 s.
std::optional<Open> open_decision(const WebTable& table) {
  for (int tries = 0; tries < 3000; ++tries) {
    for (Seat seat : Seat::all(2)) {
      const auto messages = parsed(table.messages(table.token(seat)));
      std::optional<Open> open;
      for (const auto& m : messages) {
        if (m["type"] == "decide") open = Open{seat, m["decision"].get<int>(), static_cast<int>(m["options"].size())};
        if (m["type"] == "answered" && open && m["decision"] == open->decision) open.reset();
        if (m["type"] == "undo") open.reset();  // taken back: asked again later
      }
      if (open) return open;
    }
    if (table.over()) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FAIL("no decision was published within 30 s");
  return std::nullopt;
}

httplib::Result post_answer(httplib::Client& client, const std::string& token, const std::string& body) {
  return client.Post(("/api/answer?token=" + token).c_str(), body, "application/json");
}

void check_error(const httplib::Result& r, int status) {
  REQUIRE(r);
  CHECK(r->status == status);
  const json body = json::parse(r->body);
  CHECK(body.contains("error"));
  CHECK(body["error"].get<std::string>().size() > 5);
}

// What every stream holds now: nothing changes while bad requests come in.
std::vector<size_t> stream_sizes(const WebTable& table) {
  return {table.messages(table.token(Seat{0})).size(), table.messages(table.token(Seat{1})).size(),
          table.messages("").size()};
}

// The two-player table's other seat.
Seat other_seat(Seat seat) { return Seat{1 - seat.value()}; }

// A stream never shows another seat's hand: its views list no card of it,
// and cards moving into it are anonymous.
void check_no_hand_but(const std::vector<json>& messages, Seat own_seat) {
  for (const auto& m : messages) {
    for (Seat seat : Seat::all(2)) {
      if (seat == own_seat) continue;
      const std::string hand = "hand@" + std::to_string(seat.value());
      if (m["type"] == "view" || m["type"] == "decide" || m["type"] == "undo") {
        INFO(m.dump());
        CHECK_FALSE(m["view"]["zones"][hand].contains("components"));
      }
      if (m["type"] == "event" && m["event"].value("to", "") == hand) {
        INFO(m.dump());
        CHECK(m["event"]["component"].is_null());
      }
    }
  }
}

// One SSE reader: collects (id, message) pairs until `enough` says stop.
struct SseReader {
  std::vector<std::pair<long, json>> received;
  std::string last_id;  // the last id as sent (INDEX.INSTANCE): what an EventSource sends back
  std::string buffer;
  bool take(const char* data, size_t size) {
    buffer.append(data, size);
    for (size_t end; (end = buffer.find("\n\n")) != std::string::npos;) {
      const std::string block = buffer.substr(0, end);
      buffer.erase(0, end + 2);
      if (block.rfind("id: ", 0) != 0) continue;  // a keep-alive comment
      const auto newline = block.find('\n');
      last_id = block.substr(4, newline - 4);
      const long id = std::stol(last_id);
      received.emplace_back(id, json::parse(block.substr(newline + 7)));
    }
    return true;
  }
};

}  // namespace

TEST_CASE("serve: a wrong token opens no stream and answers nothing", "[serve]") {
  auto table = open_table(11);
  httplib::Client client("127.0.0.1", table->port());
  const Open open = *open_decision(*table);
  const auto before = stream_sizes(*table);

  check_error(post_answer(client, "0123456789abcdef0123456789abcdef", R"({"choose": 0})"), 403);
  check_error(client.Post("/api/answer", R"({"choose": 0})", "application/json"), 403);  // a spectator
  check_error(client.Get("/api/messages?token=nope"), 403);
  check_error(client.Get("/api/events?token=nope"), 403);
  // A token is a whole secret: a prefix of a real one opens nothing.
  check_error(post_answer(client, table->token(open.seat).substr(0, 16), R"({"choose": 0})"), 403);

  CHECK(stream_sizes(*table) == before);
  CHECK(table->answered() == 0);
  // The game is intact: its seat answers and it goes on.
  auto ok = post_answer(client, table->token(open.seat), R"({"choose": 0})");
  REQUIRE(ok);
  CHECK(ok->status == 200);
  const Open next = *open_decision(*table);
  // Each seat numbers its own decisions (the seat protocol's decide).
  CHECK((next.seat != open.seat || next.decision == open.decision + 1));
  CHECK(table->answered() == 1);
}

TEST_CASE("serve: an answer out of turn or to a closed decision changes nothing", "[serve]") {
  auto table = open_table(12);
  httplib::Client client("127.0.0.1", table->port());
  const Open open = *open_decision(*table);
  const auto before = stream_sizes(*table);
  const std::string other = table->token(other_seat(open.seat)), mine = table->token(open.seat);

  check_error(post_answer(client, other, R"({"choose": 0})"), 409);
  check_error(post_answer(client, other, json{{"choose", 0}, {"decision", open.decision}}.dump()), 409);
  check_error(post_answer(client, mine, json{{"choose", 0}, {"decision", open.decision + 1}}.dump()), 409);
  CHECK(stream_sizes(*table) == before);
  CHECK(table->answered() == 0);

  auto ok = post_answer(client, mine, json{{"choose", open.count - 1}, {"decision", open.decision}}.dump());
  REQUIRE(ok);
  CHECK(ok->status == 200);
  // The same answer again (a double click) answers nothing more.
  check_error(post_answer(client, mine, json{{"choose", 0}, {"decision", open.decision}}.dump()), 409);
  open_decision(*table);
  CHECK(table->answered() == 1);
}

TEST_CASE("serve: an answer that arrives before the game waits for it is taken", "[serve]") {
  // A page may answer the moment it reads its decide message, before the
  // game thread waits: the hook posts the answer in exactly that window.
  WebTableConfig c;
  c.definition = load_game("hai-noon");
  c.spec = GameSpec{"hai-noon", {}, {}, 2, 12, {}};
  c.kinds = {"human", "human"};
  c.port = 0;
  c.server.threads = 8;
  std::atomic<WebTable*> table_of_hook{nullptr};
  int status = 0;  // of the early answer (game thread)
  bool posted = false;
  c.before_wait = [&](Seat seat) {
    if (posted) return;
    posted = true;
    WebTable* t = table_of_hook.load();
    int decision = 0;
    for (const auto& m : parsed(t->messages(t->token(seat))))
      if (m["type"] == "decide") decision = m["decision"].get<int>();
    httplib::Client early("127.0.0.1", t->port());
    auto r = post_answer(early, t->token(seat), json{{"choose", 0}, {"decision", decision}}.dump());
    status = r ? r->status : -1;
  };
  auto table = std::make_unique<WebTable>(std::move(c));
  table_of_hook = table.get();
  table->start();
  // The game moves past the first decision on the early answer alone.
  for (int tries = 0; tries < 3000 && table->answered() < 1; ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(table->answered() == 1);
  table->stop();
  CHECK(posted);
  CHECK(status == 200);
}

TEST_CASE("serve: malformed bodies and options out of range get 400 and change nothing", "[serve]") {
  auto table = open_table(13);
  httplib::Client client("127.0.0.1", table->port());
  const Open open = *open_decision(*table);
  const auto before = stream_sizes(*table);
  const std::string mine = table->token(open.seat);
  for (const std::string& body :
       {std::string("{choose:"), std::string(""), std::string("[1]"), std::string("null"), std::string(R"({"choose": "1"})"),
        std::string(R"({"choose": 1.5})"), std::string(R"({"pick": 0})"), json{{"choose", open.count}}.dump(),
        std::string(R"({"choose": -1})"), std::string(R"({"choose": 99999999999999})"),
        std::string(R"({"choose": 0, "decision": "one"})"), std::string("\xff\xfe")}) {
    INFO(body);
    const auto r = post_answer(client, mine, body);
    check_error(r, 400);
    // In our words, never a library's: no parser exception text.
    CHECK(r->body.find("exception") == std::string::npos);
    CHECK(r->body.find("parse_error") == std::string::npos);
  }
  // What a page is told, for a body that is not JSON at all.
  const auto garbled = post_answer(client, mine, "{choose:");
  REQUIRE(garbled);
  CHECK(json::parse(garbled->body)["error"] == R"(malformed JSON: expected an object like {"choose": 2, "decision": 1})");
  // And for a page that does not exist.
  const auto missing = client.Get("/api/nothing");
  check_error(missing, 404);
  CHECK(json::parse(missing->body)["error"] == "nothing here: GET /api/nothing");
  CHECK(stream_sizes(*table) == before);
  CHECK(table->answered() == 0);
  auto ok = post_answer(client, mine, R"({"choose": 0})");
  REQUIRE(ok);
  CHECK(ok->status == 200);
  open_decision(*table);
  CHECK(table->answered() == 1);
}

TEST_CASE("serve: 100 spectators follow the game at once and see only the public view", "[serve]") {
  auto table = open_table(14);
  httplib::Client client("127.0.0.1", table->port());
  const Open open = *open_decision(*table);
  // The spectators' stream has its "waiting" too: nothing more comes until the answer.
  for (int i = 0; i < 3000 && json::parse(table->messages("").back())["type"] != "waiting"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const size_t initial = table->messages("").size();

  constexpr int kSpectators = 100;
  std::vector<SseReader> readers(kSpectators);
  std::atomic<int> caught_up{0};
  std::atomic<bool> answered{false};
  std::vector<std::thread> threads;
  // They arrive ten at a time (a real crowd does not open its pages in the
  // same millisecond, and httplib listens with a short accept backlog),
  // and stay: all of them are connected at once before the game moves.
  for (int i = 0; i < kSpectators; ++i) {
    threads.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", table->port());
      c.set_read_timeout(30, 0);
      bool counted = false;
      // Until it holds the whole stream so far and then something new
      // that the answer below caused.
      c.Get("/api/events", [&](const char* data, size_t size) {
        readers[i].take(data, size);
        if (!counted && readers[i].received.size() >= initial) {
          counted = true;
          ++caught_up;
        }
        return !(answered && readers[i].received.size() > initial);
      });
    });
    if (i % 10 == 9)
      for (int wait = 0; wait < 3000 && caught_up <= i; ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(caught_up == kSpectators);  // all of them connected at the same time
  auto ok = post_answer(client, table->token(open.seat), R"({"choose": 0})");
  REQUIRE(ok);
  CHECK(ok->status == 200);
  answered = true;
  for (auto& t : threads) t.join();

  const auto spectators = parsed(table->messages(""));
  for (const auto& r : readers) {
    REQUIRE(r.received.size() > initial);
    for (const auto& [id, m] : r.received) {
      REQUIRE(static_cast<size_t>(id) < spectators.size());
      CHECK(m == spectators[static_cast<size_t>(id)]);
    }
  }
  CHECK(spectators.front()["seat"].is_null());
  check_no_hand_but(spectators, Seat::none());  // no hand at all
  // The game goes on, untouched by the crowd.
  open_decision(*table);
  CHECK(table->answered() == 1);
}

TEST_CASE("serve: a seat that reconnects mid-game resumes, and the finished game's log replays", "[serve]") {
  const std::string log = rulebook::test::temp_folder("serve-reconnect") + "/game.json";
  auto table = open_table(15, log);
  httplib::Client client("127.0.0.1", table->port());
  const std::string seat0 = table->token(Seat{0});

  // Seat 0's page reads its stream up to the first decision (its own, or
  // the seat it waits for), then drops.
  SseReader first;
  client.set_read_timeout(30, 0);
  client.Get(("/api/events?token=" + seat0).c_str(), [&](const char* data, size_t size) {
    first.take(data, size);
    return first.received.empty() || (first.received.back().second["type"] != "decide" &&
                                      first.received.back().second["type"] != "waiting");
  });
  REQUIRE(!first.received.empty());
  CHECK(first.received.front().second["type"] == "table");
  const long last_seen = first.received.back().first;

  // The game moves on while the page is away.
  Rng pick;
  pick.reseed(15, 7);
  auto play = [&](int decisions) {
    for (int i = 0; i < decisions; ++i) {
      const auto open = open_decision(*table);
      if (!open) return;
      const int index = static_cast<int>(pick.below(static_cast<uint32_t>(open->count)));
      auto r = post_answer(client, table->token(open->seat), json{{"choose", index}, {"decision", open->decision}}.dump());
      REQUIRE(r);
      REQUIRE(r->status == 200);
    }
  };
  play(6);
  open_decision(*table);

  // The EventSource reconnects with Last-Event-ID: it gets what it missed, in order.
  const auto all = parsed(table->messages(seat0));
  SseReader resumed;
  httplib::Headers headers{{"Last-Event-ID", first.last_id}};
  client.Get(("/api/events?token=" + seat0).c_str(), headers, [&](const char* data, size_t size) {
    resumed.take(data, size);
    return resumed.received.empty() || static_cast<size_t>(resumed.received.back().first) + 1 < all.size();
  });
  REQUIRE(!resumed.received.empty());
  CHECK(resumed.received.front().first == last_seen + 1);
  // The stream only grows: compare with what it holds now, as a message may
  // have been published after the snapshot above (the reader stops at or
  // past the snapshot's end).
  const auto now = parsed(table->messages(seat0));
  for (const auto& [id, m] : resumed.received) {
    REQUIRE(static_cast<size_t>(id) < now.size());
    CHECK(m == now[static_cast<size_t>(id)]);
  }
  // A reloaded page starts over from the hello and redraws.
  SseReader reloaded;
  client.Get(("/api/events?token=" + seat0).c_str(), [&](const char* data, size_t size) {
    reloaded.take(data, size);
    return reloaded.received.empty();
  });
  REQUIRE(!reloaded.received.empty());
  CHECK(reloaded.received.front().first == 0);
  CHECK(reloaded.received.front().second["type"] == "table");

  // Then the whole game, to its end.
  play(100000);
  REQUIRE(table->wait_over(30));
  CHECK(table->error() == "");
  CHECK(table->result()["finished"] == true);
  for (Seat seat : Seat::all(2)) {
    const auto messages = parsed(table->messages(table->token(seat)));
    CHECK(messages.back()["type"] == "end");
    check_no_hand_but(messages, seat);
  }
  check_error(post_answer(client, seat0, R"({"choose": 0})"), 409);  // over
  table->stop();
  const auto replay = rulebook::test::run_rulebook("replay '" + log + "'");
  INFO(replay.out << replay.err);
  CHECK(replay.exit_code == 0);
}

TEST_CASE("serve: options that are cells or components are offered on the table, and only known ones", "[serve]") {
  WebTableConfig c;
  c.definition = load_game("hao-hao");
  c.spec = GameSpec{"hao-hao", {}, {}, 2, 21, {}};
  c.kinds = {"human", "human"};
  c.port = 0;
  c.server.threads = 8;
  WebTable table(std::move(c));
  table.start();
  httplib::Client client("127.0.0.1", table.port());
  Rng pick;
  pick.reseed(21, 3);
  int cells = 0, components = 0;
  for (int step = 0; step < 150; ++step) {
    const auto open = open_decision(table);
    if (!open) break;
    const auto messages = parsed(table.messages(table.token(open->seat)));
    json view, decide;
    for (const auto& m : messages) {
      if (m["type"] == "view") view = m["view"];
      if (m["type"] == "decide") decide = m;
    }
    for (const auto& o : decide["options"]) {
      if (!o.contains("target")) continue;
      const json& t = o["target"];
      INFO(t.dump());
      if (t.contains("cell")) {  // a cell of a board the seat's page draws
        ++cells;
        CHECK(t["board"] == "field");
        const std::string cell = t["cell"];
        const auto comma = cell.find(',');
        CHECK(std::stoi(cell.substr(0, comma)) >= 1);
        CHECK(std::stoi(cell.substr(comma + 1)) >= 1);
      } else {  // a component the seat may know: its view shows it
        ++components;
        REQUIRE(t.contains("component"));
        CHECK(view.dump().find("\"id\":" + t["component"].dump() + ",") != std::string::npos);
      }
    }
    const int index = static_cast<int>(pick.below(static_cast<uint32_t>(open->count)));
    auto r = post_answer(client, table.token(open->seat), json{{"choose", index}, {"decision", open->decision}}.dump());
    REQUIRE(r);
    REQUIRE(r->status == 200);
  }
  CHECK(cells > 0);
  table.stop();
}

namespace {

// A web seat's stream carries the seat protocol (docs/bot-protocol.md):
// its hello, events, decides, undos and end are valid bot messages.
void check_protocol_messages(const std::vector<json>& messages) {
  static std::map<std::string, schema::Schema> schemas;
  int seen = 0;
  for (const auto& m : messages) {
    const std::string type = m["type"];
    if (type != "hello" && type != "event" && type != "decide" && type != "undo" && type != "end") continue;
    auto it = schemas.find(type);
    if (it == schemas.end())
      it = schemas.emplace(type, schema::Schema::load(std::string(RULEBOOK_SOURCE_DIR) + "/schemas/bot-protocol/" +
                                                      type + ".schema.json")).first;
    const auto issues = it->second.validate(m);
    for (const auto& issue : issues) UNSCOPED_INFO(type << " " << issue.pointer << ": " << issue.message);
    CHECK(issues.empty());
    ++seen;
  }
  CHECK(seen > 0);
}

json last_decide(const WebTable& table, Seat seat) {
  json decide;
  for (const auto& m : parsed(table.messages(table.token(seat))))
    if (m["type"] == "decide") decide = m;
  return decide;
}

}  // namespace

TEST_CASE("serve: undo at the table is refused with the reason after a reveal, else takes the game back", "[serve][undo]") {
  const std::string log = rulebook::test::temp_folder("serve-undo") + "/game.json";
  const uint64_t seed = 16;
  auto table = open_table(seed, log);
  httplib::Client client("127.0.0.1", table->port());
  auto def = load_game("hai-noon");
  RuleEngine checker(def);
  const ReplayStart start{2, seed, {}};
  // The same game beside the table, to know what undo must answer.
  auto mirror = std::make_unique<Match>(def);
  mirror->record_answers();
  REQUIRE(mirror->start(2, seed));
  std::vector<json> asked;  // the decide each answer answered
  auto post_undo = [&](const std::string& token) { return client.Post(("/api/undo?token=" + token).c_str(), "", "application/json"); };

  const Open first = *open_decision(*table);
  check_error(client.Post("/api/undo", "", "application/json"), 403);  // a spectator
  check_error(post_undo("0123456789abcdef0123456789abcdef"), 403);
  {  // nothing to take back yet
    const auto before = stream_sizes(*table);
    const auto r = post_undo(table->token(first.seat));
    check_error(r, 409);
    CHECK(json::parse(r->body)["error"] == "cannot undo: you have made no decision to take back");
    CHECK(stream_sizes(*table) == before);
  }

  Rng pick;
  pick.reseed(seed, 5);
  bool refused = false, allowed = false;
  for (int step = 0; step < 400; ++step) {
    const auto open = open_decision(*table);
    if (!open) break;
    REQUIRE(mirror->pending().seat == open->seat);
    // Either seat may ask while a person decides.
    bool rewound = false;
    for (const Seat asker : {open->seat, other_seat(open->seat)}) {
      const UndoCheck check = check_undo(def, checker, start, mirror->answers(), asker);
      if (!refused && !check.allowed && check.reason.find(" since") != std::string::npos) {
        const auto before = stream_sizes(*table);
        const auto r = post_undo(table->token(asker));
        check_error(r, 409);
        INFO(r->body);
        CHECK(json::parse(r->body)["error"] == "cannot undo: " + check.reason);
        CHECK(stream_sizes(*table) == before);  // refused: nothing changed
        refused = true;
      } else if (!allowed && check.allowed) {
        auto undos = [&](Seat seat) {
          int n = 0;
          for (const auto& m : parsed(table->messages(table->token(seat)))) n += m["type"] == "undo";
          return n;
        };
        const int undos_before = undos(Seat{0}) + undos(Seat{1});
        const auto r = post_undo(table->token(asker));
        REQUIRE(r);
        CHECK(r->status == 200);
        // The game is played again up to there; then each seat hears its undo.
        for (int i = 0; i < 3000 && undos(Seat{0}) + undos(Seat{1}) < undos_before + 2; ++i)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        const auto again = open_decision(*table);
        REQUIRE(again);
        // Back where the decision taken back was asked: same seat, prompt, options.
        const json& then = asked.at(check.keep);
        CHECK(again->seat == asker);
        CHECK(then["seat"] == asker.value());
        const json now = last_decide(*table, again->seat);
        CHECK(now["prompt"] == then["prompt"]);
        CHECK(now["options"] == then["options"]);
        CHECK(now["decision"] == then["decision"]);
        // Every page heard it: the seats in an undo message, everybody in the narration.
        CHECK(undos(Seat{0}) == 1);
        CHECK(undos(Seat{1}) == 1);
        bool told = false;
        for (const auto& m : parsed(table->messages("")))
          told = told || (m["type"] == "narration" && m.dump().find("takes back") != std::string::npos);
        CHECK(told);
        const std::vector<AnswerRecord> answers = mirror->answers();
        mirror = std::make_unique<Match>(def);
        mirror->record_answers();
        REQUIRE(replay_answers(*mirror, start, answers, check.keep));
        asked.resize(check.keep);
        allowed = rewound = true;
        break;
      }
    }
    if (rewound) continue;
    const int index = static_cast<int>(pick.below(static_cast<uint32_t>(open->count)));
    asked.push_back(last_decide(*table, open->seat));
    auto r = post_answer(client, table->token(open->seat), json{{"choose", index}, {"decision", open->decision}}.dump());
    REQUIRE(r);
    REQUIRE(r->status == 200);
    mirror->answer(index);
  }
  CHECK(refused);
  CHECK(allowed);
  REQUIRE(table->wait_over(30));
  CHECK(table->error() == "");
  for (Seat seat : Seat::all(2)) {
    const auto messages = parsed(table->messages(table->token(seat)));
    check_no_hand_but(messages, seat);
    check_protocol_messages(messages);
  }
  check_no_hand_but(parsed(table->messages("")), Seat::none());
  check_error(post_undo(table->token(Seat{0})), 409);  // over
  table->stop();
  const auto replay = rulebook::test::run_rulebook("replay '" + log + "'");
  INFO(replay.out << replay.err);
  CHECK(replay.exit_code == 0);
}
