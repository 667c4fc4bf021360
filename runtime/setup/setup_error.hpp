#pragma once
// SetupError (a problem with a game folder, variant, scenario or --set,
// already formatted as "file:line:col: error: ..."; exit code 2) is declared
// with the YAML reader that raises most of them.
#include "setup/yaml_source.hpp"
