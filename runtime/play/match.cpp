#include "play/match.hpp"

#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "play/log_file.hpp"
#include "play/position_service.hpp"

namespace rulebook {

Match::Match(std::shared_ptr<const GameDefinition> definition, RuleEngine& engine)
    : definition_(std::move(definition)), engine_(&engine), state_(*definition_) {}

Match::Match(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits)
    : definition_(std::move(definition)),
      owned_engine_(std::make_unique<RuleEngine>(definition_, limits)),
      engine_(owned_engine_.get()),
      state_(*definition_) {}

Match::~Match() { run_.reset(); }  // before the engine it runs on

void Match::set_agent(Seat seat, Agent* agent) {
  if (seat.is_none()) throw std::out_of_range(fmt::format("no seat {}", seat));
  if (agents_.size() <= seat.index()) agents_.resize(seat.index() + 1, nullptr);
  agents_[seat.index()] = agent;
}

void Match::set_agent(Seat seat, std::unique_ptr<Agent> agent) {
  set_agent(seat, agent.get());
  owned_agents_.push_back(std::move(agent));
}

void Match::set_agents(const std::vector<Agent*>& agents) { agents_ = agents; }

void Match::add_sink(EventSink* sink) {
  if (sink) sinks_.push_back(sink);
}

void Match::clear_sinks() { sinks_.clear(); }

void Match::set_chance_override(ChanceOverride* chance) { chance_ = chance; }
void Match::set_turn_limit(int turns) { settings_.turn_limit = turns; }
void Match::set_keep_details(bool on) { settings_.keep_details = on; }
void Match::record_answers(bool on) { record_answers_ = on; }
void Match::set_bare_requests(bool on) {
  settings_.bare_requests = on;
  if (run_) run_->set_bare_requests(on);
}
void Match::hand_over(const std::vector<Agent*>& agents) { run().hand_over(agents); }

void Match::set_start_identities(std::vector<int> source) {
  if (!source.empty() && static_cast<int>(source.size()) != state_.component_count())
    throw std::invalid_argument(fmt::format("{} start identities for {} components", source.size(), state_.component_count()));
  start_identities_ = std::move(source);
}

void Match::set_prepare(const std::string& code, const std::string& chunk_name, bool at_first_turn) {
  engine_->check_prepare(code, chunk_name);  // a syntax error shows now, before any game
  settings_.prepare = GamePrepare{code, chunk_name, at_first_turn};
}

bool Match::start(int players, uint64_t seed, std::vector<std::string> names) {
  run_.reset();
  answers_.clear();
  // Nobody listening: no sink at all, so the game builds no events.
  if (sinks_.empty()) {
    state_.set_sink(nullptr);
  } else if (sinks_.size() == 1) {
    state_.set_sink(sinks_.front());
  } else {
    tee_ = EventTee();
    for (auto* sink : sinks_) tee_.add(sink);
    state_.set_sink(&tee_);
  }
  state_.set_chance_override(chance_);
  players_ = players;
  seed_ = seed;
  names_ = names;
  state_.reset(players, seed, std::move(names));
  for (size_t id = 0; id < start_identities_.size(); ++id) {
    const int type = definition_->component_type[static_cast<size_t>(start_identities_[id])];
    Component& c = state_.mutable_component(ComponentId{static_cast<int>(id)});
    c.type = type;
    c.face = definition_->start_face(start_identities_[id]);  // its own copy's (faces in order)
  }
  std::vector<Agent*> seats = agents_;
  seats.resize(static_cast<size_t>(players), nullptr);
  if (info_players_ != players || info_names_ != names_) {
    info_ = seat_protocol::game_info(state_);
    info_players_ = players;
    info_names_ = names_;
  }
  for (Agent* agent : seats)
    if (agent) agent->prepare_game(info_);
  // Searching agents replay the answers given so far: keep them.
  bool searching = false;
  for (Agent* agent : seats)
    if (agent && agent->wants_game_access()) {
      agent->attach(&access_);
      searching = true;
    }
  run_ = std::make_unique<GameRun>(*engine_, state_, std::move(seats), settings_);
  run_->set_answer_log(record_answers_ || searching ? &answers_ : nullptr);
  return after_run(run_->begin());
}

bool Match::answer(int index) { return after_run(run().answer(index)); }
bool Match::answer(Seat seat, int index) { return after_run(run().answer(seat, index)); }

bool Match::after_run(bool pending) {
  if (pending) return true;
  nlohmann::json result;
  for (size_t seat = 0; seat < agents_.size() && seat < static_cast<size_t>(state_.player_count()); ++seat) {
    Agent* agent = agents_[seat];
    if (!agent || !agent->wants_events()) continue;
    if (result.is_null()) result = result_json(state_, run_->result());
    agent->end_game(result);
  }
  return false;
}

const GameResult& Match::play(int players, uint64_t seed, std::vector<std::string> names) {
  for (Seat seat : Seat::all(players))
    if (seat.index() >= agents_.size() || !agents_[seat.index()])
      throw std::invalid_argument(fmt::format("no agent for seat {}", seat));
  start(players, seed, std::move(names));
  return run_->result();
}

GameRun& Match::run() const {
  if (!run_) throw std::logic_error("the match has no game yet");
  return *run_;
}

std::unique_ptr<Match> Match::fork() const {
  if (!run_) throw std::logic_error("the match has no game yet");
  if (!record_answers_) throw std::logic_error("forking needs the answers: call record_answers() before start()");
  if (chance_) throw std::logic_error("a game with forced chance cannot be forked (the override is used up as it plays)");
  auto fork = std::make_unique<Match>(definition_, *engine_);
  fork->settings_.turn_limit = settings_.turn_limit;
  fork->settings_.prepare = settings_.prepare;
  fork->record_answers();
  const std::vector<AnswerRecord> answers = answers_;  // this match's log, as it stands now
  try {
    bring_to(*fork, ReplayStart{players_, seed_, names_}, answers, answers.size());
  } catch (const ReplayMismatch& e) {
    throw std::logic_error(fmt::format("the fork left the game ({}): the rules are not deterministic", e.what()));
  }
  return fork;
}

TrueGame::Beginning Match::beginning() const {
  Beginning b;
  b.players = state_.player_count();
  b.seed = state_.seed();
  for (const auto& p : state_.players()) b.names.push_back(p.name);
  b.prepare_code = settings_.prepare.code;
  b.prepare_chunk = settings_.prepare.chunk_name;
  b.prepare_at_first_turn = settings_.prepare.at_first_turn;
  return b;
}

std::vector<int> Match::true_identities() const {
  // The start identity of each component, read from the true game (its
  // type, matched to a component of that type: an oracle's privilege).
  std::vector<int> source(static_cast<size_t>(state_.component_count()));
  std::map<int, std::vector<int>> of_type;
  for (int id = state_.component_count() - 1; id >= 0; --id)
    of_type[definition_->component_type[static_cast<size_t>(id)]].push_back(id);
  for (ComponentId id : ComponentId::all(state_.component_count())) {
    auto& pool = of_type[state_.component(id).type];
    source[id.index()] = pool.empty() ? id.value() : pool.back();
    if (!pool.empty()) pool.pop_back();
  }
  return source;
}

void Match::save(GameCheckpoint& into) { run().save(into); }
void Match::restore(const GameCheckpoint& from) { run().restore(from); }
int Match::decide_pending(Seat seat, const std::function<int(const Decision&)>& decide) {
  return run().decide_pending(seat, decide);
}

const DecisionRequest& Match::pending() const { return run().pending(); }
const DecisionRequest& Match::pending(Seat seat) const { return run().pending(seat); }
Seat Match::pending_seat() const { return run().pending_seat(); }
std::vector<Seat> Match::pending_seats() const { return run().pending_seats(); }
void Match::pending_seats(std::vector<Seat>& into) const { run().pending_seats(into); }
std::vector<AnswerRecord> Match::together_answers() const {
  return run_ ? run_->together_answers() : std::vector<AnswerRecord>{};
}
const GameResult& Match::result() const { return run().result(); }
nlohmann::json Match::view(Seat seat) const { return run().view(seat); }
nlohmann::json Match::evaluate(const std::string& expression, const std::string& chunk_name) {
  return run().evaluate(expression, chunk_name);
}

std::optional<double> Match::evaluation(Seat seat) { return run().evaluation(seat); }
std::optional<std::vector<double>> Match::evaluations() { return run().evaluations(); }
std::vector<int> Match::deal_unseen(Seat seat, const std::vector<int>& unseen, uint64_t stream_seed) {
  return run().deal_unseen(seat, unseen, stream_seed);
}

}  // namespace rulebook
