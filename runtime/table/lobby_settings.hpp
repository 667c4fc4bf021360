#pragma once
// A lobby client's "set" is the game's options, as the lobby's page offers
// them, and nothing else: `--set` on the command line may change any key of
// a game (its script, its players, its components), but a request from the
// network names a declared option and gives it a value of the option's own
// kind. The game's option_schema then checks the value as for --set.
#include <string>
#include <vector>

#include "table/lobby.hpp"

namespace rulebook {

// The longest VALUE a request may give one option, in bytes.
constexpr size_t kMaxLobbyOptionBytes = 1000;

// Each "options.NAME=VALUE" of `sets` checked against the game's options:
// NAME one of them and given once; VALUE read as YAML (as --set reads it),
// of the default's JSON kind (a whole number for a whole-number option, any
// number for a fractional one, true/false, a list, a mapping), or taken as
// the text itself for a text option. Returned as "options.NAME=JSON", what
// load_game is given. Anything else -- another key, a path, a removal, a
// value of another kind or too long -- throws LobbyError (malformed).
std::vector<std::string> checked_option_sets(const std::vector<std::string>& sets, const LobbyGame& game);

}  // namespace rulebook
