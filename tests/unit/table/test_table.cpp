// The table without any transport (runtime/table): tokens and streams, an
// answer taken once and only for the seat asked, refusals in our words, a
// finished game whose log replays. The HTTP side is tests/unit/cli/test_web_table.cpp.
#include <mutex>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>

#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "table/table.hpp"

using namespace rulebook;
using nlohmann::json;

namespace {

std::unique_ptr<Table> open_table(const std::string& game, int players, uint64_t seed) {
  TableConfig c;
  c.definition = load_game(game);
  c.spec = GameSpec{game, {}, {}, players, seed, {}};
  c.kinds.assign(static_cast<size_t>(players), "human");
  auto table = std::make_unique<Table>(std::move(c));
  table->start();
  return table;
}

struct Open {
  Table::StreamId stream;
  int decision = 0;
  int count = 0;
};

// The decision the game waits for, read from the seats' streams as a page
// would; nothing once the game is over. Bounded: 30 s.
std::optional<Open> open_decision(const Table& table, int players) {
  for (int tries = 0; tries < 3000 && !table.over(); ++tries) {
    for (Seat seat : Seat::all(players)) {
      const Table::StreamId s = table.stream_of(table.token(seat));
      std::optional<Open> open;
      for (const std::string& text : table.messages(s)) {
        const json m = json::parse(text);
        if (m["type"] == "decide") open = Open{s, m["decision"].get<int>(), static_cast<int>(m["options"].size())};
        if (m["type"] == "answered" && open && m["decision"] == open->decision) open.reset();
      }
      if (open) return open;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("table: each person's seat has its own token; the spectators need none", "[table]") {
  auto table = open_table("hai-noon", 2, 21);
  const std::string a = table->token(Seat{0}), b = table->token(Seat{1});
  CHECK(a.size() == 32);
  CHECK(b.size() == 32);
  CHECK(a != b);
  CHECK(table->stream_of(a) != table->stream_of(b));
  CHECK_FALSE(table->spectators(table->stream_of(a)));
  CHECK(table->spectators(table->stream_of("")));
  CHECK(table->stream_of("not-a-token") == Table::kNoStream);
  CHECK(table->stream_of(a.substr(0, 31)) == Table::kNoStream);
  // Every stream begins with how to draw the game.
  CHECK(json::parse(table->messages(table->stream_of(""))[0])["type"] == "table");
  CHECK(json::parse(table->messages(table->stream_of(a))[0])["seat"] == 0);
  CHECK(table->state() == TableState::playing);
}

TEST_CASE("table: an answer is taken once, for the seat asked, and refusals are in our words", "[table]") {
  auto table = open_table("hai-noon", 2, 22);
  const Open open = *open_decision(*table, 2);
  const Table::StreamId other = table->stream_of(table->token(Seat{0})) == open.stream
                                    ? table->stream_of(table->token(Seat{1}))
                                    : table->stream_of(table->token(Seat{0}));
  const auto before = table->messages(open.stream).size();

  TableReply r = table->answer(open.stream, "{choose:");
  CHECK(r.refusal == Refusal::malformed);
  CHECK(r.message.find("malformed JSON") == 0);
  CHECK(r.message.find("exception") == std::string::npos);
  CHECK(table->answer(open.stream, json{{"choose", open.count}}.dump()).refusal == Refusal::malformed);
  CHECK(table->answer(table->stream_of(""), R"({"choose": 0})").refusal == Refusal::forbidden);
  CHECK(table->answer(Table::kNoStream, R"({"choose": 0})").refusal == Refusal::forbidden);
  CHECK(table->answer(other, R"({"choose": 0})").refusal == Refusal::conflict);
  CHECK(table->answer(open.stream, json{{"choose", 0}, {"decision", open.decision + 1}}.dump()).refusal ==
        Refusal::conflict);
  CHECK(table->answered() == 0);
  CHECK(table->messages(open.stream).size() == before);

  r = table->answer(open.stream, json{{"choose", 0}, {"decision", open.decision}}.dump());
  CHECK(r.ok());
  CHECK(r.decision == open.decision);
  CHECK(table->answered() == 1);
  // The same answer again is stale.
  CHECK(table->answer(open.stream, json{{"choose", 0}, {"decision", open.decision}}.dump()).refusal ==
        Refusal::conflict);
  CHECK(table->answered() == 1);
}

TEST_CASE("table: readers wait for news without polling, and undo is refused to spectators", "[table]") {
  auto table = open_table("hai-noon", 2, 23);
  int changes = 0;
  std::mutex m;
  const Open open = *open_decision(*table, 2);
  const size_t count = table->messages(open.stream).size();
  // Nothing new for this seat until it answers: the wait times out.
  CHECK(table->wait_messages(open.stream, count, std::chrono::milliseconds(50)) == count);
  table->on_change([&] {
    std::lock_guard lock(m);
    ++changes;
  });
  REQUIRE(table->answer(open.stream, R"({"choose": 0})").ok());
  CHECK(table->wait_messages(open.stream, count, std::chrono::seconds(10)) > count);
  {
    std::lock_guard lock(m);
    CHECK(changes > 0);
  }
  CHECK(table->undo(table->stream_of("")).refusal == Refusal::forbidden);
  CHECK(table->undo(Table::kNoStream).refusal == Refusal::forbidden);
}

TEST_CASE("table: a game played to its end by answers alone keeps a log that replays", "[table]") {
  auto table = open_table("pass-the-pandas", 3, 24);
  for (int guard = 0; guard < 2000 && !table->over(); ++guard) {
    const std::optional<Open> open = open_decision(*table, 3);
    if (!open) break;
    REQUIRE(table->answer(open->stream, json{{"choose", 0}, {"decision", open->decision}}.dump()).ok());
  }
  REQUIRE(table->wait_over(30));
  CHECK(table->error().empty());
  CHECK(table->state() == TableState::over);
  CHECK(table->result().is_object());
  const std::string log = table->log_text();
  REQUIRE_FALSE(log.empty());
  const ReplayReport report = replay_log(json::parse(log));
  INFO(report.message);
  CHECK(report.ok);
  // The end reached every stream, and then they close.
  CHECK(json::parse(table->messages(table->stream_of("")).back())["type"] == "end");
  table->stop();
  CHECK(table->closed());
}
