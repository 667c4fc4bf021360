// rulebook serve: one game at a web table, a browser per human seat; with
// no game, a lobby where people open tables of any game (web_lobby.hpp).
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <optional>
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
#include "table/table_store.hpp"

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
  std::string state_dir;  // --state-dir: tables kept there survive the server
  bool hot_seat = false;  // --hot-seat: one page for every person's seat
};

// A line for the operator's terminal: what a network client chose (a
// player's name in a summary, a request's path) is shown, never obeyed.
void operator_log(const std::string& line) { std::cerr << "serve: " << terminal_text(line, true) << std::endl; }

std::atomic<int> g_signal{0};
extern "C" void on_signal(int signal) { g_signal = signal; }

// Ctrl-C (or SIGTERM) stops the server: caught from before the links are
// printed, so that whoever reads them may stop it at once.
void catch_stop_signals() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);  // a page closed mid-write is the server's business, not a crash
}

void wait_for_signal() {
  while (g_signal == 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

// The folder of --state-dir, made when missing.
std::shared_ptr<TableStore> open_store(const std::string& dir) {
  try {
    return std::make_shared<TableStore>(dir);
  } catch (const std::exception& e) {
    throw SetupError(fmt::format("--state-dir: error: {}", e.what()));
  }
}

void report_set_aside(const std::vector<TableStore::SetAside>& set_aside) {
  for (const TableStore::SetAside& s : set_aside)
    std::cerr << fmt::format("serve: --state-dir: set aside {}: {}\n", s.file, s.reason);
}

// What Ctrl-C (or SIGTERM) leaves: the tables that had not ended, kept or lost.
void report_stopped(const std::vector<std::string>& unfinished, const std::string& state_dir, const std::string& again) {
  if (unfinished.empty()) std::cout << "Stopped. No table was playing.\n";
  else if (state_dir.empty())
    std::cout << fmt::format("Stopped. {} {} had not ended and {} not kept: {} (serve with --state-dir DIR to keep tables)\n",
                             unfinished.size(), unfinished.size() == 1 ? "table" : "tables",
                             unfinished.size() == 1 ? "was" : "were", fmt::join(unfinished, ", "));
  else
    std::cout << fmt::format("Stopped. Saved {} {} in {}: {}. `{}` brings {} back.\n", unfinished.size(),
                             unfinished.size() == 1 ? "table" : "tables", state_dir, fmt::join(unfinished, ", "), again,
                             unfinished.size() == 1 ? "it" : "them");
  std::cout.flush();
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
  if (!o.state_dir.empty()) config.lobby.store = open_store(o.state_dir);
  config.host = o.host;
  config.port = o.port;
  config.server = o.server;
  config.report = [](const std::string& line) { std::cout << terminal_text(line, true) << std::endl; };
  // What an operator should know on standard error, as for one table.
  config.log = operator_log;
  WebLobby lobby(std::move(config));
  std::vector<TableStore::SetAside> set_aside;
  const auto back = lobby.lobby().bring_back(set_aside);
  report_set_aside(set_aside);
  catch_stop_signals();
  lobby.start();
  std::vector<std::string> names;
  for (const LobbyGame& g : lobby.lobby().games()) names.push_back(g.name);
  std::cout << fmt::format("rulebook lobby at {} ({} games: {})\n", lobby.url(), names.size(), fmt::join(names, ", "));
  std::cout << fmt::format("  at most {} tables; a table nobody plays at for {} min is stopped, an ended one goes {} min after its end{}\n",
                           o.max_tables, o.idle_minutes, o.keep_minutes,
                           o.logs_dir.empty() ? std::string() : fmt::format("; logs are kept in {}", o.logs_dir));
  for (const auto& table : back)
    std::cout << fmt::format("  brought back table {} ({}) from {}\n", table->id(), table->config().definition->title, o.state_dir);
  std::cout << (o.state_dir.empty() ? "Ctrl-C stops the lobby and every table.\n"
                                    : fmt::format("Tables are kept in {} as they are played: Ctrl-C stops the lobby, and serving "
                                                  "--state-dir {} again brings them back.\n", o.state_dir, o.state_dir));
  std::cout.flush();
  wait_for_signal();
  std::vector<std::string> unfinished;
  for (const auto& t : lobby.lobby().tables_json())
    if (t.value("state", "") == "playing" || t.value("state", "") == "created")
      unfinished.push_back(fmt::format("{} ({})", t.value("table", ""), t.value("game", "")));
  lobby.stop();
  std::string again = fmt::format("rulebook serve --state-dir {}", o.state_dir);
  if (lobby.port() != 8080) again += fmt::format(" --port {}", lobby.port());
  report_stopped(unfinished, o.state_dir, again);
  return kOk;
}

int run(ServeOptions& o, const CLI::App& cmd) {
  if (o.game.game.empty()) {
    // What sets up one game belongs to a table's request in a lobby.
    for (const char* option : {"--players", "--seed", "--variant", "--set", "--agent", "--name", "--log", "--linger", "--hot-seat"})
      if (cmd.count(option) > 0)
        throw SetupError(fmt::format("{}: error: a lobby's tables are set up on its page; give GAME to serve one game", option));
    return run_lobby(o);
  }
  for (const char* option : {"--games-dir", "--max-tables", "--idle-minutes", "--keep-minutes", "--logs-dir"})
    if (cmd.count(option) > 0) throw SetupError(fmt::format("{}: error: only a lobby takes it (serve with no GAME)", option));
  // A table kept in --state-dir that had not ended is played on.
  std::shared_ptr<TableStore> store;
  std::optional<TableStore::Saved> saved;
  if (!o.state_dir.empty()) {
    store = open_store(o.state_dir);
    std::vector<TableStore::SetAside> set_aside;
    auto tables = store->load(engine_limits(o.game), set_aside);
    report_set_aside(set_aside);
    if (tables.size() > 1 || (tables.size() == 1 && !tables[0].game.empty()))
      throw SetupError(fmt::format("--state-dir: error: '{}' holds a lobby's tables: serve it with no GAME "
                                   "(rulebook serve --state-dir {}), or give this table another folder",
                                   o.state_dir, o.state_dir));
    if (tables.size() == 1) {
      if (tables[0].config.spec.game != o.game.game)
        throw SetupError(fmt::format("--state-dir: error: '{}' holds a table of '{}' that has not ended: serve {} to "
                                     "play it on, or give this table another folder",
                                     o.state_dir, tables[0].config.spec.game, tables[0].config.spec.game));
      saved = std::move(tables[0]);
    }
  }
  auto def = saved ? saved->config.definition : load_game(o.game.game, LoadOptions{o.game.variants, o.game.sets});
  const int players = saved ? saved->config.spec.players : player_count_for(*def, o.game.players);
  if (saved) o.game.seed = saved->config.spec.seed;
  else if (!o.game.seed_given) o.game.seed = std::random_device{}();
  // Seats not given to an agent are people at their browsers.
  std::vector<std::string> specs{"all=human"};
  specs.insert(specs.end(), o.agents.begin(), o.agents.end());
  const auto kinds = saved ? saved->config.kinds : agent_kinds(specs, players);
  // Any bot of the registry; a bad specification fails here, before the table opens.
  for (const std::string& kind : kinds)
    if (kind != "human") build_agent(kind, AgentSettings{o.game.agent_timeout});

  WebTableConfig config;
  config.definition = def;
  config.spec = saved ? saved->config.spec : GameSpec{o.game.game, o.game.variants, o.game.sets, players, o.game.seed, o.names};
  config.limits = engine_limits(o.game);
  config.agent_settings = AgentSettings{o.game.agent_timeout};
  config.kinds = kinds;
  config.host = o.host;
  config.port = o.port;
  config.log_file = o.log_file;
  config.server = o.server;
  if (saved) {
    config.id = saved->config.id;
    config.tokens = saved->config.tokens;
    config.journal = saved->config.journal;
    config.resume = saved->config.resume;
  } else if (store) {
    TableConfig kept;
    kept.spec = config.spec;
    kept.kinds = kinds;
    store->keep(kept, "", "");
    config.id = kept.id;
    config.tokens = kept.tokens;
    config.journal = kept.journal;
  }
  WebTable table(std::move(config));
  // What an operator should know (caps reached, refusals once a minute) on
  // standard error; the links and the result stay on standard output.
  table.set_log(operator_log);
  catch_stop_signals();
  table.start();

  std::cout << fmt::format("{} for {} players (seed {}) at http://{}:{}/\n", def->title, players, o.game.seed,
                           o.host, table.port());
  for (Seat s : Seat::all(players)) {
    if (kinds[s.index()] != "human") std::cout << fmt::format("  seat {}: {} bot\n", s, kinds[s.index()]);
    else if (!o.hot_seat) std::cout << fmt::format("  seat {}: {}\n", s, table.link(s));
  }
  if (o.hot_seat)
    std::cout << fmt::format("  every person's seat at one screen (pass the device between turns): {}\n", table.hot_seat_link());
  std::cout << fmt::format("  spectators: {}\n", table.link(Seat::none()));
  if (saved)
    std::cout << fmt::format("Brought back from {}: the game goes on where it stood ({} decisions answered).\n",
                             o.state_dir, saved->config.resume.answers.size());
  else if (store)
    std::cout << fmt::format("The table is kept in {} as it is played: serving it again there brings it back.\n", o.state_dir);
  std::cout << "Each seat's link is its secret: give it to that player only. Ctrl-C stops the table.\n";
  std::cout.flush();

  bool announced = false;
  auto ended = std::chrono::steady_clock::time_point{};
  while (g_signal == 0) {
    if (announced) {
      // Over: the pages may still read the end until the linger runs out
      // (or a signal). A wait that the game's end no longer interrupts.
      if (o.linger >= 0 && std::chrono::steady_clock::now() - ended >= std::chrono::duration<double>(o.linger)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    if (table.wait_over(0.2)) {
      announced = true;
      ended = std::chrono::steady_clock::now();
      if (table.error().empty()) std::cout << "The game is over: " << terminal_text(table.result().value("summary", ""), true) << "\n";
      else std::cerr << "error: " << terminal_text(table.error()) << "\n";
      if (!o.log_file.empty()) std::cout << "Log written to " << o.log_file << "\n";
      std::cout.flush();
    }
  }
  table.stop();
  if (!announced) {  // stopped mid-game by Ctrl-C or SIGTERM: the operator's wish, not a failure
    std::string again = fmt::format("rulebook serve {} --state-dir {}", o.game.game, o.state_dir);
    if (table.port() != 8080) again += fmt::format(" --port {}", table.port());
    report_stopped({fmt::format("{} ({})", def->title, o.game.game)}, o.state_dir, again);
    return kOk;
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
  cmd->add_flag("--hot-seat", o->hot_seat,
               "one page for every person's seat at one screen: between seats it shows \"pass to NAME\" and hides the "
               "last seat's secrets until the next player taps");
  cmd->add_option("--state-dir", o->state_dir,
                  "keep every table in DIR as it is played (its setup and each answer, synced before the answer is "
                  "accepted); started again on DIR, serve brings back the tables that had not ended, with the same "
                  "links (docs/serving.md)")
      ->check(utf8_text());
  cmd->add_option("--logs-dir", o->logs_dir, "lobby: also write each table's log to DIR/ID.json when its game ends")
      ->check(utf8_text());
  return [o, cmd] { return run(*o, *cmd); };
}

}  // namespace rulebook::cli
