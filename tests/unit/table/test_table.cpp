// The table without any transport (runtime/table): its id, tokens and
// streams, its life (created, playing, finished or abandoned), an answer
// taken once and only for the seat asked, refusals in our words, readers
// told of changes without a thread each, undo, a finished game whose log
// replays. The HTTP side is tests/unit/cli/test_web_table.cpp.
#include <algorithm>
#include <atomic>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>

#include "inline_game.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "table/table.hpp"

using namespace rulebook;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<Table> open_table(const std::string& game, int players, uint64_t seed, bool start = true) {
  TableConfig c;
  c.definition = load_game(game);
  c.spec = GameSpec{game, {}, {}, players, seed, {}};
  c.kinds.assign(static_cast<size_t>(players), "human");
  auto table = std::make_unique<Table>(std::move(c));
  if (start) table->start();
  return table;
}

// Two seats choose in turn, three times each; nothing is ever hidden or
// drawn, so any seat's last decision may be taken back.
const char* const kTurnsYaml = R"(name: turns
title: Turns
script: rules.lua
players: {min: 2, max: 2, default: 2}
zones:
  - {name: supply}
components:
  - {name: die, kind: die, faces: [one, two], count: 1, zone: supply}
)";
const char* const kTurnsPlay = R"(
  local picks = {}
  for round = 1, 3 do
    for seat = 0, 1 do
      picks[#picks + 1] = game:choose(seat, "Pick a number", {"one", "two", "three"})
    end
  end
  game:finish{details = {picks = picks}}
)";

struct Open {
  Table::StreamId stream;
  Seat seat;
  int decision = 0;
  int count = 0;
};

// The decision the game waits for, as the table tells its readers; nothing
// once the game is over. Bounded: 30 s.
std::optional<Open> open_decision(const Table& table, int players) {
  for (int tries = 0; tries < 3000 && !table.over(); ++tries) {
    for (Seat seat : Seat::all(players)) {
      const Table::StreamId s = table.stream_of(table.token(seat));
      const Table::Seen seen = table.seen(s);
      if (seen.decision > 0) return Open{s, seat, seen.decision, seen.options};
    }
    std::this_thread::sleep_for(10ms);
  }
  return std::nullopt;
}

std::string answer_text(int choose, int decision) { return json{{"choose", choose}, {"decision", decision}}.dump(); }

int count_of(const Table& table, Table::StreamId stream, const std::string& type) {
  int n = 0;
  for (const std::string& text : table.messages(stream)) n += json::parse(text)["type"] == type;
  return n;
}

}  // namespace

TEST_CASE("table: an id of its own, a token per person's seat, the spectators need none", "[table]") {
  auto table = open_table("hai-noon", 2, 21, false);
  auto other = open_table("hai-noon", 2, 21, false);
  CHECK(table->state() == TableState::created);
  CHECK(table->id().size() == 16);
  CHECK(table->id() != other->id());
  const std::string a = table->token(Seat{0}), b = table->token(Seat{1});
  CHECK(a.size() == 32);
  CHECK(a != b);
  CHECK(a != other->token(Seat{0}));
  CHECK(table->stream_of(a) != table->stream_of(b));
  CHECK_FALSE(table->spectators(table->stream_of(a)));
  CHECK(table->spectators(table->stream_of("")));
  CHECK(table->seen(table->stream_of(b)).seat == Seat{1});
  CHECK(table->seen(table->stream_of("")).seat.is_none());
  CHECK(table->stream_of("not-a-token") == Table::kNoStream);
  CHECK(table->stream_of(a.substr(0, 31)) == Table::kNoStream);
  CHECK(other->stream_of(a) == Table::kNoStream);  // a seat's token opens its own table only
  CHECK_THROWS_AS(table->messages(Table::kNoStream), std::invalid_argument);
  // Every stream begins with how to draw the game.
  CHECK(json::parse(table->messages(table->stream_of(""))[0])["type"] == "table");
  CHECK(json::parse(table->messages(table->stream_of(""))[0])["seat"].is_null());
  CHECK(json::parse(table->messages(table->stream_of(a))[0])["seat"] == 0);
  table->start();
  CHECK(table->state() == TableState::playing);
  CHECK(state_name(table->state()) == std::string("playing"));

  TableConfig named;
  named.id = "club-night-3";
  named.definition = load_game("hai-noon");
  named.spec = GameSpec{"hai-noon", {}, {}, 2, 1, {}};
  named.kinds = {"human", "greedy"};
  Table chosen(std::move(named));
  CHECK(chosen.id() == "club-night-3");
  CHECK(chosen.token(Seat{1}).empty());  // a bot's seat has no token

  TableConfig wrong;
  wrong.definition = load_game("hai-noon");
  wrong.spec = GameSpec{"hai-noon", {}, {}, 2, 1, {}};
  wrong.kinds = {"human"};
  CHECK_THROWS_AS(Table(std::move(wrong)), std::invalid_argument);
}

TEST_CASE("table: an answer is taken once, for the seat asked; stale ones and malformed ones in our words change nothing", "[table]") {
  auto table = open_table("hai-noon", 2, 22);
  const Open open = *open_decision(*table, 2);
  const Table::StreamId other = table->stream_of(table->token(Seat{1 - open.seat.value()}));
  const auto before = table->messages(open.stream).size();

  TableReply r = table->answer(open.stream, "{choose:");
  CHECK(r.refusal == Refusal::malformed);
  CHECK(r.message == R"(malformed JSON: expected an object like {"choose": 2, "decision": 1})");
  CHECK(table->answer(open.stream, "").refusal == Refusal::malformed);
  CHECK(table->answer(open.stream, "[1]").message == R"(expected an object {"choose": INDEX}, got array)");
  CHECK(table->answer(open.stream, json{{"choose", open.count}}.dump()).refusal == Refusal::malformed);
  CHECK(table->answer(table->stream_of(""), R"({"choose": 0})").refusal == Refusal::forbidden);
  CHECK(table->answer(Table::kNoStream, R"({"choose": 0})").refusal == Refusal::forbidden);
  CHECK(table->answer(other, R"({"choose": 0})").refusal == Refusal::conflict);
  r = table->answer(open.stream, answer_text(0, open.decision + 1));
  CHECK(r.refusal == Refusal::conflict);
  CHECK(r.message == "decision " + std::to_string(open.decision + 1) + " is no longer open (decision " +
                       std::to_string(open.decision) + " is)");
  CHECK(table->answered() == 0);
  CHECK(table->messages(open.stream).size() == before);

  r = table->answer(open.stream, answer_text(0, open.decision));
  CHECK(r.ok());
  CHECK(r.decision == open.decision);
  CHECK(table->answered() == 1);
  // The same answer again (a double click, a replayed request) is stale.
  r = table->answer(open.stream, answer_text(0, open.decision));
  CHECK(r.refusal == Refusal::conflict);
  CHECK(table->answered() == 1);
}

TEST_CASE("table: readers learn of changes by version, wait or callback, without a thread of the table each", "[table]") {
  auto table = open_table("hai-noon", 2, 23);
  const Open open = *open_decision(*table, 2);
  // Nothing new until the seat answers: the waits time out. The game
  // thread may still be telling the other seat it waits, so the table
  // counts as quiet only after a long still spell (a short one passes
  // while that thread is merely descheduled on a loaded machine).
  for (int i = 0; i < 100 && table->version() != table->wait_changed(table->version(), 300ms); ++i) {
  }
  const Table::Version quiet = table->version();
  CHECK(table->wait_changed(quiet, 50ms) == quiet);
  const size_t count = table->messages(open.stream).size();
  CHECK(table->wait_messages(open.stream, count, 50ms) == count);
  CHECK(table->seen(open.stream).messages == count);

  std::mutex m;
  std::vector<Table::Version> heard;
  std::atomic<int> after_unsubscribe{0};
  const int listener = table->subscribe([&](Table::Version v) {
    std::lock_guard lock(m);
    heard.push_back(v);
  });
  const int dropped = table->subscribe([&](Table::Version) { ++after_unsubscribe; });
  table->unsubscribe(dropped);
  REQUIRE(table->answer(open.stream, answer_text(0, open.decision)).ok());
  CHECK(table->seen(open.stream).decision == 0);  // answered: nothing open for it now
  CHECK(table->wait_changed(quiet, 10s) > quiet);
  CHECK(table->wait_messages(open.stream, count, 10s) > count);
  REQUIRE(open_decision(*table, 2));
  table->unsubscribe(listener);
  {
    std::lock_guard lock(m);
    REQUIRE_FALSE(heard.empty());
    CHECK(heard.front() > quiet);
    CHECK(std::is_sorted(heard.begin(), heard.end()));
  }
  CHECK(after_unsubscribe == 0);
  // What a seat sees now: its last view, and the decision it is asked.
  const Open next = *open_decision(*table, 2);
  const Table::Seen seen = table->seen(next.stream);
  CHECK(seen.options == next.count);
  REQUIRE_FALSE(seen.view.empty());
  CHECK(json::parse(seen.view)["type"] == "view");
  CHECK(json::parse(seen.view)["view"]["seat"] == next.seat.value());
}

TEST_CASE("table: undo takes the game back to the seat's last decision, through a callback; refusals say why", "[table][undo]") {
  test::TempGame game(kTurnsYaml, test::rules_lua(kTurnsPlay));
  TableConfig c;
  c.definition = load_game(game.dir());
  c.spec = GameSpec{game.dir(), {}, {}, 2, 5, {}};
  c.kinds = {"human", "human"};
  std::string saved;
  c.save_log = [&](const std::string& log) { saved = log; };
  Table table(std::move(c));
  table.start();
  const Table::StreamId ann = table.stream_of(table.token(Seat{0})), bob = table.stream_of(table.token(Seat{1}));

  Open open = *open_decision(table, 2);
  REQUIRE(open.seat == Seat{0});
  TableReply r = table.undo(ann);
  CHECK(r.refusal == Refusal::conflict);
  CHECK(r.message == "cannot undo: you have made no decision to take back");
  CHECK(table.undo(table.stream_of("")).refusal == Refusal::forbidden);
  CHECK(table.undo(Table::kNoStream).refusal == Refusal::forbidden);

  REQUIRE(table.answer(ann, answer_text(2, open.decision)).ok());  // ann: three
  open = *open_decision(table, 2);
  REQUIRE(open.seat == Seat{1});
  // Ann takes back her pick while Bob decides: the reply comes through the
  // callback, from the game thread.
  std::promise<TableReply> replied;
  table.undo(ann, [&](const TableReply& reply) { replied.set_value(reply); });
  std::future<TableReply> reply = replied.get_future();
  REQUIRE(reply.wait_for(30s) == std::future_status::ready);
  CHECK(reply.get().ok());
  // Asked again: Ann's first decision, as it was.
  for (int i = 0; i < 3000 && count_of(table, ann, "undo") == 0; ++i) std::this_thread::sleep_for(10ms);
  open = *open_decision(table, 2);
  CHECK(open.seat == Seat{0});
  CHECK(open.decision == 1);
  CHECK(count_of(table, ann, "undo") == 1);
  CHECK(count_of(table, bob, "undo") == 1);
  bool told = false;
  for (const std::string& text : table.messages(table.stream_of("")))
    told = told || text.find("takes back 1 decision.") != std::string::npos;
  CHECK(told);

  // Played to the end: ann picks "one" this time.
  for (int step = 0; step < 20 && !table.over(); ++step) {
    const std::optional<Open> now = open_decision(table, 2);
    if (!now) break;
    REQUIRE(table.answer(now->stream, answer_text(0, now->decision)).ok());
  }
  REQUIRE(table.wait_over(30));
  CHECK(table.error() == "");
  CHECK(table.state() == TableState::finished);
  CHECK(table.result()["details"]["picks"] == json::array({"one", "one", "one", "one", "one", "one"}));
  CHECK(table.undo(ann).message == "the game is over");
  CHECK(table.answer(ann, answer_text(0, 4)).message == "the game is over");
  // The log holds the game as played after the undo, and replays.
  REQUIRE(saved == table.log_text());
  const ReplayReport report = replay_log(json::parse(saved));
  INFO(report.message);
  CHECK(report.ok);
}

TEST_CASE("table: a game played to its end by answers alone keeps a log that replays", "[table]") {
  auto table = open_table("pass-the-pandas", 3, 24);
  const auto started = table->last_activity();
  for (int guard = 0; guard < 2000 && !table->over(); ++guard) {
    const std::optional<Open> open = open_decision(*table, 3);
    if (!open) break;
    REQUIRE(table->answer(open->stream, answer_text(0, open->decision)).ok());
  }
  REQUIRE(table->wait_over(30));
  CHECK(table->error() == "");
  CHECK(table->state() == TableState::finished);
  CHECK(table->last_activity() > started);
  CHECK(table->result().is_object());
  const std::string log = table->log_text();
  REQUIRE_FALSE(log.empty());
  const ReplayReport report = replay_log(json::parse(log));
  INFO(report.message);
  CHECK(report.ok);
  // The end reached every stream, and then they close.
  CHECK(json::parse(table->messages(table->stream_of("")).back())["type"] == "end");
  CHECK_FALSE(table->closed());
  table->stop();
  CHECK(table->closed());
  CHECK(table->state() == TableState::finished);  // stopping a finished table abandons nothing
}

TEST_CASE("table: stopped before its end, a table is abandoned and says why", "[table]") {
  auto never = open_table("hai-noon", 2, 25, false);
  never->stop();
  CHECK(never->state() == TableState::abandoned);
  CHECK(never->over());
  CHECK(never->log_text().empty());

  auto table = open_table("hai-noon", 2, 26);
  const Open open = *open_decision(*table, 2);
  const Table::Version before = table->version();
  table->stop();
  CHECK(table->state() == TableState::abandoned);
  CHECK(table->over());
  CHECK(table->version() > before);
  CHECK(table->error().find("the table closed while this seat was deciding") != std::string::npos);
  CHECK(json::parse(table->messages(open.stream).back())["type"] == "end");
  CHECK(table->answer(open.stream, answer_text(0, open.decision)).refusal == Refusal::conflict);
}

namespace {

// Sealed bids at once, three rounds; each round's winner is told, not the bids.
const char* const kBidsPlay = R"(
  local won = {}
  for round = 1, 3 do
    local bids = game:choose_together({0, 1}, "Seal a bid", {"one", "two", "three"})
    won[#won + 1] = bids[0] .. "-" .. bids[1]
    game:say("Round %d is over", round)
  end
  game:finish{details = {bids = won}}
)";

// Both seats' open decisions at once (bounded: 30 s).
bool both_open(const Table& table, Table::StreamId a, Table::StreamId b) {
  for (int tries = 0; tries < 3000 && !table.over(); ++tries) {
    if (table.seen(a).decision > 0 && table.seen(b).decision > 0) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

}  // namespace

TEST_CASE("table: a simultaneous decision is open at every seat at once, answered in either order", "[table][together]") {
  test::TempGame game(kTurnsYaml, test::rules_lua(kBidsPlay));
  TableConfig c;
  c.definition = load_game(game.dir());
  c.spec = GameSpec{game.dir(), {}, {}, 2, 5, {}};
  c.kinds = {"human", "human"};
  Table table(std::move(c));
  table.start();
  const Table::StreamId ann = table.stream_of(table.token(Seat{0})), bob = table.stream_of(table.token(Seat{1}));
  const Table::StreamId watchers = table.stream_of("");

  // Round 1: Bob answers first. Ann's stream learns nothing of it.
  REQUIRE(both_open(table, ann, bob));
  const size_t ann_before = table.messages(ann).size();
  REQUIRE(table.answer(bob, answer_text(2, table.seen(bob).decision)).ok());
  CHECK(table.seen(bob).decision == 0);  // answered: waiting for the others
  CHECK(table.seen(ann).decision == 1);
  CHECK(table.messages(ann).size() == ann_before);
  CHECK(table.answer(bob, answer_text(1, 1)).refusal == Refusal::conflict);  // no second answer
  // Ann may not take anything back now: Bob's answer is in.
  const TableReply refused = table.undo(ann);
  CHECK(refused.refusal == Refusal::conflict);
  CHECK_THAT(refused.message, Catch::Contains("simultaneous decision"));
  REQUIRE(table.answer(ann, answer_text(0, 1)).ok());

  // Round 2: Ann first; Bob's decide says it is simultaneous.
  REQUIRE(both_open(table, ann, bob));
  const json bob_decide = json::parse(table.messages(bob).back());
  CHECK(bob_decide["type"] == "decide");
  CHECK(bob_decide["together"] == json::array({0, 1}));
  REQUIRE(table.answer(ann, answer_text(1, table.seen(ann).decision)).ok());
  // Ann takes back her own answer (only hers is in): asked again.
  TableReply undone = table.undo(ann);
  for (int i = 0; i < 300 && undone.message.find("try again") != std::string::npos; ++i) {
    std::this_thread::sleep_for(10ms);  // the game has not read Ann's answer yet
    undone = table.undo(ann);
  }
  INFO(undone.message);
  CHECK(undone.ok());
  REQUIRE(both_open(table, ann, bob));
  REQUIRE(table.answer(ann, answer_text(2, table.seen(ann).decision)).ok());
  REQUIRE(table.answer(bob, answer_text(1, table.seen(bob).decision)).ok());

  // Round 3, then the end.
  REQUIRE(both_open(table, ann, bob));
  REQUIRE(table.answer(ann, answer_text(0, table.seen(ann).decision)).ok());
  REQUIRE(table.answer(bob, answer_text(0, table.seen(bob).decision)).ok());
  REQUIRE(table.wait_over(30));
  CHECK(table.error() == "");
  CHECK(table.result()["details"]["bids"] == json::array({"one-three", "three-two", "one-one"}));
  // The spectators were told whom the game waited for: both seats.
  bool told = false;
  for (const std::string& text : table.messages(watchers)) {
    const json m = json::parse(text);
    told = told || (m["type"] == "waiting" && m.value("seats", json()) == json::array({0, 1}));
  }
  CHECK(told);
  const ReplayReport report = replay_log(json::parse(table.log_text()));
  INFO(report.message);
  CHECK(report.ok);
}
