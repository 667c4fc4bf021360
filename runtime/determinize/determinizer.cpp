#include "determinize/determinizer.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "observation/event_view.hpp"

namespace rulebook {

namespace {
std::mutex warning_mutex;
std::function<void(const std::string&)> warning_handler;
}  // namespace

void set_search_warning_handler(std::function<void(const std::string&)> handler) {
  std::lock_guard<std::mutex> lock(warning_mutex);
  warning_handler = std::move(handler);
}

void search_warning(const std::string& what) {
  std::lock_guard<std::mutex> lock(warning_mutex);
  if (warning_handler) warning_handler(what);
}

namespace {

// What a determinization trades between components: each one's type and
// face, its identity. A snapshot of them, and the permutation that gives
// component i the identity component from[i] had in the snapshot.
using IdentitySnapshot = std::vector<std::pair<int, int>>;

IdentitySnapshot identities_of(const GameState& state) {
  IdentitySnapshot was;
  was.reserve(static_cast<size_t>(state.component_count()));
  for (ComponentId id : ComponentId::all(state.component_count()))
    was.emplace_back(state.component(id).type, state.component(id).face);
  return was;
}

void give_identities(GameState& state, const IdentitySnapshot& was, const std::vector<int>& from) {
  for (ComponentId id : ComponentId::all(state.component_count())) {
    const auto& [type, face] = was[static_cast<size_t>(from[id.index()])];
    Component& c = state.mutable_component(id);
    c.type = type;
    c.face = face;
  }
}

}  // namespace

// The event sink of the simulated game while it replays the true one: it
// either notes every component the seat can see (the first replay of a
// decision), or compares what the seat is shown with what it saw.
class Determinizer::Observer : public EventSink {
 public:
  Seat seat{0};
  bool marking = false;
  bool mismatch = false;
  size_t next = 0;
  const std::vector<nlohmann::json>* observed = nullptr;
  std::vector<char> seen;
  // While marking: dice rolled where the seat could not see the roll (a
  // fresh outcome: what it saw of the die before tells nothing now), and
  // the other seats' private answers that are no component, as (answer
  // index, options offered). `cursor` counts the answers replayed so far:
  // a choice taken without asking (a lone option) moves it not.
  std::vector<char> rolled;
  std::vector<std::pair<size_t, int>> private_answers;
  const size_t* cursor = nullptr;
  size_t last_cursor = 0;

  void on_event(const GameState& state, const Event& e) override {
    if (marking) {
      mark(state);
      if (e.type == EventType::Roll && !e.component.is_none() && !state.visible_to(e.component, seat)) {
        seen[e.component.index()] = 0;
        rolled[e.component.index()] = 1;
      }
      if (e.type == EventType::Choice && cursor && *cursor != last_cursor) {
        last_cursor = *cursor;
        if (e.secret && e.seat != seat && e.component.is_none() && e.from > 1)
          private_answers.emplace_back(*cursor - 1, e.from);
      }
    }
    if (mismatch || e.type == EventType::GameStart || !can_see(e, seat)) return;
    if (next >= observed->size() || event_json(state, e, seat) != (*observed)[next]) mismatch = true;
    ++next;
  }
  void mark(const GameState& state) {
    for (ComponentId id : ComponentId::all(state.component_count()))
      if (!seen[id.index()] && state.visible_to(id, seat)) seen[id.index()] = 1;
  }
};

// Every seat of the simulated game: answers from the true game's log,
// then hands over to the search's policy at the seat's decision.
class Determinizer::Replayer : public Agent {
 public:
  // The answers to replay: the true game's up to `switch_at` (the seat's
  // decision, where the determinization begins), then, in a look-ahead,
  // the simulation's own up to where it asks.
  const std::vector<AnswerRecord>* log = nullptr;
  size_t switch_at = 0;
  const std::vector<std::string>* labels = nullptr;
  Observer* observer = nullptr;
  SimulationPolicy* policy = nullptr;
  GameState* state = nullptr;
  Seat seat{0};
  bool check = true;
  uint64_t chance_seed = 0;
  size_t cursor = 0;
  bool handed_over = false;
  bool rejected = false;
  bool reached = false;  // the first replay: stops at the seat's decision

  std::string kind() const override { return "replay"; }
  // The search's policy answers at once too (its time is the search's).
  bool answers_at_once() const override { return true; }
  int choose(const Decision& d) override {
    if (handed_over) {
      if (cursor < log->size()) return (*log)[cursor++].index;  // a look-ahead retraces the simulation
      return policy->choose(d, *state);
    }
    if (observer->marking) observer->mark(*state);
    if (cursor < switch_at) {
      const AnswerRecord& a = (*log)[cursor++];
      if (a.seat != d.seat() || a.index >= d.count()) reject();
      return a.index;
    }
    // The seat's decision: the same question, or this is another game.
    if (d.seat() != seat || d.count() != static_cast<int>(labels->size())) reject();
    if (check) {
      if (observer->mismatch || observer->next != observer->observed->size()) reject();
      for (int i = 0; i < d.count(); ++i)
        if (d.label(i) != (*labels)[static_cast<size_t>(i)]) reject();
    }
    if (!policy) {
      reached = true;
      throw AgentFailure("determinization reached");
    }
    handed_over = true;
    state->set_sink(nullptr);  // the rollout builds no events
    state->chance().reseed(chance_seed, kChanceStream);
    permute();
    if (cursor < log->size()) return (*log)[cursor++].index;
    return policy->choose(d, *state);
  }

  // Component i takes the identity (type and face) component
  // identities[i] has now: the seat never observed either. Then the dice
  // rolled out of its sight show fresh faces.
  void permute() {
    if (identities != nullptr && !identities->empty())
      give_identities(*state, identities_of(*state), *identities);
    if (faces == nullptr) return;
    for (const auto& [id, draw] : *faces) {
      Component& c = state->mutable_component(ComponentId{id});
      const auto count = state->definition().types[static_cast<size_t>(c.type)].faces.size();
      if (count > 0) c.face = static_cast<int>(draw % count);
    }
  }

  const std::vector<int>* identities = nullptr;
  const std::vector<std::pair<int, uint64_t>>* faces = nullptr;

 private:
  [[noreturn]] void reject() {
    rejected = true;
    throw AgentFailure("determinization rejected");
  }
};

Determinizer::Determinizer(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits)
    : definition_(std::move(definition)),
      limits_(limits),
      engine_(std::make_unique<RuleEngine>(definition_, limits)),
      sim_(std::make_unique<Match>(definition_, *engine_)),
      replayer_(std::make_unique<Replayer>()),
      observer_(std::make_unique<Observer>()) {
  replayer_->observer = observer_.get();
  replayer_->state = &sim_->state();
  sim_->record_answers();  // a look-ahead retraces the simulation
}

Determinizer::~Determinizer() = default;

void Determinizer::prepare(const GameAccess& truth, Seat seat, const std::vector<nlohmann::json>& observed,
                           std::vector<std::string> labels) {
  GameAccess::Beginning start = truth.beginning();
  const int components = definition_->component_count();
  over_limit_.clear();
  seat_ = seat;
  players_ = start.players;
  seed_ = start.seed;
  names_ = std::move(start.names);
  if (sim_->prepare_code() != start.prepare_code && !start.prepare_code.empty())
    sim_->set_prepare(start.prepare_code, start.prepare_chunk, start.prepare_at_first_turn);
  replayer_->log = &truth.answers();
  replayer_->switch_at = truth.answers().size();
  replayer_->seat = seat;
  truth_answers_ = truth.answers().size();
  replayer_->observer = observer_.get();
  observer_->seat = seat;
  observer_->observed = &observed;
  labels_ = std::move(labels);
  replayer_->labels = &labels_;

  // The first replay, on the definition's identities: which components
  // the seat can see at some event or decision, and whether it shows the
  // seat what it saw (it does, unless the answers or chance were forced
  // from outside: a scenario's fixed dice).
  sim_->add_sink(observer_.get());
  observer_->marking = true;
  observer_->mismatch = false;
  observer_->next = 0;
  observer_->seen.assign(static_cast<size_t>(components), 0);
  observer_->rolled.assign(static_cast<size_t>(components), 0);
  observer_->private_answers.clear();
  observer_->cursor = &replayer_->cursor;
  observer_->last_cursor = 0;
  truth_log_ = &truth.answers();
  faces_ = nullptr;
  replay_to_decision(*sim_, *replayer_);
  observer_->mark(sim_->state());
  observer_->marking = false;
  observer_->cursor = nullptr;
  sim_->clear_sinks();  // the other replays build no events
  agrees_ = replayer_->reached && !observer_->mismatch && observer_->next == observed.size();

  // Dice rolled out of the seat's sight trade identities only among
  // themselves and take fresh faces: never the first face of a spare that
  // never left the box, never the true roll.
  unobserved_.clear();
  rolled_unseen_.clear();
  std::map<std::tuple<std::string, std::string, bool>, std::vector<int>> groups;
  for (int id = 0; id < components; ++id) {
    const ComponentType& type = definition_->types[static_cast<size_t>(definition_->component_type[static_cast<size_t>(id)])];
    if (observer_->seen[static_cast<size_t>(id)] || type.zone.empty()) continue;
    const bool rolled = observer_->rolled[static_cast<size_t>(id)] != 0;
    unobserved_.push_back(id);
    if (rolled) rolled_unseen_.push_back(id);
    groups[{type.kind, type.zone, rolled}].push_back(id);
  }
  // Each group in an order that no hidden outcome decides: the places
  // (zone, position) its components lie in, which every seat may know, and
  // the identities they trade, sorted. So a sample is a function of what
  // the seat saw and the bot's stream only, never of where the true
  // shuffle put which component (two worlds the seat cannot tell apart
  // give the bot the same samples).
  const GameState& at = sim_->state();
  std::vector<std::pair<int, int>> place(static_cast<size_t>(components), {-1, -1});
  for (int id = 0; id < components; ++id) {
    const int zone = at.component(ComponentId{id}).zone;
    if (zone < 0) continue;
    const auto& items = at.zone(zone);
    const auto it = std::find(items.begin(), items.end(), ComponentId{id});
    place[static_cast<size_t>(id)] = {zone, static_cast<int>(it - items.begin())};
  }
  auto identity = [&](int id) { return std::make_pair(at.component(ComponentId{id}).type, at.component(ComponentId{id}).face); };
  groups_.clear();
  group_sources_.clear();
  group_of_.assign(static_cast<size_t>(components), -1);
  int group = 0;
  for (auto& [key, ids] : groups) {
    for (int id : ids) group_of_[static_cast<size_t>(id)] = group;
    ++group;
    if (ids.size() < 2) continue;
    std::vector<int> sources = ids;
    std::stable_sort(sources.begin(), sources.end(), [&](int a, int b) { return identity(a) < identity(b); });
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return place[static_cast<size_t>(a)] < place[static_cast<size_t>(b)]; });
    groups_.push_back(std::move(ids));
    group_sources_.push_back(std::move(sources));
  }

  // The game's sampling hint deals on the decision's game: replayed once
  // here (the true answers and identities, no events), stopped at the
  // seat's decision; sample() permutes it generically before each deal.
  find_free_answers(observer_->private_answers);

  deal_ready_ = false;
  if (hint_wanted_ && !hint_off_ && engine_->has_deal_unseen() && !unobserved_.empty()) {
    if (!deal_) {
      deal_engine_ = std::make_unique<RuleEngine>(definition_, limits_);
      deal_ = std::make_unique<Match>(definition_, *deal_engine_);
      deal_replayer_ = std::make_unique<Replayer>();
      deal_replayer_->state = &deal_->state();
    }
    if (deal_->prepare_code() != sim_->prepare_code())
      deal_->set_prepare(sim_->prepare_code(), sim_->prepare_chunk(), sim_->prepare_at_first_turn());
    Replayer& d = *deal_replayer_;
    d.log = &truth.answers();
    d.switch_at = truth.answers().size();
    d.seat = seat;
    d.labels = &labels_;
    d.observer = observer_.get();  // not marking now, and no check: only read for that
    deal_ready_ = replay_to_decision(*deal_, d);
  }
}

void Determinizer::find_free_answers(const std::vector<std::pair<size_t, int>>& candidates) {
  // An answer is pinned when another option there shows the seat something
  // else (Goofspiel's bids, revealed after the round): one checked replay
  // per candidate, with the next option instead. The others are redrawn.
  free_answers_.clear();
  pinned_answers_ = 0;
  if (!agrees_) return;  // the replay itself disagrees: nothing to compare with
  struct Stop : SimulationPolicy {
    int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
  } stop;
  const std::vector<int> none;
  for (const auto& [at, options] : candidates) {
    if (at >= truth_log_->size()) continue;
    sampled_log_ = *truth_log_;
    sampled_log_[at].index = (sampled_log_[at].index + 1) % options;
    replayer_->log = &sampled_log_;
    const bool alike = run(none, 0, stop, false, true) == Outcome::Cutoff;
    replayer_->log = truth_log_;
    if (alike) free_answers_.emplace_back(at, options);
    else ++pinned_answers_;
  }
}

bool Determinizer::replay_to_decision(Match& match, Replayer& r) {
  r.policy = nullptr;
  r.identities = nullptr;
  r.check = false;
  r.cursor = 0;
  r.handed_over = false;
  r.rejected = false;
  r.reached = false;
  match.set_agents(std::vector<Agent*>(static_cast<size_t>(players_), &r));
  match.set_start_identities({});
  try {
    match.start(players_, seed_, names_);
  } catch (const AgentFailure&) {
  } catch (const ScriptError&) {
  }
  return r.reached;
}

void Determinizer::hint_problem(const std::string& what, bool turn_off) {
  if (hint_.problem.empty()) hint_.problem = what;
  if (turn_off) {
    hint_off_ = true;
    deal_ready_ = false;
    ++hint_.failures;
  }
  search_warning(what);
}

Sample Determinizer::sample(Rng& rng) {
  Sample s{sample_identities(rng), {}, {}, {}};
  for (int id : rolled_unseen_) s.faces.emplace_back(id, rng.next());
  for (const auto& [at, options] : free_answers_)
    s.answers.emplace_back(at, static_cast<int>(rng.below(static_cast<uint32_t>(options))));
  if (hint_off_ || !deal_ready_) return s;
  const uint64_t stream = rng.next();
  // The hint sees the generic draw, never the identities the seat did not
  // observe: apply it to the decision's game, deal, and put them back.
  GameState& state = deal_->state();
  const int n = state.component_count();
  const IdentitySnapshot was = identities_of(state);
  give_identities(state, was, s.identities);
  std::vector<int> dealt;
  std::string problem;
  try {
    dealt = deal_->deal_unseen(seat_, unobserved_, stream);
  } catch (const std::exception& e) {
    problem = e.what();
  }
  std::vector<int> same(static_cast<size_t>(n));
  for (int id = 0; id < n; ++id) same[static_cast<size_t>(id)] = id;
  give_identities(state, was, same);
  // A permutation of the unseen components, each trading identities only
  // within its kind and start zone.
  const std::string where = fmt::format("{}: rules.deal_unseen(game, {})", definition_->name, seat_);
  std::vector<char> used(static_cast<size_t>(n), 0);
  for (size_t k = 0; k < dealt.size() && problem.empty(); ++k) {
    const int to = unobserved_[k], from = dealt[k];
    if (from < 0 || from >= n || group_of_[static_cast<size_t>(from)] < 0)
      problem = fmt::format("{} answered component {}, which is not among the unseen components", where, from);
    else if (used[static_cast<size_t>(from)]++)
      problem = fmt::format("{} answered component {} twice: it must answer each unseen component once", where, from);
    else if (group_of_[static_cast<size_t>(from)] != group_of_[static_cast<size_t>(to)])
      problem = fmt::format("{} gave component {} the identity of component {}, of another kind or start zone", where,
                            to, from);
  }
  if (!problem.empty()) {
    hint_problem(problem + "; the hint is turned off and the bot samples generically", true);
    return s;
  }
  s.dealt = s.identities;
  for (size_t k = 0; k < dealt.size(); ++k)
    s.dealt[static_cast<size_t>(unobserved_[k])] = s.identities[static_cast<size_t>(dealt[k])];
  ++hint_.dealt;
  return s;
}

std::vector<int> Determinizer::sample_identities(Rng& rng) const {
  std::vector<int> source(static_cast<size_t>(definition_->component_count()));
  for (size_t id = 0; id < source.size(); ++id) source[id] = static_cast<int>(id);
  for (size_t g = 0; g < groups_.size(); ++g) {
    const std::vector<int>& ids = groups_[g];
    std::vector<int> drawn = group_sources_[g];  // by identity: no trace of the true order
    for (size_t i = drawn.size() - 1; i > 0; --i)
      std::swap(drawn[i], drawn[rng.below(static_cast<uint32_t>(i + 1))]);
    for (size_t k = 0; k < ids.size(); ++k) source[static_cast<size_t>(ids[k])] = drawn[k];
  }
  return source;
}

Determinizer::Outcome Determinizer::simulate(const std::vector<int>& identities, uint64_t chance_seed,
                                             SimulationPolicy& policy, bool oracle) {
  return run(identities, chance_seed, policy, oracle, false);
}

Determinizer::Outcome Determinizer::simulate(const Sample& sample, uint64_t chance_seed, SimulationPolicy& policy) {
  // Redrawn private answers: the replay follows them, checked.
  struct Restore {
    Determinizer& d;
    ~Restore() {
      d.replayer_->log = d.truth_log_;
      d.faces_ = nullptr;
      d.replayer_->faces = nullptr;
    }
  } restore{*this};
  const bool redrawn = !sample.answers.empty();
  if (redrawn) {
    sampled_log_ = *truth_log_;
    for (const auto& [at, index] : sample.answers) sampled_log_[at].index = index;
    replayer_->log = &sampled_log_;
  }
  faces_ = sample.faces.empty() ? nullptr : &sample.faces;
  replayer_->faces = faces_;
  if (!sample.dealt.empty()) {
    const Outcome outcome = run(sample.dealt, chance_seed, policy, true, true);
    if (outcome != Outcome::Rejected) return outcome;
    ++hint_.rejected;
    if (hint_.rejected == 1)
      hint_problem(fmt::format("{}: rules.deal_unseen(game, {}) dealt the unseen components so that a replay "
                               "showed seat {} something it did not see; that deal was not used (generic sampling "
                               "instead)",
                               definition_->name, seat_, seat_),
                   false);
    // A hint whose deals are mostly rejected only costs replays.
    if (hint_.rejected >= 20 && 2 * hint_.rejected > hint_.dealt)
      hint_problem(fmt::format("{}: rules.deal_unseen: {} of its {} deals were rejected; the hint is turned off",
                               definition_->name, hint_.rejected, hint_.dealt),
                   true);
  }
  return run(sample.identities, chance_seed, policy, false, redrawn);
}

bool Determinizer::replays_alike(const std::vector<int>& identities) {
  struct Stop : SimulationPolicy {
    int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
  } stop;
  return run(identities, 0, stop, true, true) == Outcome::Cutoff;
}

Determinizer::Outcome Determinizer::run(const std::vector<int>& identities, uint64_t chance_seed,
                                        SimulationPolicy& policy, bool at_start, bool checked) {
  Replayer& r = *replayer_;
  r.policy = &policy;
  r.check = checked;  // else the replay is the one prepare() checked
  identities_ = &identities;
  chance_seed_ = chance_seed;
  oracle_ = at_start;
  r.chance_seed = chance_seed;
  r.cursor = 0;
  r.handed_over = false;
  r.rejected = false;
  r.identities = at_start ? nullptr : &identities;
  if (checked) {
    observer_->marking = false;
    observer_->mismatch = false;
    observer_->next = 0;
    sim_->add_sink(observer_.get());
  }
  sim_->set_agents(std::vector<Agent*>(static_cast<size_t>(players_), replayer_.get()));
  sim_->set_start_identities(at_start ? identities : std::vector<int>{});
  Outcome outcome = Outcome::Finished;
  try {
    sim_->start(players_, seed_, names_);
    if (!r.handed_over) outcome = Outcome::Rejected;  // the game ended before the seat's decision
  } catch (const SearchCutoff&) {
    outcome = Outcome::Cutoff;
  } catch (const AgentFailure& e) {
    if (r.rejected) outcome = Outcome::Rejected;
    else if (std::string(e.what()).find("cut off") != std::string::npos) outcome = Outcome::Cutoff;
    else outcome = Outcome::Failed;
  } catch (const ScriptLimitError& e) {
    note_over_limit(e);
    outcome = Outcome::Failed;
  } catch (const ScriptError&) {
    outcome = r.handed_over ? Outcome::Failed : Outcome::Rejected;
  }
  if (checked) sim_->clear_sinks();
  return outcome;
}

double Determinizer::look_ahead(int option, Seat seat) {
  if (!identities_) throw std::logic_error("look_ahead outside a simulation");
  if (!ahead_) {
    ahead_engine_ = std::make_unique<RuleEngine>(definition_, limits_);
    ahead_ = std::make_unique<Match>(definition_, *ahead_engine_);
    ahead_replayer_ = std::make_unique<Replayer>();
    ahead_observer_ = std::make_unique<Observer>();
    ahead_replayer_->observer = ahead_observer_.get();
    ahead_replayer_->state = &ahead_->state();
  }
  if (ahead_->prepare_code() != sim_->prepare_code())
    ahead_->set_prepare(sim_->prepare_code(), sim_->prepare_chunk(), sim_->prepare_at_first_turn());
  // The simulation so far (the true game's answers, then its own), replayed
  // on the same identities and chance: the same position, then `option`.
  ahead_log_ = replayer_->log == nullptr ? std::vector<AnswerRecord>{} : *replayer_->log;
  ahead_log_.resize(truth_answers_);
  const auto& own = sim_->answers();
  ahead_log_.insert(ahead_log_.end(), own.begin() + static_cast<std::ptrdiff_t>(std::min(own.size(), truth_answers_)),
                    own.end());
  OneStepPolicy policy(option);
  Replayer& r = *ahead_replayer_;
  r.log = &ahead_log_;
  r.switch_at = truth_answers_;
  r.labels = replayer_->labels;
  r.seat = replayer_->seat;
  r.observer->observed = replayer_->observer->observed;
  r.observer->marking = false;
  r.policy = &policy;
  r.check = false;
  r.chance_seed = chance_seed_;
  r.cursor = 0;
  r.handed_over = false;
  r.rejected = false;
  r.identities = oracle_ ? nullptr : identities_;
  r.faces = faces_;
  ahead_->set_agents(std::vector<Agent*>(static_cast<size_t>(players_), ahead_replayer_.get()));
  ahead_->set_start_identities(oracle_ ? *identities_ : std::vector<int>{});
  bool cut = false;
  try {
    ahead_->start(players_, seed_, names_);
  } catch (const AgentFailure& e) {
    if (r.rejected || std::string(e.what()).find("cut off") == std::string::npos) return 1.0 / players_;
    cut = true;
  } catch (const ScriptLimitError& e) {
    note_over_limit(e);
    return 1.0 / players_;
  } catch (const ScriptError&) {
    return 1.0 / players_;
  }
  (void)cut;
  try {
    const std::optional<double> v = ahead_->evaluation(seat);
    return v ? *v : 1.0 / players_;
  } catch (const ScriptLimitError& e) {
    note_over_limit(e);
    return 1.0 / players_;
  } catch (const std::exception&) {  // a failing evaluation tells nothing apart
    return 1.0 / players_;
  }
}

std::vector<double> Determinizer::rewards() {
  std::vector<double> r(static_cast<size_t>(players_), 0.0);
  const GameResult& result = sim_->result();
  if (!result.finished && !result.stopped) {
    // Cut off: the game's own estimate (rules.evaluate), 1/n without one.
    for (Seat s : Seat::all(players_)) {
      double v = 1.0 / players_;
      if (has_evaluate_ != 0) {
        try {
          const std::optional<double> e = sim_->evaluation(s);
          has_evaluate_ = e ? 1 : 0;
          if (e) v = *e;
        } catch (const ScriptLimitError& e) {
          note_over_limit(e);
        } catch (const std::exception&) {  // a failing evaluation scores nothing apart
        }
      }
      r[s.index()] = v;
    }
    return r;
  }
  const auto& winners = result.winners;
  for (Seat w : winners)
    if (!w.is_none() && w.value() < players_) r[w.index()] = 1.0 / static_cast<double>(winners.size());
  return r;
}

void Determinizer::note_over_limit(const ScriptLimitError& e) {
  if (!over_limit_.empty()) return;
  const std::string what = e.what();
  over_limit_ = what.substr(0, what.find('\n'));  // the message, not its traceback
}

Determinizer& prepare_determinizer(std::unique_ptr<Determinizer>& cache, const GameAccess& truth, Seat seat,
                                   const std::vector<nlohmann::json>& observed, const Decision& d, bool hint) {
  // The simulations run under the true game's limits (--max-seconds and
  // the rest), not the defaults: a runaway script stops as soon there.
  const EngineLimits limits = truth.limits();
  std::shared_ptr<const GameDefinition> definition = truth.definition_ptr();
  if (!cache || &cache->definition() != definition.get() || !cache->same_limits(limits))
    cache = std::make_unique<Determinizer>(std::move(definition), limits);
  cache->use_hint(hint);
  std::vector<std::string> labels;
  for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
  cache->prepare(truth, seat, observed, std::move(labels));
  return *cache;
}

}  // namespace rulebook
