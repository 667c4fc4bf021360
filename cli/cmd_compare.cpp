// rulebook compare: the base game against a variant (or any two setups),
// played on common random numbers: game i of each side starts from the seed
// game i of `simulate --seed S` uses. Each figure for both sides, their
// paired difference with a 95% interval, and a verdict in words.
#include <algorithm>
#include <iostream>


#include <fmt/format.h>

#include "analysis/paired_statistics.hpp"
#include "analysis/game_metrics.hpp"
#include "analysis/verdict.hpp"
#include "cli/batch_plan.hpp"
#include "cli/commands.hpp"
#include "core/safe_text.hpp"
#include "cli/difference_json.hpp"
#include "cli/game_export.hpp"
#include "cli/interrupt.hpp"
#include "cli/run_provenance.hpp"
#include "cli/plot.hpp"
#include "cli/simulation_report.hpp"
#include "cli/simulation_runner.hpp"
#include "play/log_file.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using analysis::Difference;
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
  std::string export_file;
  bool no_metrics = false;
  std::string evaluator;  // --evaluator: a search values positions for the metrics
};

struct SideSetup {
  std::vector<std::string> variants, sets, agents;
};

// "--variant panda-monium --set options.points_target=10 --agent 0=mcts" -> lists.
SideSetup parse_side(const std::string& option, const std::string& text) {
  SideSetup side;
  CLI::App parser{option};
  parser.add_option("--variant,-v", side.variants);
  parser.add_option("--set", side.sets);
  parser.add_option("--agent", side.agents);
  parser.allow_extras(false);
  try {
    parser.parse(text, false);
  } catch (const CLI::ParseError& e) {
    throw SetupError(fmt::format(
        "{}: error: {} (expected --variant NAME, --set PATH=VALUE and --agent SEAT=KIND, in quotes: {} \"{}\")", option,
        e.what(), option, text));
  }
  return side;
}

// "Panda-monium", "Short game + options.sharks_start=full", "the game as written".
std::string change_text(const GameDefinition& def, const SideSetup& side, const std::vector<std::string>& kinds,
                        const std::vector<std::string>& other_kinds) {
  std::vector<std::string> parts;
  for (const auto& v : def.variants) parts.push_back(v.title);
  parts.insert(parts.end(), side.sets.begin(), side.sets.end());
  for (size_t s = 0; s < kinds.size(); ++s)
    if (kinds[s] != other_kinds[s]) parts.push_back(fmt::format("{} in seat {}", kinds[s], s));
  return parts.empty() ? "the game as written" : fmt::format("{}", fmt::join(parts, " + "));
}

std::string capitalised(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

std::string cell_percent(const Interval& i) { return analysis::percent(i); }
std::string cell_points(const Difference& d) {
  return analysis::difference_text(d, 100, "points") + (d.significant() ? " *" : "");
}
std::string cell_number(const Difference& d) {
  return analysis::difference_text(d, 1, "") + (d.significant() ? " *" : "");
}

// The figures (game:finish stats, or metrics) either side's games gave.
std::vector<std::string> tally_names(const analysis::StatTallies& base, const analysis::StatTallies& with) {
  std::vector<std::string> names;
  for (const auto& [name, tally] : base) names.push_back(name);
  for (const auto& [name, tally] : with)
    if (!base.count(name)) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}
std::vector<std::string> stat_names(const RunStatistics& base, const RunStatistics& with) {
  return tally_names(base.stats(), with.stats());
}

void row(std::ostream& out, const std::string& name, const std::string& base, const std::string& with,
         const std::string& difference) {
  out << fmt::format("  {:<24} {:<22} {:<22} {}\n", name, base, with, difference);
}

int run(CompareOptions& o) {
  if (!o.plot.empty()) check_plot_file(o.plot);
  if (!o.export_file.empty()) check_export_file(o.export_file);
  const SideSetup base_side = parse_side("--base", o.base), with_side = parse_side("--with", o.with);
  auto base_def = load_game(o.game.game, LoadOptions{base_side.variants, base_side.sets});
  auto with_def = load_game(o.game.game, LoadOptions{with_side.variants, with_side.sets});

  RunPlan plan = batch_plan(o.game, o.games, o.jobs, !o.json);
  plan.sides = {base_def, with_def};
  plan.players = player_count_for(*base_def, o.game.players);
  player_count_for(*with_def, plan.players);
  // --agent applies to both sides; a side's own --agent comes after it.
  auto side_kinds = [&](const SideSetup& side) {
    std::vector<std::string> specs = o.agents;
    specs.insert(specs.end(), side.agents.begin(), side.agents.end());
    return agent_kinds(specs, plan.players);
  };
  const std::vector<std::string> base_kinds = side_kinds(base_side), with_kinds = side_kinds(with_side);
  std::vector<int> skill_seats;  // seats whose agent differs between the sides
  for (int s = 0; s < plan.players; ++s)
    if (base_kinds[static_cast<size_t>(s)] != with_kinds[static_cast<size_t>(s)]) skill_seats.push_back(s);
  plan.agent_kinds = base_kinds;
  if (!skill_seats.empty()) plan.side_agent_kinds = {base_kinds, with_kinds};
  if (o.jobs > 1 && std::count(with_kinds.begin(), with_kinds.end(), "human") > 0)
    throw SetupError("--agent: error: a human seat answers on the terminal: use --jobs 1");
  plan.keep_details = !o.export_file.empty();
  plan.metrics = !o.no_metrics;
  plan.evaluator = o.evaluator;

  struct alignas(64) Accumulator {  // one per worker, on its own cache lines
    RunStatistics base, with;
    PairedStatistics paired;
    std::vector<ExportedGame> exported;
  };
  std::vector<Accumulator> per_worker(static_cast<size_t>(o.jobs),
                                      Accumulator{RunStatistics(plan.players), RunStatistics(plan.players),
                                                  PairedStatistics(plan.players), {}});
  const batch::BatchRun played = run_games(plan, [&](int worker, int64_t index, const std::vector<analysis::GameOutcome>& g) {
    auto& acc = per_worker[static_cast<size_t>(worker)];
    acc.base.add(g[0]);
    acc.with.add(g[1]);
    acc.paired.add(g[0], g[1], index);
    if (plan.keep_details) {
      acc.exported.push_back({index, game_seed(plan, index), "base", g[0]});
      acc.exported.push_back({index, game_seed(plan, index), "with", g[1]});
    }
  });
  const RunTiming timing = timing_of(played);
  RunStatistics base(plan.players), with(plan.players);
  PairedStatistics paired(plan.players);
  std::vector<ExportedGame> exported;
  for (auto& acc : per_worker) {
    base.merge(acc.base);
    with.merge(acc.with);
    paired.merge(acc.paired);
    exported.insert(exported.end(), acc.exported.begin(), acc.exported.end());
  }
  if (!o.export_file.empty()) write_export(o.export_file, std::move(exported), plan.players);
  const Difference fairness = paired.unfairness(o.game.seed);
  const Difference skill = paired.win_rate_of(skill_seats);
  const std::string base_text = change_text(*base_def, base_side, base_kinds, with_kinds),
                    with_text = change_text(*with_def, with_side, with_kinds, base_kinds);
  const bool plain_base = base_side.variants.empty() && base_side.sets.empty() && skill_seats.empty();
  const std::string change = plain_base ? with_text : fmt::format("{} instead of {}", with_text, base_text);
  std::string verdict = analysis::comparison_verdict(capitalised(change), base, with, paired, fairness);
  if (!skill_seats.empty())
    verdict += fmt::format("; skill: {} in seat{} {} wins {} of win rate against {} ({})",
                           with_kinds[static_cast<size_t>(skill_seats[0])], skill_seats.size() == 1 ? "" : "s",
                           fmt::join(skill_seats, ", "), analysis::difference_text(skill, 100, "points"),
                           base_kinds[static_cast<size_t>(skill_seats[0])],
                           skill.significant() ? "significant" : "not significant");
  const std::string base_hash = rules_hash(base_def->dir, base_side.variants, base_side.sets),
                    with_hash = rules_hash(with_def->dir, with_side.variants, with_side.sets);
  const RunDescription run{base_def->name, base_def->title, plan.players, {}, {}, base_kinds, o.game.seed, o.games,
                           rules_hash(base_def->dir, {}, {})};

  if (o.json) {
    nlohmann::json j = run_header_json(run, base.games(), timing, false);
    auto side_json = [](const SideSetup& side, const std::string& text, const RunStatistics& s,
                        const std::vector<std::string>& kinds, const std::string& hash) {
      nlohmann::json j = figures_json(s);
      j["variants"] = side.variants;
      j["sets"] = side.sets;
      j["agents"] = kinds;
      j["description"] = text;
      j["rules_hash"] = hash;
      return j;
    };
    j["base"] = side_json(base_side, base_text, base, base_kinds, base_hash);
    j["with"] = side_json(with_side, with_text, with, with_kinds, with_hash);
    nlohmann::json wins = nlohmann::json::array(), advantage = nlohmann::json::array();
    for (int s = 0; s < plan.players; ++s) {
      auto w = difference_json(paired.win_rate(s));
      w["seat"] = s;
      wins.push_back(w);
      auto a = difference_json(paired.seat_advantage(s));
      a["seat"] = s;
      advantage.push_back(a);
    }
    j["differences"] = {
        {"method",
         "paired over common random numbers (with - base): rates by Tango's score interval with continuity "
         "correction and the exact McNemar test; means by Student t; fairness by a paired bootstrap"},
        {"mean_turns", difference_json(paired.turns())},
        {"decisions_per_game", difference_json(paired.decisions())},
        {"no_winner_rate", difference_json(paired.no_winner_rate())},
        {"shared_win_rate", difference_json(paired.shared_win_rate())},
        {"win_rate_by_seat", wins},
        {"seat_advantage_by_seat", advantage},
        {"fairness", difference_json(fairness)}};
    nlohmann::json stats = nlohmann::json::object();
    for (const auto& name : stat_names(base, with)) {
      if (paired.stat_too_large(name)) {
        stats[name] = {{"games", paired.stat(name).games}, {"too_large", true}};
        continue;
      }
      stats[name] = difference_json(paired.stat(name));
      stats[name]["games"] = paired.stat(name).games;
    }
    j["differences"]["stats"] = stats;
    if (paired.has_returns()) {
      nlohmann::json by_seat = nlohmann::json::array();
      for (int s = 0; s < plan.players; ++s) {
        auto r = difference_json(paired.seat_return(s));
        r["seat"] = s;
        by_seat.push_back(r);
      }
      j["differences"]["returns"] = {{"by_seat", by_seat}};
    }
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& name : tally_names(base.metrics(), with.metrics())) {
      metrics[name] = difference_json(paired.metric(name));
      metrics[name]["games"] = paired.metric(name).games;
    }
    j["differences"]["metrics"] = metrics;
    j["differences"]["fairness"]["figure"] = "unfairness: root mean square seat advantage (negative: fairer)";
    if (!skill_seats.empty()) {
      j["differences"]["skill"] = difference_json(skill);
      j["differences"]["skill"]["seats"] = skill_seats;
      j["differences"]["skill"]["figure"] = "the changed seats' win rate with the with-side agents minus with the base agents";
    }
    j["verdict"] = verdict;
    std::cout << j.dump() << "\n";
  } else {
    auto& out = std::cout;
    out << fmt::format("{} games of {} with {} players on shared seeds (seed {}), {}\n", base.games(), run.title,
                       run.players, run.seed, agents_text(base_kinds));
    out << fmt::format("base: {}\nwith: {}\n", base_text, with_text);
    out << fmt::format("time: {:.3f} s ({:.0f} games/s a side, {} job{})\n", timing.seconds,
                       timing.seconds > 0 ? static_cast<double>(base.games()) / timing.seconds : 0.0, timing.jobs,
                       timing.jobs == 1 ? "" : "s");
    out << "95% intervals; the difference (with - base) is paired over the same seeds (rates: Tango score interval, "
           "exact McNemar test; means: Student t); * marks a significant difference (5% level)\n";
    row(out, "", "base", "with", "difference");
    for (int s = 0; s < plan.players; ++s)
      row(out, fmt::format("win rate seat {}", s), cell_percent(base.win_rate(s)), cell_percent(with.win_rate(s)),
          cell_points(paired.win_rate(s)));
    for (int s = 0; s < plan.players; ++s)
      row(out, fmt::format("advantage seat {}", s),
          fmt::format("{:+.1f} points", (base.win_rate(s).estimate - base.fair_win_rate()) * 100),
          fmt::format("{:+.1f} points", (with.win_rate(s).estimate - with.fair_win_rate()) * 100),
          cell_points(paired.seat_advantage(s)));
    row(out, "unfairness (points)", analysis::plus_minus(base.unfairness(), 100),
        analysis::plus_minus(with.unfairness(), 100), cell_points(fairness));
    if (!skill_seats.empty())
      row(out, fmt::format("skill (seat {})", fmt::join(skill_seats, ",")), "", "", cell_points(skill));
    row(out, "shared wins", cell_percent(base.shared_win_rate()), cell_percent(with.shared_win_rate()),
        cell_points(paired.shared_win_rate()));
    row(out, "no winner", cell_percent(base.no_winner_rate()), cell_percent(with.no_winner_rate()),
        cell_points(paired.no_winner_rate()));
    row(out, "mean turns", analysis::plus_minus(base.turns().mean()), analysis::plus_minus(with.turns().mean()),
        cell_number(paired.turns()));
    row(out, "median turns", fmt::format("{}", base.turns_quantile(0.5)), fmt::format("{}", with.turns_quantile(0.5)),
        "");
    row(out, "10%-90% turns", fmt::format("{}-{}", base.turns_quantile(0.1), base.turns_quantile(0.9)),
        fmt::format("{}-{}", with.turns_quantile(0.1), with.turns_quantile(0.9)), "");
    row(out, "decisions per game", analysis::plus_minus(base.decisions().mean()),
        analysis::plus_minus(with.decisions().mean()), cell_number(paired.decisions()));
    row(out, "equal seats test", analysis::p_value_text(base.equal_seats_test().p_value),
        analysis::p_value_text(with.equal_seats_test().p_value), "");
    for (const auto& name : stat_names(base, with)) {
      auto mean = [&](const RunStatistics& s) {
        const auto it = s.stats().find(name);
        return it == s.stats().end() ? std::string("-") : analysis::plus_minus(it->second.mean());
      };
      row(out, "stats." + name + " (mean)", mean(base), mean(with),
          paired.stat_too_large(name) ? "too large to subtract"
          : paired.stat(name).games > 0 ? cell_number(paired.stat(name))
                                        : "");
    }
    for (int s = 0; s < plan.players && paired.has_returns(); ++s) {
      auto mean = [&](const RunStatistics& side) {
        return side.returns().empty() ? std::string("-") : analysis::plus_minus(side.returns()[s].mean());
      };
      row(out, fmt::format("return seat {} (mean)", s), mean(base), mean(with), cell_number(paired.seat_return(s)));
    }
    for (const auto& name : tally_names(base.metrics(), with.metrics())) {
      auto mean = [&](const RunStatistics& s) {
        const auto it = s.metrics().find(name);
        return it == s.metrics().end() ? std::string("-") : analysis::plus_minus(analysis::metric_mean(name, it->second));
      };
      row(out, name + " (mean)", mean(base), mean(with), paired.metric(name).games > 0 ? cell_number(paired.metric(name)) : "");
    }
    std::map<std::string, std::pair<int64_t, int64_t>> reasons;
    for (const auto& [r, n] : base.end_reasons()) reasons[r].first = n;
    for (const auto& [r, n] : with.end_reasons()) reasons[r].second = n;
    for (const auto& [r, n] : reasons)
      row(out, "ended: " + terminal_text(r, true), cell_percent(analysis::wilson_interval(n.first, base.games())),
          cell_percent(analysis::wilson_interval(n.second, with.games())), "");
    out << fmt::format("seat advantage, base: {}\n", analysis::seat_advantage_sentence(base));
    out << fmt::format("seat advantage, with: {}\n", analysis::seat_advantage_sentence(with));
    out << fmt::format("verdict: {}\n", verdict);
    out.flush();
  }
  if (!o.plot.empty()) {
    ComparisonPlot picture;
    picture.title = fmt::format("{}, {} players: {} against {} ({} games; base {}; with {})", run.title, run.players,
                                with_text, base_text, base.games(), agents_text(base_kinds), agents_text(with_kinds));
    picture.base = {"base: " + base_text, &base};
    picture.with = {"with: " + with_text, &with};
    for (int s = 0; s < plan.players; ++s)
      picture.differences.push_back({fmt::format("seat {} win rate", s), paired.win_rate(s).interval});
    picture.differences.push_back({"unfairness", fairness.interval});
    if (!skill_seats.empty()) picture.differences.push_back({"skill", skill.interval});
    picture.differences.push_back({"no winner", paired.no_winner_rate().interval});
    write_comparison_plot(o.plot, picture);
  }
  return played.cancelled ? report_interrupted(played.completed, played.planned, "games played on each side") : kOk;
}

}  // namespace

Runner add_compare(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "play a base setup and a variant on the same seeds and compare them");
  add_game_options(*cmd, o->game, true, false);
  add_batch_options(*cmd, o->games, o->jobs, o->agents, o->game.agent_timeout);
  cmd->add_option("--base", o->base,
                  "the base side's --variant, --set and --agent options, in quotes (default: the game as written)");
  cmd->add_option("--with", o->with, "the other side's --variant, --set and --agent options, in quotes")->required();
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--plot", o->plot, "draw both sides and their paired differences into FILE.svg or FILE.png (needs gnuplot)");
  cmd->add_option("--export", o->export_file, "write one row per game and side to FILE.csv or FILE.jsonl");
  add_no_metrics_flag(*cmd, o->no_metrics);
  add_evaluator_option(*cmd, o->evaluator);
  document_interrupt(*cmd);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
