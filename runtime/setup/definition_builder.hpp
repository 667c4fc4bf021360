#pragma once
// Builds the immutable GameDefinition from a merged, schema-validated game
// document: the reading of JSON belongs to setup, core keeps the data.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game_definition.hpp"

namespace rulebook {

// Names where a JSON pointer of the document was written ("file:line:col").
using DefinitionLocator = std::function<std::string(const std::string& pointer)>;

// Throws SetupError naming the file location on a semantic error
// (duplicate names, unknown zone references, ...); without `locate` errors
// name dir/game.yaml.
GameDefinition build_game_definition(const nlohmann::json& setup, const std::string& dir,
                                     std::vector<VariantInfo> variants, const DefinitionLocator& locate = nullptr);

}  // namespace rulebook
