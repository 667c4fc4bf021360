#include "play/log_file.hpp"

namespace rulebook {

using nlohmann::json;

json result_json(const GameState& state, const GameResult& r) {
  json scores = json::array();
  for (const auto& p : state.players()) scores.push_back(p.score);
  return json{{"finished", r.finished}, {"stopped", r.stopped}, {"winners", r.winners},
              {"losers", r.losers},     {"summary", r.summary}, {"reason", r.reason}, {"turns", r.turns},
              {"scores", scores},       {"details", r.details}};
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
