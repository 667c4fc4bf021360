#include "cli/simulation_runner.hpp"
#include "cli/human_agent.hpp"
#include "cli/progress_bar.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "play/match.hpp"
#include "core/rng.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

// Counts the decisions an agent answers, passing everything through.
class CountingAgent : public Agent {
 public:
  explicit CountingAgent(std::unique_ptr<Agent> inner) : inner_(std::move(inner)) {}
  std::string kind() const override { return inner_->kind(); }
  void begin_game(uint64_t stream_seed, Seat seat) override {
    decisions_ = 0;
    inner_->begin_game(stream_seed, seat);
  }
  int choose(const Decision& d) override {
    ++decisions_;
    return inner_->choose(d);
  }
  bool answers_at_once() const override { return inner_->answers_at_once(); }
  bool wants_events() const override { return inner_->wants_events(); }
  void observe(const nlohmann::json& event) override { inner_->observe(event); }
  bool wants_game_access() const override { return inner_->wants_game_access(); }
  void attach(const GameAccess* game) override { inner_->attach(game); }
  void prepare_game(const seat_protocol::GameInfo& game) override { inner_->prepare_game(game); }
  void end_game(const nlohmann::json& result) override { inner_->end_game(result); }
  int64_t decisions() const { return decisions_; }

 private:
  std::unique_ptr<Agent> inner_;
  int64_t decisions_ = 0;
};

}  // namespace

uint64_t game_seed(const RunPlan& plan, int64_t index) { return Rng::mix(plan.seed, static_cast<uint64_t>(index)); }

int64_t games_in_shard(int64_t games, int shard, int shards) {
  return games <= shard ? 0 : (games - shard + shards - 1) / shards;
}

RunTiming run_games(const RunPlan& plan, const GameRecorder& record) {
  const int humans = static_cast<int>(std::count(plan.agent_kinds.begin(), plan.agent_kinds.end(), "human"));
  const int64_t count = games_in_shard(plan.games, plan.shard, plan.shards);
  RunTiming timing;
  timing.jobs = std::max(1, static_cast<int>(std::min<int64_t>(plan.jobs, std::max<int64_t>(1, count))));
  if (humans > 0 && timing.jobs > 1)
    throw SetupError("--agent: error: a human seat answers on the terminal: use --jobs 1");
  const bool agents_by_side = !plan.side_agent_kinds.empty();
  auto kinds_of = [&](size_t side) -> const std::vector<std::string>& {
    return agents_by_side ? plan.side_agent_kinds.at(side) : plan.agent_kinds;
  };
  for (size_t side = 0; side < plan.sides.size(); ++side)
    for (const auto& kind : kinds_of(side)) make_agent(kind, std::cin, std::cerr, AgentSettings{plan.agent_timeout});  // unknown kinds fail here, once
  std::atomic<int64_t> next{0}, done{0};
  std::mutex error_mutex;
  std::exception_ptr error;

  auto worker = [&](int worker_index) {
    try {
      // One match (Lua state and game state) per side and worker, reused
      // by every game; the sides share the agents unless each has its own.
      std::vector<std::vector<CountingAgent*>> counters(agents_by_side ? plan.sides.size() : 1);
      std::vector<std::unique_ptr<Agent>> owned;
      std::vector<std::vector<Agent*>> agents(counters.size());
      for (size_t set = 0; set < counters.size(); ++set)
        for (int s = 0; s < plan.players; ++s) {
          auto counter = std::make_unique<CountingAgent>(make_agent(kinds_of(set).at(s), std::cin, std::cerr, AgentSettings{plan.agent_timeout}));
          counters[set].push_back(counter.get());
          agents[set].push_back(counter.get());
          owned.push_back(std::move(counter));
        }
      std::vector<std::unique_ptr<Match>> matches;
      for (size_t side = 0; side < plan.sides.size(); ++side) {
        matches.push_back(std::make_unique<Match>(plan.sides[side], plan.limits));
        matches.back()->set_agents(agents[agents_by_side ? side : 0]);
        matches.back()->set_keep_details(plan.keep_details);  // without --export only winners, turns and reason are read
      }
      std::vector<analysis::GameOutcome> outcomes(plan.sides.size());
      for (;;) {
        const int64_t j = next.fetch_add(1);
        if (j >= count) break;
        const int64_t i = plan.shard + j * plan.shards;
        const uint64_t seed = game_seed(plan, i);
        for (size_t side = 0; side < plan.sides.size(); ++side) {
          const GameResult& r = matches[side]->play(plan.players, seed);
          analysis::GameOutcome& out = outcomes[side];
          out.turns = r.turns;
          out.winners = 0;
          for (Seat w : r.winners) out.winners |= uint64_t{1} << w.value();
          out.decisions = 0;
          for (const auto* c : counters[agents_by_side ? side : 0]) out.decisions += c->decisions();
          out.reason = r.reason;
          if (plan.keep_details) out.details = r.details;
        }
        record(worker_index, i, outcomes);
        done.fetch_add(1, std::memory_order_relaxed);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(count);
    }
  };
  const auto start = std::chrono::steady_clock::now();
  {
    std::unique_ptr<ProgressBar> bar;
    if (plan.progress) bar = std::make_unique<ProgressBar>(done, count);
    std::vector<std::thread> threads;
    for (int j = 1; j < timing.jobs; ++j) threads.emplace_back(worker, j);
    worker(0);
    for (auto& t : threads) t.join();
  }
  timing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (error) std::rethrow_exception(error);
  return timing;
}

}  // namespace rulebook::cli
