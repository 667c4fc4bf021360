#include "play/bot_worlds.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/rng.hpp"
#include "observation/seat_knowledge.hpp"
#include "observation/unseen_identities.hpp"
#include "play/match.hpp"
#include "play/position_service.hpp"

namespace rulebook {

namespace {

struct WorldStop : AgentFailure {
  WorldStop() : AgentFailure("world traced") {}
};

// One world: the game's beginning and every answer given in it.
struct World {
  uint64_t seed = 0;
  std::vector<int> identities;  // start identities (empty: the definition's)
  std::vector<AnswerRecord> answers;
  std::string what;             // how it differs from the game played, in words
  int only_probe = -1;          // >= 0: made for that decision of the seat only
};

// What the seat was shown in a world (every event it received and every
// question it was asked, in order; the components it saw; the other seats'
// private answers), and the bot's choice at the probed decision.
struct Trace {
  SeatKnowledge knows;
  std::optional<int> bot_choice;
};

// A seat of a world: answers from the world's log, except at the probed
// decision of the traced seat, where the bot answers and the world stops.
class WorldSeat : public Agent {
 public:
  WorldSeat(LogCursor& cursor, Trace& trace, Seat traced, Agent* bot, uint64_t bot_seed, int probe)
      : cursor_(cursor), trace_(trace), traced_(traced), bot_(bot), bot_seed_(bot_seed), probe_(probe) {}
  std::string kind() const override { return "replay"; }
  bool answers_at_once() const override { return bot_ == nullptr; }
  bool wants_events() const override { return bot_ && bot_->wants_events(); }
  void observe(const nlohmann::json& e) override { bot_->observe(e); }
  bool wants_game_access() const override { return bot_ && bot_->wants_game_access(); }
  void attach(const GameAccess* g) override { bot_->attach(g); }
  void begin_game(uint64_t, Seat seat) override {
    if (bot_) bot_->begin_game(bot_seed_, seat);  // the same stream in every world
  }
  int choose(const Decision& d) override {
    if (d.seat() == traced_) {
      std::string question = d.prompt();
      for (int i = 0; i < d.count(); ++i) question += "|" + d.label(i);
      trace_.knows.asked(std::move(question));
      if (bot_ && static_cast<int>(trace_.knows.questions().size()) - 1 == probe_) {
        trace_.bot_choice = bot_->choose(d);
        throw WorldStop();
      }
    }
    // The world's answers; one that does not fit (a redrawn answer led
    // elsewhere) ends the world there.
    if (!cursor_.replaying()) throw WorldStop();
    const int index = cursor_.take(d);  // the position service's check of a logged answer
    if (index < 0) throw WorldStop();
    return index;
  }

 private:
  LogCursor& cursor_;
  Trace& trace_;
  Seat traced_;
  Agent* bot_;
  uint64_t bot_seed_;
  int probe_;
};

Trace run_world(const std::shared_ptr<const GameDefinition>& def, RuleEngine& engine, int players, const World& world,
                Seat seat, Agent* bot, uint64_t bot_seed, int probe) {
  Trace trace;
  trace.knows.begin(seat, def->component_count());
  LogCursor cursor{&world.answers, world.answers.size(), 0};  // one place in the world's log for every seat
  Match match(def, engine);
  match.record_answers();  // what a searching bot replays
  match.add_sink(&trace.knows);
  std::vector<std::unique_ptr<WorldSeat>> seats;
  for (Seat s : Seat::all(players)) {
    seats.push_back(std::make_unique<WorldSeat>(cursor, trace, seat, s == seat ? bot : nullptr, bot_seed,
                                                s == seat ? probe : -1));
    match.set_agent(s, seats.back().get());
  }
  match.set_start_identities(world.identities);
  try {
    match.play(players, world.seed);
  } catch (const WorldStop&) {
  } catch (const AgentFailure&) {
  } catch (const ScriptError&) {
  }
  return trace;
}

bool same_until(const Trace& a, const Trace& b, size_t decision) { return a.knows.same_until(b.knows, decision); }

// Another of `options` options than `index`.
int another_option(Rng& rng, int index, int options) {
  const int drawn = static_cast<int>(rng.below(static_cast<uint32_t>(options - 1)));
  return drawn >= index ? drawn + 1 : drawn;
}

// The world of a seat's decision that is part of a simultaneous decision:
// the other seats' answers to it redrawn (never shown before the seat
// answers), and then each of their earlier private simultaneous answers
// whose redraw still shows the seat the same up to its decision (those the
// rules did not reveal), as the determinizer redraws them. Empty when the
// decision is no simultaneous one or nobody else answered it.
std::optional<World> together_world(const std::shared_ptr<const GameDefinition>& def, RuleEngine& engine,
                                    int players, const World& played, const Trace& a, Seat seat, int decision,
                                    Rng& rng) {
  // The seat's answer to its decision: its `decision`-th in the log.
  int own = -1;
  for (size_t i = 0, n = 0; i < played.answers.size(); ++i)
    if (played.answers[i].seat == seat && static_cast<int>(n++) == decision) own = static_cast<int>(i);
  if (own < 0 || played.answers[static_cast<size_t>(own)].together == 0) return std::nullopt;
  const int number = played.answers[static_cast<size_t>(own)].together;
  World w{played.seed, {}, played.answers, "the other seats' answers to this simultaneous decision and their "
                                           "earlier unrevealed ones redrawn", decision};
  bool redrawn = false;
  std::vector<std::pair<size_t, int>> earlier;
  for (const auto& [at, options, component] : a.knows.hidden_answers()) {
    if (at >= w.answers.size() || w.answers[at].together == 0) continue;
    if (w.answers[at].together == number) {
      w.answers[at].index = another_option(rng, w.answers[at].index, options);
      redrawn = true;
    } else if (w.answers[at].together < number) {
      earlier.emplace_back(at, options);
    }
  }
  if (!redrawn) return std::nullopt;
  for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
    const int was = w.answers[it->first].index;
    w.answers[it->first].index = another_option(rng, was, it->second);
    if (!same_until(a, run_world(def, engine, players, w, seat, nullptr, 0, -1), static_cast<size_t>(decision)))
      w.answers[it->first].index = was;  // revealed (or it changes what the seat saw): kept
  }
  return w;
}

}  // namespace

BotWorldsResult compare_bot_in_worlds(std::shared_ptr<const GameDefinition> def, RuleEngine& engine, int players,
                                      uint64_t seed, const std::vector<AnswerRecord>& answers, Seat seat,
                                      const BotWorldsOptions& options) {
  if (!options.make_bot) throw std::invalid_argument("compare_bot_in_worlds: no bot to compare");
  BotWorldsResult result;
  const World played{seed, {}, answers, "the game played"};
  const Trace a = run_world(def, engine, players, played, seat, nullptr, 0, -1);
  // The decisions compared: spread over the seat's whole game (its first
  // and its last among them), not only its first, where little is hidden yet.
  const int asked = static_cast<int>(a.knows.questions().size());
  const int probes = std::min<int>(options.decisions, asked);
  if (probes <= 0) return result;
  std::vector<int> probed;
  for (int i = 0; i < probes; ++i)
    probed.push_back(probes == 1 ? 0 : static_cast<int>((static_cast<long>(i) * (asked - 1)) / (probes - 1)));

  // The other worlds: only what the seat may not know differs.
  std::vector<World> worlds;
  Rng rng(Rng::mix(seed, static_cast<uint64_t>(seat.value()) + 0x5eed));
  {
    ExchangedIdentities exchanged =
        exchange_unseen_identities(*def, [&](int id) { return !a.knows.ever_seen(ComponentId{id}); }, rng);
    if (exchanged.changed)
      worlds.push_back(World{seed, std::move(exchanged.identities), answers, "the components it never saw exchanged"});
  }
  if (const auto private_answers = a.knows.private_answers(); !private_answers.empty()) {
    World w{seed, {}, answers, "the other seats' private answers redrawn"};
    for (const auto& [at, count] : private_answers) w.answers[at].index = another_option(rng, w.answers[at].index, count);
    worlds.push_back(std::move(w));
  }
  for (int k : probed)
    if (auto w = together_world(def, engine, players, played, a, seat, k, rng)) worlds.push_back(std::move(*w));
  for (int t = 1; t <= options.seeds; ++t)
    worlds.push_back(World{Rng::mix(seed, static_cast<uint64_t>(t) * 7919u), {}, answers,
                           "another chance seed (the rolls and shuffles it did not see redrawn)"});

  std::vector<std::optional<int>> played_choice(static_cast<size_t>(probes));
  for (const World& w : worlds) {
    const Trace b = run_world(def, engine, players, w, seat, nullptr, 0, -1);
    const int before = result.decisions_compared;
    for (int p = 0; p < probes; ++p) {
      const int k = probed[static_cast<size_t>(p)];
      if (w.only_probe >= 0 && w.only_probe != k) continue;
      if (!same_until(a, b, static_cast<size_t>(k))) break;
      auto& mine = played_choice[static_cast<size_t>(p)];
      if (!mine) {
        auto bot = options.make_bot();
        mine = run_world(def, engine, players, played, seat, bot.get(), options.bot_seed, k).bot_choice;
      }
      auto bot = options.make_bot();
      const std::optional<int> theirs = run_world(def, engine, players, w, seat, bot.get(), options.bot_seed, k).bot_choice;
      if (!mine || !theirs) continue;
      ++result.decisions_compared;
      if (*mine != *theirs) {
        ++result.worlds_compared;
        const std::string& question = a.knows.questions()[static_cast<size_t>(k)].text;
        result.peeked = true;
        result.where = fmt::format("decision {} of seat {} ({})", k + 1, seat, question);
        result.message = fmt::format(
            "the bot chose option {} in the game played and option {} in a world seat {} cannot tell apart from it "
            "({}): its choice depends on what its seat may not know",
            *mine + 1, *theirs + 1, seat, w.what);
        return result;
      }
    }
    ++(result.decisions_compared > before ? result.worlds_compared : result.worlds_skipped);
  }
  return result;
}

}  // namespace rulebook
