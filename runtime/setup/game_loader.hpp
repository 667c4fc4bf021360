#pragma once
// Finds game folders and builds immutable GameDefinitions from game.yaml,
// variants and --set overrides, validating every YAML file against the
// schemas before any Lua runs.
#include <memory>
#include <string>
#include <vector>

#include "core/game_definition.hpp"
#include "json/sourced_json.hpp"

namespace rulebook {

// Where bundled games and schemas live: $RULEBOOK_RULES / $RULEBOOK_SCHEMAS,
// else DATA/rules and DATA/schemas, DATA being what set_data_root chose
// (the command line finds its installed data) or the source tree the
// binary was built from.
std::string rules_root();
std::string schemas_root();
void set_data_root(const std::string& root);

// A game name ("coin-race") or a folder path ("./my/house-rules").
// Throws SetupError when neither exists.
std::string resolve_game_dir(const std::string& game);

// Names of the bundled games (folders of rules_root() with a game.yaml).
std::vector<std::string> list_games();

// Variants a game folder offers (variants/*.yaml), validated.
std::vector<VariantInfo> list_variants(const std::string& game_dir);

struct LoadOptions {
  std::vector<std::string> variants;  // names in variants/ or paths to .yaml files
  std::vector<std::string> sets;      // "path=value"
};

// Throws SetupError ("file:line:col: error: ...") on any problem.
std::shared_ptr<const GameDefinition> load_game(const std::string& game, const LoadOptions& options = {});

// Validates one YAML file of any kind (game, variant, scenario) by its
// place in a game folder; returns the errors (empty = valid).
// `kind` (one of file_kinds()) says what the file is; empty: told by its
// name (game.yaml, variants/, scenarios/, *.json) or else by its content.
std::vector<std::string> validate_file(const std::string& path, const std::string& kind = "");
const std::vector<std::string>& file_kinds();

// Validates a sourced document against a schema file in schemas_root();
// throws SetupError listing every problem.
void check_against(const SourcedJson& doc, const std::string& schema_file);

}  // namespace rulebook
