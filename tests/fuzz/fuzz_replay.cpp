// Replay-log parsing and checking, as `rulebook replay` does it: parse with
// the nesting limit, check against log.schema.json, replay and compare.
#include "agents/agent.hpp"
#include "core/input_file.hpp"
#include "fuzz_input.hpp"
#include "setup/game_loader.hpp"
#include "play/log_file.hpp"
#include "play/replay.hpp"
#include "setup/yaml_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json log;
  std::string error;
  if (!rulebook::parse_json_input(rulebook::fuzz::text(data, size), "fuzz.json", log, error)) return 0;
  try {
    rulebook::check_against(rulebook::SourcedJson{log, {{"", rulebook::SourceLocation{"fuzz.json", 0, 0}}}},
                            "log.schema.json");
    // Small limits: a fuzzed log must not make a slow input out of a long game.
    (void)rulebook::replay_log(log, rulebook::EngineLimits{2'000'000, 64u << 20});
  } catch (const rulebook::SetupError&) {
  }
  return 0;
}
