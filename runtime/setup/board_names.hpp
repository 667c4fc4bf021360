#pragma once
// Named squares: a board's `column_names` and `row_names` in game.yaml
// (a list of names, or letters / numbers counted from either edge) given to
// its geometry, so that narration, labels and answers say "a1".
#include <string>

#include <nlohmann/json.hpp>

#include "core/board_geometry.hpp"

namespace rulebook {

// Names the board's squares from its YAML object. Returns "" when it is
// fine (or names nothing), otherwise an error message and, in `pointer`,
// the key at fault ("/column_names").
std::string read_board_names(const nlohmann::json& board, BoardGeometry& geometry, std::string& pointer);

}  // namespace rulebook
