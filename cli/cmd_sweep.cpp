// rulebook sweep: one option (or several, or variant sets) over a range of
// values, every setting played on the same seeds, so that settings compare
// game by game. Each setting's unfairness, length and (when agents differ)
// skill with their intervals; the fairest setting; and every other
// setting against it, paired, with Holm's correction for the number of
// comparisons.
//
// Adaptive sampling (successive halving, as TAG's NTBEA tuning does) was
// considered and left out: it plays the settings still in contention more
// often, so the settings end with different games and seeds, the paired
// comparisons against the fairest lose their common games, and a setting
// dropped early keeps a wide interval that reads as a verdict. A fixed
// budget keeps every figure paired and every Holm p-value exact; a coarse
// sweep followed by a narrower one spends games where they matter.
#include <algorithm>
#include <set>
#include <iostream>


#include <fmt/format.h>

#include "analysis/paired_statistics.hpp"
#include "analysis/verdict.hpp"
#include "cli/batch_plan.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/plot.hpp"
#include "cli/run_provenance.hpp"
#include "cli/simulation_report.hpp"
#include "cli/simulation_runner.hpp"
#include "cli/sweep_settings.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using analysis::Difference;
using analysis::GameOutcome;
using analysis::Interval;
using analysis::RunStatistics;

struct SweepOptions {
  GameOptions game;
  int64_t games = 1000;
  int jobs = 1;
  std::vector<std::string> agents;
  std::string variant_sets;
  bool json = false;
  std::string plot;
  bool no_metrics = false;
  std::string evaluator;  // --evaluator: a search values positions for the metrics
};

// What a paired comparison needs of a game, kept for every game of every setting (16 bytes).
struct KeptGame {
  int32_t turns = 0;
  uint64_t winners = 0;
  GameOutcome outcome() const { return GameOutcome{turns, 0, winners, "", nullptr, {}, {}}; }
};

struct SettingRun {
  RunStatistics statistics;
  std::vector<KeptGame> games;  // by game index
  RunTiming timing;
  bool cancelled = false;  // Ctrl-C: the setting's games are not all played
  int64_t completed = 0;
};

// One setting's games, through the code path `simulate` uses (one call per
// setting): switching to another batch runner changes only this function.
SettingRun play_setting(const RunPlan& plan) {
  struct alignas(64) Accumulator {
    RunStatistics statistics;
  };
  std::vector<Accumulator> per_worker(static_cast<size_t>(plan.jobs), Accumulator{RunStatistics(plan.players)});
  SettingRun run{RunStatistics(plan.players), std::vector<KeptGame>(static_cast<size_t>(plan.games)), {}};
  const batch::BatchRun played = run_games(plan, [&](int worker, int64_t index, const std::vector<GameOutcome>& g) {
    per_worker[static_cast<size_t>(worker)].statistics.add(g[0]);
    run.games[static_cast<size_t>(index)] = KeptGame{g[0].turns, g[0].winners};  // each index written by one worker
  });
  run.timing = timing_of(played);
  run.cancelled = played.cancelled;
  run.completed = played.completed;
  for (const auto& acc : per_worker) run.statistics.merge(acc.statistics);
  return run;
}

// Skill when some seats have a bot other than random and some random: the
// strong seats' mean win rate minus the random seats', per game, t interval.
struct SkillSeats {
  std::vector<int> strong, random;
  bool any() const { return !strong.empty() && !random.empty(); }
};

SkillSeats skill_seats(const std::vector<std::string>& kinds) {
  SkillSeats s;
  for (size_t seat = 0; seat < kinds.size(); ++seat) (kinds[seat] == "random" ? s.random : s.strong).push_back(static_cast<int>(seat));
  return s;
}

Interval skill_of(const SettingRun& run, const SkillSeats& seats) {
  // Scaled by |strong| |random| to stay integer.
  analysis::Moments m;
  const auto strong = static_cast<int64_t>(seats.strong.size()), random = static_cast<int64_t>(seats.random.size());
  for (const auto& g : run.games) {
    int64_t s = 0, r = 0;
    for (int seat : seats.strong) s += static_cast<int64_t>((g.winners >> seat) & 1);
    for (int seat : seats.random) r += static_cast<int64_t>((g.winners >> seat) & 1);
    m.add(random * s - strong * r);
  }
  const Interval i = m.mean();
  const double scale = static_cast<double>(strong * random);
  return {i.estimate / scale, i.low / scale, i.high / scale};
}

struct Versus {
  Difference unfairness, turns;
  double unfairness_holm = 1, turns_holm = 1;
};

nlohmann::json difference_json(const Difference& d, double holm) {
  return {{"difference", interval_json(d.interval)},
          {"p_value", d.p_value},
          {"holm_p_value", holm},
          {"significant", holm < 0.05},
          {"games_differing", d.games_differing},
          {"no_game_differed", d.no_game_differed()}};
}

int run(SweepOptions& o) {
  if (!o.plot.empty()) check_plot_file(o.plot);
  const auto settings = sweep_settings(o.game.variants, o.variant_sets.empty() ? std::vector<std::vector<std::string>>{}
                                                                                : parse_variant_sets(o.variant_sets),
                                       o.game.sets);
  if (settings.size() < 2)
    throw SetupError("sweep: error: one setting only: give --set KEY=A..B[:STEP] or KEY=a,b,c, or --variant-sets "
                     "\"v1;v1+v2\" (for one setting, use simulate)");
  // Every setting is loaded, and so checked against the option schema, before any game is played.
  std::vector<std::shared_ptr<const GameDefinition>> definitions;
  for (const auto& s : settings) {
    try {
      definitions.push_back(load_game(o.game.game, LoadOptions{s.variants, s.sets}));
    } catch (const SetupError& e) {
      throw SetupError(fmt::format("sweep: setting '{}': {}", s.description, e.what()));
    }
  }
  RunPlan plan = batch_plan(o.game, o.games, o.jobs, !o.json);
  plan.players = player_count_for(*definitions.front(), o.game.players);
  for (const auto& def : definitions) player_count_for(*def, plan.players);
  plan.agent_kinds = agent_kinds(o.agents, plan.players);
  plan.metrics = !o.no_metrics;
  plan.evaluator = o.evaluator;

  std::vector<SettingRun> runs;
  RunTiming timing{0, 1};
  for (const auto& def : definitions) {
    plan.sides = {def};
    runs.push_back(play_setting(plan));
    // Settings compared on unequal seeds would mislead: an interrupted sweep reports nothing.
    if (runs.back().cancelled)
      return report_interrupted(static_cast<int64_t>(runs.size() - 1) * plan.games + runs.back().completed,
                                static_cast<int64_t>(definitions.size()) * plan.games, "games played",
                                "a sweep compares settings on the same games, so nothing is reported");
    timing.seconds += runs.back().timing.seconds;
    timing.jobs = runs.back().timing.jobs;
  }
  const SkillSeats seats = skill_seats(plan.agent_kinds);
  size_t fairest = 0;
  for (size_t k = 1; k < runs.size(); ++k)
    if (runs[k].statistics.unfairness_rank() < runs[fairest].statistics.unfairness_rank()) fairest = k;
  // Every other setting against the fairest, paired game by game; Holm over each figure's comparisons.
  std::vector<Versus> versus(runs.size());
  std::vector<double> unfair_p, turns_p;
  for (size_t k = 0; k < runs.size(); ++k) {
    if (k == fairest) continue;
    analysis::PairedStatistics paired(plan.players);
    for (size_t g = 0; g < runs[k].games.size(); ++g)
      paired.add(runs[fairest].games[g].outcome(), runs[k].games[g].outcome(), static_cast<int64_t>(g));
    versus[k].unfairness = paired.unfairness(o.game.seed);
    versus[k].turns = paired.turns();
    unfair_p.push_back(versus[k].unfairness.p_value);
    turns_p.push_back(versus[k].turns.p_value);
  }
  const auto unfair_holm = analysis::holm_adjusted(unfair_p), turns_holm = analysis::holm_adjusted(turns_p);
  for (size_t k = 0, at = 0; k < runs.size(); ++k) {
    if (k == fairest) continue;
    versus[k].unfairness_holm = unfair_holm[at];
    versus[k].turns_holm = turns_holm[at];
    ++at;
  }
  std::vector<size_t> contention;
  for (size_t k = 0; k < runs.size(); ++k)
    if (k == fairest || versus[k].unfairness_holm >= 0.05 || versus[k].unfairness.interval.high <= 0) contention.push_back(k);

  const auto& first = *definitions.front();
  const std::string adaptive = "none: every setting plays every seed (paired comparisons, exact Holm); see docs/judging-a-rule.md";
  if (o.json) {
    const RunDescription d{first.name, first.title, plan.players, o.game.variants, {}, plan.agent_kinds, o.game.seed,
                           o.games, rules_hash(first.dir, {}, {})};
    nlohmann::json j = run_header_json(d, o.games, timing, false);
    j["variants"] = o.game.variants;
    nlohmann::json all = nlohmann::json::array();
    for (size_t k = 0; k < runs.size(); ++k) {
      const auto& s = runs[k].statistics;
      nlohmann::json entry = figures_json(s);
      entry["variants"] = settings[k].variants;
      entry["sets"] = settings[k].sets;
      entry["description"] = settings[k].description;
      entry["rules_hash"] = rules_hash(definitions[k]->dir, settings[k].variants, settings[k].sets);
      if (seats.any()) entry["skill"] = interval_json(skill_of(runs[k], seats));
      if (k != fairest)
        entry["versus_fairest"] = {{"unfairness", difference_json(versus[k].unfairness, versus[k].unfairness_holm)},
                                   {"mean_turns", difference_json(versus[k].turns, versus[k].turns_holm)}};
      entry["in_contention"] = std::find(contention.begin(), contention.end(), k) != contention.end();
      all.push_back(entry);
    }
    j["settings"] = all;
    j["fairest"] = {{"index", fairest},
                    {"variants", settings[fairest].variants},
                    {"sets", settings[fairest].sets},
                    {"description", settings[fairest].description},
                    {"unfairness", interval_json(runs[fairest].statistics.unfairness())}};
    if (seats.any()) j["skill_seats"] = {{"strong", seats.strong}, {"random", seats.random}};
    j["multiple_comparisons"] = "Holm, over the comparisons of each figure with the fairest setting";
    j["adaptive"] = adaptive;
    std::cout << j.dump() << "\n";
  } else {
    auto& out = std::cout;
    out << fmt::format("sweep of {} with {} players: {} settings, {} games each on the same seeds (seed {}), {}\n",
                       first.title, plan.players, runs.size(), o.games, o.game.seed, agents_text(plan.agent_kinds));
    out << fmt::format("time: {:.3f} s ({} job{})\n", timing.seconds, timing.jobs, timing.jobs == 1 ? "" : "s");
    out << "95% intervals; unfairness is the RMS seat advantage in points (0 = fair); each setting is compared with "
           "the fairest game by game, p-values Holm-adjusted\n";
    size_t width = 8;
    for (const auto& setting : settings) width = std::max(width, setting.description.size());
    out << fmt::format("  {:<{}} {:<22} {:<18} {:<12}{} {:<26} {:<26}\n", "setting", width, "unfairness (points)", "mean turns",
                       "equal seats", seats.any() ? fmt::format(" {:<24}", "skill (points)") : "",
                       "unfairness vs fairest", "turns vs fairest");
    for (size_t k = 0; k < runs.size(); ++k) {
      const auto& s = runs[k].statistics;
      const std::string skill = seats.any() ? fmt::format(" {:<24}", analysis::plus_minus(skill_of(runs[k], seats), 100, true)) : "";
      std::string vs_unfair = "fairest", vs_turns = "";
      if (k != fairest) {
        vs_unfair = fmt::format("{} (p {:.3f})", analysis::difference_text(versus[k].unfairness, 100, ""),
                                versus[k].unfairness_holm);
        vs_turns = fmt::format("{} (p {:.3f})", analysis::difference_text(versus[k].turns, 1, ""), versus[k].turns_holm);
      }
      out << fmt::format("  {:<{}} {:<22} {:<18} {:<12}{} {:<26} {:<26}\n", settings[k].description, width,
                         analysis::plus_minus(s.unfairness(), 100), analysis::plus_minus(s.turns().mean()),
                         analysis::p_value_text(s.equal_seats_test().p_value), skill, vs_unfair, vs_turns);
    }
    // The game's statistics, then the metrics of how games felt: each by setting.
    const auto by_setting = [&](const char* heading, const analysis::StatTallies& (RunStatistics::*tallies)() const,
                                bool metrics) {
      std::set<std::string> names;
      for (const auto& r : runs)
        for (const auto& [name, tally] : (r.statistics.*tallies)()) names.insert(name);
      if (!names.empty()) out << heading;
      for (const auto& name : names) {
        out << fmt::format("  {}:\n", name);
        for (size_t k = 0; k < runs.size(); ++k) {
          const auto& figures = (runs[k].statistics.*tallies)();
          const auto it = figures.find(name);
          out << fmt::format("    {:<{}} {}\n", settings[k].description, width,
                             it == figures.end() ? std::string("no game gave it")
                                                 : stat_text(it->second, metrics ? name : std::string()));
        }
      }
    };
    by_setting("the game's statistics by setting (game:finish stats):\n", &RunStatistics::stats, false);
    for (size_t k = 0; k < runs.size(); ++k) {
      if (runs[k].statistics.returns().empty()) continue;
      out << fmt::format("returns by seat, {} (game:finish returns), mean with its 95% interval:\n",
                         settings[k].description);
      print_returns(out, runs[k].statistics.returns());
    }
    by_setting("how the games felt by setting (metrics, see docs/judging-a-rule.md):\n", &RunStatistics::metrics, true);
    out << fmt::format("fairest: {}: unfairness {} points\n", settings[fairest].description,
                       analysis::plus_minus(runs[fairest].statistics.unfairness(), 100));
    std::vector<std::string> names;
    for (size_t k : contention) names.push_back(settings[k].description);
    out << fmt::format("not significantly less fair than the fairest (Holm, 5%): {}\n", fmt::join(names, "; "));
    out << fmt::format("adaptive sampling: {}\n", adaptive);
    out.flush();
  }
  if (!o.plot.empty()) {
    SweepPlot picture;
    picture.title = fmt::format("{}, {} players: {} settings, {} games each, {}", first.title, plan.players, runs.size(),
                                o.games, agents_text(plan.agent_kinds));
    // Each setting by what sets it apart; what every setting shares goes in the title.
    std::vector<std::vector<std::string>> parts;
    for (const auto& setting : settings) {
      parts.push_back(setting.variants);
      parts.back().insert(parts.back().end(), setting.sets.begin(), setting.sets.end());
    }
    std::vector<std::string> shared;
    for (const auto& part : parts.front())
      if (std::all_of(parts.begin(), parts.end(),
                      [&](const auto& p) { return std::find(p.begin(), p.end(), part) != p.end(); }))
        shared.push_back(part);
    if (!shared.empty()) picture.title += fmt::format(" ({})", fmt::join(shared, ", "));
    for (size_t k = 0; k < runs.size(); ++k) {
      std::vector<std::string> own;
      for (const auto& part : parts[k])
        if (std::find(shared.begin(), shared.end(), part) == shared.end()) own.push_back(part);
      picture.settings.push_back(own.empty() ? "as written" : fmt::format("{}", fmt::join(own, ", ")));
      picture.unfairness.push_back(runs[k].statistics.unfairness());
      picture.mean_turns.push_back(runs[k].statistics.turns().mean());
    }
    picture.fairest = static_cast<int>(fairest);
    write_sweep_plot(o.plot, picture);
  }
  return kOk;
}

}  // namespace

Runner add_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep", "play an option over a range of values on the same seeds and find the fairest");
  add_game_options(*cmd, o->game);
  add_batch_options(*cmd, o->games, o->jobs, o->agents, o->game.agent_timeout);
  cmd->get_option("--set")->description("a setting to sweep: KEY=A..B[:STEP] or KEY=a,b,c (repeatable: every combination)");
  cmd->add_option("--variant-sets", o->variant_sets,
                  "variant lists to sweep, ';' between lists and '+' within one: \"-;panda-monium;bamboozled+panda-monium\" "
                  "('-' or empty: no variant)");
  cmd->add_flag("--json", o->json, "print one JSON object (schemas/sweep.schema.json)");
  add_no_metrics_flag(*cmd, o->no_metrics);
  add_evaluator_option(*cmd, o->evaluator);
  cmd->add_option("--plot", o->plot, "draw every setting's unfairness and length into FILE.svg or FILE.png (needs gnuplot)");
  document_interrupt(*cmd);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
