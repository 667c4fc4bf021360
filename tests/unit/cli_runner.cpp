#include "cli_runner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace rulebook::test {

std::string temp_folder(const std::string& name) {
  static std::atomic<int> counter{0};
  fs::path dir = fs::temp_directory_path() /
                 ("rulebook-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void write_file(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

CommandResult run_rulebook(const std::string& args, const std::string& input) {
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
  fs::remove_all(dir);
  return r;
}

}  // namespace rulebook::test
