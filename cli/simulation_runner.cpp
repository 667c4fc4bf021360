#include "cli/simulation_runner.hpp"
#include "cli/human_agent.hpp"
#include "cli/progress_bar.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "batch/game_tracer.hpp"
#include "batch/kingmaking.hpp"
#include "bots/agent_factory.hpp"
#include "bots/search_agent.hpp"
#include "core/game_state.hpp"
#include "play/match.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

// Counts the decisions an agent answers, passing everything through; with
// an evaluator (--evaluator), a search agent of the same seat that values
// each position for the tracer before the seat's own agent decides. The
// evaluator follows the seat's events and searches from its information
// on its own stream (seeded from the seat's stream seed by a one-way hash),
// so the game's chance and the seat's agent draw exactly what they drew
// without it.
class CountingAgent : public Agent {
 public:
  // `tracer`: where the worker keeps the tracer of the game being played (null: none).
  CountingAgent(std::unique_ptr<Agent> inner, batch::GameTracer* const* tracer, std::unique_ptr<Agent> evaluator = {})
      : inner_(std::move(inner)), tracer_(tracer), evaluator_(std::move(evaluator)) {}
  std::string kind() const override { return inner_->kind(); }
  void begin_game(uint64_t stream_seed, Seat seat) override {
    decisions_ = 0;
    inner_->begin_game(stream_seed, seat);
    if (evaluating()) evaluator_->begin_game(agent_stream_seed(stream_seed, seat), seat);
  }
  int choose(const Decision& d) override {
    ++decisions_;
    if (*tracer_) {
      const std::vector<double>* values = nullptr;
      if (evaluating()) {
        evaluator_->choose(d);
        values = search_root_values(*evaluator_);
      }
      (*tracer_)->before_decision(d.seat(), values);
    }
    return inner_->choose(d);
  }
  bool answers_at_once() const override { return inner_->answers_at_once() && !evaluating(); }
  bool wants_events() const override { return inner_->wants_events() || evaluating(); }
  void observe(const nlohmann::json& event) override {
    if (inner_->wants_events()) inner_->observe(event);
    if (evaluating()) evaluator_->observe(event);
  }
  bool wants_game_access() const override { return inner_->wants_game_access() || evaluating(); }
  void attach(const GameAccess* game) override {
    if (inner_->wants_game_access()) inner_->attach(game);
    if (evaluating()) evaluator_->attach(game);
  }
  void prepare_game(const seat_protocol::GameInfo& game) override {
    inner_->prepare_game(game);
    if (evaluating()) evaluator_->prepare_game(game);
  }
  void end_game(const nlohmann::json& result) override {
    if (inner_->wants_events()) inner_->end_game(result);
    if (evaluating()) evaluator_->end_game(result);
  }
  int64_t decisions() const { return decisions_; }

 private:
  // This game's positions are valued by the evaluator (the tracer, begun
  // before the game, says whether the game lacks rules.evaluate).
  bool evaluating() const { return evaluator_ && *tracer_ && (*tracer_)->searched(); }
  std::unique_ptr<Agent> inner_;
  batch::GameTracer* const* tracer_;
  std::unique_ptr<Agent> evaluator_;
  int64_t decisions_ = 0;
};

}  // namespace

uint64_t game_seed(const RunPlan& plan, int64_t index) { return batch::item_seed(plan.seed, index); }

int64_t games_in_shard(int64_t games, int shard, int shards) { return batch::items_in_shard(games, shard, shards); }

RunTiming timing_of(const batch::BatchRun& run) { return RunTiming{run.seconds, run.jobs}; }

namespace {

// One worker's agents and matches: one match (Lua state and game state) per
// side, reused by every game of the worker; the sides share the agents
// unless each has its own (compare --base/--with '--agent ...').
const std::vector<std::string>& agent_kinds(const RunPlan& plan, size_t side) {
  return plan.side_agent_kinds.empty() ? plan.agent_kinds : plan.side_agent_kinds.at(side);
}

class SimulationWorker {
 public:
  SimulationWorker(const RunPlan& plan, int worker, const GameRecorder& record)
      : plan_(plan), worker_(worker), record_(record), outcomes_(plan.sides.size()),
        by_side_(!plan.side_agent_kinds.empty()), counters_(by_side_ ? plan.sides.size() : 1),
        tracers_(plan.metrics ? plan.sides.size() : 0) {
    std::vector<std::vector<Agent*>> agents(counters_.size());
    for (size_t set = 0; set < counters_.size(); ++set)
      for (int s = 0; s < plan.players; ++s) {
        auto counter = std::make_unique<CountingAgent>(
            make_agent(agent_kinds(plan, set).at(s), std::cin, std::cerr, AgentSettings{plan.agent_timeout}),
            &tracing_, plan.metrics && !plan.evaluator.empty() ? build_agent(plan.evaluator) : nullptr);
        agents[set].push_back(counter.get());
        counters_[set].push_back(std::move(counter));
      }
    for (size_t side = 0; side < plan.sides.size(); ++side) {
      matches_.push_back(std::make_unique<Match>(plan.sides[side], plan.limits));
      matches_.back()->set_agents(agents[by_side_ ? side : 0]);
      // Without --export only winners, turns and reason are read.
      matches_.back()->set_keep_details(plan.keep_details);
      if (plan.kingmaking) {
        matches_.back()->record_answers(true);
        const std::vector<std::string> kinds = agent_kinds(plan, side);
        const double timeout = plan.agent_timeout;
        probes_.push_back(std::make_unique<batch::KingmakingProbe>(plan.sides[side], plan.limits, [kinds, timeout](Seat s) {
          return make_agent(kinds.at(s.index()), std::cin, std::cerr, AgentSettings{timeout});
        }));
      }
    }
  }

  void play(const batch::BatchItem& game) {
    for (size_t side = 0; side < matches_.size(); ++side) {
      if (!tracers_.empty()) {
        tracing_ = &tracers_[side];
        tracing_->begin(*matches_[side], plan_.players, !plan_.evaluator.empty());
      }
      const GameResult& r = matches_[side]->play(plan_.players, game.seed);
      analysis::GameOutcome& out = outcomes_[side];
      if (tracing_) tracing_->finish(r, out.metrics);
      tracing_ = nullptr;
      if (!probes_.empty())
        out.metrics["kingmaking"] =
            probes_[side]->kingmaking(plan_.players, game.seed, matches_[side]->answers(), r.winners) ? 1 : 0;
      out.turns = r.turns;
      out.winners = 0;
      for (Seat w : r.winners) out.winners |= uint64_t{1} << w.value();
      out.decisions = 0;
      for (const auto& c : counters_[by_side_ ? side : 0]) out.decisions += c->decisions();
      out.reason = r.reason;
      out.stats = r.stats;
      out.returns = r.returns;
      if (plan_.keep_details) out.details = r.details;
    }
    record_(worker_, game.index, outcomes_);
  }

 private:
  const RunPlan& plan_;
  int worker_;
  const GameRecorder& record_;
  std::vector<analysis::GameOutcome> outcomes_;
  bool by_side_;  // each side has its own agents
  std::vector<std::vector<std::unique_ptr<CountingAgent>>> counters_;  // per side, or one set for all
  std::vector<std::unique_ptr<Match>> matches_;
  std::vector<batch::GameTracer> tracers_;  // one per side, with plan.metrics
  batch::GameTracer* tracing_ = nullptr;     // the side being played's
  std::vector<std::unique_ptr<batch::KingmakingProbe>> probes_;  // one per side, with plan.kingmaking
};

}  // namespace

void check_evaluator(const std::string& spec) {
  std::unique_ptr<Agent> agent;
  try {
    agent = build_agent(spec);
  } catch (const AgentSpecError& e) {
    throw SetupError(fmt::format("--evaluator: error: {}", e.what()));
  }
  if (!search_root_values(*agent))
    throw SetupError(fmt::format("--evaluator: error: '{}' is not a search agent: the evaluator is mcts or ismcts "
                                 "(for example ismcts:iterations=200), whose search values each position",
                                 spec));
}

batch::BatchRun run_games(const RunPlan& plan, const GameRecorder& record) {
  const int humans = static_cast<int>(std::count(plan.agent_kinds.begin(), plan.agent_kinds.end(), "human"));
  batch::BatchPlan batch_plan;
  batch_plan.items = plan.games;
  batch_plan.shard = plan.shard;
  batch_plan.shards = plan.shards;
  batch_plan.jobs = plan.jobs;
  batch_plan.seed = plan.seed;
  batch_plan.cancel = plan.cancel;
  if (humans > 0 && batch::batch_jobs(batch_plan) > 1)
    throw SetupError("--agent: error: a human seat answers on the terminal: use --jobs 1");
  for (size_t side = 0; side < plan.sides.size(); ++side)  // unknown kinds fail here, once
    for (const auto& kind : agent_kinds(plan, side)) {
      const auto agent = make_agent(kind, std::cin, std::cerr, AgentSettings{plan.agent_timeout});
      if (plan.kingmaking && (agent->wants_game_access() || agent->wants_events() || kind == "human"))
        throw SetupError(fmt::format("--kingmaking: error: agent '{}' searches its game or follows its events; "
                                     "kingmaking plays alternatives with agents that answer from the decision alone "
                                     "(random, first, scripted)", kind));
    }
  if (!plan.evaluator.empty()) check_evaluator(plan.evaluator);
  std::atomic<int64_t> done{0};
  batch_plan.done = &done;
  // Each worker's state lives here, beyond its thread: a worker is made on its own thread.
  std::vector<std::unique_ptr<SimulationWorker>> workers(static_cast<size_t>(batch::batch_jobs(batch_plan)));
  batch::BatchRun run;
  {
    std::unique_ptr<ProgressBar> bar;
    if (plan.progress) bar = std::make_unique<ProgressBar>(done, batch::items_in_shard(plan.games, plan.shard, plan.shards));
    run = batch::run_batch(batch_plan, [&](int w) -> batch::PlayItem {
      workers[static_cast<size_t>(w)] = std::make_unique<SimulationWorker>(plan, w, record);
      return [worker = workers[static_cast<size_t>(w)].get()](const batch::BatchItem& game) { worker->play(game); };
    });
  }
  if (run.error) {
    if (run.error->index >= 0)
      std::cerr << fmt::format("rulebook: game {} of the run failed first ('rulebook play' with --seed {} and the same "
                               "game, players and agents plays it again):\n",
                               run.error->index, run.error->seed);
    run.rethrow_error();
  }
  return run;
}

}  // namespace rulebook::cli
