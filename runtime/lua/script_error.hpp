#pragma once
// The errors of rule scripts, as the engine reports them to C++.
#include <stdexcept>
#include <string>

#include "core/safe_text.hpp"

namespace rulebook {

// A rule script failed: message names the file and line, with a traceback.
// Its text is valid UTF-8 whatever the script's strings were (a message
// reaches JSON: --json, a table's page, the lobby's list).
struct ScriptError : std::runtime_error {
  explicit ScriptError(const std::string& message) : std::runtime_error(to_valid_utf8(message)) {}
};
// A rule script ran over a limit (its time or instruction budget, its
// memory cap): a ScriptError that cost the whole budget to find.
struct ScriptLimitError : ScriptError {
  using ScriptError::ScriptError;
};

}  // namespace rulebook
