// rulebook play: one game, narrated (or as JSON lines), with any agents.
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/game_log.hpp"
#include "core/narrator.hpp"
#include "setup/game_record.hpp"
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
};

// Events as JSON lines, written as they happen so a reader can follow.
struct JsonLines : EventSink {
  JsonLines(std::ostream& out, int seat) : out(out), seat(seat) {}
  void on_event(const GameState& state, const Event& e) override {
    if (seat >= 0 && !(e.audience & seat_bit(seat))) return;
    out << event_json(state, e, seat).dump() << "\n";
  }
  std::ostream& out;
  int seat;
};

int run(PlayOptions& o) {
  auto def = load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});
  const int players = player_count_for(*def, o.game.players);
  if (!o.game.seed_given) o.game.seed = std::random_device{}();
  const auto kinds = agent_kinds(o.agents, players);
  std::vector<std::unique_ptr<Agent>> owned;
  std::vector<Agent*> agents;
  int humans = 0, human_seat = -1;
  for (int s = 0; s < players; ++s) {
    owned.push_back(make_agent(kinds[s], std::cin, std::cout));
    agents.push_back(owned.back().get());
    if (kinds[s] == "human") {
      ++humans;
      human_seat = s;
    }
  }
  int view = o.view >= -1 ? o.view : (humans == 1 ? human_seat : -1);
  if (view >= players) throw SetupError(fmt::format("--view: error: seat {} is not in 0..{}", view, players - 1));

  RuleEngine engine(def, engine_limits(o.game));
  GameState state(*def);
  Narrator narrator(std::cout, view, use_colour(1));
  JsonLines json_lines(std::cout, view);
  EventRecorder full_log;  // everything, for --log
  std::vector<AnswerRecord> answers;
  EventTee tee;
  if (o.json) {
    std::cout << nlohmann::json{{"type", "setup"}, {"game", def->name}, {"seed", o.game.seed}}.dump() << "\n";
    tee.add(&json_lines);
  } else {
    tee.add(&narrator);
  }
  if (!o.log_file.empty()) tee.add(&full_log);
  for (auto& agent : owned)
    if (auto* human = dynamic_cast<HumanAgent*>(agent.get())) human->set_before_prompt([&narrator] { narrator.flush(); });
  engine.set_answer_log(&answers);
  state.set_sink(&tee);
  state.reset(players, o.game.seed, o.names);

  GameSpec spec{o.game.game, o.game.variants, o.game.sets, players, o.game.seed, o.names};
  GameResult result;
  int code = kOk;
  try {
    result = engine.play(state, agents);
  } catch (...) {
    narrator.flush();
    if (!o.log_file.empty()) {
      try {  // keep the game's own error: it is the one to report
        write_file("--log", o.log_file, dump_log(make_log(spec, state, result, answers, full_log.events(), kinds)));
      } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
      }
    }
    throw;
  }
  narrator.flush();
  if (o.json) {
    nlohmann::json r = result_json(state, result);
    r["type"] = "result";
    std::cout << r.dump() << "\n";
  } else {
    std::cout << "Turns played: " << result.turns << "\n";
    for (int s = 0; s < players; ++s)
      if (state.player(s).score != 0) std::cout << state.player(s).name << ": " << state.player(s).score << " points\n";
  }
  if (!o.log_file.empty())
    write_file("--log", o.log_file, dump_log(make_log(spec, state, result, answers, full_log.events(), kinds)));
  return code;
}

}  // namespace

Runner add_play(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
  auto* cmd = app.add_subcommand("play", "play one game, narrated");
  add_game_options(*cmd, o->game);
  add_agent_option(*cmd, o->agents);
  cmd->add_option("--name", o->names, "player names, in seat order (repeatable)")->check(utf8_text());
  cmd->add_option("--log", o->log_file, "write the replay log to FILE");
  cmd->add_flag("--json", o->json, "print events as JSON lines instead of narration");
  cmd->add_option("--view", o->view, "narrate as this seat may know the game (-1: everything)");
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
