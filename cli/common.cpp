#include <fstream>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "lua/rule_engine.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {

void add_game_options(CLI::App& cmd, GameOptions& o, bool with_seed) {
  cmd.add_option("GAME", o.game, "a bundled game's name, or a game folder")->required();
  cmd.add_option("--players,-p", o.players, "number of players (default: the game's)")->check(CLI::Range(1, 32));
  if (with_seed) {
    auto* seed = cmd.add_option("--seed,-s", o.seed, "seed for the game's chance");
    seed->each([&o](const std::string&) { o.seed_given = true; });
  }
  cmd.add_option("--variant,-v", o.variants, "apply a variant (repeatable, applied in order)");
  cmd.add_option("--set", o.sets, "override one setup value: PATH=VALUE (repeatable)");
  cmd.add_option("--max-seconds", o.max_seconds,
                 "CPU-time budget of the rules per game, in seconds (0: none); a script over it "
                 "stops with its file and line")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            return (end && *end == '\0' && v >= 0 && v <= 1e6) ? "" : "must be a number of seconds from 0 to 1000000";
          },
          "SECONDS"));
  cmd.add_option("--max-instructions", o.max_instructions,
                 "exact Lua instruction budget per game (0: none); counting makes the rules about 20% slower")
      ->capture_default_str();
  cmd.add_option("--max-memory", o.max_memory_mb, "Lua memory cap in MiB")->capture_default_str();
}

EngineLimits engine_limits(const GameOptions& o) {
  return EngineLimits{o.max_instructions, o.max_memory_mb * 1024 * 1024, o.max_seconds};
}

int player_count_for(const GameDefinition& def, int requested) {
  const int players = requested ? requested : def.default_players;
  if (players < def.min_players || players > def.max_players)
    throw SetupError(fmt::format("--players: error: {} takes {} to {} players, not {}", def.name,
                                 def.min_players, def.max_players, players));
  return players;
}

bool use_colour(int fd) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour && *no_colour) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return isatty(fd) != 0;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SetupError(fmt::format("{}: error: cannot read file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace rulebook::cli
