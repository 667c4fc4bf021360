// rulebook arena: every listed agent plays in every seat of many games;
// each is reported with its wins (95% interval), mean decision time and a
// Bradley-Terry rating (Elo scale) with its 95% interval.
#include <iostream>

#include <unistd.h>

#include <fmt/format.h>

#include "bots/agent_factory.hpp"
#include "batch/arena.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/progress_bar.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

struct ArenaOptions {
  GameOptions game;
  std::vector<std::string> agents;
  int64_t games = 100;
  double until_interval = 0;
  int jobs = 1;
  bool json = false;
};

std::string percent(double v) { return fmt::format("{:.1f}%", 100 * v); }
std::string signed_rating(double v) { return fmt::format("{:+.0f}", v); }

nlohmann::json interval_json(const analysis::Interval& i) {
  return {{"estimate", i.estimate}, {"low", i.low}, {"high", i.high}};
}

// A mean return with its 95% interval (Student t) and standard deviation.
nlohmann::json return_json(const analysis::StatTally& returns) {
  const analysis::Interval mean = returns.mean();
  return {{"games", returns.count()},
          {"mean", mean.estimate},
          {"low", mean.low},
          {"high", mean.high},
          {"sd", returns.standard_deviation()}};
}

std::string return_text(const analysis::StatTally& returns) {
  const analysis::Interval mean = returns.mean();
  return fmt::format("{:+.3f} ({:+.3f}..{:+.3f})", mean.estimate, mean.low, mean.high);
}

int exit_code(const ArenaResult& result) {
  return result.cancelled ? report_interrupted(result.games, result.planned_games) : kOk;
}

int run(const ArenaOptions& o) {
  if (o.agents.size() < 2)
    throw SetupError(fmt::format("--agent: error: an arena needs at least two agents (got {}); "
                                 "give --agent KIND once per agent, e.g. --agent greedy --agent random",
                                 o.agents.size()));
  ArenaPlan plan;
  for (const auto& text : o.agents) {
    AgentSpec spec = builtin_agents().parse(text);
    if (spec.kind == "human")
      throw SetupError("--agent: error: an arena plays bots only: human plays at 'rulebook play'");
    build_agent(spec);  // a kind this build lacks or an unreadable file fails now, before any game
    plan.agents.push_back(std::move(spec));
  }
  auto def = load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});
  plan.definition = def;
  plan.players = player_count_for(*def, o.game.players);
  plan.games = o.games;
  plan.until_half_width = o.until_interval / 100;
  plan.seed = o.game.seed;
  plan.jobs = o.jobs;
  plan.limits = engine_limits(o.game);
  plan.agent_settings = AgentSettings{o.game.agent_timeout};
  plan.cancel = cancel_on_interrupt();

  std::atomic<int64_t> done{0};
  ArenaResult result;
  {
    std::unique_ptr<ProgressBar> bar;
    if (!o.json && isatty(2))
      bar = std::make_unique<ProgressBar>(done, arena_games(plan.games, static_cast<int>(plan.agents.size())));
    result = run_arena(plan, &done);
  }

  if (o.json) {
    nlohmann::json agents = nlohmann::json::array();
    for (const auto& a : result.agents) {
      nlohmann::json by_seat = a.games_by_seat, seats = nlohmann::json::array();
      for (size_t s = 0; s < a.by_seat.size(); ++s) {
        const ArenaSeatResult& seat = a.by_seat[s];
        seats.push_back({{"seat", s}, {"games", seat.games}, {"wins", seat.wins}, {"win_rate", interval_json(seat.win_rate)}});
        if (result.has_returns) seats.back()["returns"] = return_json(seat.returns);
      }
      agents.push_back({{"agent", a.spec},
                        {"label", a.label},
                        {"cheating", a.cheating},
                        {"games", a.games},
                        {"wins", a.wins},
                        {"win_rate", interval_json(a.win_rate)},
                        {"games_by_seat", by_seat},
                        {"decisions", a.decisions},
                        {"mean_decision_seconds", a.mean_decision_seconds()},
                        {"iterations", a.iterations},
                        {"iterations_per_second", a.search_seconds > 0 ? a.iterations / a.search_seconds : 0.0},
                        {"rating", interval_json(a.rating)},
                        {"seats", seats}});
      if (result.has_returns) agents.back()["returns"] = return_json(a.returns);
    }
    nlohmann::json out = {{"game", def->name},
                          {"title", def->title},
                          {"players", plan.players},
                          {"variants", o.game.variants},
                          {"sets", o.game.sets},
                          {"seed", plan.seed},
                          {"games", result.games},
                          {"until_interval", o.until_interval},
                          {"stopped_early", result.stopped_early},
                          {"jobs", result.jobs},
                          {"seconds", result.seconds},
                          {"rating_model", {{"name", "bradley-terry"},
                                            {"scale", "elo"},
                                            {"anchor", "mean 0"},
                                            {"prior", "one tie per pair"},
                                            {"interval", "bootstrap over games, 95%"},
                                            {"bootstrap_samples", result.bootstrap_samples}}},
                          {"agents", agents}};
    std::cout << out.dump() << "\n";
    return exit_code(result);
  }
  std::string setup = def->name;
  for (const auto& v : o.game.variants) setup += " +" + v;
  for (const auto& s : o.game.sets) setup += " --set " + s;
  std::cout << fmt::format("Arena: {}, {} players, {} games (seed {}); every agent in every seat equally often\n",
                           setup, plan.players, result.games, plan.seed);
  if (o.until_interval > 0)
    std::cout << fmt::format("{} every agent's 95% interval was within +-{:g} points{}\n",
                             result.stopped_early ? "Stopped when" : "Played every game: not stopped early; stops when",
                             o.until_interval, result.stopped_early ? "" : " (raise --games)");
  std::cout << "\n";
  size_t width = 5;
  for (const auto& a : result.agents) width = std::max(width, a.label.size());
  std::cout << fmt::format("{:<{}}  {:>6}  {:>6}  {:<24}  {:<20}  {:>12}\n", "agent", width, "games", "wins",
                           "win rate (95% CI)", "rating (95% CI)", "ms/decision");
  for (const auto& a : result.agents) {
    const std::string rate = fmt::format("{} ({}-{})", percent(a.win_rate.estimate), percent(a.win_rate.low),
                                         percent(a.win_rate.high));
    const std::string rating = fmt::format("{} ({}..{})", signed_rating(a.rating.estimate),
                                           signed_rating(a.rating.low), signed_rating(a.rating.high));
    std::cout << fmt::format("{:<{}}  {:>6}  {:>6}  {:<24}  {:<20}  {:>12.3f}\n", a.label, width, a.games, a.wins,
                             rate, rating, 1000 * a.mean_decision_seconds());
  }
  std::cout << fmt::format("\nBy seat: win rate (95% CI){}\n",
                           result.has_returns ? "; mean return (95% CI, Student t), the game's own payoff" : "");
  std::cout << fmt::format("{:<{}}  {:>4}  {:>6}  {:<24}{}\n", "agent", width, "seat", "games", "win rate (95% CI)",
                           result.has_returns ? "  mean return (95% CI)" : "");
  for (const auto& a : result.agents)
    for (size_t s = 0; s < a.by_seat.size(); ++s) {
      const ArenaSeatResult& seat = a.by_seat[s];
      if (seat.games == 0) continue;
      const std::string rate = fmt::format("{} ({}-{})", percent(seat.win_rate.estimate), percent(seat.win_rate.low),
                                           percent(seat.win_rate.high));
      std::cout << fmt::format("{:<{}}  {:>4}  {:>6}  {:<24}{}\n", a.label, width, s, seat.games, rate,
                               result.has_returns ? "  " + return_text(seat.returns) : "");
    }
  if (result.has_returns)
    for (const auto& a : result.agents)
      std::cout << fmt::format("{:<{}}  mean return over every seat: {}\n", a.label, width, return_text(a.returns));
  std::cout << fmt::format("\nRatings: Bradley-Terry on the Elo scale (+100: wins 64% of its meetings), mean 0, "
                           "95% bootstrap interval over {} resamples of the games.\n",
                           result.bootstrap_samples);
  std::cout << fmt::format("{:.1f} s on {} job{}\n", result.seconds, result.jobs, result.jobs == 1 ? "" : "s");
  return exit_code(result);
}

}  // namespace

Runner add_arena(CLI::App& app) {
  auto o = std::make_shared<ArenaOptions>();
  auto* cmd = app.add_subcommand(
      "arena", "rank agents: every listed agent plays in every seat, with win rates, decision times and ratings");
  add_game_options(*cmd, o->game);
  cmd->add_option("--agent,-a", o->agents,
                  "an agent to rank, KIND or KIND:key=value,... (repeat: at least two); kinds:\n" +
                      builtin_agents().describe("    "))
      ->check(utf8_text());
  add_agent_timeout_option(*cmd, o->game.agent_timeout);
  cmd->add_option("--games,-n", o->games, "number of games (rounded up to a multiple of the number of agents)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{10000000}));
  cmd->add_option("--until-interval", o->until_interval,
                  "stop at the first round of games after which every agent's 95% win-rate interval is within "
                  "+-P points (e.g. 10), --games being the most; decided on the games in order, so --jobs changes "
                  "nothing")
      ->check(CLI::Range(0.0, 50.0));
  cmd->add_option("--jobs,-j", o->jobs, "worker threads, each with its own Lua state")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--json", o->json, "print one JSON object");
  document_interrupt(*cmd);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
