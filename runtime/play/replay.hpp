#pragma once
// Replaying a log: the game it describes is played again with the logged
// answers, and every event and the result must come out the same.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lua/rule_engine.hpp"

namespace rulebook {

// (The agent that answers a log's decisions is the position service's
// LogReplayAgent: play/position_service.hpp.)

struct ReplayReport {
  bool ok = false;
  size_t events = 0;
  std::string message;  // why it failed, naming the first difference
  std::string summary;  // the replayed result's summary, when ok
};

// Re-runs the game a log describes and checks every field of the log
// against the replay: game_name, names, agents (their count: any kind's
// answers replay), every answer (seat, index and a simultaneous decision's
// number), every event and the result. The report names the
// first difference. Throws SetupError when the log does not follow its
// schema (check it against log.schema.json first). `watcher`, when given,
// receives the replayed game's events as they happen (a narrator).
ReplayReport replay_log(const nlohmann::json& log, const EngineLimits& limits = {}, EventSink* watcher = nullptr);

}  // namespace rulebook
