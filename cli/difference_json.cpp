#include "cli/difference_json.hpp"

#include "cli/simulation_report.hpp"

namespace rulebook::cli {

nlohmann::json difference_json(const analysis::Difference& d) {
  return {{"difference", interval_json(d.interval)},
          {"significant", d.significant()},
          {"p_value", d.p_value},
          {"games_differing", d.games_differing},
          {"no_game_differed", d.no_game_differed()}};
}

}  // namespace rulebook::cli
