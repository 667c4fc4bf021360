#include "check/conformance.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "batch/batch.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "play/bot_worlds.hpp"
#include "play/log_file.hpp"
#include "play/match.hpp"
#include "play/replay.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook {

using nlohmann::json;

namespace {

std::string variants_text(const std::vector<std::string>& variants) {
  return variants.empty() ? "none" : fmt::format("{}", fmt::join(variants, "+"));
}

// A shell word: quoted only when it needs to be.
std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) || std::strchr("-_./=+:,", c);
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string reproduce_command(const std::string& game, const ConformanceConfig& config, uint64_t seed, Seat seat) {
  std::string cmd = fmt::format("rulebook play {} --players {}", shell_word(game), config.players);
  for (const auto& v : config.variants) cmd += " --variant " + shell_word(v);
  cmd += fmt::format(" --seed {} --view {}", seed, seat);
  if (seat.is_none()) cmd += " --json";
  return cmd;
}

// `text` names `word` as a word of its own (not "Sharks" for "Shark").
bool names(const std::string& text, const std::string& word) {
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
std::vector<std::string> secret_titles(const GameState& state, Seat seat) {
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
bool telling(const GameState& state, ComponentId id, Seat seat) {
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

std::string first_secret(const std::string& text, const std::vector<std::string>& secrets) {
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

  void fail(const std::string& check, Seat seat, const std::string& where, const std::string& message) {
    if (!failed_->insert(check).second) return;  // the first failure of each check is enough
    ConformanceFailure f;
    f.check = check;
    f.game = game_;
    f.players = config_.players;
    f.variants = config_.variants;
    f.seed = seed_;
    f.seat = seat;
    f.where = where;
    f.message = message;
    f.reproduce = reproduce_command(game_, config_, seed_, seat);
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
        fail(p.type == EventType::Choice ? "decision" : "message", p.seat, p.where,
             fmt::format("seat {} is shown \"{}\", naming component {} ({}), which is hidden from it", p.seat, p.text, id,
                         state_->type_of(id).title));
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
      check_identity_swap(view, s, where, s == d.seat() ? &d : nullptr);
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
             fmt::format("option {} \"{}\" names {}, which only components hidden from seat {} are (a guess is "
                         "fine; the hidden-identity and bots tests judge what the label may tell)",
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

  // A seat's view, and the labels of its decision, must not change when the
  // components hidden from it exchange identities: rotate type and face
  // among them in the live state, look again, and put everything back.
  void check_identity_swap(const json& before, Seat seat, const std::string& where, const Decision* d) {
    std::vector<ComponentId> hidden;
    for (ComponentId id : ComponentId::all(state_->component_count()))
      if (!state_->visible_to(id, seat) && state_->component(id).zone >= 0) hidden.push_back(id);
    if (hidden.size() < 2) return;
    std::vector<std::string> labels;
    if (d)
      for (int i = 0; i < d->count(); ++i) labels.push_back(d->label(i));
    auto& st = *state_;
    auto rotate = [&](bool forward) {
      const size_t n = hidden.size();
      auto& first = st.mutable_component(hidden[forward ? 0 : n - 1]);
      const auto type = first.type;
      const auto face = first.face;
      for (size_t k = 0; k + 1 < n; ++k) {
        auto& to = st.mutable_component(hidden[forward ? k : n - 1 - k]);
        const auto& from = st.component(hidden[forward ? k + 1 : n - 2 - k]);
        to.type = from.type;
        to.face = from.face;
      }
      auto& last = st.mutable_component(hidden[forward ? n - 1 : 0]);
      last.type = type;
      last.face = face;
    };
    rotate(true);
    json after;
    std::vector<std::string> labels_after;
    std::string error;
    try {
      after = match_->view(seat);
      if (d)
        for (int i = 0; i < d->count(); ++i) labels_after.push_back(d->label(i));
    } catch (const std::exception& e) {
      error = e.what();
    }
    rotate(false);
    if (!error.empty()) throw ScriptError(error);
    if (after != before)
      fail("hidden-identity", seat, where,
           fmt::format("the view of seat {} changes when the {} components hidden from it exchange identities", seat, hidden.size()));
    for (size_t i = 0; i < labels.size(); ++i)
      if (labels[i] != labels_after[i]) {
        fail("hidden-identity", seat, where,
             fmt::format("option {} \"{}\" of seat {} becomes \"{}\" when the components hidden from it exchange identities",
                         i + 1, labels[i], seat, labels_after[i]));
        break;
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

// A random bot that inspects the game at its first `budget` decisions.
class InspectingAgent : public Agent {
 public:
  InspectingAgent(GameCheck* check, int* budget) : check_(check), budget_(budget) {}
  std::string kind() const override { return "random"; }
  void begin_game(uint64_t stream_seed, Seat seat) override { random_.begin_game(stream_seed, seat); }
  int choose(const Decision& d) override {
    if (check_) {
      check_->settle();
      if (*budget_ > 0) {
        --*budget_;
        check_->inspect(d);
      }
    }
    return random_.choose(d);
  }

 private:
  GameCheck* check_;
  int* budget_;
  RandomAgent random_;
};

struct Played {
  GameResult result;
  std::vector<json> events;
  std::vector<AnswerRecord> answers;
  std::string error;  // a script error, the budget's included
};

Played play_recorded(RuleEngine& engine, std::shared_ptr<const GameDefinition> def, int players, uint64_t seed,
                     GameCheck* check, int inspections) {
  Match match(std::move(def), engine);
  EventRecorder recorder;
  match.add_sink(&recorder);
  if (check) {
    match.add_sink(check);
    check->attach(&match);
  }
  match.record_answers();
  int budget = inspections;
  for (Seat s : Seat::all(players)) match.set_agent(s, std::make_unique<InspectingAgent>(check, &budget));
  Played p;
  try {
    p.result = match.play(players, seed);
    if (check) check->settle();
  } catch (const std::exception& e) {
    p.error = e.what();
  }
  p.events = recorder.events();
  p.answers = match.answers();
  return p;
}

// What one configuration found.
struct ConfigOutcome {
  std::vector<ConformanceFailure> failures, warnings;
  int games = 0;
  int decisions_compared = 0;
};

// One configuration: N games in one reused Lua state.
void check_config(const std::string& game, const ConformanceConfig& config, const ConformanceOptions& o,
                  ConfigOutcome& out) {
  std::vector<ConformanceFailure>& failures = out.failures;
  int& games_played = out.games;
  std::shared_ptr<const GameDefinition> def;
  std::unique_ptr<RuleEngine> engine;
  std::set<std::string> failed;
  try {
    def = load_game(game, LoadOptions{config.variants, {}});
    engine = std::make_unique<RuleEngine>(def, o.limits);
  } catch (const std::exception& e) {
    std::string message = e.what();
    if (config.variants.size() > 1)
      message += " (variants that do not go together: list the combinations to check under check.combinations in game.yaml)";
    GameCheck(game, config, o.seed, &failures, &failed).fail("loads", Seat::none(), "loading", message);
    return;
  }
  for (int g = 0; g < o.games; ++g) {
    const uint64_t seed = o.seed + static_cast<uint64_t>(g);
    GameCheck check(game, config, seed, &failures, &failed, &out.warnings);
    Played p = play_recorded(*engine, def, config.players, seed, &check, o.inspections);
    ++games_played;
    const std::string end = fmt::format("event {} (the last)", p.events.size());
    if (!p.error.empty()) {
      check.fail("finishes", Seat::none(), end, p.error);
      continue;  // nothing more to compare: the engine reset itself
    }
    if (!p.result.finished) check.fail("finishes", Seat::none(), end, "the game stopped without game:finish");

    // The log replays field for field.
    {
      GameState state(*def);
      state.reset(config.players, seed);
      GameSpec spec{game, config.variants, {}, config.players, seed, {}};
      json log = make_log(spec, state, p.result, p.answers, p.events,
                          std::vector<std::string>(config.players, "random"));
      log.erase("result");  // `state` is not the game's final state; a log may omit it
      try {
        const ReplayReport report = replay_log(log, o.limits);
        if (!report.ok) check.fail("replay", Seat::none(), "replaying the log", report.message);
      } catch (const std::exception& e) {
        check.fail("replay", Seat::none(), "replaying the log", e.what());
      }
    }

    // A fresh Lua state plays the same game identically.
    {
      RuleEngine fresh(def, o.limits);
      Played q = play_recorded(fresh, def, config.players, seed, nullptr, 0);
      if (!q.error.empty()) {
        check.fail("isolation", Seat::none(), "a fresh Lua state",
                   fmt::format("game {} in the reused state finished, but a fresh state fails: {}", g + 1, q.error));
      } else if (q.events != p.events) {
        size_t i = 0;
        while (i < p.events.size() && i < q.events.size() && p.events[i] == q.events[i]) ++i;
        const std::string reused = i < p.events.size() ? p.events[i].dump() : "the end";
        const std::string fresh_event = i < q.events.size() ? q.events[i].dump() : "the end";
        check.fail("isolation", Seat::none(), fmt::format("event {}", i + 1),
                   fmt::format("game {} in the reused Lua state differs from a fresh state's: {} instead of {} "
                               "(rulebook play runs a fresh state; `rulebook check {} --games {} --seed {}` "
                               "plays the reused one again)",
                               g + 1, reused, fresh_event, shell_word(game), g + 1, o.seed));
      }
    }

    // The bots: the same choices in worlds a seat cannot tell apart.
    if (o.make_bot && g == 0) {
      BotWorldsOptions bots;
      bots.make_bot = o.make_bot;
      bots.decisions = o.bot_decisions;
      for (Seat s : Seat::all(config.players)) {
        BotWorldsResult r;
        try {
          r = compare_bot_in_worlds(def, *engine, config.players, seed, p.answers, s, bots);
        } catch (const std::exception& e) {
          check.fail("bots", s, "the bots test", e.what());
          break;
        }
        out.decisions_compared += r.decisions_compared;
        if (r.peeked) check.fail("bots", s, r.where, fmt::format("{}: {}", o.bot_kind, r.message));
      }
    }
  }
}

}  // namespace

std::vector<ConformanceConfig> conformance_configs(const std::string& game) {
  auto def = load_game(game);
  std::vector<std::vector<std::string>> sets{{}};
  std::vector<std::string> names;
  for (const auto& v : list_variants(def->dir)) names.push_back(v.name);
  for (const auto& n : names) sets.push_back({n});
  const json* listed = nullptr;
  if (def->setup.contains("check") && def->setup.at("check").contains("combinations"))
    listed = &def->setup.at("check").at("combinations");
  if (listed) {
    for (const auto& combo : *listed) {
      std::vector<std::string> set;
      for (const auto& v : combo) {
        const std::string name = v.get<std::string>();
        if (std::find(names.begin(), names.end(), name) == names.end())
          throw SetupError(fmt::format("{}/game.yaml: error: check.combinations names '{}', which is not a variant of {} "
                                       "(variants: {})", def->dir, name, def->name, fmt::join(names, ", ")));
        set.push_back(name);
      }
      if (set.size() > 1) sets.push_back(std::move(set));
    }
  } else {
    for (size_t i = 0; i < names.size(); ++i)
      for (size_t j = i + 1; j < names.size(); ++j) sets.push_back({names[i], names[j]});
  }
  std::vector<ConformanceConfig> out;
  for (const auto& set : sets)
    for (int players = def->min_players; players <= def->max_players; ++players) out.push_back({players, set});
  return out;
}

ConformanceReport check_conformance(const std::string& game, const ConformanceOptions& o) {
  ConformanceReport report;
  report.game = game;
  report.dir = resolve_game_dir(game);
  const auto configs = conformance_configs(game);
  report.configs = static_cast<int>(configs.size());
  // One item per configuration; each builds its own Lua state (its variants differ).
  batch::BatchPlan plan;
  plan.items = static_cast<int64_t>(configs.size());
  plan.jobs = o.jobs;
  plan.cancel = o.cancel;
  const auto checked = batch::collect_batch<ConfigOutcome>(plan, [&](int) {
    return [&](const batch::BatchItem& item) {
      ConfigOutcome c;
      check_config(game, configs[static_cast<size_t>(item.index)], o, c);
      return c;
    };
  });
  checked.run.rethrow_error();
  report.checked_configs = static_cast<int>(checked.results.size());
  report.cancelled = checked.run.cancelled;
  if (o.make_bot) report.bot_kind = o.bot_kind.empty() ? "bot" : o.bot_kind;
  for (const auto& c : checked.results) {
    report.games += c.games;
    report.decisions_compared += c.decisions_compared;
    for (const auto& f : c.failures) report.failures.push_back(f);
    for (const auto& f : c.warnings) report.warnings.push_back(f);
  }
  return report;
}

json to_json(const ConformanceFailure& f) {
  return json{{"check", f.check},     {"game", f.game},   {"players", f.players},
              {"variants", f.variants}, {"seed", f.seed}, {"seat", !f.seat.is_none() ? json(f.seat) : json(nullptr)},
              {"where", f.where},     {"message", f.message}, {"reproduce", f.reproduce}};
}

json to_json(const ConformanceReport& r) {
  json failures = json::array();
  for (const auto& f : r.failures) failures.push_back(to_json(f));
  json warnings = json::array();
  for (const auto& f : r.warnings) warnings.push_back(to_json(f));
  json out{{"game", r.game}, {"dir", r.dir}, {"configs", r.configs}, {"games", r.games},
           {"ok", r.ok()}, {"failures", std::move(failures)}, {"warnings", std::move(warnings)}};
  if (!r.bot_kind.empty()) {
    bool bots_ok = true;
    for (const auto& f : r.failures) bots_ok = bots_ok && f.check != "bots";
    out["bots"] = json{{"kind", r.bot_kind}, {"decisions_compared", r.decisions_compared}, {"ok", bots_ok}};
  }
  return out;
}

std::string describe(const ConformanceFailure& f) {
  std::string seat = !f.seat.is_none() ? fmt::format(", seat {}", f.seat) : std::string();
  return fmt::format("{}: {}, {} players, variants {}, seed {}{}: {}\n  at {}\n  reproduce: {}", f.check, f.game,
                     f.players, variants_text(f.variants), f.seed, seat, f.message, f.where, f.reproduce);
}

}  // namespace rulebook
