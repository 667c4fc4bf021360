#pragma once
// The errors of rule scripts, as the engine reports them to C++.
#include <stdexcept>

namespace rulebook {

// A rule script failed: message names the file and line, with a traceback.
struct ScriptError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A rule script ran over a limit (its time or instruction budget, its
// memory cap): a ScriptError that cost the whole budget to find.
struct ScriptLimitError : ScriptError {
  using ScriptError::ScriptError;
};

}  // namespace rulebook
