#pragma once
// Agents answer decisions. The interface is all a future search bot or an
// external bot needs: a new game begins, events it may see arrive, a
// decision asks for an option index.
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decision.hpp"
#include "core/rng.hpp"

namespace rulebook {

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string kind() const = 0;
  // A new game starts; `seed` is the game's seed, `seat` the agent's seat.
  virtual void begin_game(uint64_t /*seed*/, int /*seat*/) {}
  // Returns an index in [0, decision.count()). May throw AgentError.
  virtual int choose(const Decision& decision) = 0;
  // Agents that want them receive every event their seat may see, as
  // JSON already redacted for that seat (see event_json in game_log.hpp).
  virtual bool wants_events() const { return false; }
  virtual void observe(const nlohmann::json& /*event*/) {}
};

struct AgentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Uniform over the options, each decision independent; its own stream.
class RandomAgent : public Agent {
 public:
  std::string kind() const override { return "random"; }
  void begin_game(uint64_t seed, int seat) override {
    rng_.reseed(Rng::mix(seed, static_cast<uint64_t>(seat)), kAgentStream);
  }
  int choose(const Decision& d) override { return static_cast<int>(rng_.below(static_cast<uint32_t>(d.count()))); }

 private:
  Rng rng_;
};

class FirstAgent : public Agent {
 public:
  std::string kind() const override { return "first"; }
  int choose(const Decision&) override { return 0; }
};

// Answers from a list: each answer is an option label or a 1-based number.
class ScriptedAgent : public Agent {
 public:
  explicit ScriptedAgent(std::vector<std::string> answers, std::string source = "answers")
      : answers_(std::move(answers)), source_(std::move(source)) {}
  static std::unique_ptr<ScriptedAgent> from_file(const std::string& path);
  std::string kind() const override { return "scripted"; }
  void begin_game(uint64_t, int) override { next_ = 0; }
  int choose(const Decision& d) override;
  size_t remaining() const { return answers_.size() - next_; }

 private:
  std::vector<std::string> answers_;
  std::string source_;
  size_t next_ = 0;
};

// A numbered menu on a terminal, showing the player's view.
class HumanAgent : public Agent {
 public:
  HumanAgent(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
  std::string kind() const override { return "human"; }
  int choose(const Decision& d) override;
  // Called before the menu is shown (the CLI flushes its narration).
  void set_before_prompt(std::function<void()> fn) { before_prompt_ = std::move(fn); }

 private:
  std::istream& in_;
  std::ostream& out_;
  std::function<void()> before_prompt_;
};

// "random", "first", "human", "scripted:FILE"; throws AgentError.
std::unique_ptr<Agent> make_agent(const std::string& spec, std::istream& in, std::ostream& out);

// Matches an answer (label, case-insensitive, or 1-based number) to an option.
int match_answer(const Decision& d, const std::string& answer);

}  // namespace rulebook
