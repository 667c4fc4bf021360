// rulebook replay: re-run a log and check every event matches.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/input_file.hpp"
#include "core/safe_text.hpp"
#include "observation/narrator.hpp"
#include "observation/event_recorder.hpp"
#include "play/log_file.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

struct ReplayOptions {
  std::string log;
  bool quiet = false;
  NarrationLevel narrate = NarrationLevel::Normal;
  const CLI::Option* narrate_option = nullptr;  // replay narrates only when asked
  int view = -1;
};

int run(const ReplayOptions& o) {
  const std::string text = read_file(o.log);
  nlohmann::json log;
  std::string error;
  if (!parse_json_input(text, o.log, log, error)) throw SetupError(error);
  check_against(SourcedJson{log, {{"", SourceLocation{o.log, 0, 0}}}}, "log.schema.json");
  std::unique_ptr<Narrator> narrator;
  if (o.narrate_option->count() > 0) {
    if (o.view < -1 || o.view >= log.value("players", 0))
      throw SetupError(fmt::format("--view: error: seat {} is not in -1..{}", o.view, log.value("players", 0) - 1));
    narrator = std::make_unique<Narrator>(std::cout, Seat{o.view}, narration_style(1), o.narrate);
  }
  const ReplayReport report = replay_log(log, {}, narrator.get());
  if (narrator) narrator->flush();
  if (!report.ok) {
    std::cerr << o.log << ": replay failed: " << terminal_text(report.message) << "\n";
    return kGameFailure;
  }
  if (!o.quiet)
    std::cout << fmt::format("{}: replay OK, {} events match ({})\n", o.log, report.events,
                             terminal_text(report.summary, true));
  return kOk;
}

}  // namespace

Runner add_replay(CLI::App& app) {
  auto o = std::make_shared<ReplayOptions>();
  auto* cmd = app.add_subcommand("replay", "re-run a game log and verify every event matches");
  cmd->add_option("LOG", o->log, "a log written by 'rulebook play --log'")->required();
  cmd->add_flag("--quiet,-q", o->quiet, "print nothing when the replay matches");
  o->narrate_option = add_narrate_option(*cmd, o->narrate);  // narrates the replayed game
  cmd->add_option("--view", o->view, "with --narrate: narrate as this seat may know the game (-1: everything)");
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
