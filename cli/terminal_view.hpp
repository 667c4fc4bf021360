#pragma once
// Drawing a seat's view on a terminal, for the human menu: presentation,
// so it lives with the command line, not in the runtime.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/game_definition.hpp"

namespace rulebook::cli {

// A board as a grid: each cell shows its components ("?" when hidden, "."
// when empty) as the game's display declares them (a glyph; else the
// label), with an arrow for a piece's facing, and a legend of the glyphs.
void print_board(std::ostream& out, const std::string& name, const nlohmann::json& cells,
                 const GameDefinition* def = nullptr);

// Compact rendering of a view (observation/view.hpp) for the human menu:
// the rules' description (rules.describe, else game.state as fields), the
// zones with their components' labels, the boards. `def` gives the
// components' looks (game.yaml `display:`); without it, faces are shown.
void print_view(std::ostream& out, const nlohmann::json& view, const GameDefinition* def = nullptr);

}  // namespace rulebook::cli
