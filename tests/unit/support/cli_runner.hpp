#pragma once
// Runs the real rulebook binary for CLI tests (the suite that defines
// RULEBOOK_BINARY: tests/unit/cli/).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

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

// Starts RULEBOOK_BINARY with `args` in a child process, in the repository
// root, its output written to the files `out` and `err`, SIGINT at its
// default (the tests signal it); returns the child's pid (the caller waits).
inline pid_t start_rulebook(const std::vector<std::string>& args, const std::string& out, const std::string& err) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(o, 1);
  dup2(e, 2);
  signal(SIGINT, SIG_DFL);
  if (chdir(RULEBOOK_SOURCE_DIR) != 0) _exit(99);
  std::vector<char*> argv{const_cast<char*>(RULEBOOK_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(RULEBOOK_BINARY, argv.data());
  _exit(98);
}

}  // namespace rulebook::test
