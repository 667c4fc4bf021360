// The batch runner (runtime/batch/batch.hpp): the same games in index order
// whatever the jobs, the first error kept with its game, a cancelled run's
// partial result, progress, shards. (Ctrl-C through the real binary:
// tests/unit/cli/test_interrupt.cpp.)
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "agents/agent.hpp"
#include "batch/batch.hpp"
#include "core/rng.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using batch::BatchItem;
using batch::BatchPlan;

namespace {

struct Played {
  uint64_t seed = 0;
  int turns = 0;
  std::vector<int> winners;
  bool operator==(const Played& o) const { return seed == o.seed && turns == o.turns && winners == o.winners; }
};

std::shared_ptr<Match> random_match(std::shared_ptr<const GameDefinition> def) {
  auto match = std::make_shared<Match>(std::move(def));
  for (Seat s : Seat::all(3)) match->set_agent(s, std::make_unique<RandomAgent>());
  return match;
}

// Pandas games on `jobs` workers, one reused Match per worker.
batch::CollectedBatch<Played> play_pandas(int jobs, int64_t games, const std::atomic<bool>* cancel = nullptr,
                                          std::atomic<int64_t>* done = nullptr) {
  const auto def = load_game("pass-the-pandas");
  BatchPlan plan;
  plan.items = games;
  plan.jobs = jobs;
  plan.seed = 11;
  plan.cancel = cancel;
  plan.done = done;
  return batch::collect_batch<Played>(plan, [&](int) {
    auto match = random_match(def);
    return [match](const BatchItem& item) {
      const GameResult& r = match->play(3, item.seed);
      Played p{item.seed, r.turns, {}};
      for (Seat w : r.winners) p.winners.push_back(w.value());
      return p;
    };
  });
}

}  // namespace

TEST_CASE("batch: one job and two play the same games, in index order, seeded from the run's seed and the index") {
  std::atomic<int64_t> done{0};
  const auto one = play_pandas(1, 40, nullptr, &done);
  const auto two = play_pandas(2, 40);
  INFO((one.run.error ? one.run.error->message : std::string()));
  CHECK(one.run.jobs == 1);
  CHECK(two.run.jobs == 2);
  REQUIRE(one.results.size() == 40);
  CHECK(one.results == two.results);
  CHECK(one.indices == two.indices);
  for (int64_t i = 0; i < 40; ++i) {
    CHECK(one.indices[static_cast<size_t>(i)] == i);
    CHECK(one.results[static_cast<size_t>(i)].seed == Rng::mix(11, static_cast<uint64_t>(i)));
  }
  CHECK(done.load() == 40);  // progress reaches N
  CHECK(one.run.completed == 40);
  CHECK_FALSE(one.run.partial());
  CHECK_FALSE(one.run.cancelled);
  CHECK_FALSE(one.run.error);
}

TEST_CASE("batch: the first error is the lowest failing game's, kept with its index and seed, whatever the jobs") {
  for (int jobs : {1, 2, 3}) {
    INFO("jobs " << jobs);
    BatchPlan plan;
    plan.items = 200;
    plan.jobs = jobs;
    plan.seed = 5;
    std::atomic<int64_t> played{0};
    const auto run = batch::run_batch(plan, [&](int) -> batch::PlayItem {
      return [&](const BatchItem& item) {
        // Game 37 fails; later games fail sooner (a worker may reach them first).
        if (item.index >= 37) {
          if (item.index == 37) std::this_thread::sleep_for(std::chrono::milliseconds(20));
          throw std::runtime_error("game " + std::to_string(item.index) + " broke");
        }
        played.fetch_add(1);
      };
    });
    REQUIRE(run.error);
    CHECK(run.error->index == 37);
    CHECK(run.error->seed == Rng::mix(5, 37));
    CHECK(run.error->message == "game 37 broke");
    CHECK_THROWS_WITH(run.rethrow_error(), "game 37 broke");
    CHECK(run.completed == 37);  // every game before it finished
    CHECK(played.load() == 37);
    CHECK(run.partial());
    CHECK_FALSE(run.cancelled);
  }
}

TEST_CASE("batch: a worker that cannot be made is an error before any game") {
  BatchPlan plan;
  plan.items = 10;
  plan.jobs = 2;
  const auto run = batch::run_batch(plan, [](int worker) -> batch::PlayItem {
    if (worker == 1) throw std::runtime_error("no Lua state");
    return [](const BatchItem&) {};
  });
  REQUIRE(run.error);
  CHECK(run.error->index == -1);
  CHECK(run.error->message == "no Lua state");
}

TEST_CASE("batch: cancelling stops at the next game and returns the games completed, the first ones in order") {
  for (int jobs : {1, 2}) {
    INFO("jobs " << jobs);
    std::atomic<bool> cancel{false};
    std::atomic<int64_t> done{0};
    const auto def = load_game("pass-the-pandas");
    BatchPlan plan;
    plan.items = 100000;
    plan.jobs = jobs;
    plan.seed = 11;
    plan.cancel = &cancel;
    plan.done = &done;
    const auto partial = batch::collect_batch<Played>(plan, [&](int) {
      auto match = random_match(def);
      return [match, &cancel](const BatchItem& item) {
        if (item.index == 25) cancel.store(true);  // as the SIGINT handler would, mid-run
        const GameResult& r = match->play(3, item.seed);
        Played p{item.seed, r.turns, {}};
        for (Seat w : r.winners) p.winners.push_back(w.value());
        return p;
      };
    });
    CHECK(partial.run.cancelled);
    CHECK(partial.run.partial());
    CHECK_FALSE(partial.run.error);
    CHECK(partial.run.planned == 100000);
    CHECK(partial.run.completed >= 26);
    CHECK(partial.run.completed <= 26 + jobs);  // each worker finishes the game it holds, no more
    CHECK(done.load() == partial.run.completed);
    REQUIRE(static_cast<int64_t>(partial.results.size()) == partial.run.completed);
    // The same games as an uncancelled run's first ones.
    const auto whole = play_pandas(1, partial.run.completed);
    CHECK(partial.results == whole.results);
    CHECK(partial.indices == whole.indices);
  }
}

TEST_CASE("batch: shards split the indices, and `enough` stops a run without cancelling it") {
  BatchPlan plan;
  plan.items = 10;
  plan.shard = 1;
  plan.shards = 3;
  plan.jobs = 2;
  const auto shard = batch::collect_batch<int64_t>(plan, [](int) { return [](const BatchItem& item) { return item.index; }; });
  CHECK(shard.indices == std::vector<int64_t>{1, 4, 7});
  CHECK(shard.results == std::vector<int64_t>{1, 4, 7});
  CHECK(batch::items_in_shard(10, 1, 3) == 3);
  CHECK(batch::items_in_shard(2, 2, 3) == 0);

  std::atomic<bool> enough{false};
  BatchPlan stop;
  stop.items = 1000;
  stop.enough = &enough;
  const auto run = batch::run_batch(stop, [&](int) -> batch::PlayItem {
    return [&](const BatchItem& item) {
      if (item.index == 9) enough.store(true);
    };
  });
  CHECK(run.completed == 10);
  CHECK_FALSE(run.cancelled);
  CHECK_THROWS_AS(batch::run_batch(BatchPlan{5, 3, 3}, [](int) -> batch::PlayItem { return {}; }), std::invalid_argument);
}
