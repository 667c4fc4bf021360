#include "batch/arena.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "batch/batch.hpp"
#include "bots/agent_factory.hpp"
#include "core/rng.hpp"
#include "play/match.hpp"
#include "bots/search_agent.hpp"

namespace rulebook {
namespace {

using Clock = std::chrono::steady_clock;

// Times the decisions of the agent it wraps, passing everything through.
class TimedAgent : public Agent {
 public:
  explicit TimedAgent(std::unique_ptr<Agent> inner) : inner_(std::move(inner)) {}
  std::string kind() const override { return inner_->kind(); }
  void begin_game(uint64_t stream_seed, Seat seat) override { inner_->begin_game(stream_seed, seat); }
  int choose(const Decision& d) override {
    const auto start = Clock::now();
    const int i = inner_->choose(d);
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    ++decisions;
    return i;
  }
  bool answers_at_once() const override { return inner_->answers_at_once(); }
  bool wants_events() const override { return inner_->wants_events(); }
  void observe(const nlohmann::json& event) override { inner_->observe(event); }
  bool wants_game_access() const override { return inner_->wants_game_access(); }
  void attach(const GameAccess* game) override { inner_->attach(game); }
  const Agent& inner() const { return *inner_; }
  int64_t decisions = 0;
  double seconds = 0;

 private:
  std::unique_ptr<Agent> inner_;
};



struct GameRecord {
  std::vector<int> lineup;        // agent per seat
  std::vector<bool> won;          // per seat
  std::vector<double> returns;    // per seat, when the game gave returns
};

// Whether every agent's Wilson interval over the games [0, n) is at most
// `half_width` wide on each side.
bool precise_enough(const std::vector<GameRecord>& records, int64_t n, int agents, double half_width) {
  std::vector<int64_t> games(static_cast<size_t>(agents), 0), wins(static_cast<size_t>(agents), 0);
  for (int64_t g = 0; g < n; ++g) {
    const GameRecord& r = records[static_cast<size_t>(g)];
    for (size_t s = 0; s < r.lineup.size(); ++s) {
      ++games[static_cast<size_t>(r.lineup[s])];
      if (r.won[s]) ++wins[static_cast<size_t>(r.lineup[s])];
    }
  }
  for (int a = 0; a < agents; ++a) {
    const analysis::Interval i = analysis::wilson_interval(wins[static_cast<size_t>(a)], games[static_cast<size_t>(a)]);
    if ((i.high - i.low) / 2 > half_width + 1e-12) return false;
  }
  return true;
}

// Pairwise scores of a set of games: for every two seats held by different
// agents, the winner beats the loser; both winners or both losers tie.
std::vector<std::vector<double>> pair_scores(const std::vector<const GameRecord*>& games, int agents) {
  std::vector<std::vector<double>> score(static_cast<size_t>(agents), std::vector<double>(static_cast<size_t>(agents), 0.0));
  for (const GameRecord* g : games) {
    const size_t n = g->lineup.size();
    for (size_t a = 0; a < n; ++a)
      for (size_t b = a + 1; b < n; ++b) {
        const auto i = static_cast<size_t>(g->lineup[a]), j = static_cast<size_t>(g->lineup[b]);
        if (i == j) continue;
        if (g->won[a] == g->won[b]) {
          score[i][j] += 0.5;
          score[j][i] += 0.5;
        } else if (g->won[a]) {
          score[i][j] += 1;
        } else {
          score[j][i] += 1;
        }
      }
  }
  return score;
}

// One worker's match (Lua state) and agents: an agent per (agent, seat),
// made when first seated and reused, so a search bot's own engine is
// loaded once.
struct ArenaWorker {
  ArenaWorker(const ArenaPlan& plan, int agents) : match(plan.definition, plan.limits), made(static_cast<size_t>(agents)) {
    for (auto& row : made) row.resize(static_cast<size_t>(plan.players));
  }
  Match match;
  std::vector<std::vector<std::unique_ptr<TimedAgent>>> made;
};

}  // namespace

int64_t arena_games(int64_t games, int agents) { return (games + agents - 1) / agents * agents; }

int arena_seat_agent(int64_t game, Seat seat, int agents) {
  return static_cast<int>((game + seat.value()) % agents);
}

std::vector<double> bradley_terry_ratings(const std::vector<std::vector<double>>& raw) {
  const size_t n = raw.size();
  std::vector<std::vector<double>> score = raw;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j) score[i][j] += 0.5;  // the prior: one tie per pair
  // Hunter's (2004) MM iterations: p_i = W_i / sum_j n_ij / (p_i + p_j).
  std::vector<double> p(n, 1.0);
  for (int iteration = 0; iteration < 1000; ++iteration) {
    double change = 0;
    std::vector<double> next(n);
    for (size_t i = 0; i < n; ++i) {
      double wins = 0, denominator = 0;
      for (size_t j = 0; j < n; ++j) {
        if (i == j) continue;
        wins += score[i][j];
        denominator += (score[i][j] + score[j][i]) / (p[i] + p[j]);
      }
      next[i] = denominator > 0 ? wins / denominator : p[i];
    }
    double log_mean = 0;
    for (double v : next) log_mean += std::log(v);
    log_mean /= static_cast<double>(n);
    for (size_t i = 0; i < n; ++i) {
      const double v = next[i] / std::exp(log_mean);
      change = std::max(change, std::fabs(std::log(v) - std::log(p[i])));
      p[i] = v;
    }
    if (change < 1e-10) break;
  }
  std::vector<double> ratings(n);
  for (size_t i = 0; i < n; ++i) ratings[i] = 400.0 * std::log10(p[i]);
  return ratings;
}

ArenaResult run_arena(const ArenaPlan& plan, std::atomic<int64_t>* done) {
  const int agents = static_cast<int>(plan.agents.size());
  if (agents < 2) throw std::invalid_argument("an arena needs at least two agents");
  ArenaResult result;
  result.games = arena_games(plan.games, agents);
  result.planned_games = result.games;
  std::vector<GameRecord> records(static_cast<size_t>(result.games));
  // Sequential stopping (until_half_width): games finished, the length of
  // the finished prefix, and where the arena stops.
  std::mutex stop_mutex;
  std::vector<char> finished(static_cast<size_t>(result.games), 0);
  int64_t prefix = 0;
  int64_t stop_at = result.games;
  std::atomic<bool> enough{false};  // no more games handed out; those under way are not counted

  batch::BatchPlan batch_plan;
  batch_plan.items = result.games;
  batch_plan.jobs = plan.jobs;
  batch_plan.seed = plan.seed;
  batch_plan.done = done;
  batch_plan.cancel = plan.cancel;
  batch_plan.enough = &enough;
  std::vector<std::unique_ptr<ArenaWorker>> workers(static_cast<size_t>(batch::batch_jobs(batch_plan)));
  const batch::BatchRun run = batch::run_batch(batch_plan, [&](int w) -> batch::PlayItem {
    workers[static_cast<size_t>(w)] = std::make_unique<ArenaWorker>(plan, agents);
    return [&, worker = workers[static_cast<size_t>(w)].get()](const batch::BatchItem& game) {
      const int64_t g = game.index;
      GameRecord& record = records[static_cast<size_t>(g)];
      std::vector<Agent*> seats;
      for (Seat s : Seat::all(plan.players)) {
        const int a = arena_seat_agent(g, s, agents);
        auto& slot = worker->made[static_cast<size_t>(a)][s.index()];
        if (!slot) slot = std::make_unique<TimedAgent>(build_agent(plan.agents[static_cast<size_t>(a)], plan.agent_settings));
        seats.push_back(slot.get());
        record.lineup.push_back(a);
      }
      worker->match.set_agents(seats);
      const GameResult& r = worker->match.play(plan.players, game.seed);
      record.won.assign(static_cast<size_t>(plan.players), false);
      for (Seat winner : r.winners) record.won[winner.index()] = true;
      record.returns = r.returns;
      if (plan.until_half_width > 0) {
        std::lock_guard<std::mutex> lock(stop_mutex);
        finished[static_cast<size_t>(g)] = 1;
        while (prefix < stop_at && finished[static_cast<size_t>(prefix)]) {
          ++prefix;
          if (prefix % agents == 0 && precise_enough(records, prefix, agents, plan.until_half_width)) {
            stop_at = prefix;
            enough.store(true);
          }
        }
      }
    };
  });
  run.rethrow_error();
  result.jobs = run.jobs;
  result.seconds = run.seconds;
  if (run.cancelled) {
    // Every game handed out finished: the games played are the first ones.
    result.cancelled = true;
    stop_at = std::min(stop_at, run.completed);
  }
  if (stop_at < result.games) {
    result.games = stop_at;
    result.stopped_early = enough.load();
    records.resize(static_cast<size_t>(stop_at));
  }

  result.agents.resize(static_cast<size_t>(agents));
  for (int a = 0; a < agents; ++a) {
    ArenaAgentResult& r = result.agents[static_cast<size_t>(a)];
    r.spec = plan.agents[static_cast<size_t>(a)].text;
    r.label = plan.agents[static_cast<size_t>(a)].label();
    r.cheating = plan.agents[static_cast<size_t>(a)].cheats();
    r.games_by_seat.assign(static_cast<size_t>(plan.players), 0);
    r.by_seat.assign(static_cast<size_t>(plan.players), ArenaSeatResult{});
    for (const auto& worker : workers)
      for (const auto& agent : worker->made[static_cast<size_t>(a)]) {
        if (!agent) continue;
        r.decisions += agent->decisions;
        r.decision_seconds += agent->seconds;
        if (const SearchStats* stats = search_stats(agent->inner())) {
          r.iterations += stats->iterations;
          r.search_seconds += stats->seconds;
        }
      }
  }
  std::vector<const GameRecord*> all;
  for (const auto& g : records) {
    all.push_back(&g);
    for (size_t s = 0; s < g.lineup.size(); ++s) {
      ArenaAgentResult& r = result.agents[static_cast<size_t>(g.lineup[s])];
      ++r.games;
      ++r.games_by_seat[s];
      ArenaSeatResult& seat = r.by_seat[s];
      ++seat.games;
      if (g.won[s]) {
        ++r.wins;
        ++seat.wins;
      }
      if (!g.returns.empty()) {
        result.has_returns = true;
        r.returns.add(g.returns[s]);
        seat.returns.add(g.returns[s]);
      }
    }
  }
  for (auto& r : result.agents) {
    r.win_rate = analysis::wilson_interval(r.wins, r.games);
    for (auto& seat : r.by_seat) seat.win_rate = analysis::wilson_interval(seat.wins, seat.games);
  }

  // Ratings, and their interval by the bootstrap over games (percentiles
  // of 200 resamples drawn from a stream seeded by the arena's seed).
  const std::vector<double> rating = bradley_terry_ratings(pair_scores(all, agents));
  result.bootstrap_samples = 200;
  std::vector<std::vector<double>> samples(static_cast<size_t>(agents));
  Rng rng;
  rng.reseed(plan.seed, 0x6172656e61ull);
  std::vector<const GameRecord*> resample(all.size());
  for (int b = 0; b < result.bootstrap_samples; ++b) {
    for (auto& g : resample) g = all[rng.below(static_cast<uint32_t>(all.size()))];
    const std::vector<double> r = bradley_terry_ratings(pair_scores(resample, agents));
    for (int a = 0; a < agents; ++a) samples[static_cast<size_t>(a)].push_back(r[static_cast<size_t>(a)]);
  }
  for (int a = 0; a < agents; ++a) {
    auto& s = samples[static_cast<size_t>(a)];
    std::sort(s.begin(), s.end());
    const auto at = [&](double q) { return s[static_cast<size_t>(std::lround(q * static_cast<double>(s.size() - 1)))]; };
    result.agents[static_cast<size_t>(a)].rating = analysis::Interval{rating[static_cast<size_t>(a)], at(0.025), at(0.975)};
  }
  return result;
}

}  // namespace rulebook
