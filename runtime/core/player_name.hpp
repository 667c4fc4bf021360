#pragma once
// What may name a player when the name comes from outside (a lobby's
// network client): it is printed on the operator's terminal, every page
// and every log, so it is short, valid UTF-8 and free of control
// characters. (Names from the command line are the user's own.)
#include <cstddef>
#include <string>
#include <string_view>

namespace rulebook {

// The longest name, in characters (code points).
constexpr std::size_t kMaxPlayerNameLength = 64;

// Why `name` cannot name a player ("is longer than 64 characters", "holds
// a control character (U+001B)", "is not valid UTF-8"), or "" when it can.
// An empty name is allowed: it means the game's default name.
std::string player_name_problem(std::string_view name);

}  // namespace rulebook
