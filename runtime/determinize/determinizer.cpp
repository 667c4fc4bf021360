#include "determinize/determinizer.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "determinize/saved_position.hpp"
#include "determinize/seat_replay.hpp"

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

Determinizer::Determinizer(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits)
    : definition_(std::move(definition)),
      limits_(limits),
      engine_(pooled_engine(definition_, limits)),
      sim_(std::make_unique<Match>(definition_, *engine_)),
      replayer_(std::make_unique<Replayer>()),
      observer_(std::make_unique<Observer>()) {
  replayer_->observer = observer_.get();
  replayer_->state = &sim_->state();
  sim_->record_answers();  // a look-ahead retraces the simulation
  sim_->set_keep_details(false);  // a search reads the winners only
  active_ = sim_.get();
}

Determinizer::~Determinizer() = default;

void Determinizer::prepare(const TrueGame& truth, Seat seat, const std::vector<nlohmann::json>& observed,
                           std::vector<std::string> labels) {
  TrueGame::Beginning start = truth.beginning();
  const int components = definition_->component_count();
  over_limit_.clear();
  broken_evaluation_.clear();
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
  labels_ = std::move(labels);
  replayer_->labels = &labels_;

  // The first replay, on the definition's identities: what the seat knows
  // (which components it can see at some event or decision, dice rolled and
  // shuffles out of its sight, the other seats' private answers), and
  // whether it shows the seat what it saw (it does, unless the answers or
  // chance were forced from outside: a scenario's fixed dice).
  sim_->add_sink(observer_.get());
  observer_->begin(seat, components);
  observer_->learn(true);
  observer_->expect(&observed);
  truth_log_ = &truth.answers();
  faces_ = nullptr;
  replay_to_decision(*sim_, *replayer_);
  observer_->look(sim_->state());
  observer_->learn(false);
  sim_->clear_sinks();  // the other replays build no events
  agrees_ = replayer_->reached && observer_->showed_all();

  // Dice rolled out of the seat's sight trade identities only among
  // themselves and take fresh faces: never the first face of a spare that
  // never left the box, never the true roll.
  unobserved_.clear();
  rolled_unseen_.clear();
  std::map<std::tuple<std::string, std::string, bool>, std::vector<int>> groups;
  for (int id = 0; id < components; ++id) {
    const ComponentType& type = definition_->types[static_cast<size_t>(definition_->component_type[static_cast<size_t>(id)])];
    if (observer_->observed(ComponentId{id}) || type.zone.empty()) continue;
    const bool rolled = observer_->rolled_unseen(ComponentId{id});
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
  find_free_answers(observer_->private_answers());

  deal_ready_ = false;
  decision_deals_ = 0;
  check_every_deal_ = false;
  if (hint_wanted_ && !hint_off_ && engine_->has_deal_unseen() && !unobserved_.empty()) {
    if (!deal_) {
      deal_engine_ = pooled_engine(definition_, limits_);
      deal_ = std::make_unique<Match>(definition_, *deal_engine_);
      deal_replayer_ = std::make_unique<Replayer>();
      deal_replayer_->state = &deal_->state();
      deal_replayer_->observer = observer_.get();
    }
    if (deal_->prepare_code() != sim_->prepare_code())
      deal_->set_prepare(sim_->prepare_code(), sim_->prepare_chunk(), sim_->prepare_at_first_turn());
    aim_at_decision(*deal_replayer_);
    deal_ready_ = replay_to_decision(*deal_, *deal_replayer_);
  }
  save_decision();
  save_redrawn();
}

void Determinizer::aim_at_decision(Replayer& r) const {
  r.log = truth_log_;
  r.switch_at = truth_answers_;
  r.seat = seat_;
  r.labels = &labels_;
  r.observer->learn(false);  // no learning, and no check: only read for that
  r.faces = nullptr;
}

void Determinizer::save_decision() {
  checkpoint_ready_ = false;
  ahead_state_ = AheadSave::Unknown;  // the look-ahead's checkpoint is of the last decision
  active_ = sim_.get();
  if (!checkpoints_wanted_) return;
  if (!paused_) paused_ = std::make_unique<SavedPosition>(definition_, limits_, *observer_);
  checkpoint_ready_ = bring_to_decision(*paused_);
}

bool Determinizer::bring_to_decision(SavedPosition& at) {
  Replayer& r = at.replayer();
  PositionService& service = at.service();
  aim_at_decision(r);
  service.follow(*sim_);
  const std::vector<Agent*> agents(static_cast<size_t>(players_), &r);
  // The options' labels read once before the save: a label the rules keep
  // once built (Liar's Dice's bids) is then in the checkpoint, not built
  // again in every simulation. The same text as read after the redraw: a
  // label at the seat's decision may only tell what the seat observed,
  // which a determinization never redraws (`rulebook check` holds games to
  // that).
  // A simultaneous decision is saved where it is asked, before any of its
  // seats answers: each simulation draws the others' answers again
  // (Replayer::draws), as its replay would.
  auto ready = [&](Match& m) {
    const std::vector<Seat> pending = m.pending_seats();
    if (std::find(pending.begin(), pending.end(), seat_) == pending.end() || !m.together_answers().empty())
      return false;
    bool fits = true;
    m.hand_over(agents);
    m.decide_pending(seat_, [&](const Decision& d) {
      fits = d.together().empty() ? pending.size() == 1
                                  : std::all_of(pending.begin(), pending.end(), [&](Seat s) {
                                      return std::find(d.together().begin(), d.together().end(), s) !=
                                             d.together().end();
                                    });
      for (int i = 0; i < d.count(); ++i) (void)d.label(i);
      return 0;
    });
    return fits;
  };
  try {
    service.bring(ReplayStart{players_, seed_, names_}, *truth_log_, truth_answers_, true, ready);
  } catch (const ReplayMismatch&) {
    return false;
  } catch (const AgentFailure&) {
    return false;
  } catch (const ScriptError&) {
    return false;
  }
  return service.has_snapshot();
}

void Determinizer::find_free_answers(const std::vector<std::pair<size_t, int>>& candidates) {
  // Every other seat's private answer is redrawn, in every sample: never
  // kept at its true value, not even where another option would have shown
  // the seat something else (Goofspiel's bids narrowed by who took the
  // prize). Keeping it there made the samples lean toward the truth: two
  // games the seat cannot tell apart, whose true answers differ, gave the
  // bot other samples (issue 38). A draw that contradicts what the seat
  // saw is rejected by the sample's checked replay, and the search draws
  // again (sampling from the worlds the seat cannot tell apart).
  free_answers_.clear();
  agreeing_.clear();
  if (!agrees_) return;  // the replay itself disagrees: nothing to compare with
  for (const auto& [at, options] : candidates)
    if (at < truth_log_->size()) free_answers_.emplace_back(at, options);
}

std::vector<std::pair<size_t, int>> Determinizer::draw_answers(Rng& rng) {
  // In the log's order, each answer drawn uniformly among the options that
  // agree with what the seat saw up to the next redrawn answer, given the
  // ones drawn before it: a function of what the seat saw and the bot's
  // stream only (the answers after it are not read yet, so their true
  // values play no part). An empty set (the earlier draws lead where the
  // seat saw otherwise later) draws them all again; after a few such dead
  // ends the last draw is handed over whole, and the sample's checked
  // replay rejects it.
  std::vector<std::pair<size_t, int>> drawn;
  const size_t n = free_answers_.size();
  if (n == 0) return drawn;
  constexpr int kRedraws = 8;
  std::vector<int> prefix;
  for (int attempt = 0; attempt < kRedraws; ++attempt) {
    prefix.clear();
    drawn.clear();
    bool dead_end = false;
    for (size_t k = 0; k < n; ++k) {
      const auto& [at, options] = free_answers_[k];
      int pick;
      if (dead_end) {
        pick = static_cast<int>(rng.below(static_cast<uint32_t>(options)));
      } else {
        const std::vector<int>& agreeing = agreeing_options(prefix);
        if (agreeing.empty()) {
          dead_end = true;
          pick = static_cast<int>(rng.below(static_cast<uint32_t>(options)));
        } else {
          pick = agreeing[rng.below(static_cast<uint32_t>(agreeing.size()))];
        }
      }
      prefix.push_back(pick);
      drawn.emplace_back(at, pick);
    }
    if (!dead_end) return drawn;
  }
  return drawn;
}

const std::vector<int>& Determinizer::agreeing_options(const std::vector<int>& prefix) {
  const auto found = agreeing_.find(prefix);
  if (found != agreeing_.end()) return found->second;
  if (agreeing_.size() > kAgreeingCacheLimit) agreeing_.clear();
  struct Stop : SimulationPolicy {
    int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
  } stop;
  const size_t k = prefix.size();
  sampled_log_ = *truth_log_;
  for (size_t j = 0; j < k; ++j) sampled_log_[free_answers_[j].first].index = prefix[j];
  const auto [at, options] = free_answers_[k];
  // The checked replay stops where the next redrawn answer is asked (or,
  // for the last, at the seat's decision): what the seat saw until then
  // depends on the answers drawn so far only.
  replayer_->log = &sampled_log_;
  replayer_->stop_at = k + 1 < free_answers_.size() ? free_answers_[k + 1].first : kNoStop;
  const std::vector<int> none;
  // After the first redrawn answer, each option's check resumes where this
  // one is asked, the prefix's answers in, saved once per prefix (the seat's
  // events until there checked on the way), instead of replaying the
  // prefix's answers once per option from where the first is asked.
  bool from_prefix = false;
  if (k > 0 && redrawn_ready_) {
    if (!prefix_at_) prefix_at_ = std::make_unique<SavedPosition>(definition_, limits_, *observer_);
    from_prefix = save_checked(*prefix_at_, sampled_log_, at, prefix_seat_, prefix_seen_);
  }
  std::vector<int> agreeing;
  for (int option = 0; option < options; ++option) {
    sampled_log_[at].index = option;
    const Outcome outcome = from_prefix ? resume_checked(*prefix_at_, at, prefix_seen_, none, 0, stop)
                                        : run(none, 0, stop, false, true);
    if (outcome == Outcome::Cutoff) agreeing.push_back(option);
  }
  replayer_->log = truth_log_;
  replayer_->stop_at = kNoStop;
  return agreeing_.emplace(prefix, std::move(agreeing)).first->second;
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
  Sample s;
  sample(rng, s);
  return s;
}

void Determinizer::sample(Rng& rng, Sample& s) {
  sample_identities(rng, s.identities);
  s.dealt.clear();
  s.faces.clear();
  s.checked = false;
  for (int id : rolled_unseen_) s.faces.emplace_back(id, rng.next());
  s.answers = draw_answers(rng);
  if (hint_off_ || !deal_ready_) return;
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
    return;
  }
  s.dealt = s.identities;
  for (size_t k = 0; k < dealt.size(); ++k)
    s.dealt[static_cast<size_t>(unobserved_[k])] = s.identities[static_cast<size_t>(dealt[k])];
  ++hint_.dealt;
  // Which deals are checked (played from the start and compared with what
  // the seat saw): the decision's first ones, then one in kAuditOneIn,
  // picked by the hint's own draw from the bot's stream (no further draw:
  // the stream's order is the same whether a deal is checked or not).
  const bool audited = Rng(Rng::mix(stream, kAuditSalt)).below(kAuditOneIn) == 0;
  s.checked = decision_deals_++ < kFirstChecked || audited;
}

std::vector<int> Determinizer::sample_identities(Rng& rng) const {
  std::vector<int> source;
  sample_identities(rng, source);
  return source;
}

void Determinizer::sample_identities(Rng& rng, std::vector<int>& source) const {
  source.resize(static_cast<size_t>(definition_->component_count()));
  for (size_t id = 0; id < source.size(); ++id) source[id] = static_cast<int>(id);
  for (size_t g = 0; g < groups_.size(); ++g) {
    // The group's sources by identity (no trace of the true order),
    // shuffled where they land: the same draws as a shuffled copy.
    const std::vector<int>& ids = groups_[g];
    for (size_t k = 0; k < ids.size(); ++k) source[static_cast<size_t>(ids[k])] = group_sources_[g][k];
    for (size_t i = ids.size() - 1; i > 0; --i)
      std::swap(source[static_cast<size_t>(ids[i])],
                source[static_cast<size_t>(ids[rng.below(static_cast<uint32_t>(i + 1))])]);
  }
}

Determinizer& prepare_determinizer(std::unique_ptr<Determinizer>& cache, const GameAccess& truth, Seat seat,
                                   const std::vector<nlohmann::json>& observed, const Decision& d, bool hint,
                                   bool checkpoint) {
  // The simulations run under the true game's limits (--max-seconds and
  // the rest), not the defaults: a runaway script stops as soon there.
  const EngineLimits limits = Determinizer::limits_of(truth);
  std::shared_ptr<const GameDefinition> definition = truth.definition_ptr();
  if (!cache || &cache->definition() != definition.get() || !cache->same_limits(limits))
    cache = std::make_unique<Determinizer>(std::move(definition), limits);
  cache->use_hint(hint);
  cache->use_checkpoints(checkpoint);
  std::vector<std::string> labels;
  for (int i = 0; i < d.count(); ++i) labels.push_back(d.label(i));
  cache->prepare(truth, seat, observed, std::move(labels));
  return *cache;
}

}  // namespace rulebook
