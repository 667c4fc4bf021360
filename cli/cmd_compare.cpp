// rulebook compare: the base game against a variant (or any two setups),
// played on common random numbers: game i of each side starts from the seed
// game i of `simulate --seed S` uses. Each figure for both sides, their
// paired difference with a 95% interval, and a verdict in words.
#include <iostream>

#include <unistd.h>

#include <fmt/format.h>

#include "analysis/paired_statistics.hpp"
#include "analysis/verdict.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/plot.hpp"
#include "cli/simulation_report.hpp"
#include "cli/simulation_runner.hpp"
#include "play/log_file.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using analysis::Interval;
using analysis::PairedStatistics;
using analysis::RunStatistics;

struct CompareOptions {
  GameOptions game;
  int64_t games = 1000;
  int jobs = 1;
  std::vector<std::string> agents;
  std::string base, with;
  bool json = false;
  std::string plot;
};

struct SideSetup {
  std::vector<std::string> variants, sets;
};

// "--variant panda-monium --set options.points_target=10" -> lists.
SideSetup parse_side(const std::string& option, const std::string& text) {
  SideSetup side;
  CLI::App parser{option};
  parser.add_option("--variant,-v", side.variants);
  parser.add_option("--set", side.sets);
  parser.allow_extras(false);
  try {
    parser.parse(text, false);
  } catch (const CLI::ParseError& e) {
    throw SetupError(fmt::format("{}: error: {} (expected --variant NAME and --set PATH=VALUE, in quotes: {} \"{}\")",
                                 option, e.what(), option, text));
  }
  return side;
}

// "Panda-monium", "Short game + options.sharks_start=full", "the game as written".
std::string change_text(const GameDefinition& def, const SideSetup& side) {
  std::vector<std::string> parts;
  for (const auto& v : def.variants) parts.push_back(v.title);
  parts.insert(parts.end(), side.sets.begin(), side.sets.end());
  return parts.empty() ? "the game as written" : fmt::format("{}", fmt::join(parts, " + "));
}

std::string capitalised(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

nlohmann::json difference_json(const Interval& d) {
  return {{"difference", interval_json(d)}, {"significant", d.excludes_zero()}};
}

std::string cell_percent(const Interval& i) { return analysis::percent(i); }
std::string cell_points(const Interval& d) {
  return analysis::plus_minus(d, 100, true) + " points" + (d.excludes_zero() ? " *" : "");
}
std::string cell_number(const Interval& d, bool signed_value = false) {
  return analysis::plus_minus(d, 1, signed_value) + (signed_value && d.excludes_zero() ? " *" : "");
}

void row(std::ostream& out, const std::string& name, const std::string& base, const std::string& with,
         const std::string& difference) {
  out << fmt::format("  {:<24} {:<20} {:<20} {}\n", name, base, with, difference);
}

int run(CompareOptions& o) {
  if (!o.plot.empty()) check_plot_file(o.plot);
  const SideSetup base_side = parse_side("--base", o.base), with_side = parse_side("--with", o.with);
  auto base_def = load_game(o.game.game, LoadOptions{base_side.variants, base_side.sets});
  auto with_def = load_game(o.game.game, LoadOptions{with_side.variants, with_side.sets});

  RunPlan plan;
  plan.sides = {base_def, with_def};
  plan.players = player_count_for(*base_def, o.game.players);
  player_count_for(*with_def, plan.players);
  plan.agent_kinds = agent_kinds(o.agents, plan.players);
  plan.agent_timeout = o.game.agent_timeout;
  plan.limits = engine_limits(o.game);
  plan.seed = o.game.seed;
  plan.games = o.games;
  plan.jobs = o.jobs;
  plan.progress = !o.json && isatty(2);
  plan.cancel = cancel_on_interrupt();

  struct alignas(64) Accumulator {  // one per worker, on its own cache lines
    RunStatistics base, with;
    PairedStatistics paired;
  };
  std::vector<Accumulator> per_worker(static_cast<size_t>(o.jobs),
                                      Accumulator{RunStatistics(plan.players), RunStatistics(plan.players),
                                                  PairedStatistics(plan.players)});
  const batch::BatchRun played = run_games(plan, [&](int worker, int64_t, const std::vector<analysis::GameOutcome>& g) {
    auto& acc = per_worker[static_cast<size_t>(worker)];
    acc.base.add(g[0]);
    acc.with.add(g[1]);
    acc.paired.add(g[0], g[1]);
  });
  const RunTiming timing = timing_of(played);
  RunStatistics base(plan.players), with(plan.players);
  PairedStatistics paired(plan.players);
  for (const auto& acc : per_worker) {
    base.merge(acc.base);
    with.merge(acc.with);
    paired.merge(acc.paired);
  }
  const std::string base_text = change_text(*base_def, base_side), with_text = change_text(*with_def, with_side);
  const std::string change =
      base_side.variants.empty() && base_side.sets.empty() ? with_text : fmt::format("{} instead of {}", with_text, base_text);
  const std::string verdict = analysis::comparison_verdict(capitalised(change), paired);
  const RunDescription run{base_def->name, base_def->title, plan.players, {}, {}, plan.agent_kinds, o.game.seed, o.games};

  if (o.json) {
    nlohmann::json j = run_header_json(run, base.games(), timing, false);
    auto side_json = [](const SideSetup& side, const std::string& text, const RunStatistics& s) {
      nlohmann::json j = figures_json(s);
      j["variants"] = side.variants;
      j["sets"] = side.sets;
      j["description"] = text;
      return j;
    };
    j["base"] = side_json(base_side, base_text, base);
    j["with"] = side_json(with_side, with_text, with);
    nlohmann::json wins = nlohmann::json::array(), advantage = nlohmann::json::array();
    for (int s = 0; s < plan.players; ++s) {
      auto w = difference_json(paired.win_rate(s));
      w["seat"] = s;
      wins.push_back(w);
      auto a = difference_json(paired.seat_advantage(s));
      a["seat"] = s;
      advantage.push_back(a);
    }
    j["differences"] = {{"method", "paired normal interval over common random numbers (with - base)"},
                        {"mean_turns", difference_json(paired.turns())},
                        {"decisions_per_game", difference_json(paired.decisions())},
                        {"no_winner_rate", difference_json(paired.no_winner_rate())},
                        {"shared_win_rate", difference_json(paired.shared_win_rate())},
                        {"win_rate_by_seat", wins},
                        {"seat_advantage_by_seat", advantage}};
    j["verdict"] = verdict;
    std::cout << j.dump() << "\n";
  } else {
    auto& out = std::cout;
    out << fmt::format("{} games of {} with {} players on shared seeds (seed {}), {}\n", base.games(), run.title,
                       run.players, run.seed, agents_text(run.agents));
    out << fmt::format("base: {}\nwith: {}\n", base_text, with_text);
    out << fmt::format("time: {:.3f} s ({:.0f} games/s a side, {} job{})\n", timing.seconds,
                       timing.seconds > 0 ? static_cast<double>(base.games()) / timing.seconds : 0.0, timing.jobs,
                       timing.jobs == 1 ? "" : "s");
    out << "95% intervals; the difference (with - base) is paired over the same seeds; "
           "* marks a significant difference (5% level)\n";
    row(out, "", "base", "with", "difference");
    for (int s = 0; s < plan.players; ++s)
      row(out, fmt::format("win rate seat {}", s), cell_percent(base.win_rate(s)), cell_percent(with.win_rate(s)),
          cell_points(paired.win_rate(s)));
    for (int s = 0; s < plan.players; ++s) {
      const Interval a = paired.seat_advantage(s);
      row(out, fmt::format("advantage seat {}", s),
          fmt::format("{:+.1f} points", (base.win_rate(s).estimate - base.fair_win_rate()) * 100),
          fmt::format("{:+.1f} points", (with.win_rate(s).estimate - with.fair_win_rate()) * 100), cell_points(a));
    }
    row(out, "shared wins", cell_percent(base.shared_win_rate()), cell_percent(with.shared_win_rate()),
        cell_points(paired.shared_win_rate()));
    row(out, "no winner", cell_percent(base.no_winner_rate()), cell_percent(with.no_winner_rate()),
        cell_points(paired.no_winner_rate()));
    row(out, "mean turns", cell_number(base.turns().mean()), cell_number(with.turns().mean()),
        cell_number(paired.turns(), true));
    row(out, "median turns", fmt::format("{}", base.turns_quantile(0.5)), fmt::format("{}", with.turns_quantile(0.5)),
        "");
    row(out, "10%-90% turns", fmt::format("{}-{}", base.turns_quantile(0.1), base.turns_quantile(0.9)),
        fmt::format("{}-{}", with.turns_quantile(0.1), with.turns_quantile(0.9)), "");
    row(out, "decisions per game", cell_number(base.decisions().mean()), cell_number(with.decisions().mean()),
        cell_number(paired.decisions(), true));
    row(out, "equal seats test", analysis::p_value_text(base.equal_seats_test().p_value),
        analysis::p_value_text(with.equal_seats_test().p_value), "");
    std::map<std::string, std::pair<int64_t, int64_t>> reasons;
    for (const auto& [r, n] : base.end_reasons()) reasons[r].first = n;
    for (const auto& [r, n] : with.end_reasons()) reasons[r].second = n;
    for (const auto& [r, n] : reasons)
      row(out, "ended: " + r, cell_percent(analysis::wilson_interval(n.first, base.games())),
          cell_percent(analysis::wilson_interval(n.second, with.games())), "");
    out << fmt::format("seat advantage, base: {}\n", analysis::seat_advantage_sentence(base));
    out << fmt::format("seat advantage, with: {}\n", analysis::seat_advantage_sentence(with));
    out << fmt::format("verdict: {}\n", verdict);
    out.flush();
  }
  if (!o.plot.empty())
    write_plot(o.plot, fmt::format("{}, {} players: {} against {}", run.title, run.players, with_text, base_text),
               {{"base: " + base_text, &base}, {"with: " + with_text, &with}});
  return played.cancelled ? report_interrupted(played.completed, played.planned, "games played on each side") : kOk;
}

}  // namespace

Runner add_compare(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "play a base setup and a variant on the same seeds and compare them");
  add_game_options(*cmd, o->game, true, false);
  add_batch_options(*cmd, o->games, o->jobs, o->agents, o->game.agent_timeout);
  cmd->add_option("--base", o->base, "the base side's --variant and --set options, in quotes (default: the game as written)");
  cmd->add_option("--with", o->with, "the other side's --variant and --set options, in quotes")->required();
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--plot", o->plot, "draw both sides into FILE.svg or FILE.png (needs gnuplot)");
  document_interrupt(*cmd);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
