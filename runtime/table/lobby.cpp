#include "table/lobby.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <random>
#include <set>

#include <fmt/format.h>

#include "bots/agent_factory.hpp"
#include "core/player_name.hpp"
#include "core/suggest.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "table/lobby_settings.hpp"
#include "table/public_words.hpp"

namespace rulebook {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Why = LobbyError::Why;

const char* const kRequestFields[] = {"game", "players", "variants", "set", "agents", "seed", "names"};
const char* const kRequestShape = R"({"game": NAME, "players": N, "variants": [...], "set": [...], "agents": {"SEAT": KIND}})";


std::string joined(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

// The bots a table of the lobby may seat: the registry's kinds that need no
// file or program of the server's (scripted:FILE and exec:COMMAND would let
// anyone with the lobby's address read its files or run its programs).
std::vector<std::string> seatable_bots() {
  std::vector<std::string> kinds;
  for (const AgentKind& kind : builtin_agents().kinds())
    if (kind.argument.empty() && !kind.terminal_only && kind.build) kinds.push_back(kind.name);
  return kinds;
}

std::string random_id() {
  std::random_device device;
  return fmt::format("{:08x}{:08x}", device(), device());
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// A setup error names the server's folders and the command line's option;
// a request knows neither (public_words.hpp cuts every path).
std::string in_request_words(std::string message, const LobbyGame& game) {
  if (message.rfind("--set", 0) == 0) message.replace(0, 5, "set");
  return public_words(message, game.definition->dir);
}

std::vector<std::string> string_list(const json& request, const char* field) {
  std::vector<std::string> out;
  if (!request.contains(field)) return out;
  const json& list = request.at(field);
  if (!list.is_array()) throw LobbyError::malformed_request(fmt::format("\"{}\" must be a list of strings", field));
  for (const json& item : list) {
    if (!item.is_string()) throw LobbyError::malformed_request(fmt::format("\"{}\" must be a list of strings, got {}", field, item.dump()));
    out.push_back(item.get<std::string>());
  }
  return out;
}

// Tables the lobby let go: stopped now (no lock held), so that a page still
// following one hears it close and lets it go too.
void stop_each(const std::vector<std::shared_ptr<Table>>& tables) {
  for (const auto& table : tables) table->stop();
}

LobbyGame load_entry(const std::string& name, const std::string& source, const std::string& origin) {
  LobbyGame game{name, source, origin, load_game(source), {}};
  game.variants = list_variants(game.definition->dir);
  return game;
}

}  // namespace

// ---- The catalogue ------------------------------------------------------

Lobby::Lobby(LobbyConfig config) : config_(std::move(config)) {
  if (config_.max_tables < 1) throw std::invalid_argument("a lobby holds at least one table");
  for (const std::string& name : list_games()) games_.push_back(load_entry(name, name, "bundled"));
  for (const std::string& dir : config_.games_dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw SetupError(fmt::format("--games-dir: error: no folder '{}'", dir));
    std::vector<fs::path> folders;
    if (fs::is_regular_file(fs::path(dir) / "game.yaml", ec)) {
      folders.push_back(fs::path(dir));
    } else {
      for (const auto& entry : fs::directory_iterator(dir, ec))
        if (fs::is_regular_file(entry.path() / "game.yaml", ec)) folders.push_back(entry.path());
      std::sort(folders.begin(), folders.end());
    }
    if (folders.empty())
      throw SetupError(fmt::format("--games-dir: error: '{}' holds no game folder (a folder with a game.yaml)", dir));
    for (const fs::path& folder : folders) {
      const std::string name = folder.lexically_normal().filename().string().empty()
                                   ? folder.lexically_normal().parent_path().filename().string()
                                   : folder.lexically_normal().filename().string();
      for (const LobbyGame& known : games_)
        if (known.name == name)
          throw SetupError(fmt::format("--games-dir: error: two games are named '{}': {} ({}) and {}", name,
                                       known.source, known.origin, folder.string()));
      games_.push_back(load_entry(name, folder.string(), dir));
    }
  }
}

Lobby::~Lobby() {
  std::map<std::string, Held> tables;
  {
    std::lock_guard lock(mutex_);
    tables.swap(tables_);
  }
  for (const auto& [id, held] : tables) held.table->stop();
}

Lobby::Clock::time_point Lobby::now() const { return config_.clock ? config_.clock() : Clock::now(); }

const LobbyGame& Lobby::game_named(const std::string& name) const {
  std::vector<std::string> names;
  for (const LobbyGame& game : games_) {
    if (game.name == name) return game;
    names.push_back(game.name);
  }
  throw LobbyError::malformed_request(fmt::format("no game '{}' here{} (this server has: {})", name, did_you_mean(name, names), joined(names)));
}

json Lobby::games_json() const {
  json games = json::array();
  for (const LobbyGame& game : games_) {
    const GameDefinition& def = *game.definition;
    json variants = json::array();
    for (const VariantInfo& v : game.variants)
      variants.push_back({{"name", v.name}, {"title", v.title}, {"description", v.description}});
    json options = json::object();
    for (const auto& [key, value] : def.options.items())
      options[key] = {{"default", value}, {"help", def.option_help.value(key, "")}};
    games.push_back({{"name", game.name},
                     {"title", def.title},
                     {"description", def.description},
                     {"players", {{"min", def.min_players}, {"max", def.max_players}, {"default", def.default_players}}},
                     {"variants", variants},
                     {"options", options},
                     {"origin", game.origin}});
  }
  json agents = json::array({{{"kind", "human"}, {"summary", "a person at a browser, with a link of their own"}}});
  for (const std::string& kind : seatable_bots()) agents.push_back({{"kind", kind}, {"summary", builtin_agents().find(kind)->summary}});
  return {{"games", games},
          {"agents", agents},
          {"limits",
           {{"max_tables", config_.max_tables},
            {"idle_minutes", std::chrono::duration<double>(config_.idle_limit).count() / 60},
            {"keep_minutes", std::chrono::duration<double>(config_.keep_ended).count() / 60}}}};
}

// ---- Creating a table ---------------------------------------------------

TableConfig Lobby::table_config(const json& request, const std::string& id) const {
  if (!request.is_object()) throw LobbyError::malformed_request(fmt::format("a table's request is a JSON object: {}", kRequestShape));
  for (const auto& [key, value] : request.items()) {
    const std::vector<std::string> fields(std::begin(kRequestFields), std::end(kRequestFields));
    if (std::find(fields.begin(), fields.end(), key) == fields.end())
      throw LobbyError::malformed_request(fmt::format("unknown field \"{}\"{} (a table's request has: {})", key, did_you_mean(key, fields),
                                  joined(fields)));
  }
  if (!request.contains("game") || !request.at("game").is_string())
    throw LobbyError::malformed_request(fmt::format("which game? A table's request is {}", kRequestShape));
  const LobbyGame& game = game_named(request.at("game").get<std::string>());

  const std::vector<std::string> variants = string_list(request, "variants");
  std::vector<std::string> offered;
  for (const VariantInfo& v : game.variants) offered.push_back(v.name);
  for (const std::string& v : variants)
    if (std::find(offered.begin(), offered.end(), v) == offered.end())
      throw LobbyError::malformed_request(fmt::format("{} has no variant '{}'{} (it has: {})", game.name, v, did_you_mean(v, offered),
                                  joined(offered)));
  // Options only, never a path or another key (lobby_settings.hpp).
  const std::vector<std::string> sets = checked_option_sets(string_list(request, "set"), game);

  TableConfig c;
  c.id = id;
  try {
    c.definition = variants.empty() && sets.empty() ? game.definition : load_game(game.source, LoadOptions{variants, sets});
  } catch (const SetupError& e) {
    throw LobbyError::malformed_request(in_request_words(e.what(), game));
  }
  const GameDefinition& def = *c.definition;

  int players = def.default_players;
  if (request.contains("players")) {
    const json& p = request.at("players");
    if (!p.is_number_integer()) throw LobbyError::malformed_request(fmt::format("\"players\" must be a whole number, got {}", p.dump()));
    const int64_t n = p.get<int64_t>();
    if (n < def.min_players || n > def.max_players)
      throw LobbyError::malformed_request(fmt::format("{} takes {} to {} players, not {}", game.name, def.min_players, def.max_players, n));
    players = static_cast<int>(n);
  }

  uint64_t seed = std::random_device{}();
  if (request.contains("seed")) {
    const json& s = request.at("seed");
    if (!s.is_number_unsigned()) throw LobbyError::malformed_request(fmt::format("\"seed\" must be a whole number from 0, got {}", s.dump()));
    seed = s.get<uint64_t>();
  }

  const std::vector<std::string> names = string_list(request, "names");
  for (size_t i = 0; i < names.size(); ++i)  // shown on the operator's terminal and every page
    if (const std::string problem = player_name_problem(names[i]); !problem.empty())
      throw LobbyError::malformed_request(fmt::format("\"names\": name {} {}", i + 1, problem));
  if (names.size() > static_cast<size_t>(players))
    throw LobbyError::malformed_request(fmt::format("{} names for {} players", names.size(), players));

  // Seats not given to a bot are people's; "all" first, then each seat.
  c.kinds.assign(static_cast<size_t>(players), "human");
  if (request.contains("agents")) {
    const json& agents = request.at("agents");
    if (!agents.is_object())
      throw LobbyError::malformed_request(R"("agents" must be an object: {"SEAT": KIND}, seats numbered from 0, or {"all": KIND})");
    std::vector<std::string> kinds = seatable_bots();
    kinds.insert(kinds.begin(), "human");
    auto check_kind = [&](const std::string& seat, const json& value) {
      if (!value.is_string()) throw LobbyError::malformed_request(fmt::format("seat {}: a kind is a string ({}), got {}", seat, joined(kinds), value.dump()));
      const std::string kind = value.get<std::string>();
      if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return kind;
      const std::string base = kind.substr(0, kind.find(':'));
      if (std::find(kinds.begin(), kinds.end(), base) != kinds.end())
        throw LobbyError::malformed_request(fmt::format("seat {}: the lobby seats a bot by its kind alone ({}), not '{}'", seat, joined(kinds), kind));
      if (builtin_agents().find(base))
        throw LobbyError::malformed_request(fmt::format("seat {}: the lobby does not seat '{}' bots (it seats: {})", seat, base, joined(kinds)));
      throw LobbyError::malformed_request(fmt::format("seat {}: no agent kind '{}'{} (the lobby seats: {})", seat, kind, did_you_mean(kind, kinds),
                                  joined(kinds)));
    };
    if (agents.contains("all")) c.kinds.assign(static_cast<size_t>(players), check_kind("all", agents.at("all")));
    for (const auto& [key, value] : agents.items()) {
      if (key == "all") continue;
      const bool digits = !key.empty() && key.size() <= 2 && std::all_of(key.begin(), key.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
      const int seat = digits ? std::stoi(key) : -1;
      if (seat < 0 || seat >= players)
        throw LobbyError::malformed_request(fmt::format("no seat '{}' at a table of {} players (seats are 0 to {}, or all)", key, players, players - 1));
      c.kinds[static_cast<size_t>(seat)] = check_kind(key, value);
    }
  }

  // Bots alone would play on with nobody there, and a stopped table waits
  // for them to finish (rulebook simulate plays bots against bots).
  if (std::find(c.kinds.begin(), c.kinds.end(), "human") == c.kinds.end())
    throw LobbyError::malformed_request("a table needs at least one person (\"human\"): bots alone are played by rulebook simulate");
  c.spec = GameSpec{game.source, variants, sets, players, seed, names};
  c.limits = config_.limits;
  c.agent_settings = config_.agent_settings;
  if (config_.save_log) {
    auto save = config_.save_log;
    c.save_log = [save, id](const std::string& log) { save(id, log); };
  }
  return c;
}

json Lobby::parse_request(const std::string& request) {
  json parsed = json::parse(request, nullptr, false);
  if (parsed.is_discarded()) throw LobbyError::malformed_request(fmt::format("the request is not JSON: send {}", kRequestShape));
  return parsed;
}

TableConfig Lobby::check(const std::string& request) const { return table_config(parse_request(request), ""); }

std::shared_ptr<Table> Lobby::create(const std::string& request) {
  const json parsed = parse_request(request);
  auto full = [this] {
    return LobbyError(Why::full, fmt::format("the lobby is full: {} tables are playing (at most {}); try again when one ends",
                                             tables_.size(), config_.max_tables));
  };
  // Refuse a full lobby before loading anything.
  {
    std::vector<std::shared_ptr<Table>> dropped;
    {
      std::lock_guard lock(mutex_);
      if (tables_.size() >= config_.max_tables && !make_room(dropped))
        throw full();
    }
    stop_each(dropped);
  }
  std::string id = random_id();
  TableConfig table_setup = table_config(parsed, id);
  const std::string game = parsed.at("game").get<std::string>();
  const std::string created = utc_now();
  if (config_.store) config_.store->keep(table_setup, game, created);
  auto table = std::make_shared<Table>(std::move(table_setup));
  std::vector<std::shared_ptr<Table>> dropped;  // destroyed after the lock is let go
  {
    std::lock_guard lock(mutex_);
    if (tables_.count(id)) throw std::runtime_error("two tables drew the same id");  // 2^-64
    if (tables_.size() >= config_.max_tables && !make_room(dropped))
      throw full();
    Held held;
    held.table = table;
    held.game = game;
    held.created = created;
    held.order = ++created_;
    held.active = now();
    tables_.emplace(id, std::move(held));
  }
  stop_each(dropped);
  table->start();
  return table;
}

std::vector<std::shared_ptr<Table>> Lobby::bring_back(std::vector<TableStore::SetAside>& set_aside) {
  std::vector<std::shared_ptr<Table>> back;
  if (!config_.store) return back;
  const std::vector<std::string> bots = seatable_bots();
  for (TableStore::Saved& saved : config_.store->load(config_.limits, set_aside)) {
    const auto offered = std::find_if(games_.begin(), games_.end(), [&](const LobbyGame& g) { return g.name == saved.game; });
    if (offered == games_.end() || offered->source != saved.config.spec.game) {
      set_aside.push_back(config_.store->set_aside(saved.config.id, fmt::format("this lobby does not offer its game '{}'", saved.game)));
      continue;
    }
    // What a request may seat, and no more: the file is not trusted to run programs.
    const auto unseatable = std::find_if(saved.config.kinds.begin(), saved.config.kinds.end(), [&](const std::string& kind) {
      return kind != "human" && std::find(bots.begin(), bots.end(), kind) == bots.end();
    });
    if (unseatable != saved.config.kinds.end()) {
      set_aside.push_back(config_.store->set_aside(saved.config.id, fmt::format("this lobby does not seat '{}'", *unseatable)));
      continue;
    }
    const std::string id = saved.config.id;
    saved.config.agent_settings = config_.agent_settings;
    if (config_.save_log) {
      auto save = config_.save_log;
      saved.config.save_log = [save, id](const std::string& log) { save(id, log); };
    }
    auto table = std::make_shared<Table>(std::move(saved.config));
    {
      std::lock_guard lock(mutex_);
      Held held;
      held.table = table;
      held.game = saved.game;
      held.created = saved.created;
      held.order = ++created_;
      held.active = now();
      tables_.emplace(id, std::move(held));
    }
    table->start();
    back.push_back(table);
  }
  return back;
}

// The ended table that ended first goes (lock held).
bool Lobby::make_room(std::vector<std::shared_ptr<Table>>& dropped) {
  auto oldest = tables_.end();
  for (auto it = tables_.begin(); it != tables_.end(); ++it) {
    if (!it->second.table->over()) continue;
    if (oldest == tables_.end() || (it->second.ended_seen && (!oldest->second.ended_seen || it->second.ended < oldest->second.ended)) ||
        (!it->second.ended_seen && !oldest->second.ended_seen && it->second.order < oldest->second.order))
      oldest = it;
  }
  if (oldest == tables_.end()) return false;
  dropped.push_back(oldest->second.table);
  tables_.erase(oldest);
  return true;
}

// ---- Tables held ---------------------------------------------------------

std::shared_ptr<Table> Lobby::find(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(id);
  return it == tables_.end() ? nullptr : it->second.table;
}

json Lobby::held_json(const Held& held) {
  const Table& table = *held.table;
  const TableConfig& c = table.config();
  json seats = json::array();
  for (Seat s : Seat::all(c.spec.players)) {
    json seat = {{"seat", s.value()}, {"agent", c.kinds[s.index()]}};
    if (s.index() < c.spec.names.size() && !c.spec.names[s.index()].empty()) seat["name"] = c.spec.names[s.index()];
    seats.push_back(seat);
  }
  json out = {{"table", table.id()},
              {"game", held.game},
              {"title", c.definition->title},
              {"players", c.spec.players},
              {"variants", c.spec.variants},
              {"state", state_name(table.state())},
              {"created", held.created},
              {"seats", seats}};
  if (table.over()) {
    const std::string error = table.error();
    if (error.empty()) out["result"] = table.result().value("summary", "");
    else out["error"] = table.public_error();
  }
  return out;
}

json Lobby::tables_json() const {
  std::vector<const Held*> held;
  std::lock_guard lock(mutex_);
  for (const auto& [id, h] : tables_) held.push_back(&h);
  std::sort(held.begin(), held.end(), [](const Held* a, const Held* b) { return a->order < b->order; });
  json out = json::array();
  for (const Held* h : held) out.push_back(held_json(*h));
  return out;
}

json Lobby::table_json(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(id);
  if (it == tables_.end()) throw LobbyError(Why::missing, fmt::format("no table '{}' here (an ended table is cleaned up after a while)", id));
  return held_json(it->second);
}

std::string Lobby::log(const std::string& id) const {
  const std::shared_ptr<Table> table = find(id);
  if (!table) throw LobbyError(Why::missing, fmt::format("no table '{}' here (an ended table is cleaned up after a while)", id));
  if (!table->over()) throw LobbyError(Why::not_yet, fmt::format("table {} is still playing: its log is ready when the game ends", id));
  std::string text = table->log_text();
  if (text.empty()) throw LobbyError(Why::not_yet, fmt::format("table {} stopped before its game began: it has no log", id));
  return text;
}

void Lobby::stop_tables() {
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, held] : tables_) tables.push_back(held.table);
  }
  stop_each(tables);
}

size_t Lobby::size() const {
  std::lock_guard lock(mutex_);
  return tables_.size();
}

// ---- Cleaning up ---------------------------------------------------------

Lobby::Swept Lobby::sweep() {
  const Clock::time_point t = now();
  Swept swept;
  std::vector<std::shared_ptr<Table>> idle, dropped;
  {
    std::lock_guard lock(mutex_);
    for (auto it = tables_.begin(); it != tables_.end();) {
      Held& h = it->second;
      const Table::Version version = h.table->version();
      if (version != h.seen_version) {
        h.seen_version = version;
        h.active = t;
      }
      if (h.table->over() && !h.ended_seen) {
        h.ended_seen = true;
        h.ended = t;
        swept.ended.push_back(it->first);
      }
      if (h.ended_seen && t - h.ended >= config_.keep_ended) {
        swept.dropped.push_back(it->first);
        dropped.push_back(h.table);
        it = tables_.erase(it);
        continue;
      }
      if (!h.ended_seen && t - h.active >= config_.idle_limit) idle.push_back(h.table);
      ++it;
    }
  }
  // Stopping waits for the game thread: outside the lock. The stopped
  // table's time to go counts from now.
  stop_each(dropped);
  stop_each(idle);
  // Nothing of them is to come back after a restart.
  if (config_.store) {
    for (const std::string& id : swept.ended) config_.store->forget(id);
    for (const auto& table : idle) config_.store->forget(table->id());
  }
  std::lock_guard lock(mutex_);
  for (const auto& table : idle) {
    swept.stopped.push_back(table->id());
    auto it = tables_.find(table->id());
    if (it == tables_.end()) continue;
    it->second.ended_seen = true;
    it->second.ended = t;
    it->second.seen_version = table->version();
  }
  return swept;
}

}  // namespace rulebook
