#include "setup/game_record.hpp"

#include <fmt/format.h>

#include "core/game_log.hpp"
#include "setup/setup_error.hpp"

namespace rulebook {

using nlohmann::json;

json result_json(const GameState& state, const GameResult& r) {
  json scores = json::array();
  for (const auto& p : state.players()) scores.push_back(p.score);
  return json{{"finished", r.finished}, {"stopped", r.stopped}, {"winners", r.winners},
              {"losers", r.losers},     {"summary", r.summary}, {"turns", r.turns},
              {"scores", scores},       {"details", r.details}};
}

json make_log(const GameSpec& spec, const GameState& state, const GameResult& result,
              const std::vector<AnswerRecord>& answers, const std::vector<json>& events,
              const std::vector<std::string>& agent_kinds) {
  json names = json::array();
  for (const auto& p : state.players()) names.push_back(p.name);
  json answer_list = json::array();
  for (const auto& a : answers) answer_list.push_back(json::array({a.seat, a.index}));
  json log;
  log["format"] = "rulebook-log";
  log["version"] = 1;
  log["game"] = spec.game;
  log["game_name"] = state.definition().name;
  log["variants"] = spec.variants;
  log["sets"] = spec.sets;
  log["players"] = state.player_count();
  log["names"] = names;
  log["seed"] = spec.seed;
  log["agents"] = agent_kinds;
  log["answers"] = answer_list;
  log["result"] = result_json(state, result);
  log["events"] = events;
  return log;
}

int ReplayAgent::choose(const Decision& d) {
  if (*next_ >= answers_->size())
    throw AgentError(fmt::format("the log has no answer left for \"{}\" (seat {})", d.prompt(), d.seat()));
  const AnswerRecord& a = (*answers_)[(*next_)++];
  if (a.seat != seat_)
    throw AgentError(fmt::format("log answer {} was given by seat {}, but seat {} is asked \"{}\"",
                                 *next_, a.seat, seat_, d.prompt()));
  if (a.index < 0 || a.index >= d.count())
    throw AgentError(fmt::format("log answer {} picks option {} of {}", *next_, a.index + 1, d.count()));
  return a.index;
}

ReplayReport replay_log(const json& log, const EngineLimits& limits) {
  if (!log.is_object() || log.value("format", "") != "rulebook-log")
    throw SetupError("log: error: not a rulebook log (\"format\": \"rulebook-log\" missing)");
  GameSpec spec;
  try {
    spec.game = log.at("game").get<std::string>();
    spec.variants = log.at("variants").get<std::vector<std::string>>();
    spec.sets = log.at("sets").get<std::vector<std::string>>();
    spec.players = log.at("players").get<int>();
    spec.seed = log.at("seed").get<uint64_t>();
    spec.names = log.at("names").get<std::vector<std::string>>();
  } catch (const json::exception& e) {
    throw SetupError(fmt::format("log: error: {}", e.what()));
  }
  std::vector<AnswerRecord> answers;
  for (const auto& a : log.at("answers")) answers.push_back({a.at(0).get<int>(), a.at(1).get<int>()});

  auto def = load_game(spec.game, LoadOptions{spec.variants, spec.sets});
  RuleEngine engine(def, limits);
  GameState state(*def);
  EventRecorder recorder;
  state.set_sink(&recorder);
  state.reset(spec.players, spec.seed, spec.names);
  size_t next = 0;
  std::vector<std::unique_ptr<ReplayAgent>> owned;
  std::vector<Agent*> agents;
  for (int s = 0; s < spec.players; ++s) {
    owned.push_back(std::make_unique<ReplayAgent>(&answers, &next));
    agents.push_back(owned.back().get());
  }
  ReplayReport report;
  GameResult result;
  try {
    result = engine.play(state, agents);
  } catch (const std::exception& e) {
    report.message = fmt::format("the replay failed: {}", e.what());
    return report;
  }
  const auto& expected = log.at("events");
  const auto& got = recorder.events();
  const size_t n = std::min(expected.size(), got.size());
  for (size_t i = 0; i < n; ++i) {
    if (expected[i] != got[i]) {
      report.events = i;
      report.message = fmt::format("event {} differs:\n  log:    {}\n  replay: {}", i + 1, expected[i].dump(), got[i].dump());
      return report;
    }
  }
  report.events = n;
  if (expected.size() != got.size()) {
    report.message = fmt::format("the log has {} events, the replay {}", expected.size(), got.size());
    return report;
  }
  if (next != answers.size()) {
    report.message = fmt::format("the replay used {} of the log's {} answers", next, answers.size());
    return report;
  }
  const json replayed = result_json(state, result);
  if (log.contains("result") && log.at("result") != replayed) {
    report.message = fmt::format("the result differs:\n  log:    {}\n  replay: {}", log.at("result").dump(), replayed.dump());
    return report;
  }
  report.ok = true;
  return report;
}

}  // namespace rulebook
