// rulebook report: the designer's report -- what a house rule does to how
// the game feels, on one self-contained page (report_page.hpp) and in
// JSON (report_data.hpp): the base game and the variant played on the
// same seeds, each figure and metric with its paired difference, the
// skill trace, people's games beside the bots', a verdict first.
#include <iostream>


#include <fmt/format.h>

#include "analysis/paired_statistics.hpp"
#include "cli/batch_plan.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/log_metrics.hpp"
#include "cli/report_data.hpp"
#include "cli/report_page.hpp"
#include "cli/run_provenance.hpp"
#include "cli/simulation_runner.hpp"
#include "cli/skill_run.hpp"
#include "lua/engine_limits.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using analysis::PairedStatistics;
using analysis::RunStatistics;

struct ReportOptions {
  GameOptions game;
  int64_t games = 2000;
  int jobs = 1;
  std::vector<std::string> agents;
  std::string out, json;
  int64_t skill_games = 40;
  std::string budgets = "25,50,100,200";
  std::string searcher = "ismcts";
  std::string baseline = "random";
  bool kingmaking = false;
  std::string evaluator;  // --evaluator: a search values positions for the metrics
  std::string logs;
};

// The command as typed, from its options (the page's provenance).
std::string command_text(const ReportOptions& o) {
  std::string text = "rulebook report " + o.game.game;
  if (o.game.players) text += fmt::format(" --players {}", o.game.players);
  for (const auto& v : o.game.variants) text += " --variant " + v;
  for (const auto& s : o.game.sets) text += " --set " + s;
  for (const auto& a : o.agents) text += " --agent " + a;
  text += fmt::format(" --games {} --seed {} --jobs {}", o.games, o.game.seed, o.jobs);
  if (o.skill_games > 0)
    text += fmt::format(" --skill-games {} --budgets {} --searcher {} --baseline {}", o.skill_games, o.budgets, o.searcher, o.baseline);
  if (o.kingmaking) text += " --kingmaking";
  if (!o.evaluator.empty()) text += " --evaluator " + o.evaluator;
  if (!o.logs.empty()) text += " --logs " + o.logs;
  if (!o.out.empty()) text += " --out " + o.out;
  if (!o.json.empty()) text += " --json " + o.json;
  return text;
}

std::string description(const GameDefinition& def, const std::vector<std::string>& sets) {
  std::vector<std::string> parts;
  for (const auto& v : def.variants) parts.push_back(v.title);
  parts.insert(parts.end(), sets.begin(), sets.end());
  return parts.empty() ? "the game as written" : fmt::format("{}", fmt::join(parts, " + "));
}

int run(ReportOptions& o) {
  if (o.out.empty() && o.json.empty()) throw SetupError("report: error: give --out FILE.html, --json FILE.json or both");
  const bool variant = !o.game.variants.empty() || !o.game.sets.empty();
  auto base_def = load_game(o.game.game, LoadOptions{});
  auto with_def = variant ? load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets}) : nullptr;
  RunPlan plan = batch_plan(o.game, o.games, o.jobs, true);
  plan.sides = {base_def};
  if (variant) plan.sides.push_back(with_def);
  plan.players = player_count_for(*base_def, o.game.players);
  if (variant) player_count_for(*with_def, plan.players);
  plan.agent_kinds = agent_kinds(o.agents, plan.players);
  plan.metrics = true;
  plan.kingmaking = o.kingmaking;
  plan.evaluator = o.evaluator;
  // Found before any game is played.
  const std::vector<int> budgets = o.skill_games > 0 ? parse_budgets(o.budgets) : std::vector<int>{};

  struct alignas(64) Accumulator {
    RunStatistics base, with;
    PairedStatistics paired;
  };
  std::vector<Accumulator> per_worker(static_cast<size_t>(o.jobs), Accumulator{RunStatistics(plan.players),
                                                                              RunStatistics(plan.players),
                                                                              PairedStatistics(plan.players)});
  if (plan.progress) std::cerr << fmt::format("playing {} games a side\n", o.games);
  const batch::BatchRun played = run_games(plan, [&](int worker, int64_t index, const std::vector<analysis::GameOutcome>& g) {
    auto& acc = per_worker[static_cast<size_t>(worker)];
    acc.base.add(g[0]);
    if (g.size() > 1) {
      acc.with.add(g[1]);
      acc.paired.add(g[0], g[1], index);
    }
  });
  RunStatistics base(plan.players), with(plan.players);
  PairedStatistics paired(plan.players);
  for (auto& acc : per_worker) {
    base.merge(acc.base);
    with.merge(acc.with);
    paired.merge(acc.paired);
  }
  if (played.cancelled) return report_interrupted(played.completed, played.planned, "games played on each side");

  ReportInput in;
  in.game = base_def->name;
  in.title = base_def->title;
  in.command = command_text(o);
  in.players = plan.players;
  in.seed = plan.seed;
  in.agents = plan.agent_kinds;
  in.base = {"the game as written", {}, {}, rules_hash(base_def->dir, {}, {}), &base};
  if (variant) {
    in.with = ReportSide{description(*with_def, o.game.sets), o.game.variants, o.game.sets,
                         rules_hash(with_def->dir, o.game.variants, o.game.sets), &with};
    in.paired = &paired;
  }
  in.seconds = played.seconds;
  in.jobs = played.jobs;
  if (!budgets.empty()) {
    SkillPlan skill;
    skill.budgets = budgets;
    skill.searcher = o.searcher;
    skill.baseline = o.baseline;
    skill.games = plan;
    skill.games.sides = {variant ? with_def : base_def};
    skill.games.games = o.skill_games;
    if (plan.progress)
      std::cerr << fmt::format("skill trace: {} at {} iterations, {} games each\n", o.searcher, o.budgets, o.skill_games);
    const auto curve = run_skill_trace(skill);
    in.skill = skill_json(skill, curve);
    in.skill["side"] = variant ? "with" : "base";
  }
  if (!o.logs.empty()) {
    std::vector<LogSide> sides = {{"base", o.game.game, {}, {}, plan.players, &base}};
    if (variant) sides.push_back({"with", o.game.game, o.game.variants, o.game.sets, plan.players, &with});
    in.people = people_json(o.logs, sides, plan.limits);
  }
  const nlohmann::json report = report_json(in);
  if (!o.json.empty()) write_file("--json", o.json, report.dump(2) + "\n");
  if (!o.out.empty()) write_file("--out", o.out, report_page(report));
  std::cout << fmt::format("verdict: {}\n", report["verdict"].get<std::string>());
  if (!o.out.empty()) std::cout << fmt::format("report: {}\n", o.out);
  if (!o.json.empty()) std::cout << fmt::format("json: {}\n", o.json);
  return kOk;
}

}  // namespace

Runner add_report(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand(
      "report", "the designer's report: the game and a variant on the same seeds, how each plays and feels, on one page");
  add_game_options(*cmd, o->game);
  add_batch_options(*cmd, o->games, o->jobs, o->agents, o->game.agent_timeout);
  cmd->add_option("--out", o->out, "write the page to FILE.html (self-contained: plots inline, no network)");
  cmd->add_option("--json", o->json, "write every figure of the page to FILE.json");
  cmd->add_option("--skill-games", o->skill_games,
                  "games at each budget of the skill trace (0: none; costs a search per decision, see 'rulebook skill')")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30));
  cmd->add_option("--budgets", o->budgets, "the skill trace's iterations, increasing")->capture_default_str();
  cmd->add_option("--searcher", o->searcher, "the skill trace's search agent kind")->capture_default_str();
  cmd->add_option("--baseline", o->baseline, "the skill trace's agent in the other seats")->capture_default_str();
  cmd->add_flag("--kingmaking", o->kingmaking,
                "measure kingmaking: replay the last decisions of each seat that lost with every alternative (costs "
                "games; agents that answer from the decision alone)");
  add_evaluator_option(*cmd, o->evaluator);
  cmd->add_option("--logs", o->logs, "a folder of played games' logs (lobby --logs-dir, play --log): people beside bots");
  document_interrupt(*cmd);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
