#include "cli/interrupt.hpp"

#include <signal.h>

#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"

namespace rulebook::cli {
namespace {

// Lock-free, so setting it is async-signal-safe: the handler does nothing else.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler may only set a lock-free atomic");

extern "C" void on_interrupt(int) { interrupted.store(true); }

}  // namespace

const std::atomic<bool>* cancel_on_interrupt() {
  static const bool installed = [] {
    // Started with Ctrl-C ignored (nohup, a background job of a script): keep ignoring it.
    struct sigaction before {};
    if (sigaction(SIGINT, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) return false;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // the second Ctrl-C is the default one: the process ends
    return sigaction(SIGINT, &action, nullptr) == 0;
  }();
  (void)installed;
  return &interrupted;
}

void document_interrupt(CLI::App& cmd, const std::string& unit) {
  cmd.footer(fmt::format("Ctrl-C stops at the next {} and prints what the finished ones show; the exit code is then "
                         "130 (a second Ctrl-C stops at once).",
                         unit));
}

int report_interrupted(int64_t played, int64_t planned, const std::string& items, const std::string& shown) {
  std::cerr << fmt::format("rulebook: interrupted: {} of {} {}; {}\n", played, planned, items, shown);
  return kInterrupted;
}

}  // namespace rulebook::cli
