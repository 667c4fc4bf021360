#include "cli/human_agent.hpp"

#include <iostream>

#include <fmt/format.h>
#include <unistd.h>

#include "bots/agent_factory.hpp"
#include "cli/terminal_view.hpp"
#include "core/safe_text.hpp"

namespace rulebook::cli {
namespace {

bool is_undo(const std::string& line) {
  const size_t b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
  return b != std::string::npos && line.compare(b, e - b + 1, "undo") == 0;
}

}  // namespace

int HumanAgent::choose(const Decision& d) {
  if (before_prompt_) before_prompt_();
  const nlohmann::json view = d.view();
  std::string who = fmt::format("Seat {}", d.seat());
  if (view.contains("players") && view.at("players").size() > d.seat().index())
    who = view.at("players").at(d.seat().index()).value("name", who);
  if (!d.together().empty()) {
    // A simultaneous decision: the seats at this terminal answer one after
    // another, and nothing of an earlier answer shows (the rules tell them
    // once all are in). A terminal's screen is cleared of what was typed.
    if (&out_ == &std::cout && ::isatty(STDOUT_FILENO)) out_ << "\x1b[2J\x1b[H";
    out_ << "\nEverybody decides at once: pass the terminal to " << terminal_text(who, true) << " (the others look away).\n";
  }
  out_ << "\n" << terminal_text(who, true) << ", it is your decision.\n";
  print_view(out_, view, def_.get());
  for (;;) {
    out_ << terminal_text(d.prompt()) << "\n";
    for (int i = 0; i < d.count(); ++i) out_ << "  " << (i + 1) << ") " << terminal_text(d.label(i), true) << "\n";
    if (undo_) out_ << "  (undo: take back your last decision)\n";
    out_ << "> " << std::flush;
    std::string line;
    if (!std::getline(in_, line)) throw AgentFailure("no more input from the terminal");
    const int i = match_answer(d, line);
    if (i >= 0) return i;
    if (undo_ && is_undo(line)) {
      const std::string refused = undo_();
      if (refused.empty()) throw UndoRequested();
      out_ << "Cannot undo: " << terminal_text(refused) << ".\n";
      continue;
    }
    out_ << "Please answer with a number from 1 to " << d.count() << ".\n";
  }
}

std::unique_ptr<Agent> make_agent(const std::string& text, std::istream& in, std::ostream& out,
                                  const AgentSettings& settings) {
  const AgentSpec spec = builtin_agents().parse(text);
  if (spec.kind == "human") return std::make_unique<HumanAgent>(in, out);
  return build_agent(spec, settings);
}

}  // namespace rulebook::cli
