#pragma once
// Ctrl-C during a batch (simulate, compare, arena, check, test --mutate):
// the first SIGINT only sets a flag, the batch runner's cancel flag, so the
// workers stop at the next game boundary and the command prints the
// statistics of the games played, says how many of how many, and exits
// kInterrupted (130). The handler is then reset to the default: a second
// Ctrl-C ends the process at once.
#include <atomic>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace rulebook::cli {

// Says in the command's --help what Ctrl-C does (the footer).
void document_interrupt(CLI::App& cmd, const std::string& unit = "game");

// Installs the handler (once; later calls only return the flag) and returns
// the flag it sets.
const std::atomic<bool>* cancel_on_interrupt();

// After Ctrl-C stopped a batch: "rulebook: interrupted: 1234 of 200000
// games played; the figures above are of those" on stderr. Returns
// kInterrupted (130).
int report_interrupted(int64_t played, int64_t planned, const std::string& items = "games played",
                       const std::string& shown = "the figures above are of those");

}  // namespace rulebook::cli
