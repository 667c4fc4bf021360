#include "batch/batch.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/rng.hpp"

namespace rulebook::batch {

void BatchRun::rethrow_error() const {
  if (error && error->exception) std::rethrow_exception(error->exception);
}

uint64_t item_seed(uint64_t run_seed, int64_t index) { return Rng::mix(run_seed, static_cast<uint64_t>(index)); }

int64_t items_in_shard(int64_t items, int shard, int shards) {
  return items <= shard ? 0 : (items - shard + shards - 1) / shards;
}

int batch_jobs(const BatchPlan& plan) {
  const int64_t items = items_in_shard(plan.items, plan.shard, plan.shards);
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(plan.jobs, items)));
}

BatchRun run_batch(const BatchPlan& plan, const MakeWorker& make_worker) {
  if (plan.items < 0) throw std::invalid_argument("a batch needs a count of items of 0 or more");
  if (plan.shards < 1 || plan.shard < 0 || plan.shard >= plan.shards)
    throw std::invalid_argument("a batch's shard must be in [0, shards)");
  if (plan.jobs < 1) throw std::invalid_argument("a batch needs at least one job");
  BatchRun run;
  run.planned = items_in_shard(plan.items, plan.shard, plan.shards);
  run.jobs = batch_jobs(plan);

  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;  // guards run.error and run.completed
  auto keep_error = [&](int64_t index, uint64_t seed) {
    BatchError e{index, seed, {}, std::current_exception()};
    try {
      throw;
    } catch (const std::exception& x) {
      e.message = x.what();
    } catch (...) {
      e.message = "an unknown error";
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (!run.error || index < run.error->index) run.error = std::move(e);
    failed.store(true);
  };
  // Checked between items only: an item under way always finishes.
  auto stopping = [&] {
    return failed.load(std::memory_order_relaxed) || (plan.cancel && plan.cancel->load(std::memory_order_relaxed)) ||
           (plan.enough && plan.enough->load(std::memory_order_relaxed));
  };

  auto worker = [&](int w) {
    int64_t completed = 0;
    BatchItem item;
    try {
      const PlayItem play = make_worker(w);
      while (!stopping()) {
        item.position = next.fetch_add(1);
        if (item.position >= run.planned) break;
        item.index = plan.shard + item.position * plan.shards;
        item.seed = item_seed(plan.seed, item.index);
        try {
          play(item);
        } catch (...) {
          keep_error(item.index, item.seed);
          break;
        }
        ++completed;
        if (plan.done) plan.done->fetch_add(1, std::memory_order_relaxed);
      }
    } catch (...) {
      keep_error(-1, 0);  // making the worker failed
    }
    std::lock_guard<std::mutex> lock(mutex);
    run.completed += completed;
  };

  const auto start = std::chrono::steady_clock::now();
  {
    std::vector<std::thread> threads;
    for (int w = 1; w < run.jobs; ++w) threads.emplace_back(worker, w);
    worker(0);  // the calling thread is worker 0
    for (auto& t : threads) t.join();
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.cancelled = plan.cancel && plan.cancel->load() && run.completed < run.planned;
  return run;
}

}  // namespace rulebook::batch
