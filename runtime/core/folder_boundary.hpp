#pragma once
// A game folder is a boundary: a file that a game, a variant or a request
// names (game.yaml's `script`, a variant's `script`, a module `require`
// loads, the line a script error points at) is read only if, with every
// symbolic link resolved, it lies inside the folder. A symlink in the
// folder that points out of it, an absolute path or "../" reach nothing.
#include <string>

namespace rulebook {

// Whether `path`, symlinks resolved (std::filesystem::weakly_canonical: the
// part that does not exist yet is taken as written), lies inside `folder`
// (resolved too). A relative `path` is relative to the working folder, as
// when it is opened. False when either cannot be resolved.
bool inside_folder(const std::string& folder, const std::string& path);

}  // namespace rulebook
