// rulebook test: run scenario files and report which pass.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "setup/scenario.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

struct TestOptions {
  std::vector<std::string> paths;
  bool verbose = false;
};

int run(const TestOptions& o) {
  int passed = 0, failed = 0, invalid = 0;
  const bool colour = use_colour(1);
  for (const auto& path : o.paths) {
    for (const auto& file : find_scenarios(path)) {
      try {
        const ScenarioOutcome r = run_scenario(file);
        if (r.passed) {
          ++passed;
          std::cout << (colour ? "\033[32mPASS\033[0m " : "PASS ") << r.name << "  (" << file << ")\n";
          if (o.verbose) std::cout << r.narration;
        } else {
          ++failed;
          std::cout << (colour ? "\033[31mFAIL\033[0m " : "FAIL ") << r.name << "  (" << file << ")\n";
          for (const auto& f : r.failures) std::cout << "    " << f << "\n";
          if (o.verbose) std::cout << r.narration;
        }
      } catch (const SetupError& e) {
        ++invalid;
        std::cerr << e.what() << "\n";
      }
    }
  }
  std::cout << fmt::format("{} passed, {} failed", passed, failed);
  if (invalid) std::cout << fmt::format(", {} invalid", invalid);
  std::cout << "\n";
  if (invalid) return kUsage;
  return failed ? kGameFailure : kOk;
}

}  // namespace

Runner add_test(CLI::App& app) {
  auto o = std::make_shared<TestOptions>();
  auto* cmd = app.add_subcommand("test", "run scenario files (a file, a folder, or a game folder's scenarios/)");
  cmd->add_option("SCENARIO", o->paths, "scenario files or folders")->required();
  cmd->add_flag("--verbose", o->verbose, "print each game's narration");
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
