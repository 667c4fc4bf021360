#include "cli/log_metrics.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "analysis/game_metrics.hpp"
#include "batch/game_tracer.hpp"
#include "cli/report_data.hpp"
#include "cli/simulation_report.hpp"
#include "play/match.hpp"
#include "play/position_service.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using analysis::Interval;
using analysis::RunStatistics;

// The logged answers (one replaying agent for every seat), with the tracer
// told before each.
class TracedReplay : public Agent {
 public:
  TracedReplay(const std::vector<AnswerRecord>* answers, batch::GameTracer* tracer)
      : inner_(answers, answers->size()), tracer_(tracer) {}
  std::string kind() const override { return "replay"; }
  int choose(const Decision& d) override {
    tracer_->before_decision(d.seat());
    return inner_.choose(d);
  }
  bool answers_at_once() const override { return true; }

 private:
  LogReplayAgent inner_;
  batch::GameTracer* tracer_;
};

// The game a log played, replayed with its answers: its outcome with metrics.
analysis::GameOutcome replay_outcome(const nlohmann::json& log, const std::shared_ptr<const GameDefinition>& def,
                                     const EngineLimits& limits) {
  const int players = log.at("players").get<int>();
  std::vector<AnswerRecord> answers;
  for (const auto& a : log.at("answers"))
    answers.push_back({Seat{a.at(0).get<int>()}, a.at(1).get<int>(), a.size() > 2 ? a.at(2).get<int>() : 0});
  Match match(def, limits);
  batch::GameTracer tracer;
  TracedReplay replayer(&answers, &tracer);
  for (Seat s : Seat::all(players)) match.set_agent(s, &replayer);
  tracer.begin(match, players);
  const GameResult& r = match.play(players, log.at("seed").get<uint64_t>(), log.at("names").get<std::vector<std::string>>());
  analysis::GameOutcome out;
  out.turns = r.turns;
  for (Seat w : r.winners) out.winners |= uint64_t{1} << w.index();
  out.decisions = static_cast<int64_t>(answers.size());
  out.reason = r.reason;
  out.stats = r.stats;
  tracer.finish(r, out.metrics);
  return out;
}

// people - bots of two independent means, Welch with the normal quantile.
Interval mean_gap(const Interval& people, double people_sd, int64_t n_people, const Interval& bots, double bots_sd,
                  int64_t n_bots) {
  const double d = people.estimate - bots.estimate;
  const double se = std::sqrt((n_people > 0 ? people_sd * people_sd / static_cast<double>(n_people) : 0) +
                              (n_bots > 0 ? bots_sd * bots_sd / static_cast<double>(n_bots) : 0));
  return {d, d - analysis::kZ95 * se, d + analysis::kZ95 * se};
}

nlohmann::json figure_json(const std::string& name, const std::string& unit, const Interval& people, const Interval& bots,
                           const Interval& gap, int64_t people_games) {
  return {{"name", name},       {"unit", unit},
          {"people", interval_json(people)}, {"bots", interval_json(bots)},
          {"difference", interval_json(gap)}, {"significant", gap.excludes_zero()},
          {"people_games", people_games}};
}

// The figures of people's games beside the bots' of the same side.
void compare_side(const std::string& side, const RunStatistics& people, const RunStatistics& bots, nlohmann::json& figures) {
  const std::string prefix = side + ": ";
  for (int s = 0; s < people.players(); ++s) {
    const Interval p = people.win_rate(s), b = bots.win_rate(s);
    const double ps = std::sqrt(p.estimate * (1 - p.estimate)), bs = std::sqrt(b.estimate * (1 - b.estimate));
    figures.push_back(figure_json(fmt::format("{}win rate seat {}", prefix, s), "share", p, b,
                                  mean_gap(p, ps, people.games(), b, bs, bots.games()), people.games()));
  }
  figures.push_back(figure_json(prefix + "mean turns", "turns", people.turns().mean(), bots.turns().mean(),
                                mean_gap(people.turns().mean(), people.turns().standard_deviation(), people.games(),
                                         bots.turns().mean(), bots.turns().standard_deviation(), bots.games()),
                                people.games()));
  for (const auto& name : report_metric_names()) {
    const auto p = people.metrics().find(name), b = bots.metrics().find(name);
    if (p == people.metrics().end() || b == bots.metrics().end()) continue;
    const auto* info = analysis::metric_info(name);
    figures.push_back(figure_json(prefix + name, info ? info->unit : "", analysis::metric_mean(name, p->second),
                                  analysis::metric_mean(name, b->second),
                                  mean_gap(p->second.mean(), p->second.standard_deviation(), p->second.count(),
                                           b->second.mean(), b->second.standard_deviation(), b->second.count()),
                                  p->second.count()));
  }
}

}  // namespace

nlohmann::json people_json(const std::string& dir, const std::vector<LogSide>& sides, const EngineLimits& limits) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw SetupError(fmt::format("--logs: error: '{}' is not a folder", dir));
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<RunStatistics> people;
  std::vector<std::shared_ptr<const GameDefinition>> defs;
  for (const auto& side : sides) {
    people.emplace_back(side.players);
    defs.push_back(load_game(side.game, LoadOptions{side.variants, side.sets}));
  }
  nlohmann::json skipped = nlohmann::json::array();
  int64_t games = 0;
  for (const auto& file : files) {
    auto skip = [&](const std::string& why) { skipped.push_back({{"file", file.string()}, {"why", why}}); };
    nlohmann::json log;
    try {
      std::ifstream in(file);
      log = nlohmann::json::parse(in);
    } catch (const std::exception&) {
      skip("not JSON");
      continue;
    }
    if (!log.is_object() || log.value("format", "") != "rulebook-log") {
      skip("not a rulebook log");
      continue;
    }
    try {
      size_t k = 0;
      for (; k < sides.size(); ++k)
        if (log.at("players") == sides[k].players && log.at("variants") == sides[k].variants &&
            log.at("sets") == sides[k].sets && fs::path(log.at("game").get<std::string>()).filename() == fs::path(sides[k].game).filename())
          break;
      if (k == sides.size()) {
        skip("another game, setup or player count");
        continue;
      }
      if (!log.contains("result")) {
        skip("an unfinished game");
        continue;
      }
      people[k].add(replay_outcome(log, defs[k], limits));
      ++games;
    } catch (const std::exception& e) {
      skip(fmt::format("cannot be replayed: {}", e.what()));
    }
  }
  nlohmann::json figures = nlohmann::json::array();
  for (size_t k = 0; k < sides.size(); ++k)
    if (people[k].games() > 0) compare_side(sides[k].name, people[k], *sides[k].bots, figures);
  int differing = 0;
  std::string largest;
  double largest_z = 0;
  for (const auto& f : figures) {
    if (!f["significant"].get<bool>()) continue;
    ++differing;
    const double half = (f["difference"]["high"].get<double>() - f["difference"]["low"].get<double>()) / 2;
    const double z = half > 0 ? std::fabs(f["difference"]["estimate"].get<double>()) / half : 0;
    if (z > largest_z) {
      largest_z = z;
      largest = f["name"].get<std::string>();
    }
  }
  std::string text;
  if (games == 0)
    text = fmt::format("No log in {} records a finished game of this setup ({} file{} skipped).", dir, skipped.size(),
                       skipped.size() == 1 ? "" : "s");
  else if (differing == 0)
    text = fmt::format("{} game{} people played: no figure differs significantly from the bots' (with so few games, "
                       "only large differences would show).", games, games == 1 ? "" : "s");
  else
    text = fmt::format("{} game{} people played: {} figure{} differ{} significantly from the bots', most clearly {}.", games,
                       games == 1 ? "" : "s", differing, differing == 1 ? "" : "s", differing == 1 ? "s" : "", largest);
  return {{"logs", files.size()}, {"games", games}, {"skipped", skipped}, {"figures", figures},
          {"method", "people's games replayed from their logs; difference people - bots of independent means (Welch, normal approximation, 95%)"},
          {"text", text}};
}

}  // namespace rulebook::cli
