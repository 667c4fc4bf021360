#pragma once
// The rulebook command line: one file per command, sharing these helpers.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/game_definition.hpp"
#include "observation/narrator.hpp"

namespace rulebook {
struct EngineLimits;
}

namespace rulebook::cli {

// kInterrupted: Ctrl-C stopped a batch; what was played is reported (cli/interrupt.hpp).
enum ExitCode { kOk = 0, kGameFailure = 1, kUsage = 2, kInterrupted = 130 };

// --max-memory's ceiling (1 TiB): its value times 2^20 must fit a size_t.
constexpr uint64_t kMaxMemoryMiB = uint64_t{1} << 20;

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
  double agent_timeout = 10.0;  // --agent-timeout, where agents are taken
};
// with_setup: --variant and --set (compare has its own, one list per side).
void add_game_options(CLI::App& cmd, GameOptions& o, bool with_seed = true, bool with_setup = true);
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
Runner add_compare(CLI::App& app);
Runner add_merge(CLI::App& app);
Runner add_sweep(CLI::App& app);
Runner add_check(CLI::App& app);
Runner add_serve(CLI::App& app);  // the web table
Runner add_arena(CLI::App& app);
Runner add_report(CLI::App& app);  // the designer's report page
Runner add_skill(CLI::App& app);   // the skill trace

// --agent SEAT=KIND (repeatable) and --agent-timeout SECONDS, as play,
// simulate and compare take them.
void add_agent_option(CLI::App& cmd, std::vector<std::string>& specs, double& timeout_seconds);
void add_agent_timeout_option(CLI::App& cmd, double& timeout_seconds);
// --games, --jobs and --agent of the commands that play many bot games.
void add_batch_options(CLI::App& cmd, int64_t& games, int& jobs, std::vector<std::string>& agents,
                       double& timeout_seconds);

// --no-metrics: skip the metrics of how games felt (docs/judging-a-rule.md).
void add_no_metrics_flag(CLI::App& cmd, bool& no_metrics);
// --evaluator AGENT: a search agent values the positions of a game without
// rules.evaluate for the metrics (cli/simulation_runner.hpp: RunPlan::evaluator).
void add_evaluator_option(CLI::App& cmd, std::string& evaluator);

// "SEAT=KIND" or "all=KIND" (repeatable) -> the agent kind of every seat
// (default random). Throws SetupError.
std::vector<std::string> agent_kinds(const std::vector<std::string>& specs, int players);
Runner add_new(CLI::App& app);          // new, new-variant (scaffolding)
Runner add_new_variant(CLI::App& app);
Runner add_completions(CLI::App& app);  // completions, manpage (from the app itself)
Runner add_manpage(CLI::App& app);

// The folder holding the bundled rules/ and schemas/ (install_paths.cpp).
std::string find_data_root();

// The requested player count (0: the game's default), checked against the game.
int player_count_for(const GameDefinition& def, int requested);

// Prints a simulation's report (text, or JSON) and draws its plot (if a
// file is given): shared by simulate and merge, so that they print alike.
struct SimulationPart;
int print_run(const SimulationPart& run, bool json, const std::string& plot);

bool use_colour(int fd);

// Refuses text that is not UTF-8 (it would reach JSON logs and output).
CLI::Validator utf8_text();

// Writing an output file failed part-way (a full disk, /dev/full): exit 1.
struct OutputError : std::runtime_error {
  using runtime_error::runtime_error;
};
// Writes `text` to `path`, checking every write and the close. Throws
// SetupError when the file cannot be created, OutputError when writing fails.
void write_file(const std::string& option, const std::string& path, const std::string& text);
// Narration for a terminal: emphasis when fd is a colour terminal, and
// control characters of the text always shown as escapes.
NarrationStyle narration_style(int fd);
// --narrate brief|normal|full, on every command that prints narration.
CLI::Option* add_narrate_option(CLI::App& cmd, NarrationLevel& level);
std::string read_file(const std::string& path);  // throws SetupError

}  // namespace rulebook::cli
