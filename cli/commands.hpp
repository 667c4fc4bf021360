#pragma once
// The rulebook command line: one file per command, sharing these helpers.
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/game_definition.hpp"

namespace rulebook {
struct EngineLimits;
}

namespace rulebook::cli {

enum ExitCode { kOk = 0, kGameFailure = 1, kUsage = 2 };

// Options every game-running command shares.
struct GameOptions {
  std::string game;
  int players = 0;
  uint64_t seed = 1;
  bool seed_given = false;
  std::vector<std::string> variants;
  std::vector<std::string> sets;
  uint64_t max_instructions = 0;  // exact count, 0 = none
  double max_seconds = 5.0;
  size_t max_memory_mb = 256;
};
void add_game_options(CLI::App& cmd, GameOptions& o, bool with_seed = true);
// The engine's limits from --max-seconds, --max-instructions and --max-memory.
EngineLimits engine_limits(const GameOptions& o);

// Each command registers itself and returns the function that runs it.
using Runner = std::function<int()>;
Runner add_list(CLI::App& app);
Runner add_info(CLI::App& app);
Runner add_validate(CLI::App& app);
Runner add_play(CLI::App& app);
Runner add_replay(CLI::App& app);
Runner add_simulate(CLI::App& app);
Runner add_test(CLI::App& app);

// The requested player count (0: the game's default), checked against the game.
int player_count_for(const GameDefinition& def, int requested);

bool use_colour(int fd);
std::string read_file(const std::string& path);  // throws SetupError

}  // namespace rulebook::cli
