// rulebook check: the conformance suite (runtime/check/conformance.*) on any
// game folder, so an author proves a game sound as the bundled ones are.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bots/agent_factory.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "core/safe_text.hpp"
#include "check/conformance.hpp"
#include "check/leak_worlds.hpp"
#include "setup/setup_error.hpp"
#include "setup/game_loader.hpp"

namespace rulebook::cli {
namespace {

struct CheckOptions {
  std::vector<std::string> paths;
  int games = 3;
  uint64_t seed = 1;
  int jobs = 1;
  bool json = false;
  double max_seconds = 5.0;
  uint64_t max_instructions = 0;
  std::string bots = "ismcts:iterations=8,depth=20";
  int bots_games = 3;
  int bots_decisions = 4;
  int worlds_games = 1000000;
  int worlds_horizons = 3;
  std::string leak_dir = (std::filesystem::temp_directory_path() / "rulebook-check-worlds").string();
  std::string world;
  std::vector<std::string> sets;
  std::vector<std::string> variants;
};

// --world FILE: one world of a leak report played again, and what its seat
// receives printed line by line (numbered as the report numbers them).
int show_world(const CheckOptions& o) {
  if (o.paths.size() != 1) throw SetupError("--world plays one game: give one PATH");
  std::ifstream in(o.world);
  if (!in) throw SetupError(fmt::format("{}: cannot read the world file", o.world));
  nlohmann::json j;
  LeakWorld world;
  try {
    j = nlohmann::json::parse(in);
    world = leak_world_from_json(j);
  } catch (const std::exception& e) {
    throw SetupError(fmt::format("{}: {}", o.world, e.what()));
  }
  const Seat seat{j.at("seat").get<int>()};
  auto def = load_game(o.paths[0], LoadOptions{j.value("variants", std::vector<std::string>{}),
                                               j.value("sets", std::vector<std::string>{})});
  EngineLimits limits;
  limits.max_seconds = o.max_seconds;
  limits.max_instructions = o.max_instructions;
  RuleEngine engine(def, limits);
  const SeatStream stream = play_seat_stream(def, engine, j.at("players").get<int>(), world, seat);
  std::cout << fmt::format("# {} (seat {}): {}\n", o.world, seat, world.what);
  for (size_t i = 0; i < stream.lines.size(); ++i)
    std::cout << fmt::format("{:>5}{} {}\n", i + 1, stream.reveal[i] ? "*" : " ", terminal_text(stream.lines[i]));
  if (!stream.error.empty()) std::cout << "# the rules failed: " << terminal_text(stream.error) << "\n";
  if (stream.stopped_at != SIZE_MAX) std::cout << "# an answer is no longer legal here: the world stops\n";
  std::cout << "# * marks a line that reveals something to the seat through the API\n";
  return stream.error.empty() ? kOk : kGameFailure;
}

int run(const CheckOptions& o) {
  if (!o.world.empty()) return show_world(o);
  ConformanceOptions options;
  options.leak_dir = o.leak_dir;
  options.sets = o.sets;
  options.variants = o.variants;
  options.worlds = o.worlds_games > 0;
  options.world_games = o.worlds_games;
  options.world_horizons = o.worlds_horizons;
  options.games = o.games;
  options.seed = o.seed;
  options.jobs = o.jobs;
  options.limits.max_seconds = o.max_seconds;
  options.limits.max_instructions = o.max_instructions;
  options.cancel = cancel_on_interrupt();
  if (o.bots != "none") {
    build_agent(o.bots);  // a misspelt kind is a usage error, at once
    options.make_bot = [spec = o.bots] { return build_agent(spec); };
    options.bot_kind = o.bots;
    options.bot_games = o.bots_games;
    options.bot_decisions = o.bots_decisions;
  }
  // Every game loads before any plays: a typo is a usage error, at once.
  int configs = 0;
  for (const auto& path : o.paths) configs += static_cast<int>(conformance_configs(path, o.sets, o.variants).size());
  nlohmann::json games = nlohmann::json::array();
  int failures = 0, played = 0, checked = 0;
  bool cancelled = false;
  const bool colour = !o.json && use_colour(1);
  for (const auto& path : o.paths) {
    if (cancelled) break;
    const ConformanceReport report = check_conformance(path, options);
    failures += static_cast<int>(report.failures.size());
    played += report.games;
    checked += report.checked_configs;
    cancelled = report.cancelled;
    if (o.json) {
      games.push_back(to_json(report));
      continue;
    }
    const char* verdict = report.ok() ? (colour ? "\033[32mPASS\033[0m" : "PASS") : (colour ? "\033[31mFAIL\033[0m" : "FAIL");
    if (report.cancelled)
      std::cout << fmt::format("{}{} {}  (interrupted: {} of {} configurations, {} games)\n", verdict,
                               report.ok() ? " so far" : "", path,
                               report.checked_configs, report.configs, report.games);
    else
      std::cout << fmt::format("{} {}  ({} configurations, {} games)\n", verdict, path, report.configs, report.games);
    for (const auto& v : report.skipped)
      std::cout << fmt::format("  skipped: variant {} (its check.skip: {})\n", v.name, v.reason);
    for (const auto& f : report.failures) {
      std::string text = describe(f);
      for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1)) text.insert(at + 1, "  ");
      std::cout << "  " << terminal_text(text) << "\n";
    }
    for (const auto& f : report.warnings) {
      std::string text = describe(f);
      for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1)) text.insert(at + 1, "  ");
      std::cout << "  warning (not failing): " << terminal_text(text) << "\n";
    }
    if (report.worlds)
      std::cout << fmt::format("  worlds: {} compared, {} skipped (their rules took another path)\n",
                               report.worlds_compared, report.worlds_skipped);
    if (!report.bot_kind.empty())
      std::cout << fmt::format("  bots: {} compared at {} decisions in worlds a seat cannot tell apart\n", report.bot_kind,
                               report.decisions_compared);
  }
  if (o.json) {
    std::cout << nlohmann::json{{"ok", failures == 0}, {"games_played", played}, {"failures", failures}, {"games", games}}.dump(2)
              << "\n";
  } else {
    std::cout << fmt::format("{} game{} checked, {} games played, {} failure{}\n", o.paths.size(),
                             o.paths.size() == 1 ? "" : "s", played, failures, failures == 1 ? "" : "s");
  }
  if (cancelled)
    return report_interrupted(checked, configs, "configurations checked", "the others were not");
  return failures ? kGameFailure : kOk;
}

}  // namespace

Runner add_check(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand(
      "check",
      "prove games sound: for every player count and variant set (each variant alone, and the combinations\n"
      "game.yaml lists under check.combinations, else every pair) random games finish within the budget,\n"
      "logs replay, a reused Lua state plays like a fresh one, no view or event shows a seat a hidden\n"
      "component, and each seat receives the same in worlds it cannot tell apart (the rules played\n"
      "again with hidden identities exchanged, others' private answers and unseen chance redrawn) until\n"
      "the game reveals something to it; a leak's two worlds are written to --leak-dir.\n"
      "Each failure names its check, configuration, seed and first wrong decision or event, with a\n"
      "`rulebook play` command that reproduces it. Exit 1 on any failure, 2 on usage errors, 130 on Ctrl-C.");
  cmd->add_option("PATH", o->paths, "bundled game names or game folders")->required();
  cmd->add_option("--games,-n", o->games, "random games per player count and variant set")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed,-s", o->seed, "game g of every configuration plays seed S+g")->capture_default_str();
  cmd->add_option("--jobs,-j", o->jobs, "configurations checked in parallel, each with its own Lua state")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--json", o->json, "print one JSON object: ok, games_played, failures and a report per game");
  cmd->add_option("--max-seconds", o->max_seconds, "CPU seconds a game's rules may run (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--bots", o->bots,
                  "the bot that must choose the same in worlds a seat cannot tell apart (its hidden cards, hidden\n"
                  "rolls and shuffles and the other seats' private answers redrawn), in the first games of every\n"
                  "configuration (--bots-games); none: skip that test")
      ->capture_default_str();
  cmd->add_option("--bots-games", o->bots_games,
                  "games of every configuration (the first ones) in which the bots test compares decisions")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--bots-decisions", o->bots_decisions,
                  "decisions of each seat compared in each of those games, spread over its game (first and last)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--worlds-games", o->worlds_games,
                  "games of every configuration (the first ones) whose seats are compared in worlds they cannot\n"
                  "tell apart (the worlds test; default: every game; 0: skip that test)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--worlds-horizons", o->worlds_horizons,
                  "worlds of exchanged hidden identities per seat and game, compared up to points spread over\n"
                  "the seat's game (the last at its end)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd->add_option("--leak-dir", o->leak_dir,
                  "where a leak's two worlds are written, a file each (play one again with --world)")
      ->capture_default_str();
  cmd->add_option("--world", o->world,
                  "play again a world a leak report wrote and print, line by line, what its seat receives")
      ->check(CLI::ExistingFile);
  cmd->add_option("--max-instructions", o->max_instructions, "Lua instructions a game may run (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--set", o->sets, "override one setup value in every configuration: PATH=VALUE (repeatable)")
      ->check(utf8_text());
  cmd->add_option("--variant", o->variants,
                  "check only this variant set, at every player count (repeatable: the variants together)")
      ->check(utf8_text());
  document_interrupt(*cmd, "configuration (player count and variant set)");
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
