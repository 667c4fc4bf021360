#include "spiel/spiel_state.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "determinize/determinizer.hpp"
#include "lua/script_error.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"

namespace rulebook::spiel {

using nlohmann::json;

void SeatStreams::on_event(const GameState& state, const Event& event) {
  for (Seat s : Seat::all(static_cast<int>(lines_.size()))) {
    if (!can_see(event, s)) continue;
    lines_[s.index()] += event_json(state, event, s).dump();
    lines_[s.index()] += '\n';
  }
}

SpielState::SpielState(std::shared_ptr<SpielGame> game, uint64_t seed, ChanceMode chance, const std::vector<Step>& steps,
                       std::shared_ptr<const World> world)
    : game_(std::move(game)), players_(game_->num_players()), seed_(seed), chance_mode_(chance), world_(std::move(world)) {
  play_steps(steps);
}

// The match runs on the game's engine: it goes first, under the lock.
SpielState::~SpielState() {
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  match_.reset();
}

template <typename Fn>
void SpielState::advance(Fn&& fn) {
  try {
    where_ = fn() ? Where::Decision : Where::Terminal;
  } catch (const std::exception&) {
    // Explicit chance stops the rules inside the roll or shuffle: the run
    // fails there, and the node is what the override saw.
    if (chance_ && chance_->stopped()) {
      where_ = Where::Chance;
      return;
    }
    throw;
  }
}

std::vector<int> SpielState::chance_outcomes_so_far() const {
  std::vector<int> outcomes;
  for (const Step& s : steps_)
    if (s.seat.is_none()) outcomes.push_back(s.action);
  return outcomes;
}

void SpielState::rebuild(EventSink* extra) {
  match_.reset();
  match_ = std::make_unique<Match>(game_->definition_ptr(), game_->engine());
  match_->record_answers(true);
  if (chance_mode_ == ChanceMode::Explicit) {
    chance_ = std::make_unique<ExplicitChance>(chance_outcomes_so_far());
    match_->set_chance_override(chance_.get());
  }
  if (world_ && !world_->start_identities.empty()) match_->set_start_identities(world_->start_identities);
  streams_.reset(players_);
  match_->add_sink(&streams_);
  if (extra) match_->add_sink(extra);
  const GameSpec& spec = game_->spec();
  // The steps again, with each chance outcome where the rules drew it
  // (a log keeps answers and outcomes apart).
  const std::vector<int> outcomes = chance_outcomes_so_far();
  std::vector<Step> ordered;
  ordered.reserve(steps_.size());
  size_t drawn = 0;
  const auto note_draws = [&] {
    if (chance_)
      while (drawn < chance_->used()) ordered.push_back({Seat::none(), outcomes[drawn++], 0});
  };
  advance([&] { return match_->start(players_, seed_, spec.names); });
  size_t answered = 0;
  for (const Step& s : steps_) {
    if (s.seat.is_none()) continue;  // played by the override as the rules draw
    note_draws();
    if (where_ != Where::Decision)
      throw std::logic_error("the game does not retrace its steps (rules that are not deterministic?)");
    if (world_ && answered == world_->at) enter_world();
    ordered.push_back(s);
    advance([&] { return match_->answer(s.seat, s.action); });
    ++answered;
  }
  if (world_ && answered == world_->at) enter_world();
  note_draws();
  if (drawn != outcomes.size()) throw std::logic_error("the game does not draw every chance outcome given");
  steps_ = std::move(ordered);
}

void SpielState::enter_world() {
  GameState& state = match_->state();
  state.chance().reseed(world_->chance_seed, kChanceStream);
  // Component i takes the identity component identities[i] has now, as the
  // determinizer gives them.
  if (!world_->identities.empty()) give_identities(state, identities_of(state), world_->identities);
  for (const auto& [id, draw] : world_->faces) {
    Component& c = state.mutable_component(ComponentId{id});
    const auto count = state.definition().types[static_cast<size_t>(c.type)].faces.size();
    if (count > 0) c.face = static_cast<int>(draw % count);
  }
}

int SpielState::current_player() const {
  switch (where_) {
    case Where::Terminal:
      return kTerminalPlayer;
    case Where::Chance:
      return kChancePlayer;
    case Where::Decision:
      break;
  }
  const auto seats = match_->pending_seats();
  if (seats.size() > 1) return kSimultaneousPlayer;
  return seats.empty() ? kTerminalPlayer : seats.front().value();
}

bool SpielState::is_simultaneous_node() const { return current_player() == kSimultaneousPlayer; }

std::vector<int> SpielState::deciding_players() const {
  std::vector<int> out;
  if (where_ != Where::Decision) return out;
  for (Seat s : match_->pending_seats()) out.push_back(s.value());
  return out;
}

int SpielState::current_player_for_actions() const {
  const int p = current_player();
  if (p == kSimultaneousPlayer)
    throw SpielUsageError("a simultaneous decision: ask legal_actions(player) of each deciding seat");
  return p;
}

void SpielState::check_player(int player) const {
  if (player == kChancePlayer || (player >= 0 && player < players_)) return;
  throw SpielUsageError(fmt::format("player {} is not a seat of this {}-player game (0..{}) nor the chance player (-1)",
                                    player, players_, players_ - 1));
}

int SpielState::option_count(Seat seat) const {
  Match& m = *match_;
  return m.decide_pending(seat, [](const Decision& d) { return d.count(); });
}

std::vector<int> SpielState::legal_actions(int player) const {
  std::vector<int> out;
  if (player == kTerminalPlayer) return out;
  check_player(player);
  int n = 0;
  if (player == kChancePlayer) {
    if (where_ == Where::Chance) n = chance_->next().outcomes();
  } else if (where_ == Where::Decision) {
    const auto seats = match_->pending_seats();
    if (std::find(seats.begin(), seats.end(), Seat{player}) != seats.end()) {
      std::lock_guard<std::mutex> lock(game_->engine_lock());
      n = option_count(Seat{player});
    }
  }
  out.resize(n);
  for (int i = 0; i < n; ++i) out[i] = i;
  return out;
}

std::vector<std::pair<int, double>> SpielState::chance_outcomes() const {
  if (where_ != Where::Chance) throw SpielUsageError("not a chance node: chance_outcomes() has nothing to give");
  const int n = chance_->next().outcomes();
  std::vector<std::pair<int, double>> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.emplace_back(i, 1.0 / n);
  return out;
}

std::string SpielState::action_to_string(int player, int action) const {
  check_player(player);
  if (player == kChancePlayer) {
    if (where_ != Where::Chance) throw SpielUsageError("not a chance node: no chance outcome to name");
    const auto& node = chance_->next();
    if (action < 0 || action >= node.outcomes())
      throw SpielUsageError(fmt::format("chance outcome {} is not in 0..{}", action, node.outcomes() - 1));
    return node.labels[action];
  }
  const auto seats = deciding_players();
  if (std::find(seats.begin(), seats.end(), player) == seats.end())
    throw SpielUsageError(fmt::format("player {} has no decision to name an action of", player));
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  std::string label;
  match_->decide_pending(Seat{player}, [&](const Decision& d) {
    if (action < 0 || action >= d.count())
      throw SpielUsageError(fmt::format("action {} is not an option of \"{}\" (0..{})", action, d.prompt(), d.count() - 1));
    label = d.label(action);
    return 0;
  });
  return label;
}

std::string SpielState::prompt(int player) const {
  check_player(player);
  if (player == kChancePlayer) {
    if (where_ != Where::Chance) return "";
    return chance_->next().kind == ChanceNode::Kind::Roll ? "roll" : "shuffle draw";
  }
  const auto seats = deciding_players();
  if (std::find(seats.begin(), seats.end(), player) == seats.end()) return "";
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  Match& m = *match_;
  std::string text;
  m.decide_pending(Seat{player}, [&](const Decision& d) {
    text = d.prompt();
    return 0;
  });
  return text;
}

void SpielState::apply_action(int action) {
  const int player = current_player();
  if (player == kTerminalPlayer) throw SpielUsageError("the game is over: no action applies");
  if (player == kSimultaneousPlayer)
    throw SpielUsageError("a simultaneous decision: give every deciding seat's action with apply_actions");
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  if (player == kChancePlayer) {
    const int n = chance_->next().outcomes();
    if (action < 0 || action >= n)
      throw SpielUsageError(fmt::format("chance outcome {} is not in 0..{}", action, n - 1));
    steps_.push_back({Seat::none(), action, 0});
    try {
      rebuild();
    } catch (...) {
      steps_.pop_back();
      rebuild();
      throw;
    }
    return;
  }
  const Seat seat{player};
  const int n = option_count(seat);
  if (action < 0 || action >= n)
    throw SpielUsageError(fmt::format("action {} is not legal for player {} (0..{})", action, player, n - 1));
  steps_.push_back({seat, action, 0});
  try {
    advance([&] { return match_->answer(seat, action); });
  } catch (...) {
    steps_.pop_back();  // the failed run is gone: play again to where the state was
    rebuild();
    throw;
  }
}

void SpielState::apply_actions(const std::vector<int>& actions) {
  if (!is_simultaneous_node()) {
    const int p = current_player();
    if (p >= 0 && actions.size() == static_cast<size_t>(players_)) {
      apply_action(actions[p]);
      return;
    }
    if (actions.size() == 1) {
      apply_action(actions.front());
      return;
    }
    throw SpielUsageError(fmt::format("apply_actions wants one action per seat ({}), or one action", players_));
  }
  if (actions.size() != static_cast<size_t>(players_))
    throw SpielUsageError(fmt::format("apply_actions wants one action per seat: {} for a {}-player game",
                                      actions.size(), players_));
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  const auto seats = match_->pending_seats();
  for (Seat s : seats) {
    const int n = option_count(s);
    const int a = actions[s.index()];
    if (a < 0 || a >= n) throw SpielUsageError(fmt::format("action {} is not legal for player {} (0..{})", a, s, n - 1));
  }
  const size_t before = steps_.size();
  ++togethers_;
  for (Seat s : seats) steps_.push_back({s, actions[s.index()], togethers_});
  try {
    for (Seat s : seats) advance([&] { return match_->answer(s, actions[s.index()]); });
  } catch (...) {
    steps_.resize(before);
    --togethers_;
    rebuild();
    throw;
  }
}

std::vector<double> SpielState::returns() const {
  std::vector<double> out(players_, 0.0);
  if (where_ != Where::Terminal) return out;
  const GameResult& r = match_->result();
  for (Seat s : Seat::all(players_)) out[s.index()] = seat_payoff(r, s);
  return out;
}

std::vector<int> SpielState::history() const {
  std::vector<int> out;
  out.reserve(steps_.size());
  for (const Step& s : steps_) out.push_back(s.action);
  return out;
}

std::string SpielState::information_state_string(int player) const {
  check_player(player);
  if (player == kChancePlayer) throw SpielUsageError("the chance player has no information state");
  return fmt::format("seat {}\n{}", player, streams_.of(Seat{player}));
}

std::string SpielState::observation_string(int player) const {
  check_player(player);
  if (player == kChancePlayer) throw SpielUsageError("the chance player has no observation");
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  return match_->view(Seat{player}).dump();
}

std::string SpielState::to_string() const {
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  return match_->view(Seat::none()).dump();
}

std::unique_ptr<SpielState> SpielState::clone() const {
  if (chance_mode_ == ChanceMode::Explicit || where_ != Where::Decision || world_)
    return std::make_unique<SpielState>(game_, seed_, chance_mode_, steps_, world_);
  // Sampled chance, at a decision: the match's own fork (a replay that
  // builds no labels), and what each seat was told so far copied over.
  auto copy = std::make_unique<SpielState>(game_, seed_, chance_mode_, Forked{});
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  copy->steps_ = steps_;
  copy->togethers_ = togethers_;
  copy->where_ = where_;
  copy->match_ = match_->fork();
  copy->streams_ = streams_;
  copy->match_->add_sink(&copy->streams_);
  return copy;
}

void SpielState::play_steps(const std::vector<Step>& steps) {
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  steps_ = steps;
  togethers_ = 0;
  for (const Step& s : steps_) togethers_ = std::max(togethers_, s.together);
  try {
    rebuild();
  } catch (const ScriptError&) {
    throw;  // the rules failed while replaying: their message as it is
  } catch (const std::exception& e) {
    if (steps_.empty()) throw;
    steps_.clear();
    togethers_ = 0;
    rebuild();
    throw SpielUsageError(std::string("these steps do not fit the game: ") + e.what());
  }
}

namespace {

// Stops the sampler's world where the seat decides: it got there, checked.
class StopAtTheDecision : public SimulationPolicy {
 public:
  int choose(const Decision&, GameState&) override { throw SearchCutoff(); }
};

}  // namespace

std::unique_ptr<SpielState> SpielState::resample_from_infostate(int player, uint64_t seed) const {
  check_player(player);
  if (player == kChancePlayer) throw SpielUsageError("the chance player has no information state to resample");
  if (chance_mode_ == ChanceMode::Explicit)
    throw SpielUsageError("resample_from_infostate samples states with chance drawn from a seed (chance=\"sampled\")");
  if (world_) throw SpielUsageError("resample the game's own state, not a resampled one");
  const auto deciding = deciding_players();
  if (deciding.size() != 1 || deciding.front() != player)
    throw SpielUsageError(fmt::format("resample_from_infostate({}) samples at a decision of player {} alone, as the bots do",
                                      player, player));
  const Seat seat{player};
  // What the seat's agent would have received: its redacted events, but
  // the game's start, which comes before agents listen.
  std::vector<json> observed;
  for (size_t from = 0, to; (to = streams_.of(seat).find('\n', from)) != std::string::npos; from = to + 1) {
    json event = json::parse(streams_.of(seat).substr(from, to - from));
    if (event.value("type", "") != "game_start") observed.push_back(std::move(event));
  }
  std::vector<std::string> labels;
  {
    std::lock_guard<std::mutex> lock(game_->engine_lock());
    labels = match_->pending(seat).labels;
  }
  // The bots' sampler, on engines of its own: it replays the game for the
  // seat from how it began and the answers given, and draws what the seat
  // never observed from `seed`'s stream alone.
  Determinizer sampler(game_->definition_ptr(), game_->engine().limits());
  sampler.prepare(*match_, seat, observed, labels);
  Rng rng;
  rng.reseed(seed, kAgentStream);
  constexpr int kDraws = 1000;
  for (int draw = 0; draw < kDraws; ++draw) {
    Sample sample = sampler.sample(rng);
    // The world plays a hint's deal from the start: every deal is checked
    // there (a bot checks a sample of them, Sample::checked).
    sample.checked = true;
    const uint64_t chance_seed = rng.next();
    StopAtTheDecision stop;
    const auto outcome = sampler.simulate(sample, chance_seed, stop);
    if (outcome == Determinizer::Outcome::Rejected) continue;  // it showed the seat something else: draw again
    if (outcome != Determinizer::Outcome::Cutoff)
      throw std::runtime_error(fmt::format("the sampler's world did not reach player {}'s decision", player));
    auto world = std::make_shared<World>();
    world->start_identities = sample.dealt;
    if (sample.dealt.empty()) world->identities = sample.identities;
    world->faces = sample.faces;
    world->chance_seed = chance_seed;
    std::vector<Step> steps;
    for (const Step& s : steps_)
      if (!s.seat.is_none()) steps.push_back(s);
    world->at = steps.size();
    for (const auto& [at, index] : sample.answers) steps.at(at).action = index;
    return std::make_unique<SpielState>(game_, seed_, chance_mode_, steps, std::move(world));
  }
  throw std::runtime_error(fmt::format("no state player {} cannot tell apart turned up in {} draws", player, kDraws));
}

std::string SpielState::serialize() const {
  if (world_)
    throw SpielUsageError("a resampled state is no game's log (what the player never saw was exchanged mid-game)");
  // The events from the start, which the state does not keep: one more replay.
  SpielState& self = const_cast<SpielState&>(*this);
  EventRecorder everything;
  std::lock_guard<std::mutex> lock(game_->engine_lock());
  self.rebuild(&everything);
  std::vector<AnswerRecord> answers;
  std::vector<int> outcomes;
  for (const Step& s : steps_) {
    if (s.seat.is_none()) outcomes.push_back(s.action);
    else answers.push_back({s.seat, s.action, s.together});
  }
  GameSpec spec = game_->spec();
  spec.seed = seed_;
  static const GameResult unfinished;
  json log = make_log(spec, match_->state(), where_ == Where::Terminal ? match_->result() : unfinished, answers,
                      everything.events(), std::vector<std::string>(players_, "python"));
  if (where_ != Where::Terminal) log.erase("result");
  log.erase("agents");  // answered from Python: no agent kind replay would know
  if (chance_mode_ == ChanceMode::Explicit) log["chance"] = outcomes;
  // The recorder goes now; the match plays on with the seats' streams only.
  self.match_->clear_sinks();
  self.match_->add_sink(&self.streams_);
  return dump_log(log);
}

}  // namespace rulebook::spiel
