// Bots behind the seat protocol, as the command line runs them: a bot that
// fails or cannot be found is named with its seat (the protocol itself:
// tests/unit/play/test_seat_protocol.cpp).
#include <catch2/catch.hpp>

#include "cli_runner.hpp"

using namespace rulebook;

TEST_CASE("exec: the CLI names the seat and exits 1 when a bot fails, 2 when it cannot be found", "[protocol][cli]") {
  const auto failed = test::run_rulebook(
      "play pass-the-pandas --seed 3 --agent-timeout 0.2 --agent \"1=exec:sh -c 'while read l; do :; done'\"");
  CHECK(failed.exit_code == 1);
  CHECK_THAT(failed.err, Catch::Contains("seat 1 (exec:sh -c 'while read l; do :; done'): gave no answer within"));
  const auto missing = test::run_rulebook("play pass-the-pandas --agent 0=exec:no-such-bot-program");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("program 'no-such-bot-program' not found in PATH"));
  const auto bad_timeout = test::run_rulebook("simulate pass-the-pandas --agent-timeout -1");
  CHECK(bad_timeout.exit_code == 2);
}
