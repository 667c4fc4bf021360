#include "check/leak_worlds.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "core/rng.hpp"
#include "observation/event_view.hpp"
#include "observation/narrator.hpp"
#include "observation/unseen_identities.hpp"
#include "play/match.hpp"
#include "play/position_service.hpp"

namespace rulebook {

using nlohmann::json;

namespace {

// SeatStream::reveal's bits.
constexpr char kReveal = 1;  // the line reveals something to the seat through the API
constexpr char kTold = 2;    // what the rules tell: a message, the narration, a view

// Thrown by a seat of a world when the world's next answer does not fit.
struct WorldOffPath : AgentFailure {
  WorldOffPath() : AgentFailure("the world's answer is no longer legal") {}
};

// A question as the seat asked reads it: its prompt and every label.
std::string question_text(const Decision& d) {
  std::string out = d.prompt();
  for (int i = 0; i < d.count(); ++i) out += " | " + d.label(i);
  return out;
}

// Records what one seat receives, and answers every seat from the world.
class StreamRecorder : public EventSink {
 public:
  StreamRecorder(SeatStream& out, Seat seat, int components, const SeatStream* path, size_t horizon)
      : out_(out), seat_(seat), narration_(text_, seat, {}, NarrationLevel::Full), path_(path), horizon_(horizon) {
    out_.knows.begin(seat, components);
    out_.knows.keep_events(false);  // the lines are the stream
  }

  void attach(Match* match) { match_ = match; }

  void on_event(const GameState& state, const Event& e) override {
    if (done()) return;
    narration_.on_event(state, e);
    out_.knows.set_position(out_.lines.size());
    out_.knows.on_event(state, e);
    if (e.type == EventType::Choice && e.from > 1 && hides_choice(e, seat_))
      announcing_ = announced_ = true;  // what the rules say next announces it
    if (e.type == EventType::Choice) follow_path(e);
    if (e.type == EventType::GameStart || !can_see(e, seat_)) return;
    const json j = event_json(state, e, seat_);
    const bool shown = j.contains("component") && !j.at("component").is_null();
    const bool said_to_seat = e.type == EventType::Message && e.audience != ~SeatMask{0};
    const bool own_private = e.type == EventType::Choice && e.secret && e.seat == seat_;
    const bool result = e.type == EventType::GameEnd;  // told to everybody on purpose
    push("event " + j.dump(),
         shown || said_to_seat || own_private || result || (announcing_ && e.type == EventType::Message),
         e.type == EventType::Message);
    if (announcing_ && e.type == EventType::Message) announced_in_action_ = true;
  }

  // At every decision: the narration so far, the seat's view, and the
  // question when it is the seat's (the other seats' questions reach it
  // only as their answers' events).
  void at_decision(const Decision& d) {
    if (done()) return;
    flush_narration();
    note_seen(match_->state());
    // The view where the seat acts on it (building every seat's view at
    // every decision would cost more than the rules themselves).
    // The window closes with the action that announced the answer (sealed
    // bids are told once every bid is in, decisions later).
    if (announced_in_action_) announcing_ = announced_in_action_ = false;
    if (d.seat() == seat_) {
      push_view();
      push("you are asked: " + question_text(d), false);
      out_.asked_at.push_back(out_.lines.size());
    }
  }

  // Whether the world left the game played's path (a decision of another
  // seat, or one asked there and taken without asking here): its answers
  // no longer fit from there on.
  bool off_path() const { return off_path_; }
  // Compared far enough: the streams differ, or the world went off the
  // path, or the horizon is reached. The world stops at its next decision.
  bool done() const { return decided_ || off_path_; }
  // Before a decision is asked (its choice event comes after the answer):
  // off the path already if the game played took it without asking.
  void expect_asked(const Decision& d) {
    const size_t k = out_.choices.size();
    if (!path_ || off_path_ || (k < path_->choices.size() && path_->choices[k] == SeatStream::Step{d.seat().value(), true, d.prompt()}))
      return;
    off_path_ = true;
    out_.stopped_at = out_.lines.size();
  }

  void finish() {
    if (done()) return;
    flush_narration();
    note_seen(match_->state());
    push_view();
  }

  size_t lines() const { return out_.lines.size(); }

 private:
  // `told`: what the rules tell (a message, the narration, the view), as
  // against the questions and answers.
  void push(std::string line, bool reveal, bool told = false) {
    if (done()) return;
    const size_t at = out_.lines.size();
    // Compared as it comes: the game played's line at the same place.
    if (path_ && (at >= horizon_ || at >= path_->lines.size() || path_->lines[at] != line)) decided_ = true;
    out_.lines.push_back(std::move(line));
    out_.reveal.push_back(static_cast<char>((reveal ? kReveal : 0) | (told ? kTold : 0)));
  }
  // The view, which may show an announced private answer's consequences
  // (a clue kept in game.state) since the seat's last view.
  void push_view() {
    push("view " + match_->view(seat_).dump(), announced_, true);
    announced_ = false;
  }
  void follow_path(const Event& e) {
    SeatStream::Step choice{e.seat.value(), e.from > 1, e.prompt};
    const size_t k = out_.choices.size();
    if (!path_ || off_path_) {
      out_.choices.push_back(std::move(choice));
      return;
    }
    if (k >= path_->choices.size() || path_->choices[k] != choice) {
      off_path_ = true;
      out_.stopped_at = out_.lines.size();
    }
    out_.choices.push_back(std::move(choice));
  }
  void note_seen(const GameState& state) {
    out_.knows.set_position(out_.lines.size());
    out_.knows.look(state);
  }
  void flush_narration() {
    narration_.flush();
    std::istringstream in(text_.str());
    text_.str({});
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) push("narration " + line, announcing_, true);
  }

  SeatStream& out_;
  Seat seat_;
  std::ostringstream text_;
  Narrator narration_;
  Match* match_ = nullptr;
  bool announcing_ = false;  // after another seat's private answer, until the action that announces it ends
  bool announced_in_action_ = false;
  bool announced_ = false;   // since the seat's last view
  const SeatStream* path_;
  bool off_path_ = false;
  size_t horizon_;
  bool decided_ = false;
};

// A seat of a world: answers from the world's answers.
class WorldSeat : public Agent {
 public:
  WorldSeat(const LeakWorld& world, LogCursor& cursor, SeatStream& out, StreamRecorder& recorder, Seat traced)
      : world_(world), cursor_(cursor), out_(out), recorder_(recorder), traced_(traced) {}
  std::string kind() const override { return "world"; }
  bool answers_at_once() const override { return false; }
  int choose(const Decision& d) override {
    if (d.together().empty()) recorder_.expect_asked(d);
    recorder_.at_decision(d);
    if (recorder_.done() || !cursor_.replaying()) off_path();
    const AnswerRecord& a = cursor_.peek();
    if (a.seat != d.seat()) off_path();
    int index = -1;
    const auto& label = cursor_.next < world_.labels.size() ? world_.labels[cursor_.next] : std::nullopt;
    if (label) {
      if (a.index < d.count() && d.label(a.index) == *label) index = a.index;
      for (int i = 0; i < d.count() && index < 0; ++i)
        if (d.label(i) == *label) index = i;
    }
    // Another seat's answer whose label is gone: redrawn, as its position
    // (what the seat sees of it, a public answer's label, is compared).
    if (index < 0 && (!label || d.seat() != traced_) && a.index < d.count()) index = a.index;
    if (index < 0) off_path();
    ++cursor_.next;
    out_.chosen.push_back(d.label(index));
    return index;
  }

 private:
  [[noreturn]] void off_path() {
    out_.stopped_at = std::min(out_.stopped_at, recorder_.lines());
    throw WorldOffPath();
  }
  const LeakWorld& world_;
  LogCursor& cursor_;
  SeatStream& out_;
  StreamRecorder& recorder_;
  Seat traced_;
};

// Every roll and shuffle drawn from a stream of its own: the game keeps
// its seed (its header, game:random) and only its chance is redrawn.
class RedrawnChance : public ChanceOverride {
 public:
  explicit RedrawnChance(uint64_t seed) : rng_(seed) {}
  bool forced_roll(const GameState& state, ComponentId die, int& face) override {
    face = static_cast<int>(rng_.below(static_cast<uint32_t>(state.type_of(die).faces.size())));
    return true;
  }
  bool forced_shuffle(const GameState&, int, std::vector<ComponentId>& items) override {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng_.below(static_cast<uint32_t>(i))]);
    return true;
  }

 private:
  Rng rng_;
};

int another_option(Rng& rng, int index, int options) {
  const int drawn = static_cast<int>(rng.below(static_cast<uint32_t>(options - 1)));
  return drawn >= index ? drawn + 1 : drawn;
}

enum class Verdict { Same, Revealed, Leak, Skipped };

// Compares the world's stream with the game played's up to the horizon.
Verdict compare(const SeatStream& played, const SeatStream& world, size_t horizon, bool redrawn_answers, size_t& line) {
  const size_t end = std::min(horizon, played.lines.size());
  const size_t world_end = std::min(world.lines.size(), world.stopped_at);
  const size_t n = std::min(end, world_end);
  for (line = 0; line < n; ++line) {
    if (played.lines[line] == world.lines[line]) continue;
    const int kind = played.reveal[line] | world.reveal[line];
    // Where only private answers differ, what the rules tell about them is
    // theirs to tell ("warm", "higher": private numbers narrowed by an
    // outcome); a question or an answer that differs is still a leak.
    const bool told = redrawn_answers && (kind & kTold);
    return (kind & kReveal) || told ? Verdict::Revealed : Verdict::Leak;
  }
  // Off the game's path, or failing, before the horizon: not compared.
  if (!world.error.empty() || world_end < end) return Verdict::Skipped;
  return Verdict::Same;
}

std::string type_name(const GameDefinition& def, int component) {
  return def.types[static_cast<size_t>(def.component_type[static_cast<size_t>(component)])].name;
}

// The identities that differ from the game played, in words.
std::string exchanged_text(const GameDefinition& def, const std::vector<int>& identities, Seat seat) {
  std::vector<std::string> parts;
  int more = 0;
  for (size_t i = 0; i < identities.size(); ++i) {
    const std::string was = type_name(def, static_cast<int>(i)), now = type_name(def, identities[i]);
    if (was == now) continue;
    if (parts.size() < 6)
      parts.push_back(fmt::format("component {} is {} instead of {}", i, now, was));
    else
      ++more;
  }
  std::string out = fmt::format("components hidden from seat {} exchanged identities: {}", seat, fmt::join(parts, ", "));
  if (more) out += fmt::format(" and {} more", more);
  return out;
}

}  // namespace

json to_json(const LeakWorld& w, Seat seat, int players, const std::vector<std::string>& variants) {
  json answers = json::array();
  for (size_t i = 0; i < w.answers.size(); ++i) {
    json a{{"seat", w.answers[i].seat}, {"index", w.answers[i].index}};
    if (w.answers[i].together) a["together"] = w.answers[i].together;
    if (i < w.labels.size() && w.labels[i]) a["label"] = *w.labels[i];
    answers.push_back(std::move(a));
  }
  json j{{"seat", seat}, {"players", players}, {"variants", variants}, {"seed", w.seed}, {"what", w.what},
         {"answers", std::move(answers)}};
  if (!w.identities.empty()) j["identities"] = w.identities;
  if (w.chance != 0) j["chance"] = w.chance;
  if (w.redrawn_answers) j["redrawn_answers"] = true;
  if (w.horizon != SIZE_MAX) j["horizon"] = w.horizon;
  return j;
}

LeakWorld leak_world_from_json(const json& j) {
  LeakWorld w;
  try {
    w.seed = j.at("seed").get<uint64_t>();
    if (j.contains("identities")) w.identities = j.at("identities").get<std::vector<int>>();
    w.chance = j.value("chance", uint64_t{0});
    w.redrawn_answers = j.value("redrawn_answers", false);
    for (const auto& a : j.at("answers")) {
      w.answers.push_back(AnswerRecord{Seat{a.at("seat").get<int>()}, a.at("index").get<int>(), a.value("together", 0)});
      w.labels.push_back(a.contains("label") ? std::optional<std::string>(a.at("label").get<std::string>()) : std::nullopt);
    }
    w.what = j.value("what", std::string());
    if (j.contains("horizon")) w.horizon = j.at("horizon").get<size_t>();
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("not a world of rulebook check: {}", e.what()));
  }
  return w;
}

SeatStream play_seat_stream(const std::shared_ptr<const GameDefinition>& def, RuleEngine& engine, int players,
                            const LeakWorld& world, Seat seat, const SeatStream* path) {
  SeatStream out;
  StreamRecorder recorder(out, seat, def->component_count(), path, world.horizon);
  LogCursor cursor{&world.answers, world.answers.size(), 0};  // one place in the world's log for every seat
  Match match(def, engine);
  recorder.attach(&match);
  match.add_sink(&recorder);
  std::vector<std::unique_ptr<WorldSeat>> seats;
  for (Seat s : Seat::all(players)) {
    seats.push_back(std::make_unique<WorldSeat>(world, cursor, out, recorder, seat));
    match.set_agent(s, seats.back().get());
  }
  match.set_start_identities(world.identities);
  std::optional<RedrawnChance> chance;
  if (world.chance != 0) {
    chance.emplace(world.chance);
    match.set_chance_override(&*chance);
  }
  try {
    match.play(players, world.seed);
    recorder.finish();
    out.complete = !cursor.replaying();
  } catch (const AgentFailure&) {
    if (out.stopped_at == SIZE_MAX) out.stopped_at = out.lines.size();
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

LeakWorldsResult compare_seat_in_worlds(const std::shared_ptr<const GameDefinition>& def, RuleEngine& engine,
                                        int players, uint64_t seed, const std::vector<AnswerRecord>& answers, Seat seat,
                                        const LeakWorldsOptions& options) {
  LeakWorldsResult result;
  // The game played, by position, once: its labels are what the worlds replay.
  LeakWorld played;
  played.seed = seed;
  played.answers = answers;
  played.what = "the game played";
  played.labels.assign(answers.size(), std::nullopt);
  SeatStream a = play_seat_stream(def, engine, players, played, seat);
  if (!a.error.empty() || !a.complete) return result;  // the finishes and replay tests report it
  played.labels.assign(a.chosen.begin(), a.chosen.end());

  std::vector<LeakWorld> worlds;
  Rng rng(Rng::mix(seed, static_cast<uint64_t>(seat.value()) + 0x1ea6u));
  // Identity worlds at horizons spread over the seat's game.
  std::vector<size_t> horizons;
  const size_t asked = a.asked_at.size();
  for (int k = 1; k < options.horizons; ++k)
    if (asked > 0) horizons.push_back(a.asked_at[std::max<size_t>(1, asked * static_cast<size_t>(k) / static_cast<size_t>(options.horizons)) - 1]);
  if (options.horizons > 0) horizons.push_back(a.lines.size());
  std::sort(horizons.begin(), horizons.end());
  horizons.erase(std::unique(horizons.begin(), horizons.end()), horizons.end());
  for (size_t horizon : horizons) {
    ExchangedIdentities exchanged = exchange_unseen_identities(
        *def, [&](int id) { return a.knows.first_seen(ComponentId{id}) >= horizon; }, rng);
    if (!exchanged.changed) continue;
    const std::vector<int>& identities = exchanged.identities;
    LeakWorld w = played;
    w.identities = identities;
    w.what = exchanged_text(*def, identities, seat);
    w.horizon = horizon;
    worlds.push_back(std::move(w));
  }
  if (const auto private_answers = a.knows.private_answers(); !private_answers.empty()) {
    LeakWorld w = played;
    std::vector<std::string> redrawn;
    for (const auto& [at, count] : private_answers) {
      w.answers[at].index = another_option(rng, w.answers[at].index, count);
      w.labels[at] = std::nullopt;
      if (redrawn.size() < 6)
        redrawn.push_back(fmt::format("answer {} of seat {} is option {} instead of {}", at + 1, w.answers[at].seat,
                                      w.answers[at].index + 1, answers[at].index + 1));
    }
    w.what = fmt::format("the other seats' private answers redrawn: {}", fmt::join(redrawn, ", "));
    w.redrawn_answers = true;
    worlds.push_back(std::move(w));
  }
  for (int t = 1; t <= options.chance_worlds; ++t) {
    LeakWorld w = played;
    w.chance = Rng::mix(seed, static_cast<uint64_t>(t) * 7919u) | 1u;
    w.what = fmt::format("every roll and shuffle redrawn (from chance stream {})", w.chance);
    worlds.push_back(std::move(w));
  }

  for (LeakWorld& w : worlds) {
    const SeatStream b = play_seat_stream(def, engine, players, w, seat, &a);
    size_t line = 0;
    const Verdict v = compare(a, b, w.horizon, w.redrawn_answers, line);
    if (v == Verdict::Skipped) {
      ++result.skipped;
      continue;
    }
    ++result.compared;
    if (v != Verdict::Leak) continue;
    result.leaked = true;
    result.line = line + 1;
    result.played_line = a.lines[line];
    result.world_line = b.lines[line];
    result.what = w.what;
    result.world = std::move(w);
    result.played = played;
    return result;
  }
  return result;
}

}  // namespace rulebook
