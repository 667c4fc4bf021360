// rulebook simulate: many bot games, statistics with 95% intervals. Game i
// is seeded from (seed, i), so the figures do not depend on how games are
// split over jobs or shards.
#include <iostream>


#include <fmt/format.h>

#include "cli/batch_plan.hpp"
#include "cli/commands.hpp"
#include "cli/game_export.hpp"
#include "cli/interrupt.hpp"
#include "cli/run_provenance.hpp"
#include "cli/plot.hpp"
#include "cli/simulation_part.hpp"
#include "cli/simulation_report.hpp"
#include "cli/simulation_runner.hpp"
#include "setup/game_loader.hpp"

namespace rulebook::cli {
namespace {

struct SimulateOptions {
  GameOptions game;
  int64_t games = 1000;
  int jobs = 1;
  std::vector<std::string> agents;
  bool json = false;
  std::string plot;
  std::string shard;  // "K/N"
  std::string out;
  std::string export_file;
  bool no_metrics = false;
  std::string evaluator;  // --evaluator: a search values positions for the metrics
};

int run(SimulateOptions& o) {
  int shard = 0, shards = 1;
  if (!o.shard.empty()) parse_shard(o.shard, shard, shards);
  if (!o.plot.empty()) check_plot_file(o.plot);
  if (!o.export_file.empty()) check_export_file(o.export_file);
  auto def = load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});

  RunPlan plan = batch_plan(o.game, o.games, o.jobs, !o.json);
  plan.sides = {def};
  plan.players = player_count_for(*def, o.game.players);
  plan.agent_kinds = agent_kinds(o.agents, plan.players);
  plan.shard = shard;
  plan.shards = shards;
  plan.keep_details = !o.export_file.empty();
  plan.metrics = !o.no_metrics;
  plan.evaluator = o.evaluator;

  // One accumulator per worker, each on its own cache lines: workers share nothing while they play.
  struct alignas(64) Accumulator {
    analysis::RunStatistics statistics;
    std::vector<ExportedGame> exported;  // --export only
  };
  std::vector<Accumulator> per_worker(static_cast<size_t>(o.jobs), Accumulator{analysis::RunStatistics(plan.players), {}});
  const batch::BatchRun played = run_games(plan, [&](int worker, int64_t index, const std::vector<analysis::GameOutcome>& games) {
    auto& acc = per_worker[static_cast<size_t>(worker)];
    acc.statistics.add(games[0]);
    if (plan.keep_details) acc.exported.push_back({index, game_seed(plan, index), "", games[0]});
  });
  SimulationPart part;
  part.run = RunDescription{def->name, def->title, plan.players, o.game.variants, o.game.sets,
                            plan.agent_kinds, o.game.seed, o.games,
                            rules_hash(def->dir, o.game.variants, o.game.sets)};
  part.shard = shard;
  part.shards = shards;
  part.timing = timing_of(played);
  part.statistics = analysis::RunStatistics(plan.players);
  for (const auto& acc : per_worker) part.statistics.merge(acc.statistics);
  if (!o.export_file.empty()) {
    std::vector<ExportedGame> exported;
    for (auto& acc : per_worker) exported.insert(exported.end(), acc.exported.begin(), acc.exported.end());
    write_export(o.export_file, std::move(exported), plan.players);
  }

  if (!o.out.empty()) {
    // A part of a cancelled run would not merge (merge counts each shard's games).
    if (played.cancelled) return report_interrupted(played.completed, played.planned, "games played", o.out + " not written");
    write_part(o.out, part);
    std::cerr << fmt::format("{}: shard {}/{}, {} games of {}\n", o.out, shard, shards, part.statistics.games(),
                             setup_text(part.run));
    if (!o.plot.empty()) write_plot(o.plot, setup_text(part.run), {{fmt::format("{} games", part.statistics.games()), &part.statistics}});
    return kOk;
  }
  const int code = print_run(part, o.json, o.plot);
  return played.cancelled ? report_interrupted(played.completed, played.planned) : code;
}

}  // namespace

int print_run(const SimulationPart& run, bool json, const std::string& plot) {
  if (json)
    std::cout << simulation_json(run.run, run.statistics, run.timing).dump() << "\n";
  else
    print_simulation(std::cout, run.run, run.statistics, run.timing);
  std::cout.flush();
  if (!plot.empty()) write_plot(plot, setup_text(run.run), {{fmt::format("{} games", run.statistics.games()), &run.statistics}});
  return kOk;
}

Runner add_simulate(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand("simulate", "play many bot games and report statistics with 95% intervals");
  add_game_options(*cmd, o->game);
  add_batch_options(*cmd, o->games, o->jobs, o->agents, o->game.agent_timeout);
  cmd->add_flag("--json", o->json, "print one JSON object (schemas/simulate.schema.json)");
  cmd->add_option("--plot", o->plot, "draw win rates and game lengths into FILE.svg or FILE.png (needs gnuplot)");
  cmd->add_option("--shard", o->shard, "play only the games i with i mod N = K (K/N); see --out and 'merge'");
  cmd->add_option("--out", o->out, "write this shard's statistics to PART.json for 'rulebook merge'");
  document_interrupt(*cmd);
  cmd->add_option("--export", o->export_file,
                  "write one row per game (seed, winners, turns, end reason, decisions, details) to FILE.csv or FILE.jsonl");
  add_no_metrics_flag(*cmd, o->no_metrics);
  add_evaluator_option(*cmd, o->evaluator);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
