#pragma once
// Runs the real rulebook binary for CLI tests (the suite that defines
// RULEBOOK_BINARY: tests/unit/cli/).
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "files.hpp"

namespace rulebook::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs RULEBOOK_BINARY with `args` (a shell-quoted string), stdin from
// `input` (empty: /dev/null), in the repository root, NO_COLOR set.
inline CommandResult run_rulebook(const std::string& args, const std::string& input = "") {
  const std::string dir = temp_folder("cmd");
  const std::string out = dir + "/out", err = dir + "/err", in = dir + "/in";
  write_file(in, input);
  const std::string command = "cd '" RULEBOOK_SOURCE_DIR "' && NO_COLOR=1 '" RULEBOOK_BINARY "' " + args +
                              " <'" + in + "' >'" + out + "' 2>'" + err + "'";
  const int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_text(out);
  r.err = read_text(err);
  std::filesystem::remove_all(dir);
  return r;
}

}  // namespace rulebook::test
