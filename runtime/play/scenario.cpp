#include "play/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "core/input_file.hpp"
#include "observation/narrator.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "setup/yaml_source.hpp"

namespace fs = std::filesystem;

namespace rulebook {
namespace {

using nlohmann::json;

// Whether a component is the copy a forced shuffle's entry names (see
// ForcedChance::shuffles).
bool is_copy(const GameState& state, ComponentId id, const nlohmann::json& wanted) {
  if (wanted.is_string()) return state.type_of(id).name == wanted.get<std::string>();
  if (wanted.contains("id") && id.value() != wanted.at("id").get<int>()) return false;
  if (wanted.contains("type") && state.type_of(id).name != wanted.at("type").get<std::string>()) return false;
  const Component& c = state.component(id);
  return !wanted.contains("face") || state.type_of(id).faces[static_cast<size_t>(c.face)] == wanted.at("face").get<std::string>();
}

std::string copy_text(const nlohmann::json& wanted) {
  if (wanted.is_string()) return wanted.get<std::string>();
  std::vector<std::string> parts;
  for (const char* key : {"type", "face", "id"})
    if (wanted.contains(key)) parts.push_back(fmt::format("{} {}", key, wanted.at(key).is_string() ? wanted.at(key).get<std::string>() : wanted.at(key).dump()));
  return fmt::format("copy with {}", fmt::join(parts, " and "));
}

// Forced dice and deck orders, consumed in order.
class ForcedChance : public ChanceOverride {
 public:
  std::deque<std::vector<std::string>> rolls;
  std::vector<std::string> errors;
  int rolls_used = 0;

  void begin_roll_group(const GameState& state, int zone, int dice) override {
    group_.clear();
    if (dice == 0) return;
    if (rolls.empty()) {
      fail(fmt::format("no forced roll left for the {} dice of {}", dice, state.zone_id(zone)));
      return;
    }
    auto faces = std::move(rolls.front());
    rolls.pop_front();
    ++rolls_used;
    if (static_cast<int>(faces.size()) != dice)
      fail(fmt::format("forced roll {} lists {} faces, but {} rolls {} dice", rolls_used, faces.size(),
                       state.zone_id(zone), dice));
    group_.assign(faces.begin(), faces.end());
  }

  bool forced_roll(const GameState& state, ComponentId component, int& face) override {
    std::string wanted;
    if (!group_.empty()) {
      wanted = group_.front();
      group_.pop_front();
    } else {
      if (rolls.empty()) {
        fail(fmt::format("no forced roll left for {} #{}", state.type_of(component).title, component));
        return false;
      }
      auto faces = std::move(rolls.front());
      rolls.pop_front();
      ++rolls_used;
      if (faces.size() != 1) fail(fmt::format("forced roll {} lists {} faces for a single die", rolls_used, faces.size()));
      if (faces.empty()) return false;
      wanted = faces.front();
    }
    face = state.definition().face_index(state.component(component).type, wanted);
    if (face < 0) {
      fail(fmt::format("forced roll: '{}' is not a face of {}", wanted, state.type_of(component).name));
      return false;
    }
    return true;
  }

  bool forced_shuffle(const GameState& state, int zone, std::vector<ComponentId>& items) override {
    if (shuffles.empty()) return false;
    auto [zone_name, top] = shuffles.front();
    if (zone_name != state.zone_id(zone)) return false;  // not this shuffle: play it randomly
    shuffles.pop_front();
    std::vector<ComponentId> rest = items, placed;
    for (const auto& wanted : top) {
      auto it = std::find_if(rest.begin(), rest.end(), [&](ComponentId id) { return is_copy(state, id, wanted); });
      if (it == rest.end()) {
        fail(fmt::format("forced shuffle of {}: no {} left to put on top", zone_name, copy_text(wanted)));
        continue;
      }
      placed.push_back(*it);
      rest.erase(it);
    }
    items = rest;  // bottom part keeps its order
    for (auto it = placed.rbegin(); it != placed.rend(); ++it) items.push_back(*it);
    return true;
  }

  // A shuffle's `top` entry: a type's name (any copy of it), or an object
  // naming one copy by `id`, or by the `face` it shows (and its `type`).
  std::deque<std::pair<std::string, std::vector<nlohmann::json>>> shuffles;

 private:
  void fail(std::string message) {
    if (errors.size() < 5) errors.push_back(std::move(message));
  }
  std::deque<std::string> group_;
};

// The scenario's answers, in order, with where each is written. An answer
// to a simultaneous decision may give each seat's answer by player name or
// seat number (`by_seat`, an object; null for a plain answer): its seats
// take theirs as they are asked, and the next seat asked that it does not
// name (or names again) moves on to the next answer.
struct Answers {
  std::vector<std::string> text;
  std::vector<bool> label_only;  // written {label: X}: the label X, never an option's number
  std::vector<nlohmann::json> by_seat;
  std::vector<std::string> where;  // "file:line:col"
  size_t used = 0;
  // The answer by seat being used (answer number `open`, when open_keys is
  // not empty: its keys not taken yet).
  size_t open = 0;
  std::vector<std::string> open_keys;
  bool left() const { return used < text.size(); }
  // The answer by seat in use names seats that were never asked: why, or "".
  std::string unused_keys() const {
    if (open_keys.empty()) return {};
    return fmt::format("scenario answer {} ({}) gives an answer for {}, who was not asked \"{}\" at the same time "
                       "(a seat with a single option is not asked)",
                       open + 1, where[open], fmt::join(open_keys, ", "), prompt);
  }
  std::string prompt;
};

// An answer written {label: X} means the option labelled X, even "1".
bool is_label_answer(const nlohmann::json& given) {
  return given.is_object() && given.size() == 1 && given.contains("label") && given.at("label").is_primitive();
}

std::string answer_text(const nlohmann::json& given) {
  const nlohmann::json& text = is_label_answer(given) ? given.at("label") : given;
  return text.is_string() ? text.get<std::string>() : text.dump();
}

// Decisions taken without asking (a single option): an answer written for
// one of them would be used by the next decision that asks. Recorded with
// the answer that was next at the time, to explain a mismatch at that
// answer rather than at the unrelated decision that met it.
class AutomaticDecisions : public EventSink {
 public:
  AutomaticDecisions(const Answers* answers) : answers_(answers) {}
  void on_event(const GameState& state, const Event& e) override {
    if (e.type != EventType::Choice || e.from != 1 || !answers_->left()) return;
    const std::string& next = answers_->text[answers_->used];
    if (next == e.text || (next == "1" && !answers_->label_only[answers_->used]))
      found_.push_back({answers_->used, fmt::format("\"{}\" asked of {}", e.prompt, state.player(e.seat).name), e.text});
  }
  // The first answer (from `from` on) that was written for an automatic decision.
  std::string explain(size_t from = 0) const {
    for (const auto& f : found_) {
      if (f.answer < from) continue;
      return fmt::format("scenario answer {} '{}' ({}) answers {}, which has a single option ('{}') and is taken "
                         "without asking: remove that answer",
                         f.answer + 1, answers_->text[f.answer], answers_->where[f.answer], f.decision, f.label);
    }
    return {};
  }

 private:
  struct Found {
    size_t answer;
    std::string decision, label;
  };
  const Answers* answers_;
  std::vector<Found> found_;
};

// Answers for every seat from one queue.
class ScenarioAgent : public Agent {
 public:
  ScenarioAgent(Answers* answers, const AutomaticDecisions* automatic, Agent* fallback, bool seat_of_its_own = false)
      : answers_(answers), automatic_(automatic), fallback_(fallback), seat_of_its_own_(seat_of_its_own) {}
  // A fallback of its own (one per seat) begins the game at its seat; a
  // shared one was begun once, on seat 0's stream.
  void begin_game(uint64_t stream_seed, Seat seat) override {
    if (seat_of_its_own_ && fallback_) fallback_->begin_game(stream_seed, seat);
  }
  std::string kind() const override { return "scenario"; }
  // A fallback that plays one seat's game (a search bot) sees that seat's
  // events and game, as at `play`.
  bool wants_events() const override { return fallback_ && fallback_->wants_events(); }
  void observe(const nlohmann::json& event) override { fallback_->observe(event); }
  bool wants_game_access() const override { return fallback_ && fallback_->wants_game_access(); }
  void attach(const GameAccess* game) override { fallback_->attach(game); }
  void prepare_game(const seat_protocol::GameInfo& game) override { names_ = game.names; }
  int choose(const Decision& d) override {
    Answers& a = *answers_;
    // An answer by seat in use: this seat's, unless it names none (or it
    // was taken: a new decision), which moves on to the next answer.
    if (!a.open_keys.empty()) {
      if (auto key = take_key(d)) return seat_answer(d, *key);
      throw AgentFailure(a.unused_keys());
    }
    if (!answers_->left()) {
      if (fallback_) return fallback_->choose(d);
      const std::string why = automatic_->explain();
      if (!why.empty()) throw AgentFailure(why);
      throw AgentFailure(fmt::format("the scenario has no answer left for \"{}\" asked of seat {} (options: {})",
                                     d.prompt(), d.seat(), option_list(d)));
    }
    if (a.left() && !a.by_seat[a.used].is_null()) {
      const size_t number = a.used++;
      if (d.together().empty())
        throw AgentFailure(fmt::format("scenario answer {} ({}) gives answers by seat, but \"{}\" asks {} alone "
                                       "(answers by seat are for a simultaneous decision)",
                                       number + 1, a.where[number], d.prompt(), name_of(d.seat())));
      a.open = number;
      a.prompt = d.prompt();
      a.open_keys.clear();
      for (const auto& [key, value] : a.by_seat[number].items()) a.open_keys.push_back(key);
      if (auto key = take_key(d)) return seat_answer(d, *key);
      throw AgentFailure(fmt::format("scenario answer {} ({}) gives no answer for {} (seat {}), who is asked \"{}\"",
                                     number + 1, a.where[number], name_of(d.seat()), d.seat(), d.prompt()));
    }
    const size_t number = answers_->used++;
    const std::string& answer = answers_->text[number];
    const int i = answers_->label_only[number] ? match_label(d, answer) : match_answer(d, answer);
    if (i < 0) {
      const std::string why = automatic_->explain();
      if (!why.empty()) throw AgentFailure(why);
      throw AgentFailure(fmt::format("scenario answer '{}' is not an option of \"{}\" (options: {}) (answer {}, {})",
                                     answer, d.prompt(), option_list(d), number + 1, answers_->where[number]));
    }
    return i;
  }

 private:
  std::string name_of(Seat seat) const {
    return seat.index() < names_.size() ? names_[seat.index()] : fmt::format("seat {}", seat);
  }
  // The key of the answer by seat in use that names d's seat (by name or
  // number), taken; none when it names the seat not (any more).
  std::optional<std::string> take_key(const Decision& d) {
    auto& keys = answers_->open_keys;
    for (auto it = keys.begin(); it != keys.end(); ++it)
      if (*it == std::to_string(d.seat().value()) || *it == name_of(d.seat())) {
        std::string key = *it;
        keys.erase(it);
        return key;
      }
    return std::nullopt;
  }
  int seat_answer(const Decision& d, const std::string& key) {
    const Answers& a = *answers_;
    const nlohmann::json& given = a.by_seat[a.open].at(key);
    const std::string answer = answer_text(given);
    const int i = is_label_answer(given) ? match_label(d, answer) : match_answer(d, answer);
    if (i < 0)
      throw AgentFailure(fmt::format("scenario answer '{}' for {} is not an option of \"{}\" (options: {}) "
                                     "(answer {}, {})",
                                     answer, name_of(d.seat()), d.prompt(), option_list(d), a.open + 1, a.where[a.open]));
    return i;
  }

  Answers* answers_;
  const AutomaticDecisions* automatic_;
  Agent* fallback_;
  bool seat_of_its_own_;
  std::vector<std::string> names_;
};

// Scenario code (prepare, expect.lua) as a chunk named after the scenario
// file whose line numbers are the file's: an error reads "e4.yaml:11: ...".
struct CodeChunk {
  std::string code;
  std::string name;
};

CodeChunk code_chunk(const SourcedJson& doc, const std::string& pointer, const std::string& code,
                     const std::vector<std::string>& lines) {
  const SourceLocation at = doc.locate(pointer);
  if (at.line <= 0) return {code, at.str()};
  int first = at.line;
  // A block scalar (| or >) starts on the next line.
  const size_t row = static_cast<size_t>(at.line - 1);
  if (row < lines.size() && at.column > 0 && static_cast<size_t>(at.column) <= lines[row].size()) {
    const char c = lines[row][static_cast<size_t>(at.column - 1)];
    if (c == '|' || c == '>') ++first;
  }
  return {std::string(static_cast<size_t>(first - 1), '\n') + code, at.file};
}

std::vector<std::string> file_lines(const std::string& path) {
  std::vector<std::string> lines;
  const InputFile in = read_input_file(path);
  if (!in.ok) return lines;
  std::istringstream text(in.text);
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

std::string scalar_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A seat from a name or number.
Seat seat_of(const GameState& state, const json& who) {
  if (who.is_number_integer()) return who.get<Seat>();
  for (Seat s : Seat::all(state.player_count()))
    if (state.player(s).name == who.get<std::string>()) return s;
  return Seat::none();
}

// "dice@John" -> "dice@1", and on a board with named squares "board@e4" -> "board@5,4"
std::string zone_key(const GameState& state, const std::string& key) {
  const auto at = key.find('@');
  if (at == std::string::npos) return key;
  const std::string who = key.substr(at + 1);
  const int board = state.definition().find_board(key.substr(0, at));
  if (board >= 0) {
    const BoardGeometry& g = state.definition().boards[static_cast<size_t>(board)].geometry;
    if (const int cell = g.cell_named(who); cell >= 0)
      return fmt::format("{}{},{}", key.substr(0, at + 1), g.x(cell) + 1, g.y(cell) + 1);
  }
  for (Seat s : Seat::all(state.player_count()))
    if (state.player(s).name == who) return key.substr(0, at + 1) + std::to_string(s.value());
  return key;
}

int find_zone(const GameState& state, const std::string& key) {
  const std::string id = zone_key(state, key);
  for (int slot = 0; slot < state.definition().zone_count(); ++slot)
    if (state.zone_id(slot) == id) return slot;
  return -1;
}

bool subset_matches(const json& expected, const json& actual) {
  if (expected.is_object()) {
    if (!actual.is_object()) return false;
    for (const auto& [k, v] : expected.items())
      if (!actual.contains(k) || !subset_matches(v, actual.at(k))) return false;
    return true;
  }
  if (expected.is_number() && actual.is_number()) return expected.get<double>() == actual.get<double>();
  return expected == actual;
}

std::string names_of(const GameState& state, const std::vector<Seat>& seats) {
  std::vector<std::string> names;
  for (Seat s : seats)
    names.push_back(!s.is_none() && s.value() < state.player_count() ? state.player(s).name : std::to_string(s.value()));
  std::sort(names.begin(), names.end());
  return fmt::format("[{}]", fmt::join(names, ", "));
}

void check_seats(const GameState& state, const char* what, const json& expected, const std::vector<Seat>& actual,
                 std::vector<std::string>& failures) {
  std::vector<Seat> want;
  for (const auto& w : expected) {
    const Seat s = seat_of(state, w);
    if (s.is_none()) {
      failures.push_back(fmt::format("expect.{}: no player '{}'", what, scalar_text(w)));
      return;
    }
    want.push_back(s);
  }
  if (names_of(state, want) != names_of(state, actual))
    failures.push_back(fmt::format("{}: expected {}, got {}", what, names_of(state, want), names_of(state, actual)));
}

// expect.returns: a list in seat order ([2, -1, -1]) or by player name
// ({Ann: 2}); each must equal the game's return up to rounding (1e-9).
void check_returns(const GameState& state, const json& expected, const std::vector<double>& actual,
                   std::vector<std::string>& failures) {
  if (actual.empty()) {
    failures.push_back(fmt::format("returns: expected {}, but the game gave none", expected.dump()));
    return;
  }
  auto check = [&](Seat seat, const json& wanted) {
    const double want = wanted.get<double>(), got = actual[seat.index()];
    if (std::fabs(want - got) > 1e-9 * std::max(1.0, std::fabs(want)))
      failures.push_back(fmt::format("{}'s return: expected {}, got {}", state.player(seat).name, wanted.dump(),
                                     json(got).dump()));
  };
  if (expected.is_array()) {
    if (expected.size() != actual.size()) {
      failures.push_back(fmt::format("returns: expected {} numbers, one a seat, got {}", actual.size(), expected.size()));
      return;
    }
    for (Seat s : Seat::all(state.player_count())) check(s, expected[s.index()]);
    return;
  }
  for (const auto& [who, wanted] : expected.items()) {
    const Seat seat = seat_of(state, json(who));
    if (seat.is_none() || seat.value() >= state.player_count()) failures.push_back(fmt::format("expect.returns: no player '{}'", who));
    else check(seat, wanted);
  }
}

// Each of `lines` is found in `text`, each after the one before (`log`).
void check_lines_in_order(const std::string& text, const json& lines, const std::string& what,
                          std::vector<std::string>& failures) {
  size_t from = 0;
  for (const auto& line : lines) {
    const std::string wanted = line.get<std::string>();
    const size_t at = text.find(wanted, from);
    if (at == std::string::npos) {
      failures.push_back(fmt::format("{}: \"{}\" not found{}", what, wanted, from ? " after the previous expected line" : ""));
    } else {
      from = at + wanted.size();
    }
  }
}

// None of `lines` is in `text` (`no_log`).
void check_lines_absent(const std::string& text, const json& lines, const std::string& what, const char* why,
                        std::vector<std::string>& failures) {
  for (const auto& line : lines)
    if (text.find(line.get<std::string>()) != std::string::npos)
      failures.push_back(fmt::format("{}: \"{}\" should not appear{}", what, line.get<std::string>(), why));
}

// A seat by player name, or by seat number written as text (a YAML key).
Seat seat_by_key(const GameState& state, const std::string& key) {
  const Seat named = seat_of(state, json(key));
  if (!named.is_none()) return named;
  if (!key.empty() && key.size() <= 2 && std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const int n = std::stoi(key);
    if (n < state.player_count()) return Seat{n};
  }
  return Seat::none();
}

// expect.narration_for: by seat, text its narration must contain (in
// order, as `log`) and text it must lack.
void check_seat_narration(const GameState& state, const json& wanted, const std::vector<std::ostringstream>& told,
                          std::vector<std::string>& failures) {
  for (const auto& [key, checks] : wanted.items()) {
    const Seat seat = seat_by_key(state, key);
    if (seat.is_none()) {
      failures.push_back(fmt::format("expect.narration_for: no player '{}'", key));
      continue;
    }
    const std::string text = told[seat.index()].str();
    const std::string what = "narration for " + key;
    if (checks.contains("contains")) check_lines_in_order(text, checks.at("contains"), what, failures);
    if (checks.contains("lacks")) check_lines_absent(text, checks.at("lacks"), what, " (that seat was told it)", failures);
  }
}

}  // namespace

std::vector<std::string> find_scenarios(const std::string& path) {
  std::error_code ec;
  std::vector<std::string> out;
  if (!fs::is_directory(path, ec)) return {path};
  fs::path dir = fs::exists(fs::path(path) / "scenarios", ec) ? fs::path(path) / "scenarios" : fs::path(path);
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

ScenarioOutcome run_scenario(const std::string& path, const ScenarioOptions& options) {
  SourcedJson doc = load_yaml_file(path);
  check_against(doc, "scenario.schema.json");
  const json& s = doc.value;
  ScenarioOutcome out;
  out.file = path;
  out.name = s.at("name").get<std::string>();
  out.source = s.value("source", "");

  std::string game = s.value("game", "");
  if (game.empty()) game = fs::absolute(path).lexically_normal().parent_path().parent_path().string();
  LoadOptions load;
  if (s.contains("variants")) load.variants = s.at("variants").get<std::vector<std::string>>();
  if (s.contains("set")) load.sets = s.at("set").get<std::vector<std::string>>();
  std::unique_ptr<RuleEngine> own_engine;
  RuleEngine* engine_ptr = nullptr;
  std::shared_ptr<const GameDefinition> def;
  if (options.cache && !options.coverage) {
    const std::string key = fmt::format("{}\n{}\n{}\n{}", game, fmt::join(load.variants, "\n"),
                                        fmt::join(load.sets, "\n"), options.limits.max_instructions);
    auto& cached = options.cache->entry(key);
    if (!cached.engine) {
      cached.definition = load_game(game, load);
      cached.engine = std::make_unique<RuleEngine>(cached.definition, options.limits);
    }
    def = cached.definition;
    engine_ptr = cached.engine.get();  // settings live in each Match, not the engine
  } else {
    def = load_game(game, load);
  }
  const int players = s.value("players", def->default_players);
  if (players < def->min_players || players > def->max_players)
    throw SetupError(format_error(doc.locate("/players"), fmt::format("{} takes {} to {} players", def->name,
                                                                      def->min_players, def->max_players)));
  std::vector<std::string> names;
  if (s.contains("names")) names = s.at("names").get<std::vector<std::string>>();

  if (!engine_ptr) {
    own_engine = std::make_unique<RuleEngine>(def, options.limits, options.coverage);
    engine_ptr = own_engine.get();
  }
  Match match(def, *engine_ptr);
  const std::vector<std::string> lines = file_lines(path);
  if (s.contains("prepare")) {
    const CodeChunk chunk = code_chunk(doc, "/prepare", s.at("prepare").get<std::string>(), lines);
    match.set_prepare(chunk.code, chunk.name, s.value("prepare_at", "setup") == "first_turn");
  }
  if (s.contains("stop_after_turns")) match.set_turn_limit(s.at("stop_after_turns").get<int>());
  ForcedChance chance;
  if (s.contains("rolls"))
    for (const auto& r : s.at("rolls")) chance.rolls.push_back(r.get<std::vector<std::string>>());
  if (s.contains("shuffles"))
    for (const auto& sh : s.at("shuffles"))
      chance.shuffles.emplace_back(sh.at("zone").get<std::string>(), sh.at("top").get<std::vector<json>>());
  match.set_chance_override(&chance);
  std::ostringstream narration;
  // Full narration: every event, so that `log` may name any of them.
  Narrator narrator(narration, Seat::none(), {}, NarrationLevel::Full);
  match.add_sink(&narrator);
  // What each seat was told (`expect: narration_for:`): its own narration,
  // redacted as `rulebook play --view SEAT --narrate full` prints it.
  const bool per_seat = s.at("expect").contains("narration_for");
  std::vector<std::ostringstream> seat_narration(per_seat ? static_cast<size_t>(players) : 0);
  std::vector<std::unique_ptr<Narrator>> seat_narrators;
  for (size_t seat = 0; seat < seat_narration.size(); ++seat) {
    seat_narrators.push_back(std::make_unique<Narrator>(seat_narration[seat], Seat{static_cast<int>(seat)},
                                                        NarrationStyle{}, NarrationLevel::Full));
    match.add_sink(seat_narrators.back().get());
  }
  const uint64_t seed = s.value("seed", uint64_t{1});

  Answers answers;
  if (s.contains("answers"))
    for (size_t i = 0; i < s.at("answers").size(); ++i) {
      const json& given = s.at("answers").at(i);
      const bool label = is_label_answer(given);
      answers.text.push_back(answer_text(given));
      answers.label_only.push_back(label);
      answers.by_seat.push_back(given.is_object() && !label ? given : json());
      answers.where.push_back(doc.locate(fmt::format("/answers/{}", i)).str());
    }
  AutomaticDecisions automatic(&answers);
  match.add_sink(&automatic);
  const std::string fallback_kind = s.value("default_agent", "none");
  std::unique_ptr<Agent> fallback;
  std::vector<std::unique_ptr<Agent>> seat_fallbacks;  // one per seat: bots that play one seat's game
  if (fallback_kind != "none") {
    // The grammar of every --agent. random, first and scripted answer for
    // every seat (one agent, the stream of seat 0); greedy and the search
    // bots play one seat's game, so each seat gets its own.
    try {
      fallback = make_bot(fallback_kind);
      if (!fallback && options.make_agent) {
        // Built first: the registry refuses a bad specification with its own words.
        for (int seat = 0; seat < players; ++seat) {
          seat_fallbacks.push_back(options.make_agent(fallback_kind));
          if (!seat_fallbacks.back()) break;
        }
        if (!seat_fallbacks.empty() && !seat_fallbacks.back()) seat_fallbacks.clear();
        if (!seat_fallbacks.empty() && (!chance.rolls.empty() || !chance.shuffles.empty()))
          throw AgentSpecError(fmt::format(
              "'{}' cannot play a scenario with forced rolls or shuffles: its determinizations replay the game "
              "from its seed, which the forced chance overrides (use random, first or scripted:FILE)",
              fallback_kind));
      }
    } catch (const AgentSpecError& e) {
      throw SetupError(format_error(doc.locate("/default_agent"), e.what()));
    }
    if (!fallback && seat_fallbacks.empty())
      throw SetupError(format_error(doc.locate("/default_agent"),
                                    fmt::format("'{}' cannot answer for the seats of a scenario (use none, "
                                                "random, first, scripted:FILE, greedy, mcts or ismcts)",
                                                fallback_kind)));
  }
  // The fallback answers for every seat: it gets the stream of seat 0.
  if (fallback) fallback->begin_game(agent_stream_seed(seed, Seat{0}), Seat{0});
  std::vector<std::unique_ptr<ScenarioAgent>> seat_agents;
  std::vector<Agent*> seats;
  for (int seat = 0; seat < players; ++seat) {
    Agent* own = seat_fallbacks.empty() ? fallback.get() : seat_fallbacks[static_cast<size_t>(seat)].get();
    seat_agents.push_back(std::make_unique<ScenarioAgent>(&answers, &automatic, own, !seat_fallbacks.empty()));
    seats.push_back(seat_agents.back().get());
  }
  match.set_agents(seats);

  const json& expect = s.at("expect");
  const GameState& state = match.state();
  std::vector<std::string>& failures = out.failures;
  GameResult result;
  std::string error;
  try {
    result = match.play(players, seed, names);
  } catch (const std::exception& e) {
    error = e.what();
  }
  narrator.flush();
  for (auto& n : seat_narrators) n->flush();
  out.narration = narration.str();
  for (const auto& e : chance.errors) failures.push_back(e);

  if (expect.contains("error")) {
    const std::string wanted = expect.at("error").get<std::string>();
    if (error.empty()) failures.push_back(fmt::format("expected an error containing \"{}\", but the game ran fine", wanted));
    else if (error.find(wanted) == std::string::npos)
      failures.push_back(fmt::format("expected an error containing \"{}\", got: {}", wanted, error));
  } else if (!error.empty()) {
    failures.push_back(fmt::format("the game failed: {}", error));
  }
  if (error.empty()) {
    if (!answers.unused_keys().empty()) failures.push_back(answers.unused_keys());
    if (expect.value("answers_used", true) && answers.left()) {
      const std::string why = automatic.explain();
      failures.push_back(!why.empty() ? why
                                      : fmt::format("{} answer(s) were never asked for (next: answer {} '{}', {})",
                                                    answers.text.size() - answers.used, answers.used + 1,
                                                    answers.text[answers.used], answers.where[answers.used]));
    }
    if (!s.contains("stop_after_turns") && !chance.rolls.empty())
      failures.push_back(fmt::format("{} forced roll(s) were never used", chance.rolls.size()));
    const bool want_finished = expect.value("finished", !s.contains("stop_after_turns"));
    if (want_finished != result.finished)
      failures.push_back(want_finished ? "expected the game to finish, but it was stopped"
                                       : "expected the game to be stopped, but it finished: " + result.summary);
    if (expect.contains("winners")) check_seats(state, "winners", expect.at("winners"), result.winners, failures);
    if (expect.contains("losers")) check_seats(state, "losers", expect.at("losers"), result.losers, failures);
    if (expect.contains("reason") && expect.at("reason").get<std::string>() != result.reason)
      failures.push_back(fmt::format("reason: expected \"{}\", got \"{}\"", expect.at("reason").get<std::string>(),
                                     result.reason));
    if (expect.contains("stats"))
      for (const auto& [name, wanted] : expect.at("stats").items()) {
        const auto it = result.stats.find(name);
        if (it == result.stats.end())
          failures.push_back(fmt::format("stats.{}: expected {}, but the game gave none", name, wanted.dump()));
        else if (it->second != wanted.get<double>())
          failures.push_back(fmt::format("stats.{}: expected {}, got {}", name, wanted.dump(), nlohmann::json(it->second).dump()));
      }
    if (expect.contains("returns")) check_returns(state, expect.at("returns"), result.returns, failures);
    if (expect.contains("turns") && expect.at("turns").get<int>() != result.turns)
      failures.push_back(fmt::format("turns: expected {}, got {}", expect.at("turns").get<int>(), result.turns));
    if (expect.contains("zones")) {
      for (const auto& [key, count] : expect.at("zones").items()) {
        const int slot = find_zone(state, key);
        if (slot < 0) failures.push_back(fmt::format("expect.zones: no zone '{}'", key));
        else if (state.zone_size(slot) != count.get<int>())
          failures.push_back(fmt::format("{}: expected {} items, found {}", key, count.get<int>(), state.zone_size(slot)));
      }
    }
    if (expect.contains("faces")) {
      for (const auto& [key, faces] : expect.at("faces").items()) {
        const int slot = find_zone(state, key);
        if (slot < 0) {
          failures.push_back(fmt::format("expect.faces: no zone '{}'", key));
          continue;
        }
        for (const auto& [face, count] : faces.items()) {
          const FaceId id = def->face_id(face);
          const int found = id.is_none() ? 0 : state.count_showing(slot, id);
          if (found != count.get<int>())
            failures.push_back(fmt::format("{}: expected {} showing {}, found {}", key, count.get<int>(), face, found));
        }
      }
    }
    if (expect.contains("scores")) {
      for (const auto& [who, score] : expect.at("scores").items()) {
        const Seat seat = seat_of(state, json(who));
        if (seat.is_none()) failures.push_back(fmt::format("expect.scores: no player '{}'", who));
        else if (state.player(seat).score != score.get<int>())
          failures.push_back(fmt::format("{}'s score: expected {}, got {}", who, score.get<int>(), state.player(seat).score));
      }
    }
    if (expect.contains("state")) {
      const json view = match.view(Seat::none());
      const json actual = view.value("state", json::object());
      for (const auto& [key, value] : expect.at("state").items())
        if (!actual.contains(key) || !subset_matches(value, actual.at(key)))
          failures.push_back(fmt::format("state.{}: expected {}, got {}", key, value.dump(),
                                         actual.contains(key) ? actual.at(key).dump() : "nothing"));
    }
    if (expect.contains("lua")) {
      for (size_t i = 0; i < expect.at("lua").size(); ++i) {
        const std::string code = expect.at("lua").at(i).get<std::string>();
        const CodeChunk chunk = code_chunk(doc, fmt::format("/expect/lua/{}", i), code, lines);
        try {
          const json v = match.evaluate(chunk.code, chunk.name);
          if (v != json(true)) failures.push_back(fmt::format("lua: `{}` is {}", code, v.dump()));
        } catch (const std::exception& e) {
          failures.push_back(fmt::format("lua: `{}` failed: {}", code, e.what()));
        }
      }
    }
  }
  if (expect.contains("log")) check_lines_in_order(out.narration, expect.at("log"), "log", failures);
  if (per_seat) check_seat_narration(state, expect.at("narration_for"), seat_narration, failures);
  if (expect.contains("no_log")) check_lines_absent(out.narration, expect.at("no_log"), "log", "", failures);
  out.passed = failures.empty();
  return out;
}

}  // namespace rulebook
