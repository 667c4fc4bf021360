#include "play/log_file.hpp"

#include <cmath>

namespace rulebook {

using nlohmann::json;

json result_json(const GameState& state, const GameResult& r) {
  json scores = json::array();
  for (const auto& p : state.players()) scores.push_back(p.score);
  json j{{"finished", r.finished}, {"stopped", r.stopped}, {"winners", r.winners},
         {"losers", r.losers},     {"summary", r.summary}, {"reason", r.reason}, {"turns", r.turns},
         {"scores", scores},       {"details", r.details}};
  // Only when the rules gave some: the logs of games without statistics stay as they were.
  if (!r.stats.empty()) {
    json stats = json::object();
    for (const auto& [name, value] : r.stats) {
      // A whole number is written as one ("3", not "3.0").
      if (std::floor(value) == value && std::fabs(value) < 9e15) stats[name] = static_cast<int64_t>(value);
      else stats[name] = value;
    }
    j["stats"] = std::move(stats);
  }
  if (!r.returns.empty()) {  // likewise: only when the rules gave returns
    json returns = json::array();
    for (double value : r.returns) {
      if (std::floor(value) == value && std::fabs(value) < 9e15) returns.push_back(static_cast<int64_t>(value));
      else returns.push_back(value);
    }
    j["returns"] = std::move(returns);
  }
  return j;
}

json make_log(const GameSpec& spec, const GameState& state, const GameResult& result,
              const std::vector<AnswerRecord>& answers, const std::vector<json>& events,
              const std::vector<std::string>& agent_kinds) {
  json names = json::array();
  for (const auto& p : state.players()) names.push_back(p.name);
  json answer_list = json::array();
  for (const auto& a : answers)
    answer_list.push_back(a.together ? json::array({a.seat, a.index, a.together}) : json::array({a.seat, a.index}));
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

std::string dump_log(const json& log) {
  std::string out = "{\n";
  bool first = true;
  for (const auto& [key, value] : log.items()) {
    if (!first) out += ",\n";
    first = false;
    out += "  " + json(key).dump() + ": ";
    if (key == "events" && value.is_array()) {
      out += "[";
      for (size_t i = 0; i < value.size(); ++i) out += (i ? ",\n    " : "\n    ") + value[i].dump();
      out += value.empty() ? "]" : "\n  ]";
    } else {
      out += value.dump();
    }
  }
  out += "\n}\n";
  return out;
}

}  // namespace rulebook
