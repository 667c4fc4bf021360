#include "cli/report_data.hpp"

#include <fmt/format.h>

#include "analysis/game_metrics.hpp"
#include "analysis/verdict.hpp"
#include "cli/difference_json.hpp"
#include "cli/run_provenance.hpp"
#include "cli/simulation_report.hpp"

namespace rulebook::cli {

using analysis::RunStatistics;

const std::vector<std::string>& report_metric_names() {
  static const std::vector<std::string> names = {"lead_changes", "lead_changes_per_10_turns", "drama", "decisiveness",
                                                 "downtime",     "downtime_p90",              "sit_out", "sit_out_wait",
                                                 "kingmaking"};
  return names;
}

namespace {

std::string figure_text(double value, const analysis::MetricInfo* info) {
  if (info && std::string(info->unit) == "share") return analysis::short_percent(value);
  return fmt::format("{:.2f}", value);
}

// "Lead changes ...: 2.10 a game in the base game, 3.40 with the variant (+1.30 [1.1, 1.5], significant)."
std::string metric_sentence(const std::string& name, const RunStatistics& base, const RunStatistics* with,
                            const analysis::PairedStatistics* paired) {
  const auto* info = analysis::metric_info(name);
  const auto b = base.metrics().find(name);
  std::string text = fmt::format("{}{}", info ? info->words : name.c_str(), ": ");
  text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  text += b == base.metrics().end() ? "not measured in the base game"
                                    : fmt::format("{} in the base game", figure_text(b->second.mean().estimate, info));
  if (with) {
    const auto w = with->metrics().find(name);
    if (w != with->metrics().end()) {
      const auto d = paired->metric(name);
      const bool share = info && std::string(info->unit) == "share";
      text += fmt::format(", {} with the variant ({}, {})", figure_text(w->second.mean().estimate, info),
                          analysis::difference_text(d, share ? 100 : 1, share ? "points" : ""),
                          d.significant() ? "a significant change" : "no significant change");
    }
  }
  return text + ".";
}

// "Mean return by seat (game:finish returns): seat 0 0.31 in the base game, 0.12 with the variant (-0.19 ...); ..."
std::string returns_sentence(const RunStatistics& base, const RunStatistics* with, const analysis::PairedStatistics* paired) {
  std::vector<std::string> seats;
  for (size_t s = 0; s < base.returns().size(); ++s) {
    std::string text = fmt::format("seat {} {:.2f} in the base game", s, base.returns()[s].mean().estimate);
    if (with && with->returns().size() == base.returns().size() && paired->has_returns()) {
      const auto d = paired->seat_return(static_cast<int>(s));
      text += fmt::format(", {:.2f} with the variant ({}, {})", with->returns()[s].mean().estimate,
                          analysis::difference_text(d, 1, ""),
                          d.significant() ? "a significant change" : "no significant change");
    }
    seats.push_back(text);
  }
  return fmt::format("Mean return by seat (the game's own payoff, game:finish returns): {}.", fmt::join(seats, "; "));
}

nlohmann::json side_json(const ReportSide& side) {
  nlohmann::json j = figures_json(*side.statistics);
  if (!j.contains("metrics")) j["metrics"] = nlohmann::json::object();
  j["description"] = side.description;
  j["variants"] = side.variants;
  j["sets"] = side.sets;
  j["rules_hash"] = side.rules_hash;
  j["games"] = side.statistics->games();
  return j;
}

// The significant changes of the metrics that matter most, in words: "more lead changes (+0.80), less downtime (-0.30)".
std::string feel_changes(const RunStatistics& base, const RunStatistics& with, const analysis::PairedStatistics& paired) {
  std::vector<std::string> parts;
  for (const char* name : {"lead_changes", "drama", "decisiveness", "downtime", "sit_out", "kingmaking"}) {
    if (!base.metrics().count(name) || !with.metrics().count(name)) continue;
    const auto d = paired.metric(name);
    if (!d.significant()) continue;
    const auto* info = analysis::metric_info(name);
    const bool share = std::string(info->unit) == "share";
    parts.push_back(fmt::format("{} {} ({})", d.interval.estimate > 0 ? "more" : "less", std::string(name) == "lead_changes" ? "lead changes" : name,
                                analysis::difference_text(d, share ? 100 : 1, share ? "points" : "")));
  }
  return parts.empty() ? "" : fmt::format("; how it feels: {}", fmt::join(parts, ", "));
}

// The seats whose mean return changes significantly, in words: "; returns: seat 0 +2.00 ± 0.04".
std::string return_changes(int players, const analysis::PairedStatistics& paired) {
  if (!paired.has_returns()) return "";
  std::vector<std::string> parts;
  for (int s = 0; s < players; ++s)
    if (const auto d = paired.seat_return(s); d.significant())
      parts.push_back(fmt::format("seat {} {}", s, analysis::difference_text(d, 1, "")));
  return parts.empty() ? "" : fmt::format("; returns: {}", fmt::join(parts, ", "));
}

}  // namespace

nlohmann::json report_json(const ReportInput& in) {
  const RunStatistics& base = *in.base.statistics;
  const RunStatistics* with = in.with ? in.with->statistics : nullptr;
  nlohmann::json j;
  j["report"] = "rulebook report";
  j["game"] = in.game;
  j["title"] = in.title;
  j["players"] = in.players;
  j["seed"] = in.seed;
  j["games"] = base.games();
  j["agents"] = in.agents;
  j["rulebook_version"] = rulebook_version();
  j["command"] = in.command;
  j["jobs"] = in.jobs;
  j["seconds"] = in.seconds;
  j["metric_names"] = report_metric_names();
  j["sides"] = nlohmann::json::array({side_json(in.base)});
  j["sides"][0]["name"] = "base";
  nlohmann::json findings = nlohmann::json::array();
  auto finding = [&](const std::string& topic, const std::string& text) {
    findings.push_back({{"topic", topic}, {"text", text}});
  };
  std::string verdict;
  if (with) {
    j["sides"].push_back(side_json(*in.with));
    j["sides"][1]["name"] = "with";
    const auto& paired = *in.paired;
    const auto fairness = paired.unfairness(in.seed);
    nlohmann::json wins = nlohmann::json::array();
    for (int s = 0; s < in.players; ++s) {
      auto w = difference_json(paired.win_rate(s));
      w["seat"] = s;
      wins.push_back(w);
    }
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& [name, tally] : paired.metric_differences()) {
      metrics[name] = difference_json(paired.metric(name));
      metrics[name]["games"] = paired.metric(name).games;
    }
    j["differences"] = {{"method", "paired over common random numbers (with - base): rates by Tango's score interval "
                                   "and the exact McNemar test; means by Student t; fairness by a paired bootstrap"},
                        {"win_rate_by_seat", wins},
                        {"fairness", difference_json(fairness)},
                        {"mean_turns", difference_json(paired.turns())},
                        {"metrics", metrics}};
    if (paired.has_returns()) {  // only for a game whose rules give returns, as in compare
      nlohmann::json by_seat = nlohmann::json::array();
      for (int s = 0; s < in.players; ++s) {
        auto r = difference_json(paired.seat_return(s));
        r["seat"] = s;
        by_seat.push_back(r);
      }
      j["differences"]["returns"] = {{"by_seat", by_seat}};
    }
    verdict = analysis::comparison_verdict(in.with->description, base, *with, paired, fairness) +
              return_changes(in.players, paired) + feel_changes(base, *with, paired);
    finding("fairness", fmt::format("Base game: {}. With the variant: {}.", analysis::seat_advantage_sentence(base),
                                    analysis::seat_advantage_sentence(*with)));
    finding("length", fmt::format("Games last {} turns on average in the base game and {} with the variant ({}, {}).",
                                  fmt::format("{:.1f}", base.turns().mean().estimate),
                                  fmt::format("{:.1f}", with->turns().mean().estimate),
                                  analysis::difference_text(paired.turns(), 1, "turns"),
                                  paired.turns().significant() ? "a significant change" : "no significant change"));
  } else {
    verdict = fmt::format("{}: {}", in.base.description, analysis::seat_advantage_sentence(base));
    finding("fairness", fmt::format("{}.", analysis::seat_advantage_sentence(base)));
    finding("length", fmt::format("Games last {} turns on average (10% of games end by turn {}, 90% by turn {}).",
                                  fmt::format("{:.1f}", base.turns().mean().estimate), base.turns_quantile(0.1),
                                  base.turns_quantile(0.9)));
  }
  if (!base.returns().empty()) finding("returns", returns_sentence(base, with, in.paired));
  for (const auto& name : report_metric_names())
    if (base.metrics().count(name) || (with && with->metrics().count(name)))
      finding(name, metric_sentence(name, base, with, in.paired));
  if (!in.skill.is_null()) {
    j["skill"] = in.skill;
    finding("skill", in.skill["text"].get<std::string>() +
                         fmt::format(" (the skill trace took {:.0f} s)", in.skill["seconds"].get<double>()));
  }
  if (!in.people.is_null()) {
    j["people"] = in.people;
    finding("people", in.people["text"].get<std::string>());
  }
  j["verdict"] = verdict;
  j["findings"] = findings;
  return j;
}

}  // namespace rulebook::cli
