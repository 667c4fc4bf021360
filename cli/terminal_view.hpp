#pragma once
// Drawing a seat's view on a terminal, for the human menu: presentation,
// so it lives with the command line, not in the runtime.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace rulebook::cli {

// A board as a grid: each cell shows its top component's face ("?" when
// hidden, "." when empty), with an arrow for a piece's facing.
void print_board(std::ostream& out, const std::string& name, const nlohmann::json& cells);

// Compact rendering of a view (observation/view.hpp) for the human menu.
void print_view(std::ostream& out, const nlohmann::json& view);

}  // namespace rulebook::cli
