#pragma once
// A decision: one player chooses one of an enumerated list of options.
// Labels and the player's view are produced lazily, only for agents that
// look at them (a random bot never does), so decisions cost no strings.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace rulebook {

class Decision {
 public:
  using LabelFn = std::function<std::string(int)>;
  using ViewFn = std::function<nlohmann::json()>;

  Decision(int seat, const char* prompt, int count, const LabelFn* label, const ViewFn* view)
      : seat_(seat), prompt_(prompt), count_(count), label_(label), view_(view) {}

  int seat() const { return seat_; }
  const char* prompt() const { return prompt_; }
  int count() const { return count_; }
  std::string label(int i) const { return (*label_)(i); }
  nlohmann::json view() const { return (*view_)(); }

 private:
  int seat_;
  const char* prompt_;
  int count_;
  const LabelFn* label_;
  const ViewFn* view_;
};

}  // namespace rulebook
