// rulebook serve: one game at a web table, a browser per human seat; with
// no game, a lobby where people open tables of any game (web_lobby.hpp).
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "agents/agent.hpp"
#include "bots/agent_factory.hpp"
#include "cli/commands.hpp"
#include "cli/web_lobby.hpp"
#include "cli/web_table.hpp"
#include "core/safe_text.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

struct ServeOptions {
  GameOptions game;
  std::vector<std::string> agents;
  std::vector<std::string> names;
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string log_file;
  double linger = -1;
  http::ServerLimits server;  // --max-per-address; the rest at the server's defaults
  // The lobby's (no GAME).
  std::vector<std::string> games_dirs;
  size_t max_tables = 100;
  double idle_minutes = 120;
  double keep_minutes = 60;
  std::string logs_dir;
};

// A line for the operator's terminal: what a network client chose (a
// player's name in a summary, a request's path) is shown, never obeyed.
void operator_log(const std::string& line) { std::cerr << "serve: " << terminal_text(line, true) << std::endl; }

std::atomic<int> g_signal{0};
extern "C" void on_signal(int signal) { g_signal = signal; }

// Stops at Ctrl-C (or SIGTERM).
void wait_for_signal() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);  // a page closed mid-write is the server's business, not a crash
  while (g_signal == 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

int run_lobby(const ServeOptions& o) {
  WebLobbyConfig config;
  config.lobby.games_dirs = o.games_dirs;
  config.lobby.limits = engine_limits(o.game);
  config.lobby.agent_settings = AgentSettings{o.game.agent_timeout};
  config.lobby.max_tables = o.max_tables;
  config.lobby.idle_limit = std::chrono::duration_cast<Lobby::Clock::duration>(std::chrono::duration<double>(o.idle_minutes * 60));
  config.lobby.keep_ended = std::chrono::duration_cast<Lobby::Clock::duration>(std::chrono::duration<double>(o.keep_minutes * 60));
  if (!o.logs_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.logs_dir, ec);
    if (!std::filesystem::is_directory(o.logs_dir, ec))
      throw SetupError(fmt::format("--logs-dir: error: cannot make the folder '{}'", o.logs_dir));
    const std::string dir = o.logs_dir;
    config.lobby.save_log = [dir](const std::string& id, const std::string& log) {
      write_file("--logs-dir", (std::filesystem::path(dir) / (id + ".json")).string(), log);
    };
  }
  config.host = o.host;
  config.port = o.port;
  config.server = o.server;
  config.report = [](const std::string& line) { std::cout << terminal_text(line, true) << std::endl; };
  // What an operator should know on standard error, as for one table.
  config.log = operator_log;
  WebLobby lobby(std::move(config));
  lobby.start();
  std::vector<std::string> names;
  for (const LobbyGame& g : lobby.lobby().games()) names.push_back(g.name);
  std::cout << fmt::format("rulebook lobby at {} ({} games: {})\n", lobby.url(), names.size(), fmt::join(names, ", "));
  std::cout << fmt::format("  at most {} tables; a table nobody plays at for {} min is stopped, an ended one goes {} min after its end{}\n",
                           o.max_tables, o.idle_minutes, o.keep_minutes,
                           o.logs_dir.empty() ? std::string() : fmt::format("; logs are kept in {}", o.logs_dir));
  std::cout << "Ctrl-C stops the lobby and every table.\n";
  std::cout.flush();
  wait_for_signal();
  lobby.stop();
  return kOk;
}

int run(ServeOptions& o, const CLI::App& cmd) {
  if (o.game.game.empty()) {
    // What sets up one game belongs to a table's request in a lobby.
    for (const char* option : {"--players", "--seed", "--variant", "--set", "--agent", "--name", "--log", "--linger"})
      if (cmd.count(option) > 0)
        throw SetupError(fmt::format("{}: error: a lobby's tables are set up on its page; give GAME to serve one game", option));
    return run_lobby(o);
  }
  for (const char* option : {"--games-dir", "--max-tables", "--idle-minutes", "--keep-minutes", "--logs-dir"})
    if (cmd.count(option) > 0) throw SetupError(fmt::format("{}: error: only a lobby takes it (serve with no GAME)", option));
  auto def = load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});
  const int players = player_count_for(*def, o.game.players);
  if (!o.game.seed_given) o.game.seed = std::random_device{}();
  // Seats not given to an agent are people at their browsers.
  std::vector<std::string> specs{"all=human"};
  specs.insert(specs.end(), o.agents.begin(), o.agents.end());
  const auto kinds = agent_kinds(specs, players);
  // Any bot of the registry; a bad specification fails here, before the table opens.
  for (const std::string& kind : kinds)
    if (kind != "human") build_agent(kind, AgentSettings{o.game.agent_timeout});

  WebTableConfig config;
  config.definition = def;
  config.spec = GameSpec{o.game.game, o.game.variants, o.game.sets, players, o.game.seed, o.names};
  config.limits = engine_limits(o.game);
  config.agent_settings = AgentSettings{o.game.agent_timeout};
  config.kinds = kinds;
  config.host = o.host;
  config.port = o.port;
  config.log_file = o.log_file;
  config.server = o.server;
  WebTable table(std::move(config));
  // What an operator should know (caps reached, refusals once a minute) on
  // standard error; the links and the result stay on standard output.
  table.set_log(operator_log);
  table.start();

  std::cout << fmt::format("{} for {} players (seed {}) at http://{}:{}/\n", def->title, players, o.game.seed,
                           o.host, table.port());
  for (Seat s : Seat::all(players)) {
    if (kinds[s.index()] == "human") std::cout << fmt::format("  seat {}: {}\n", s, table.link(s));
    else std::cout << fmt::format("  seat {}: {} bot\n", s, kinds[s.index()]);
  }
  std::cout << fmt::format("  spectators: {}\n", table.link(Seat::none()));
  std::cout << "Each seat's link is its secret: give it to that player only. Ctrl-C stops the table.\n";
  std::cout.flush();

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);
  bool announced = false;
  auto ended = std::chrono::steady_clock::time_point{};
  while (g_signal == 0) {
    if (table.wait_over(0.2) && !announced) {
      announced = true;
      ended = std::chrono::steady_clock::now();
      if (table.error().empty()) std::cout << "The game is over: " << terminal_text(table.result().value("summary", ""), true) << "\n";
      else std::cerr << "error: " << terminal_text(table.error()) << "\n";
      if (!o.log_file.empty()) std::cout << "Log written to " << o.log_file << "\n";
      std::cout.flush();
    }
    if (announced && o.linger >= 0 &&
        std::chrono::steady_clock::now() - ended >= std::chrono::duration<double>(o.linger))
      break;
  }
  table.stop();
  if (!announced) {  // stopped mid-game: the log keeps the game as far as it went
    std::cerr << "error: " << terminal_text(table.error().empty() ? "the table was stopped" : table.error()) << "\n";
    return kGameFailure;
  }
  return table.error().empty() ? kOk : kGameFailure;
}

}  // namespace

Runner add_serve(CLI::App& app) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve",
                                 "serve one game to browsers: a link per human seat, one for spectators; with no GAME, "
                                 "a lobby where people open tables of any game");
  add_game_options(*cmd, o->game);
  cmd->get_option("GAME")->required(false)->description(
      "a bundled game's name, or a game folder (none: a lobby of every game)");
  cmd->add_option("--agent,-a", o->agents,
                  "give a seat to a bot: SEAT=random|first|scripted:FILE|exec:COMMAND, or all=KIND (default: a person at a browser)")
      ->check(utf8_text());
  add_agent_timeout_option(*cmd, o->game.agent_timeout);
  cmd->add_option("--name", o->names, "player names, in seat order (repeatable)")->check(utf8_text());
  cmd->add_option("--host", o->host, "address to listen on (0.0.0.0: every network)")->capture_default_str();
  cmd->add_option("--port", o->port, "port to listen on (0: any free port)")->capture_default_str()->check(CLI::Range(0, 65535));
  cmd->add_option("--log", o->log_file, "write the replay log to FILE when the game ends");
  cmd->add_option("--max-per-address", o->server.max_per_address,
                  "connections one address may hold open at once, more are refused with 429 (0: no cap; behind a "
                  "reverse proxy every client has the proxy's address)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--linger", o->linger, "after the end, keep serving SECONDS more, then exit (default: until Ctrl-C)")
      ->check(CLI::Range(0.0, 1e9));
  // The lobby's.
  cmd->add_option("--games-dir", o->games_dirs,
                  "lobby: also offer the games of DIR (a folder of game folders, or one game folder; repeatable)")
      ->check(utf8_text());
  cmd->add_option("--max-tables", o->max_tables, "lobby: tables at once; an ended one makes room, playing ones never")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--idle-minutes", o->idle_minutes, "lobby: stop a table where nobody played for MINUTES")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 1e6));
  cmd->add_option("--keep-minutes", o->keep_minutes, "lobby: drop an ended table (its pages, its log) MINUTES after its end")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--logs-dir", o->logs_dir, "lobby: also write each table's log to DIR/ID.json when its game ends")
      ->check(utf8_text());
  return [o, cmd] { return run(*o, *cmd); };
}

}  // namespace rulebook::cli
