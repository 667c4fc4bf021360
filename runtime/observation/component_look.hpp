#pragma once
// How a component looks at the terminal and the web table: game.yaml's
// `display:` style for its type and face, over sensible defaults (the
// type's title, its face when it has several, its `colour` attribute, the
// first letter of its label as a glyph). One place, so that both tables
// draw a game alike.
#include <string>

#include <nlohmann/json.hpp>

#include "core/game_definition.hpp"

namespace rulebook {

struct ComponentLook {
  std::string label;   // "hungry shark", "red cage/harpoon card"
  std::string colour;  // a CSS colour, or empty
  std::string glyph;   // a few characters for a board's cell
  std::string image;   // a file of the game's folder (relative), or empty
};

ComponentLook look_of(const GameDefinition& def, const std::string& type, const std::string& face);

// The text of a view's component (an object from observation/view): its
// label, or "?" when it is hidden from the seat.
std::string component_text(const GameDefinition* def, const nlohmann::json& component);

// rules.describe's lines and fields (a view's "describe"), or game.state
// as labelled fields when the rules declare no describe: text lines, each
// "label: value" or a plain line.
std::vector<std::string> glance_lines(const nlohmann::json& view);

}  // namespace rulebook
