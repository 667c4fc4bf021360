#include "agents/external_seat.hpp"

#include <fmt/format.h>

namespace rulebook {

ExternalSeat::ExternalSeat(std::unique_ptr<SeatTransport> transport, std::string name,
                           std::chrono::milliseconds timeout)
    : transport_(std::move(transport)), name_(std::move(name)), timeout_(timeout) {}

void ExternalSeat::fail(const std::string& what) const {
  throw AgentFailure(fmt::format("seat {} ({}): {}", seat_, name_, what));
}

void ExternalSeat::send(const nlohmann::json& message) {
  if (broken_) return;
  try {
    transport_->send(message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                     SeatTransport::Clock::now() + timeout_);
  } catch (const TransportFault& e) {
    broken_ = true;
    fail(e.what());
  }
}

void ExternalSeat::begin_game(uint64_t stream_seed, Seat seat) {
  seat_ = seat;
  decisions_ = 0;
  broken_ = false;
  asked_ = false;
  try {
    transport_->open();
  } catch (const TransportFault& e) {
    broken_ = true;
    fail(e.what());
  }
  send(seat_protocol::hello(game_, seat, stream_seed));
}

void ExternalSeat::observe(const nlohmann::json& event) { send(seat_protocol::event(event)); }

void ExternalSeat::ask(const DecisionRequest& request, int number) {
  // A line sent before the question would be taken as its answer.
  if (transport_->has_unread())
    fail(fmt::format("wrote to its output before decision {} was asked (only answers may be written)", number));
  send(seat_protocol::decide(request, number));
}

void ExternalSeat::asked_together(const Decision& decision) {
  const int number = ++decisions_;
  const DecisionRequest request = decision.request();
  ask(request, number);
  asked_ = true;
  asked_prompt_ = request.prompt;
  asked_count_ = request.count();
}

int ExternalSeat::choose(const Decision& decision) {
  std::string prompt;
  int count;
  if (asked_) {  // its question went out with the others' (asked_together)
    asked_ = false;
    prompt = asked_prompt_;
    count = asked_count_;
  } else {
    const DecisionRequest request = decision.request();
    ask(request, ++decisions_);
    prompt = request.prompt;
    count = request.count();
  }
  const int number = decisions_;
  std::string line;
  try {
    line = transport_->receive(SeatTransport::Clock::now() + timeout_);
  } catch (const TransportFault& e) {
    broken_ = true;
    fail(fmt::format("{} (decision {}: \"{}\")", e.what(), number, prompt));
  }
  const seat_protocol::Answer answer = seat_protocol::parse_answer(line, count, number);
  if (!answer.ok()) {
    broken_ = true;
    fail(fmt::format("bad answer to decision {} (\"{}\"): {}", number, prompt, answer.error));
  }
  return answer.index;
}

void ExternalSeat::end_game(const nlohmann::json& result) { send(seat_protocol::end(result)); }

void ExternalSeat::taken_back(int kept_decisions, const nlohmann::json& view) {
  decisions_ = kept_decisions;
  asked_ = false;
  send(seat_protocol::undo(kept_decisions + 1, view));
}

}  // namespace rulebook
