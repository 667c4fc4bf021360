#include "observation/unseen_identities.hpp"

#include <map>
#include <string>
#include <utility>

namespace rulebook {

ExchangedIdentities exchange_unseen_identities(const GameDefinition& def, const std::function<bool(int)>& unseen,
                                               Rng& rng) {
  std::map<std::pair<std::string, std::string>, std::vector<int>> groups;
  for (int id = 0; id < def.component_count(); ++id) {
    const ComponentType& t = def.types[static_cast<size_t>(def.component_type[static_cast<size_t>(id)])];
    if (!t.zone.empty() && unseen(id)) groups[{t.kind, t.zone}].push_back(id);
  }
  ExchangedIdentities out;
  out.identities.resize(static_cast<size_t>(def.component_count()));
  for (size_t i = 0; i < out.identities.size(); ++i) out.identities[i] = static_cast<int>(i);
  for (auto& [key, ids] : groups) {
    std::vector<int> drawn = ids;
    for (size_t i = drawn.size(); i > 1; --i) std::swap(drawn[i - 1], drawn[rng.below(static_cast<uint32_t>(i))]);
    for (size_t k = 0; k < ids.size(); ++k) {
      out.identities[static_cast<size_t>(ids[k])] = drawn[k];
      out.changed |= def.component_type[static_cast<size_t>(ids[k])] != def.component_type[static_cast<size_t>(drawn[k])];
    }
  }
  return out;
}

}  // namespace rulebook
