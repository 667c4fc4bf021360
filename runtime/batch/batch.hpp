#pragma once
// The one batch runner: N items on J worker threads. An item is a game
// (simulate, compare, arena), a configuration to check (check) or a mutant
// to test (test --mutate); every command that plays many of something runs
// through here, so they share one way to split the work, seed games, keep
// the first error, count progress and stop on Ctrl-C.
//
// - Items are numbered 0..items-1 and handed out in that order. With
//   shards, this process plays only the items i with i % shards == shard.
// - Item i's seed is item_seed(seed, i), whatever the job count or shard,
//   so every split of a run plays the same games.
// - Each worker is made once, on its own thread (make_worker(w)), and plays
//   all its items: it holds its Match (Lua state), reused from game to game.
// - The first error is the one of the lowest item index (the one a single
//   job would meet first), kept with its index and seed; the other workers
//   stop at their next item boundary.
// - Cancellation (*cancel set, e.g. by a SIGINT handler) stops the workers
//   at their next item boundary: the items handed out before finish, so the
//   completed items are the first `completed` of this process, in order.
//
// A sweep over settings calls run_batch with one item per (setting, game)
// and a worker that keeps one Match per setting it meets.
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rulebook::batch {

struct BatchPlan {
  int64_t items = 0;  // the whole run's, over every shard
  int shard = 0;      // this process plays the items i with i % shards == shard
  int shards = 1;
  int jobs = 1;        // worker threads (at most one per item)
  uint64_t seed = 1;   // item i is seeded item_seed(seed, i)
  // Optional: counts finished items (a progress bar reads it).
  std::atomic<int64_t>* done = nullptr;
  // Optional: once true, no more items are handed out and the run is
  // marked cancelled (a SIGINT handler sets it).
  const std::atomic<bool>* cancel = nullptr;
  // Optional: once true, no more items are handed out, and the run is not
  // cancelled: the caller has enough (an arena whose intervals are narrow).
  const std::atomic<bool>* enough = nullptr;
};

// One item as a worker receives it.
struct BatchItem {
  int64_t index = 0;     // in the whole run
  int64_t position = 0;  // among this process's items (0, 1, ...): index without shards
  uint64_t seed = 0;     // item_seed(plan.seed, index)
};

// The first failing item's error (the lowest index among those that failed).
struct BatchError {
  int64_t index = -1;  // -1: a worker failed before its first item (making its Match, its agents)
  uint64_t seed = 0;
  std::string message;
  std::exception_ptr exception;
};

struct BatchRun {
  int64_t planned = 0;    // this process's items
  int64_t completed = 0;  // finished without an error
  int jobs = 1;           // the worker threads used
  double seconds = 0;     // wall clock
  bool cancelled = false;
  std::optional<BatchError> error;
  // Fewer items finished than planned (cancelled, an error, or enough).
  bool partial() const { return completed < planned; }
  // Rethrows the kept error (as thrown), if any.
  void rethrow_error() const;
};

// What a worker does with one item; called on the worker's thread.
using PlayItem = std::function<void(const BatchItem&)>;
// Makes worker `w`'s item function (w in [0, jobs)); called once per worker,
// on that worker's thread, so workers build their Lua states in parallel.
using MakeWorker = std::function<PlayItem(int worker)>;

uint64_t item_seed(uint64_t run_seed, int64_t index);
// The items shard K of N plays.
int64_t items_in_shard(int64_t items, int shard, int shards);
// The worker threads run_batch uses: jobs, at most one per item, at least one.
int batch_jobs(const BatchPlan& plan);

// Plays the plan's items. Never throws for an item's error: it is kept in
// the result (callers rethrow it with rethrow_error when they wish). Throws
// std::invalid_argument for a plan out of range.
BatchRun run_batch(const BatchPlan& plan, const MakeWorker& make_worker);

// The completed items' results, in index order (a cancelled run's are the
// first items of this process).
template <class Result>
struct CollectedBatch {
  BatchRun run;
  std::vector<Result> results;
  std::vector<int64_t> indices;  // the item index of each result
};

// run_batch for workers that return one result per item.
template <class Result>
CollectedBatch<Result> collect_batch(const BatchPlan& plan,
                                     const std::function<std::function<Result(const BatchItem&)>(int worker)>& make_worker) {
  std::vector<std::optional<Result>> slots(static_cast<size_t>(items_in_shard(plan.items, plan.shard, plan.shards)));
  CollectedBatch<Result> out;
  out.run = run_batch(plan, [&](int worker) -> PlayItem {
    auto play = make_worker(worker);
    return [&slots, play = std::move(play)](const BatchItem& item) {
      slots[static_cast<size_t>(item.position)] = play(item);
    };
  });
  for (size_t j = 0; j < slots.size(); ++j)
    if (slots[j]) {
      out.results.push_back(std::move(*slots[j]));
      out.indices.push_back(plan.shard + static_cast<int64_t>(j) * plan.shards);
    }
  return out;
}

}  // namespace rulebook::batch
