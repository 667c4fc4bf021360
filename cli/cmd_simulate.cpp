// rulebook simulate: many bot games, statistics. Game i is seeded from
// (seed, i), so the numbers do not depend on how games are split over jobs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "setup/game_record.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

struct SimulateOptions {
  GameOptions game;
  int64_t games = 1000;
  int jobs = 1;
  std::string agent = "random";
  bool json = false;
};

struct GameOutcome {
  int turns = 0;
  SeatMask winners = 0;
};

int run(SimulateOptions& o) {
  auto def = load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});
  const int players = player_count_for(*def, o.game.players);
  if (o.agent != "random" && o.agent != "first")
    throw SetupError(fmt::format("--agent: error: simulate plays bots: random or first, not '{}'", o.agent));
  const EngineLimits limits = engine_limits(o.game);
  std::vector<GameOutcome> outcomes(static_cast<size_t>(o.games));
  std::atomic<int64_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;

  auto worker = [&] {
    try {
      // One engine (Lua state) and one state per worker, reused every game.
      RuleEngine engine(def, limits);
      GameState state(*def);
      std::vector<std::unique_ptr<Agent>> owned;
      std::vector<Agent*> agents;
      for (int s = 0; s < players; ++s) {
        if (o.agent == "first") owned.push_back(std::make_unique<FirstAgent>());
        else owned.push_back(std::make_unique<RandomAgent>());
        agents.push_back(owned.back().get());
      }
      for (;;) {
        const int64_t i = next.fetch_add(1);
        if (i >= o.games) break;
        state.reset(players, Rng::mix(o.game.seed, static_cast<uint64_t>(i)));
        const GameResult r = engine.play(state, agents);
        GameOutcome& out = outcomes[static_cast<size_t>(i)];
        out.turns = r.turns;
        for (int w : r.winners) out.winners |= seat_bit(w);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(o.games);
    }
  };
  const auto start = std::chrono::steady_clock::now();
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(std::max<int64_t>(1, o.games))));
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (error) std::rethrow_exception(error);

  double turns = 0;
  std::vector<double> wins(players, 0.0);
  for (const auto& out : outcomes) {
    turns += out.turns;
    for (int s = 0; s < players; ++s)
      if (out.winners & seat_bit(s)) wins[s] += 1;
  }
  const double n = static_cast<double>(std::max<int64_t>(1, o.games));
  nlohmann::json report;
  report["game"] = def->name;
  report["players"] = players;
  report["variants"] = o.game.variants;
  report["seed"] = o.game.seed;
  report["jobs"] = jobs;
  report["games"] = o.games;
  report["seconds"] = seconds;
  report["games_per_second"] = seconds > 0 ? static_cast<double>(o.games) / seconds : 0.0;
  report["mean_turns"] = turns / n;
  nlohmann::json rates = nlohmann::json::array();
  for (double w : wins) rates.push_back(w / n);
  report["win_rate_by_seat"] = rates;
  if (o.json) {
    std::cout << report.dump() << "\n";
    return kOk;
  }
  std::cout << fmt::format("{} games of {} with {} players{} in {:.3f} s ({:.0f} games/s, {} job{})\n",
                           o.games, def->title, players,
                           o.game.variants.empty() ? "" : fmt::format(" ({})", fmt::join(o.game.variants, ", ")),
                           seconds, report["games_per_second"].get<double>(), jobs, jobs == 1 ? "" : "s");
  std::cout << fmt::format("mean turns: {:.2f}\n", report["mean_turns"].get<double>());
  std::cout << "win rate by seat (seat 0 plays first):\n";
  for (int s = 0; s < players; ++s) std::cout << fmt::format("  seat {}: {:.1f}%\n", s, 100.0 * wins[s] / n);
  return kOk;
}

}  // namespace

Runner add_simulate(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand("simulate", "play many bot games and report statistics");
  add_game_options(*cmd, o->game);
  cmd->add_option("--games,-n", o->games, "number of games")->capture_default_str()->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  cmd->add_option("--jobs,-j", o->jobs, "worker threads, each with its own Lua state")->capture_default_str()->check(CLI::Range(1, 256));
  cmd->add_option("--agent", o->agent, "bot for every seat: random or first")->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON object");
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
