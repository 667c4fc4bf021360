#include "check/conformance.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "batch/batch.hpp"
#include "check/game_check.hpp"
#include "check/leak_worlds.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "play/bot_worlds.hpp"
#include "play/log_file.hpp"
#include "play/match.hpp"
#include "play/replay.hpp"
#include "play/undo.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook {

using nlohmann::json;

namespace {

using namespace check_detail;

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

// "together": at a simultaneous decision (game:choose_together), each
// asked seat's request (its options and its view) is the same whatever the
// other seats answered, and whether they have: the game is replayed to
// where it was asked (on the configuration's engine, after the game), the
// seat's request read before any answer, then after the others answered
// their first option, then their last. The first few such decisions of a
// game are checked.
void check_together(GameCheck& check, RuleEngine& engine, const std::shared_ptr<const GameDefinition>& def,
                    int players, uint64_t seed, const std::vector<AnswerRecord>& answers) {
  constexpr int kDecisions = 4;
  int checked = 0;
  for (size_t i = 0; i < answers.size() && checked < kDecisions; ++i) {
    const int number = answers[i].together;
    if (number == 0 || (i > 0 && answers[i - 1].together == number)) continue;
    std::vector<Seat> seats;
    for (size_t j = i; j < answers.size() && answers[j].together == number; ++j) seats.push_back(answers[j].seat);
    if (seats.size() < 2) continue;
    ++checked;
    for (Seat seat : seats) {
      std::string where, first;
      try {
        for (int variant = 0; variant < 3; ++variant) {
          Match match(def, engine);
          if (!replay_answers(match, ReplayStart{players, seed, {}}, answers, i))
            throw std::runtime_error("the game does not replay: it ends early");
          for (Seat other : seats)
            if (other != seat && variant > 0)
              match.answer(other, variant == 1 ? 0 : match.pending(other).count() - 1);
          const DecisionRequest& r = match.pending(seat);
          where = fmt::format("simultaneous decision {} (seat {}: \"{}\")", number, seat, r.prompt);
          const std::string seen = r.to_json().dump();
          if (variant == 0) {
            first = seen;
          } else if (seen != first) {
            check.fail("together", seat, where,
                       fmt::format("seat {}'s options or view change when the other seats of the simultaneous decision "
                                   "answer (their {} option): it would learn something of their answers",
                                   seat, variant == 1 ? "first" : "last"));
            return;
          }
        }
      } catch (const std::exception& e) {
        check.fail("together", seat, where.empty() ? fmt::format("simultaneous decision {}", number) : where, e.what());
        return;
      }
    }
  }
}

// What one configuration found.
struct ConfigOutcome {
  std::vector<ConformanceFailure> failures, warnings;
  int games = 0;
  int decisions_compared = 0;
  int bot_worlds_compared = 0, bot_worlds_skipped = 0;
  int worlds_compared = 0, worlds_skipped = 0;
};

// Writes a leak's world to `dir` and returns the command that plays it again.
std::string save_world(const std::string& dir, const std::string& game, const ConformanceConfig& config, uint64_t seed,
                       Seat seat, const LeakWorld& world, const char* which) {
  namespace fs = std::filesystem;
  std::string variants;
  for (const auto& v : config.variants) variants += "-" + v;
  for (const auto& v : config.sets) {  // one file per setting: `--set mode=a` and `mode=b` differ
    variants += "-";
    for (char c : v) variants += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  }
  const fs::path file = fs::path(dir) / fmt::format("{}-{}p{}-s{}-seat{}-{}.json", fs::path(game).filename().string(),
                                                    config.players, variants, seed, seat, which);
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ofstream out(file);
  json j = to_json(world, seat, config.players, config.variants);
  if (!config.sets.empty()) j["sets"] = config.sets;
  out << j.dump(1) << "\n";
  if (!out) return fmt::format("(could not write {})", file.string());
  return fmt::format("rulebook check {} --world {}", shell_word(game), shell_word(file.string()));  // the file holds the sets
}

// "worlds": every seat, in worlds it cannot tell apart from the game played.
void check_worlds(GameCheck& check, const std::string& game, const ConformanceConfig& config, uint64_t seed,
                  const ConformanceOptions& o, RuleEngine& engine, const std::shared_ptr<const GameDefinition>& def,
                  const std::vector<AnswerRecord>& answers, ConfigOutcome& out) {
  LeakWorldsOptions options;
  options.horizons = o.world_horizons;
  for (Seat s : Seat::all(config.players)) {
    LeakWorldsResult r;
    try {
      r = compare_seat_in_worlds(def, engine, config.players, seed, answers, s, options);
    } catch (const std::exception& e) {
      check.fail("worlds", s, "the worlds test", e.what());
      return;
    }
    out.worlds_compared += r.compared;
    out.worlds_skipped += r.skipped;
    if (!r.leaked) continue;
    std::vector<std::string> commands;
    if (!o.leak_dir.empty())
      commands = {save_world(o.leak_dir, game, config, seed, s, r.played, "played"),
                  save_world(o.leak_dir, game, config, seed, s, r.world, "world")};
    check.fail("worlds", s, fmt::format("line {} of what seat {} receives", r.line, s),
               fmt::format("seat {} receives something else in a world it cannot tell apart from the game played, "
                           "before the game revealed it:\n    game played: {}\n    other world: {}\n    what differs: {}",
                           s, r.played_line, r.world_line, r.what),
               std::move(commands));
  }
}

// One configuration: N games in one reused Lua state.
void check_config(const std::string& game, const ConformanceConfig& config, const ConformanceOptions& o,
                  ConfigOutcome& out) {
  std::vector<ConformanceFailure>& failures = out.failures;
  int& games_played = out.games;
  std::shared_ptr<const GameDefinition> def;
  std::unique_ptr<RuleEngine> engine;
  std::set<std::string> failed;
  try {
    def = load_game(game, LoadOptions{config.variants, config.sets});
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
      GameSpec spec{game, config.variants, config.sets, config.players, seed, {}};
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

    // Simultaneous decisions show a seat nothing of the others' answers.
    check_together(check, *engine, def, config.players, seed, p.answers);

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

    // What each seat receives: the same in worlds it cannot tell apart.
    if (o.worlds && g < o.world_games && p.result.finished) check_worlds(check, game, config, seed, o, *engine, def, p.answers, out);

    // The bots: the same choices in worlds a seat cannot tell apart.
    if (o.make_bot && g < o.bot_games) {
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
        out.bot_worlds_compared += r.worlds_compared;
        out.bot_worlds_skipped += r.worlds_skipped;
        if (r.peeked) check.fail("bots", s, r.where, fmt::format("{}: {}", o.bot_kind, r.message));
      }
    }
  }
}

}  // namespace

std::vector<ConformanceConfig> conformance_configs(const std::string& game, const std::vector<std::string>& settings,
                                                   const std::vector<std::string>& only) {
  auto def = load_game(game, LoadOptions{only, settings});
  std::vector<ConformanceConfig> out;
  if (!only.empty()) {
    for (int players = def->min_players; players <= def->max_players; ++players) out.push_back({players, only, settings});
    return out;
  }
  std::vector<std::vector<std::string>> sets{{}};
  std::vector<std::string> names, skipped;
  for (const auto& v : list_variants(def->dir)) (v.check_skip.empty() ? names : skipped).push_back(v.name);
  for (const auto& n : names) sets.push_back({n});
  const json* listed = nullptr;
  if (def->setup.contains("check") && def->setup.at("check").contains("combinations"))
    listed = &def->setup.at("check").at("combinations");
  if (listed) {
    for (const auto& combo : *listed) {
      std::vector<std::string> set;
      for (const auto& v : combo) {
        const std::string name = v.get<std::string>();
        if (std::find(skipped.begin(), skipped.end(), name) != skipped.end()) {
          set.clear();  // a combination with a variant check leaves out is left out too
          break;
        }
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
  for (const auto& set : sets)
    for (int players = def->min_players; players <= def->max_players; ++players) out.push_back({players, set, settings});
  return out;
}

std::vector<SkippedVariant> skipped_variants(const std::string& game) {
  std::vector<SkippedVariant> out;
  for (const auto& v : list_variants(resolve_game_dir(game)))
    if (!v.check_skip.empty()) out.push_back({v.name, v.check_skip});
  return out;
}

ConformanceReport check_conformance(const std::string& game, const ConformanceOptions& o) {
  ConformanceReport report;
  report.game = game;
  report.dir = resolve_game_dir(game);
  report.skipped = skipped_variants(game);
  const auto configs = conformance_configs(game, o.sets, o.variants);
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
  report.worlds = o.worlds;
  if (o.make_bot) report.bot_kind = o.bot_kind.empty() ? "bot" : o.bot_kind;
  for (const auto& c : checked.results) {
    report.games += c.games;
    report.decisions_compared += c.decisions_compared;
    report.bot_worlds_compared += c.bot_worlds_compared;
    report.bot_worlds_skipped += c.bot_worlds_skipped;
    report.worlds_compared += c.worlds_compared;
    report.worlds_skipped += c.worlds_skipped;
    for (const auto& f : c.failures) report.failures.push_back(f);
    for (const auto& f : c.warnings) report.warnings.push_back(f);
  }
  return report;
}

json to_json(const ConformanceFailure& f) {
  return json{{"check", f.check},     {"game", f.game},   {"players", f.players},
              {"variants", f.variants}, {"sets", f.sets}, {"seed", f.seed}, {"seat", !f.seat.is_none() ? json(f.seat) : json(nullptr)},
              {"where", f.where},     {"message", f.message}, {"reproduce", f.reproduce},
              {"reproduce_worlds", f.reproduce_worlds}};
}

json to_json(const ConformanceReport& r) {
  json failures = json::array();
  for (const auto& f : r.failures) failures.push_back(to_json(f));
  json warnings = json::array();
  for (const auto& f : r.warnings) warnings.push_back(to_json(f));
  json out{{"game", r.game}, {"dir", r.dir}, {"configs", r.configs}, {"games", r.games},
           {"ok", r.ok()}, {"failures", std::move(failures)}, {"warnings", std::move(warnings)}};
  json skipped = json::array();
  for (const auto& v : r.skipped) skipped.push_back(json{{"variant", v.name}, {"reason", v.reason}});
  out["skipped_variants"] = std::move(skipped);
  auto passed = [&](const char* check) {
    for (const auto& f : r.failures)
      if (f.check == check) return false;
    return true;
  };
  // Per test that compares worlds: the worlds compared and those skipped.
  json tests = json::object();
  if (r.worlds)
    tests["worlds"] = json{{"worlds_compared", r.worlds_compared}, {"worlds_skipped", r.worlds_skipped}, {"ok", passed("worlds")}};
  if (!r.bot_kind.empty()) {
    out["bots"] = json{{"kind", r.bot_kind}, {"decisions_compared", r.decisions_compared}, {"ok", passed("bots")}};
    tests["bots"] = json{{"kind", r.bot_kind},
                         {"decisions_compared", r.decisions_compared},
                         {"worlds_compared", r.bot_worlds_compared},
                         {"worlds_skipped", r.bot_worlds_skipped},
                         {"ok", passed("bots")}};
  }
  out["tests"] = std::move(tests);
  return out;
}

std::string describe(const ConformanceFailure& f) {
  std::string seat = !f.seat.is_none() ? fmt::format(", seat {}", f.seat) : std::string();
  const std::string sets = f.sets.empty() ? std::string() : fmt::format(", set {}", fmt::join(f.sets, " "));
  std::string out = fmt::format("{}: {}, {} players, variants {}{}, seed {}{}: {}\n  at {}\n  reproduce: {}", f.check,
                                f.game, f.players, variants_text(f.variants), sets, f.seed, seat, f.message, f.where,
                                f.reproduce);
  if (f.reproduce_worlds.size() == 2)
    out += fmt::format("\n  the game played, as the seat receives it: {}\n  the other world, as the seat receives it: {}",
                       f.reproduce_worlds[0], f.reproduce_worlds[1]);
  return out;
}

}  // namespace rulebook
