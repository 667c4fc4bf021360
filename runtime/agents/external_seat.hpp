#pragma once
// A seat answered from outside the process: the seat protocol
// (seat_protocol.hpp) over a transport. The transport only carries lines
// -- a child process's stdin/stdout (exec_transport.hpp), a web
// connection -- and the seat does the rest: hello at each game, the events
// the seat may see, each decision and its answer, the end. Whatever the
// transport, a fault (no answer in time, the other side gone, a line that
// is not an answer) ends the game as an AgentFailure naming the seat and
// what it did.
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "agents/agent.hpp"
#include "agents/seat_protocol.hpp"

namespace rulebook {

// The other side of a transport misbehaved or is gone; what() says what it
// did ("exited with status 3", "sent no line within 10 s").
struct TransportFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SeatTransport {
 public:
  using Clock = std::chrono::steady_clock;
  virtual ~SeatTransport() = default;
  // Called before each game's hello (a process is started the first time).
  virtual void open() {}
  // Sends one message as one line; throws TransportFault.
  virtual void send(const std::string& line, Clock::time_point deadline) = 0;
  // The next line from the other side, without its newline; throws
  // TransportFault, on a timeout too.
  virtual std::string receive(Clock::time_point deadline) = 0;
  // Whether a line (or part of one) arrived that nobody asked for.
  virtual bool has_unread() { return false; }
};

class ExternalSeat : public Agent {
 public:
  // `name` says who this is in messages ("exec:python3 bot.py").
  ExternalSeat(std::unique_ptr<SeatTransport> transport, std::string name,
               std::chrono::milliseconds timeout = std::chrono::seconds(10));
  void set_timeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }

  std::string kind() const override { return name_; }
  void prepare_game(const seat_protocol::GameInfo& game) override { game_ = game; }
  void begin_game(uint64_t stream_seed, Seat seat) override;
  int choose(const Decision& decision) override;
  // A simultaneous decision: the question goes out now, the answer is read
  // in choose() (so every seat of the group thinks at the same time).
  void asked_together(const Decision& decision) override;
  bool wants_events() const override { return true; }
  void observe(const nlohmann::json& event) override;
  void end_game(const nlohmann::json& result) override;
  void taken_back(int kept_decisions, const nlohmann::json& view) override;
  // Decisions asked of this seat in the current game.
  int decisions() const { return decisions_; }

 private:
  void send(const nlohmann::json& message);
  [[noreturn]] void fail(const std::string& what) const;

  std::unique_ptr<SeatTransport> transport_;
  std::string name_;
  std::chrono::milliseconds timeout_;
  seat_protocol::GameInfo game_;
  Seat seat_;
  int decisions_ = 0;
  bool broken_ = false;  // a fault happened: nothing more is sent
  bool asked_ = false;   // the decide of the decision choose() reads is out (asked_together)
  std::string asked_prompt_;
  int asked_count_ = 0;
  // Sends decide number `number`, checking that nothing was written before it.
  void ask(const DecisionRequest& request, int number);
};

}  // namespace rulebook
