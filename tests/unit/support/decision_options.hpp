#pragma once
// A decision over fixed labels, with a small view for the human menu.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/decision.hpp"

namespace rulebook::test {

struct Options {
  std::vector<std::string> labels;
  Decision::LabelFn label;
  Decision::ViewFn view;
  explicit Options(std::vector<std::string> l) : labels(std::move(l)) {
    label = [this](int i) { return labels.at(static_cast<size_t>(i)); };
    view = [] {
      return nlohmann::json{{"zones", {{"supply", {{"count", 2}, {"components", {{{"face", "panda"}}, {{"hidden", true}}}}}}}}};
    };
  }
  Decision decision(Seat seat = Seat{0}, const char* prompt = "Pick one") const {
    return Decision(seat, prompt, static_cast<int>(labels.size()), &label, &view);
  }
};

}  // namespace rulebook::test
