// rulebook play: one game, narrated (or as JSON lines), with any agents.
#include <iostream>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/human_agent.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "observation/narrator.hpp"
#include "play/log_file.hpp"
#include "play/match.hpp"
#include "play/undo.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

struct PlayOptions {
  GameOptions game;
  std::vector<std::string> agents;
  std::vector<std::string> names;
  std::string log_file;
  bool json = false;
  int view = -2;
  NarrationLevel narrate = NarrationLevel::Normal;
};

// Events as JSON lines, written as they happen so a reader can follow.
struct JsonLines : EventSink {
  JsonLines(std::ostream& out, Seat seat) : out(out), seat(seat) {}
  void on_event(const GameState& state, const Event& e) override {
    if (!can_see(e, seat)) return;
    out << event_json(state, e, seat).dump() << "\n";
  }
  std::ostream& out;
  Seat seat;
};

int run(PlayOptions& o) {
  auto def = load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});
  const int players = player_count_for(*def, o.game.players);
  if (!o.game.seed_given) o.game.seed = std::random_device{}();
  const auto kinds = agent_kinds(o.agents, players);
  std::vector<std::unique_ptr<Agent>> agents;  // a bad --agent is reported before any Lua runs
  std::vector<HumanAgent*> humans;
  Seat human_seat;
  for (Seat s : Seat::all(players)) {
    agents.push_back(make_agent(kinds[s.index()], std::cin, std::cout, AgentSettings{o.game.agent_timeout}));
    if (auto* human = dynamic_cast<HumanAgent*>(agents.back().get())) {
      humans.push_back(human);
      human_seat = s;
    }
  }
  Match match(def, engine_limits(o.game));
  std::vector<Agent*> seat_agents;
  for (auto& agent : agents) seat_agents.push_back(agent.get());
  // Human seats may take decisions back: the game is played again up to
  // there, quietly (play/undo.hpp).
  Rewinder rewinder(match, seat_agents);
  rewinder.install();
  const Seat view = o.view >= -1 ? Seat{o.view} : (humans.size() == 1 ? human_seat : Seat::none());
  if (view.value() >= players) throw SetupError(fmt::format("--view: error: seat {} is not in 0..{}", view, players - 1));

  Narrator narrator(std::cout, view, narration_style(1), o.narrate);
  JsonLines json_lines(std::cout, view);
  EventRecorder full_log;  // everything, for --log (recorded again after an undo)
  if (o.json) {
    std::cout << nlohmann::json{{"type", "setup"}, {"game", def->name}, {"seed", o.game.seed}}.dump() << "\n";
    match.add_sink(rewinder.gate(&json_lines));
  } else {
    match.add_sink(rewinder.gate(&narrator));
  }
  if (!o.log_file.empty()) match.add_sink(&full_log);
  std::optional<UndoCheck> undo;  // an undo that goes ahead
  for (Seat s : Seat::all(players)) {
    auto* human = dynamic_cast<HumanAgent*>(seat_agents[s.index()]);
    if (!human) continue;
    human->set_before_prompt([&narrator] { narrator.flush(); });
    human->set_definition(def);
    human->set_undo([&, s]() -> std::string {
      std::vector<Seat> together;  // the simultaneous decision under way: who has answered
      for (const AnswerRecord& a : match.together_answers()) together.push_back(a.seat);
      UndoCheck check = check_undo(def, engine_limits(o.game), ReplayStart{players, o.game.seed, o.names},
                                   match.answers(), s, together);
      if (!check.allowed) return check.reason;
      undo = check;
      return {};
    });
  }
  match.record_answers();

  GameSpec spec{o.game.game, o.game.variants, o.game.sets, players, o.game.seed, o.names};
  GameResult result;
  // The log is written even when the game fails, as far as it went.
  auto write_log = [&] {
    write_file("--log", o.log_file,
               dump_log(make_log(spec, match.state(), result, match.answers(), full_log.events(), kinds)));
  };
  try {
    for (;;) {
      try {
        result = match.play(players, o.game.seed, o.names);
        break;
      } catch (const AgentFailure&) {  // the engine rethrows an agent's exception as AgentFailure
        if (!undo) throw;
        const auto taken = match.answers().size() - undo->keep;
        std::cout << "\n" << undo_line(match.state().player(undo->seat).name, taken) << "\n";
        rewinder.rewind(match.answers(), undo->keep);
        undo.reset();
        full_log = EventRecorder();
      }
    }
  } catch (...) {
    narrator.flush();
    if (!o.log_file.empty()) {
      try {  // keep the game's own error: it is the one to report
        write_log();
      } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
      }
    }
    throw;
  }
  narrator.flush();
  const GameState& state = match.state();
  if (o.json) {
    nlohmann::json r = result_json(state, result);
    r["type"] = "result";
    std::cout << r.dump() << "\n";
  } else {
    std::cout << "Turns played: " << result.turns << "\n";
    for (Seat s : Seat::all(players))
      if (state.player(s).score != 0) std::cout << state.player(s).name << ": " << state.player(s).score << " points\n";
  }
  if (!o.log_file.empty()) write_log();
  return kOk;
}

}  // namespace

Runner add_play(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
  auto* cmd = app.add_subcommand("play", "play one game, narrated");
  add_game_options(*cmd, o->game);
  add_agent_option(*cmd, o->agents, o->game.agent_timeout);
  cmd->add_option("--name", o->names, "player names, in seat order (repeatable)")->check(utf8_text());
  cmd->add_option("--log", o->log_file, "write the replay log to FILE");
  cmd->add_flag("--json", o->json, "print events as JSON lines instead of narration");
  cmd->add_option("--view", o->view, "narrate as this seat may know the game (-1: everything)");
  add_narrate_option(*cmd, o->narrate);
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
