// rulebook: list, validate, play, simulate, replay, test and check tabletop games
// whose rules are Lua scripts and whose setups are YAML.
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/usage_words.hpp"
#include "core/our_words.hpp"
#include "core/safe_text.hpp"
#include "lua/rule_engine.hpp"
#include "determinize/determinizer.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

int main(int argc, char** argv) {
  using namespace rulebook;
  CLI::App app{"rulebook: a scriptable rules interpreter for tabletop games.\n"
               "Exit codes: 0 success, 1 game or script failure, 2 usage or validation error,\n"
               "130 interrupted: Ctrl-C stopped simulate, compare, arena, check or test --mutate at the next\n"
               "game, after printing what the games played so far show (a second Ctrl-C stops at once)."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("rulebook ") + RULEBOOK_VERSION + "\n" + lua_version(),
                       "print the version and the Lua version");
  set_data_root(cli::find_data_root());
  // A game's sampling hint that a search bot had to turn off or overrule:
  // said once per message (the bot then samples generically).
  set_search_warning_handler([](const std::string& warning) {
    static std::set<std::string> said;
    if (said.insert(warning).second) std::cerr << "rulebook: warning: " << terminal_text(warning) << "\n";
  });
  std::map<CLI::App*, cli::Runner> runners;
  auto add = [&](cli::Runner (*fn)(CLI::App&)) {
    auto runner = fn(app);
    runners[app.get_subcommands({}).back()] = std::move(runner);
  };
  add(cli::add_list);
  add(cli::add_info);
  add(cli::add_validate);
  add(cli::add_play);
  add(cli::add_replay);
  add(cli::add_simulate);
  add(cli::add_compare);
  add(cli::add_sweep);
  add(cli::add_arena);
  add(cli::add_report);
  add(cli::add_skill);
  add(cli::add_merge);
  add(cli::add_test);
  add(cli::add_new);
  add(cli::add_new_variant);
  add(cli::add_completions);
  add(cli::add_manpage);
  add(cli::add_check);
  add(cli::add_serve);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << cli::usage_words(e.what()) << "\nRun with --help for more information.\n";
    return cli::kUsage;
  }
  try {
    for (auto* sub : app.get_subcommands()) {
      const int code = runners.at(sub)();
      // Output that could not be written (stdout on a full disk) is a failure.
      std::cout.flush();
      if (!std::cout) {
        std::cerr << "error: could not write to standard output\n";
        return cli::kGameFailure;
      }
      return code;
    }
  } catch (const SetupError& e) {
    std::cerr << terminal_text(e.what()) << "\n";
    return cli::kUsage;
  } catch (const ScriptError& e) {
    std::cerr << "error: " << terminal_text(e.what()) << "\n";
    return cli::kGameFailure;
  } catch (const AgentFailure& e) {
    std::cerr << "error: " << terminal_text(e.what()) << "\n";
    return cli::kGameFailure;
  } catch (const AgentSpecError& e) {
    std::cerr << "error: " << terminal_text(e.what()) << "\n";
    return cli::kUsage;
  } catch (const cli::OutputError& e) {
    std::cerr << terminal_text(e.what()) << "\n";
    return cli::kGameFailure;
  } catch (const std::filesystem::filesystem_error& e) {
    // Never the library's text: say which file could not be reached, and why.
    std::cerr << fmt::format("{}: error: {}\n", terminal_text(e.path1().string()), e.code().message());
    return cli::kUsage;
  } catch (const std::exception& e) {
    // A library's text is not ours to show (core/our_words.hpp).
    std::cerr << "error: " << terminal_text(in_our_words(e, "rulebook stopped on an internal error")) << "\n";
    return cli::kGameFailure;
  }
  return cli::kUsage;
}
