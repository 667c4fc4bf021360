#include "play/explicit_chance.hpp"

#include <fmt/format.h>

namespace rulebook {

void ExplicitChance::stop(ChanceNode node) {
  stopped_ = true;
  next_ = std::move(node);
  throw ChanceNodeReached();
}

bool ExplicitChance::forced_roll(const GameState& state, ComponentId die, int& face) {
  const auto& faces = state.type_of(die).faces;
  if (stopped_ || used_ >= outcomes_.size()) {
    ChanceNode node;
    node.kind = ChanceNode::Kind::Roll;
    node.die = die;
    node.zone = state.component(die).zone;
    node.labels = faces;
    stop(std::move(node));
  }
  const int outcome = outcomes_[used_];
  if (outcome < 0 || outcome >= static_cast<int>(faces.size()))
    throw std::out_of_range(fmt::format("chance outcome {} for a die of {} faces", outcome, faces.size()));
  ++used_;
  face = outcome;
  return true;
}

bool ExplicitChance::forced_shuffle(const GameState& state, int zone, std::vector<ComponentId>& items) {
  // Draw k picks, among the components not yet drawn (in their order before
  // the shuffle), the one that goes to position size-1-k (top first).
  std::vector<ComponentId> left = items;
  std::vector<ComponentId> drawn;
  drawn.reserve(items.size());
  while (left.size() > 1) {
    if (stopped_ || used_ >= outcomes_.size()) {
      ChanceNode node;
      node.kind = ChanceNode::Kind::ShuffleDraw;
      node.zone = zone;
      node.labels.reserve(left.size());
      for (ComponentId id : left) {
        const auto& type = state.type_of(id);
        const auto& face = state.face_name(id);
        node.labels.push_back(type.faces.size() > 1 ? fmt::format("{} {}", type.name, face) : type.name);
      }
      stop(std::move(node));
    }
    const int outcome = outcomes_[used_];
    if (outcome < 0 || outcome >= static_cast<int>(left.size()))
      throw std::out_of_range(fmt::format("chance outcome {} for a draw among {}", outcome, left.size()));
    ++used_;
    drawn.push_back(left[outcome]);
    left.erase(left.begin() + outcome);
  }
  if (!left.empty()) drawn.push_back(left.front());
  // items[0] is the bottom: the first drawn lies on top.
  items.assign(drawn.rbegin(), drawn.rend());
  return true;
}

}  // namespace rulebook
