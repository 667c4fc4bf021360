#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>

#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "bots/agent_factory.hpp"
#include "core/input_file.hpp"
#include "lua/rule_engine.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {

CLI::Validator whole_number(uint64_t min, uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        // from_chars takes no sign, so "-1" fails here instead of wrapping.
        if (text.empty() || ptr != end || ec == std::errc::invalid_argument)
          return fmt::format("'{}' is not a whole number", text);
        if (ec == std::errc::result_out_of_range || value < min || value > max)
          return fmt::format("{} is out of range ({} to {})", text, min, max);
        return {};
      },
      fmt::format("UINT in [{} - {}]", min, max));
}

CLI::Validator utf8_text() {
  // Names, paths and overrides end up in logs and JSON output: JSON text is UTF-8.
  return CLI::Validator(
      [](std::string& text) -> std::string { return valid_utf8(text) ? "" : "not valid UTF-8 text"; }, "TEXT");
}

void add_game_options(CLI::App& cmd, GameOptions& o, bool with_seed, bool with_setup) {
  cmd.add_option("GAME", o.game, "a bundled game's name, or a game folder")->required()->check(utf8_text());
  cmd.add_option("--players,-p", o.players, "number of players (default: the game's)")->check(CLI::Range(1, 32));
  if (with_seed) {
    auto* seed = cmd.add_option("--seed,-s", o.seed, "seed for the game's chance")
                     ->check(whole_number(0, std::numeric_limits<uint64_t>::max()));
    seed->each([&o](const std::string&) { o.seed_given = true; });
  }
  if (with_setup) {
    cmd.add_option("--variant,-v", o.variants, "apply a variant (repeatable, applied in order)")->check(utf8_text());
    cmd.add_option("--set", o.sets, "override one setup value: PATH=VALUE (repeatable)")->check(utf8_text());
  }
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
      ->check(whole_number(0, std::numeric_limits<uint64_t>::max()))
      ->capture_default_str();
  cmd.add_option("--max-memory", o.max_memory_mb, "Lua memory cap in MiB")
      ->check(whole_number(1, kMaxMemoryMiB))
      ->capture_default_str();
}

EngineLimits engine_limits(const GameOptions& o) {
  return EngineLimits{o.max_instructions, o.max_memory_mb * 1024 * 1024, o.max_seconds};
}

void add_agent_option(CLI::App& cmd, std::vector<std::string>& specs, double& timeout_seconds) {
  cmd.add_option("--agent,-a", specs,
                 "who plays a seat: SEAT=KIND or SEAT=KIND:key=value,..., or all=KIND (default random); "
                 "kinds:\n" + builtin_agents().describe("    "))
      ->check(utf8_text());
  add_agent_timeout_option(cmd, timeout_seconds);
}

void add_agent_timeout_option(CLI::App& cmd, double& timeout_seconds) {
  cmd.add_option("--agent-timeout", timeout_seconds,
                 "seconds an exec: bot may take per decision (and per message it reads); over it the game "
                 "ends with exit 1")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
}

void add_batch_options(CLI::App& cmd, int64_t& games, int& jobs, std::vector<std::string>& agents,
                       double& timeout_seconds) {
  cmd.add_option("--games,-n", games, "number of games")->capture_default_str()->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  cmd.add_option("--jobs,-j", jobs, "worker threads, each with its own Lua state")->capture_default_str()->check(CLI::Range(1, 256));
  add_agent_option(cmd, agents, timeout_seconds);
}

void add_no_metrics_flag(CLI::App& cmd, bool& no_metrics) {
  cmd.add_flag("--no-metrics", no_metrics,
               "skip the metrics of how games felt (lead changes, drama, downtime...: one rules.evaluate call per seat "
               "and decision)");
}

void add_evaluator_option(CLI::App& cmd, std::string& evaluator) {
  cmd.add_option("--evaluator", evaluator,
                 "value each position of a game that has no rules.evaluate by a search agent's estimate, for the "
                 "metrics (lead changes, drama, decisiveness), in place of its scores: AGENT is mcts or ismcts, e.g. "
                 "ismcts:iterations=200. Costs one search per decision; the games played stay the same")
      ->type_name("AGENT");
}

std::vector<std::string> agent_kinds(const std::vector<std::string>& specs, int players) {
  std::vector<std::string> kinds(players, "random");
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos)
      throw SetupError(fmt::format("--agent: error: expected SEAT=KIND, got '{}'", spec));
    const std::string seat = spec.substr(0, eq), kind = spec.substr(eq + 1);
    if (seat == "all") {
      for (auto& k : kinds) k = kind;
      continue;
    }
    int s = -1;
    try {
      size_t used = 0;
      s = std::stoi(seat, &used);
      if (used != seat.size()) s = -1;
    } catch (const std::exception&) {
    }
    if (s < 0 || s >= players)
      throw SetupError(fmt::format("--agent: error: seat '{}' is not in 0..{}", seat, players - 1));
    kinds[s] = kind;
  }
  return kinds;
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

void write_file(const std::string& option, const std::string& path, const std::string& text) {
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw SetupError(fmt::format("{}: error: cannot write '{}' ({})", option, path, std::strerror(errno)));
  // Every step is checked: on a full disk (or /dev/full) fwrite may succeed
  // into the buffer and only fflush or fclose see the error.
  bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  ok = std::fflush(file) == 0 && ok;
  const int error = errno;
  ok = std::fclose(file) == 0 && ok;
  if (!ok)
    throw OutputError(fmt::format("{}: error: could not write '{}' ({})", option, path,
                                  std::strerror(error ? error : errno)));
}

CLI::Option* add_narrate_option(CLI::App& cmd, NarrationLevel& level) {
  return cmd
      .add_option_function<std::string>(
          "--narrate", [&level](const std::string& text) { parse_narration_level(text, level); },
          "how much narration tells: brief (a turn a line), normal (default) or full (every component event)")
      ->check(CLI::IsMember({"brief", "normal", "full"}));
}

NarrationStyle narration_style(int fd) {
  NarrationStyle style;
  if (use_colour(fd)) style = NarrationStyle{"\033[1m", "\033[2m", "\033[0m"};
  style.escape_controls = true;  // a script's text never drives the terminal
  return style;
}

std::string read_file(const std::string& path) {
  InputFile file = read_input_file(path);
  if (!file.ok) throw SetupError(fmt::format("{}: error: {}", path, file.error));
  return std::move(file.text);
}

}  // namespace rulebook::cli
