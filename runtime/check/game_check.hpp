#pragma once
// Inside the conformance suite (conformance.cpp): the checks of one game
// of one configuration, watching every event (GameCheck), and the words a
// failure is reported in. Not a header for the suite's users.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "check/conformance.hpp"
#include "observation/event_view.hpp"
#include "play/match.hpp"

namespace rulebook::check_detail {

using nlohmann::json;

inline std::string variants_text(const std::vector<std::string>& variants) {
  return variants.empty() ? "none" : fmt::format("{}", fmt::join(variants, "+"));
}

// A shell word: quoted only when it needs to be.
inline std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) || std::strchr("-_./=+:,", c);
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string reproduce_command(const std::string& game, const ConformanceConfig& config, uint64_t seed, Seat seat) {
  std::string cmd = fmt::format("rulebook play {} --players {}", shell_word(game), config.players);
  for (const auto& v : config.variants) cmd += " --variant " + shell_word(v);
  for (const auto& v : config.sets) cmd += " --set " + shell_word(v);
  cmd += fmt::format(" --seed {} --view {}", seed, seat);
  if (seat.is_none()) cmd += " --json";
  return cmd;
}

// `text` names `word` as a word of its own (not "Sharks" for "Shark").
inline bool names(const std::string& text, const std::string& word) {
  if (word.size() < 3) return false;
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
    const size_t end = at + word.size();
    const bool right = end >= text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
    if (left && right) return true;
  }
  return false;
}

// Titles only hidden components of `seat` have: a text naming one tells the
// seat something it cannot know (no component it may see has that title).
inline std::vector<std::string> secret_titles(const GameState& state, Seat seat) {
  std::set<std::string> hidden, seen;
  for (ComponentId id : ComponentId::all(state.component_count())) {
    if (state.component(id).zone < 0) continue;
    (state.visible_to(id, seat) ? seen : hidden).insert(state.type_of(id).title);
  }
  std::vector<std::string> out;
  for (const auto& t : hidden)
    if (!seen.count(t)) out.push_back(t);
  return out;
}

// Naming hidden component `id` by its title surely tells `seat` about it:
// another component hidden from the seat has a different title (so the
// name tells them apart), and no component the seat may see has that title
// (which the text could mean instead).
inline bool telling(const GameState& state, ComponentId id, Seat seat) {
  const std::string& title = state.type_of(id).title;
  bool other_title = false;
  for (ComponentId other : ComponentId::all(state.component_count())) {
    if (other == id || state.component(other).zone < 0 || state.type_of(other).title != title) {
      if (other != id && state.component(other).zone >= 0 && !state.visible_to(other, seat)) other_title = true;
      continue;
    }
    if (state.visible_to(other, seat)) return false;
  }
  return other_title;
}

inline std::string first_secret(const std::string& text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets)
    if (names(text, s)) return s;
  return {};
}

// One game of one configuration, recording the first failure of each check.
class GameCheck : public EventSink {
 public:
  GameCheck(const std::string& game, const ConformanceConfig& config, uint64_t seed,
            std::vector<ConformanceFailure>* failures, std::set<std::string>* failed_checks,
            std::vector<ConformanceFailure>* warnings = nullptr)
      : game_(game), config_(config), seed_(seed), failures_(failures), failed_(failed_checks), warnings_(warnings) {}

  void attach(Match* match) {
    match_ = match;
    state_ = &match->state();
  }

  // A heuristic's finding that a sound test cannot confirm: printed, not
  // failing (the first of each check per configuration).
  void warn(const std::string& check, Seat seat, const std::string& where, const std::string& message) {
    if (!warnings_ || !warned_.insert(check).second) return;
    std::vector<ConformanceFailure>* failures = failures_;
    std::set<std::string> once;
    std::set<std::string>* failed = failed_;
    failures_ = warnings_;
    failed_ = &once;
    fail(check, seat, where, message);
    failures_ = failures;
    failed_ = failed;
  }

  void fail(const std::string& check, Seat seat, const std::string& where, const std::string& message,
            std::vector<std::string> reproduce_worlds = {}) {
    if (!failed_->insert(check).second) return;  // the first failure of each check is enough
    ConformanceFailure f;
    f.check = check;
    f.game = game_;
    f.players = config_.players;
    f.variants = config_.variants;
    f.sets = config_.sets;
    f.seed = seed_;
    f.seat = seat;
    f.where = where;
    f.message = message;
    f.reproduce = reproduce_command(game_, config_, seed_, seat);
    f.reproduce_worlds = std::move(reproduce_worlds);
    failures_->push_back(std::move(f));
  }

  // Events as a seat receives them never name a component hidden from it
  // (a move may name one the seat knew before it moved). A private
  // decision reaches the other seats without its answer. A message or a
  // chosen option shown to a seat must not name a component
  // hidden from it: the chosen component itself, or one the rules just
  // acted on (moved, rolled, turned, peeked at since the last decision)
  // whose title tells it apart from other components hidden from the seat.
  // Texts are judged at the next decision: a card named as it is played
  // has been revealed by then.
  void on_event(const GameState& state, const Event& e) override {
    ++events_;
    // A component the seat may see at some time between a text and its
    // judgement (a card played face up, hidden again in the draw pile) is
    // one the text may name: no leak.
    for (auto& p : pending_) {
      auto shown = [&](ComponentId id) { return state.visible_to(id, p.seat); };
      p.components.erase(std::remove_if(p.components.begin(), p.components.end(), shown), p.components.end());
      p.suspects.erase(std::remove_if(p.suspects.begin(), p.suspects.end(), shown), p.suspects.end());
    }
    const std::string where = fmt::format("event {} ({})", events_, to_string(e.type));
    if (!e.component.is_none() && e.type != EventType::Choice) recent_.insert(e.component);
    for (Seat s : Seat::all(state.player_count())) {
      if (!can_see(e, s)) continue;
      const json j = event_json(state, e, s);
      if (j.contains("component") && j.at("component").is_number_integer()) {
        const auto id = j.at("component").get<ComponentId>();
        const bool known = id == e.component ? knows_event_component(state, e, s) : state.visible_to(id, s);
        if (!known) fail("event", s, where, fmt::format("seat {} receives component {}, hidden from it", s, id));
      }
      if (e.type == EventType::Choice && e.secret && s != e.seat && (j.contains("label") || j.contains("index")))
        fail("decision", s, where,
             fmt::format("seat {} receives the answer (\"{}\") of seat {}'s private decision \"{}\"", s,
                         j.value("label", std::string()), e.seat, e.prompt));
      if ((e.type != EventType::Message && e.type != EventType::Choice) || s == e.seat || hides_choice(e, s)) continue;
      // A chosen label may also name a component hidden from the seat that
      // the rules act on only afterwards (a card chosen by its label, then
      // put face down): every such component is a suspect, a leak if the
      // rules act on it before the next decision and it is still hidden.
      std::vector<ComponentId> named, suspects;
      if (e.type == EventType::Choice && !e.component.is_none() && !state.visible_to(e.component, s) &&
          telling(state, e.component, s) && names(e.text, state.type_of(e.component).title))
        named.push_back(e.component);
      for (ComponentId id : recent_)
        if (!state.visible_to(id, s) && telling(state, id, s) && names(e.text, state.type_of(id).title))
          named.push_back(id);
      if (e.type == EventType::Choice)
        for (const auto& title : titles_named(state, e.text))
          for (ComponentId id : ComponentId::all(state.component_count()))
            if (state.component(id).zone >= 0 && state.type_of(id).title == title && !state.visible_to(id, s) &&
                telling(state, id, s))
              suspects.push_back(id);
      if (!named.empty() || !suspects.empty())
        pending_.push_back(PendingText{s, e.type, e.text, where, std::move(named), std::move(suspects)});
    }
  }

  // Judges the texts shown since the last decision against what each seat
  // may know now, and starts a new action.
  void settle() {
    ++decisions_;
    for (auto& p : pending_) {
      for (ComponentId id : p.suspects)
        if (recent_.count(id)) p.components.push_back(id);
      for (ComponentId id : p.components) {
        // Still hidden, and still told apart by its title: a component the
        // seat may see now (the card played face up) could be what it meant.
        if (state_->visible_to(id, p.seat) || !telling(*state_, id, p.seat)) continue;
        warn(p.type == EventType::Choice ? "decision" : "message", p.seat, p.where,
             fmt::format("seat {} is shown \"{}\", which names {}, the title of component {}, hidden from it (a "
                         "word, not a proof: a fixed list of guesses names hidden titles too)",
                         p.seat, p.text, state_->type_of(id).title, id));
        break;
      }
    }
    pending_.clear();
    recent_.clear();
  }

  // At a decision: every seat's view, and the decision as its seat sees it.
  void inspect(const Decision& d) {
    const std::string where = fmt::format("decision {} (seat {}: \"{}\")", decisions_, d.seat(), d.prompt());
    for (Seat s : Seat::all(state_->player_count())) {
      const json view = match_->view(s);
      check_view(view, s, where);
      const auto secrets = secret_titles(*state_, s);
      if (view.contains("state")) check_strings(view.at("state"), s, secrets, where);
      if (view.contains("describe")) check_strings(view.at("describe"), s, secrets, where);  // rules.describe
    }
    // An option naming a title only hidden components have: a fixed list
    // of guesses (Love Letter's Guard names "Priest") does that in every
    // world, and a label that changes with the hidden identities fails the
    // hidden-identity test. A warning.
    const auto secrets = secret_titles(*state_, d.seat());
    for (int i = 0; i < d.count(); ++i) {
      const std::string label = d.label(i);
      const std::string secret = first_secret(label, secrets);
      if (!secret.empty())
        warn("decision", d.seat(), where,
             fmt::format("option {} \"{}\" names {}, which only components hidden from seat {} are (a word, not a "
                         "proof: a fixed list of guesses names hidden titles too)",
                         i + 1, label, secret, d.seat()));
    }
  }

 private:
  struct PendingText {
    Seat seat;
    EventType type;
    std::string text;
    std::string where;
    std::vector<ComponentId> components;  // the hidden components it names
    std::vector<ComponentId> suspects;    // those it may name: it does if the rules act on them
  };

  // The component titles a text names (each title once).
  std::vector<std::string> titles_named(const GameState& state, const std::string& text) {
    if (titles_.empty()) {
      std::set<std::string> all;
      for (ComponentId id : ComponentId::all(state.component_count())) all.insert(state.type_of(id).title);
      titles_.assign(all.begin(), all.end());
    }
    std::vector<std::string> out;
    for (const auto& t : titles_)
      if (names(text, t)) out.push_back(t);
    return out;
  }

  // Every component a view shows (by id, or as a handle the rules put in
  // game.state) must be one the seat may know; hidden ones show no type.
  void check_view(const json& v, Seat seat, const std::string& where) {
    if (v.is_object()) {
      for (const char* key : {"id", "component"}) {
        if (!v.contains(key) || !v.at(key).is_number_integer()) continue;
        const ComponentId id{v.at(key).get<int>()};
        if (!id.is_none() && id.value() < state_->component_count() && !state_->visible_to(id, seat))
          fail("view", seat, where, fmt::format("the view of seat {} shows component {} ({}), hidden from it", seat, id,
                                                state_->type_of(id).title));
      }
      if (v.contains("hidden") && v.contains("type"))
        fail("view", seat, where, fmt::format("the view of seat {} shows the type of a hidden component", seat));
      for (const auto& [k, item] : v.items()) check_view(item, seat, where);
    } else if (v.is_array()) {
      for (const auto& item : v) check_view(item, seat, where);
    }
  }

  // The rules' public data names no title only hidden components have:
  // a warning (a list of the cards still to find names them in every world).
  void check_strings(const json& v, Seat seat, const std::vector<std::string>& secrets, const std::string& where) {
    if (v.is_string()) {
      const std::string secret = first_secret(v.get<std::string>(), secrets);
      if (!secret.empty())
        warn("view", seat, where, fmt::format("game.state or rules.describe shows seat {} \"{}\", naming {}, which only components hidden from it are",
                                              seat, v.get<std::string>(), secret));
    } else if (v.is_structured()) {
      for (const auto& item : v) check_strings(item, seat, secrets, where);
    }
  }

  std::string game_;
  ConformanceConfig config_;
  uint64_t seed_;
  std::vector<ConformanceFailure>* failures_;
  std::set<std::string>* failed_;
  std::vector<ConformanceFailure>* warnings_;
  std::set<std::string> warned_;
  GameState* state_ = nullptr;
  Match* match_ = nullptr;
  std::vector<PendingText> pending_;
  std::set<ComponentId> recent_;  // components the rules acted on since the last decision
  std::vector<std::string> titles_;  // every component title, made once
  int events_ = 0;
  int decisions_ = 0;
};

}  // namespace rulebook::check_detail
