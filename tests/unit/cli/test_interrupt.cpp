// Ctrl-C during a batch, through the real binary: the command stops at the
// next game (configuration), prints what was played and exits 130
// (cli/interrupt.hpp; the runner itself: tests/unit/batch/test_batch.cpp).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"

using namespace rulebook;

namespace {

struct Interrupted {
  int exit_code = -1;
  std::string out, err;
};

// Starts the real binary, sends it SIGINT after `delay`, waits for it.
Interrupted interrupt_rulebook(const std::vector<std::string>& args, std::chrono::milliseconds delay) {
  const std::string dir = test::temp_folder("sigint");
  const std::string out = dir + "/out", err = dir + "/err";
  const pid_t pid = test::start_rulebook(args, out, err);
  REQUIRE(pid >= 0);
  std::this_thread::sleep_for(delay);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  Interrupted r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status) + 1000;  // + 1000: killed, not exited
  r.out = test::read_text(out);
  r.err = test::read_text(err);
  return r;
}

// Retries with a longer delay when the signal came before the handler was installed.
Interrupted interrupt_after_start(const std::vector<std::string>& args) {
  Interrupted r;
  for (int delay : {700, 2000, 6000}) {
    r = interrupt_rulebook(args, std::chrono::milliseconds(delay));
    if (r.exit_code < 1000) break;
  }
  return r;
}

}  // namespace

TEST_CASE("batch: Ctrl-C stops simulate at the next game, prints the games played so far and exits 130") {
  const auto r = interrupt_after_start(
      {"simulate", "pass-the-pandas", "--players", "4", "--games", "2000000000", "--seed", "3", "--jobs", "2", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 130);
  const auto j = nlohmann::json::parse(r.out);
  const int64_t played = j.at("games").get<int64_t>();
  CHECK(played > 0);
  CHECK(played < 2000000000);
  CHECK_THAT(r.err, Catch::Contains("rulebook: interrupted: " + std::to_string(played) + " of 2000000000 games played"));
}

TEST_CASE("batch: Ctrl-C stops check at the next configuration, reports those checked and exits 130") {
  const auto r = interrupt_after_start({"check", "hai-noon", "--games", "40", "--jobs", "2"});
  INFO(r.err);
  REQUIRE(r.exit_code == 130);
  CHECK_THAT(r.out, Catch::Contains("(interrupted: "));
  CHECK_THAT(r.err, Catch::Contains("configurations checked"));
}

TEST_CASE("batch: --help says what Ctrl-C does and that it exits 130") {
  for (const char* cmd : {"--help", "simulate --help", "compare --help", "arena --help", "check --help", "test --help"}) {
    INFO(cmd);
    const std::string args = cmd;
    const std::string dir = test::temp_folder("help");
    const int status = std::system(("'" RULEBOOK_BINARY "' " + args + " >'" + dir + "/out' 2>&1").c_str());
    CHECK(WEXITSTATUS(status) == 0);
    const std::string help = test::read_text(dir + "/out");
    CHECK_THAT(help, Catch::Contains("130"));
    CHECK_THAT(help, Catch::Contains("Ctrl-C"));
  }
}
