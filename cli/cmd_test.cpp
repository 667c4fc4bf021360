// rulebook test: run scenario files and report which pass; with --mutate,
// test the scenarios themselves by mutation (see runtime/mutation/).
#include <filesystem>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bots/agent_factory.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "core/safe_text.hpp"
#include "mutation/mutation_run.hpp"
#include "play/scenario.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

struct TestOptions {
  std::vector<std::string> paths;
  bool verbose = false;
  bool mutate = false;
  bool json = false;
  int jobs = 1;
  uint64_t max_instructions = 20'000'000;
  double min_score = -1;
};

int run_scenarios(const TestOptions& o) {
  int passed = 0, failed = 0, invalid = 0;
  const bool colour = use_colour(1);
  for (const auto& path : o.paths) {
    for (const auto& file : find_scenarios(path)) {
      try {
        ScenarioOptions options;
        options.make_agent = [](const std::string& spec) { return build_agent(spec); };
        const ScenarioOutcome r = run_scenario(file, options);
        if (r.passed) {
          ++passed;
          std::cout << (colour ? "\033[32mPASS\033[0m " : "PASS ") << r.name << "  (" << file << ")\n";
          if (o.verbose) std::cout << terminal_text(r.narration);
        } else {
          ++failed;
          std::cout << (colour ? "\033[31mFAIL\033[0m " : "FAIL ") << r.name << "  (" << file << ")\n";
          for (const auto& f : r.failures) std::cout << "    " << terminal_text(f) << "\n";
          if (o.verbose) std::cout << terminal_text(r.narration);
        }
      } catch (const SetupError& e) {
        ++invalid;
        std::cerr << terminal_text(e.what()) << "\n";
      }
    }
  }
  std::cout << fmt::format("{} passed, {} failed", passed, failed);
  if (invalid) std::cout << fmt::format(", {} invalid", invalid);
  std::cout << "\n";
  if (invalid) return kUsage;
  return failed ? kGameFailure : kOk;
}

// ---- --mutate ----------------------------------------------------------------

// Game folders (or names) mean all their scenarios; scenario files and
// folders are grouped by the game they play.
std::vector<std::pair<std::string, std::vector<std::string>>> games_to_mutate(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::vector<std::string>>> games;
  auto add = [&](const std::string& game, const std::string& scenario) {
    for (auto& [g, files] : games)
      if (g == game) {
        if (std::find(files.begin(), files.end(), scenario) == files.end()) files.push_back(scenario);
        return;
      }
    games.push_back({game, {scenario}});
  };
  std::error_code ec;
  for (const auto& path : paths) {
    std::string game;
    const bool is_game = std::filesystem::exists(std::filesystem::path(path) / "game.yaml", ec) ||
                         (!std::filesystem::exists(path, ec) && path.find('/') == std::string::npos);
    if (is_game) {
      game = resolve_game_dir(path);
      const auto files = find_scenarios(game);
      if (files.empty()) throw SetupError(fmt::format("{}: error: the game has no scenarios/*.yaml to test", path));
      for (const auto& f : files) add(game, f);
      continue;
    }
    if (!std::filesystem::exists(path, ec)) throw SetupError(fmt::format("{}: error: no such file or folder", path));
    for (const auto& f : find_scenarios(path)) add(mutation::game_of_scenario(f), f);
  }
  return games;
}

// A path as the user would type it: relative to the working folder when inside it.
std::string shown(const std::string& path) {
  std::error_code ec;
  auto rel = std::filesystem::relative(path, std::filesystem::current_path(ec), ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.generic_string();
  return std::filesystem::path(path).generic_string();
}
std::string shown(const std::string& game_dir, const std::string& file) {
  return shown((std::filesystem::path(game_dir) / file).string());
}

nlohmann::json report_json(const mutation::MutationReport& r) {
  nlohmann::json mutants = nlohmann::json::array();
  for (const auto& m : r.mutants) {
    nlohmann::json j = {{"file", shown(r.game_dir, m.mutant.file)},
                        {"line", m.mutant.line},
                        {"kind", m.mutant.kind},
                        {"change", m.mutant.change},
                        {"status", mutation::status_name(m.status)},
                        {"scenarios_run", m.scenarios_run}};
    if (!m.scenario.empty()) {
      j["scenario"] = shown(m.scenario);
      j["failure"] = m.failure;
    }
    mutants.push_back(std::move(j));
  }
  return {{"game", shown(r.game_dir)},
          {"scripts", r.scripts},
          {"scenarios", r.scenarios.size()},
          {"mutants", mutants},
          {"total", r.mutants.size()},
          {"killed", r.killed},
          {"timed_out", r.timed_out},
          {"survived", r.survived},
          {"not_covered", r.not_covered},
          {"score", r.score()},
          {"covered_score", r.covered_score()},
          {"seconds", r.seconds}};
}

void print_report(const mutation::MutationReport& r, bool verbose, bool colour) {
  auto tag = [&](const char* text, const char* code) {
    return colour ? fmt::format("\033[{}m{}\033[0m", code, text) : std::string(text);
  };
  for (const auto& m : r.mutants) {
    const std::string where = fmt::format("{}:{}: {}", shown(r.game_dir, m.mutant.file), m.mutant.line, m.mutant.change);
    switch (m.status) {
      case mutation::MutantStatus::Survived: std::cout << tag("SURVIVED", "31") << "    " << where << "\n"; break;
      case mutation::MutantStatus::NotCovered: std::cout << tag("NOT COVERED", "33") << " " << where << "\n"; break;
      case mutation::MutantStatus::TimedOut:
        if (verbose) std::cout << tag("TIMED OUT", "32") << "   " << where << "  (" << shown(m.scenario) << ")\n";
        break;
      case mutation::MutantStatus::Killed:
        if (verbose) std::cout << tag("KILLED", "32") << "      " << where << "  (" << shown(m.scenario) << ": " << m.failure << ")\n";
        break;
    }
  }
  std::cout << fmt::format("{}: {} mutants of {} script(s), {} scenarios: {} killed ({} of them by the budget), "
                           "{} survived, {} not covered\n",
                           shown(r.game_dir), r.mutants.size(), r.scripts.size(), r.scenarios.size(), r.killed + r.timed_out,
                           r.timed_out, r.survived, r.not_covered);
  std::cout << fmt::format("mutation score: {:.1f}% ({} of {}); of the mutants some scenario reaches: {:.1f}%; {:.1f} s\n",
                           100 * r.score(), r.killed + r.timed_out, r.mutants.size(), 100 * r.covered_score(),
                           r.seconds);
}

int run_mutation(const TestOptions& o) {
  if (o.jobs < 1) throw SetupError("--jobs: error: must be at least 1");
  mutation::MutationOptions options;
  options.jobs = o.jobs;
  options.limits.max_instructions = o.max_instructions;
  options.make_agent = [](const std::string& spec) { return build_agent(spec); };
  options.cancel = cancel_on_interrupt();
  const bool colour = !o.json && use_colour(1);
  const bool show_progress = !o.json && use_colour(2);
  if (show_progress)
    options.progress = [](const mutation::MutantResult&, size_t done, size_t total) {
      if (done % 25 == 0 || done == total) std::cerr << fmt::format("\r{} of {} mutants", done, total) << std::flush;
    };
  nlohmann::json all = nlohmann::json::array();
  bool below = false;
  for (const auto& [game, scenarios] : games_to_mutate(o.paths)) {
    const auto report = mutation::run_mutation_test(game, scenarios, options);
    if (show_progress) std::cerr << "\r\033[K";
    if (o.json) all.push_back(report_json(report));
    else print_report(report, o.verbose, colour);
    if (o.min_score >= 0 && 100 * report.score() < o.min_score) below = true;
    if (report.cancelled) {  // Ctrl-C: the games after this one are not tested
      if (o.json) std::cout << nlohmann::json{{"games", all}}.dump(2) << "\n";
      return report_interrupted(static_cast<int64_t>(report.mutants.size()), static_cast<int64_t>(report.planned_mutants),
                                "mutants of " + shown(report.game_dir) + " tested");
    }
  }
  if (o.json) std::cout << nlohmann::json{{"games", all}}.dump(2) << "\n";
  return below ? kGameFailure : kOk;
}

}  // namespace

Runner add_test(CLI::App& app) {
  auto o = std::make_shared<TestOptions>();
  auto* cmd = app.add_subcommand("test", "run scenario files (a file, a folder, or a game folder's scenarios/); "
                                         "--mutate tests the scenarios by mutating the game's Lua");
  cmd->add_option("GAME_OR_SCENARIOS", o->paths, "scenario files or folders (with --mutate: also game names)")
      ->required();
  cmd->add_flag("--verbose", o->verbose, "print each game's narration (with --mutate: list killed mutants too)");
  cmd->add_flag("--mutate", o->mutate,
                "mutation testing: make mutants of the game's Lua, run the scenarios against each, report survivors");
  cmd->add_flag("--json", o->json, "with --mutate: print the report as JSON");
  cmd->add_option("--jobs", o->jobs, "with --mutate: mutants run in parallel on this many threads")
      ->capture_default_str();
  cmd->add_option("--max-instructions", o->max_instructions,
                  "with --mutate: instruction budget of each scenario run; a mutant over it counts as killed")
      ->capture_default_str();
  cmd->add_option("--min-score", o->min_score, "with --mutate: exit 1 when a game's mutation score (percent) is lower");
  document_interrupt(*cmd, "mutant (with --mutate)");
  return [o, cmd] {
    if (!o->mutate) {
      for (const char* flag : {"--json", "--jobs", "--max-instructions", "--min-score"})
        if (cmd->count(flag)) throw SetupError(fmt::format("{}: error: only with --mutate", flag));
      return run_scenarios(*o);
    }
    return run_mutation(*o);
  };
}

}  // namespace rulebook::cli
