#pragma once
// Runs the real rulebook binary for CLI tests.
#include <string>

namespace rulebook::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs RULEBOOK_BINARY with `args` (a shell-quoted string), stdin from
// `input` (empty: /dev/null), in the repository root, NO_COLOR set.
CommandResult run_rulebook(const std::string& args, const std::string& input = "");

// A fresh empty folder under the system temp folder.
std::string temp_folder(const std::string& name);
void write_file(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);

}  // namespace rulebook::test
