#include "core/agent.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

#include <fmt/format.h>

namespace rulebook {
namespace {

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string option_list(const Decision& d) {
  std::string out;
  for (int i = 0; i < d.count(); ++i) out += (i ? ", " : "") + d.label(i);
  return out;
}

// Compact one-line rendering of a view for the human menu.
void print_view(std::ostream& out, const nlohmann::json& view) {
  out << "  Your view:\n";
  if (!view.contains("zones")) return;
  for (const auto& [id, zone] : view.at("zones").items()) {
    out << "    " << zone.value("title", id) << ": " << zone.at("count").get<int>();
    if (zone.contains("components")) {
      out << " [";
      bool first = true;
      for (const auto& c : zone.at("components")) {
        out << (first ? "" : ", ") << (c.contains("hidden") ? "?" : c.at("face").get<std::string>());
        first = false;
      }
      out << "]";
    }
    out << "\n";
  }
  if (view.contains("boards")) out << "    boards: " << view.at("boards").dump() << "\n";
  if (view.contains("state")) out << "    state: " << view.at("state").dump() << "\n";
}

}  // namespace

int match_answer(const Decision& d, const std::string& raw) {
  const std::string answer = trim(raw);
  if (!answer.empty() && std::all_of(answer.begin(), answer.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    long n = answer.size() > 6 ? -1 : std::stol(answer);
    if (n >= 1 && n <= d.count()) return static_cast<int>(n - 1);
  }
  const std::string wanted = lower(answer);
  for (int i = 0; i < d.count(); ++i)
    if (lower(d.label(i)) == wanted) return i;
  return -1;
}

std::unique_ptr<ScriptedAgent> ScriptedAgent::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw AgentError(fmt::format("{}: error: cannot read answers file", path));
  std::vector<std::string> answers;
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    answers.push_back(line);
  }
  return std::make_unique<ScriptedAgent>(std::move(answers), path);
}

int ScriptedAgent::choose(const Decision& d) {
  if (next_ >= answers_.size())
    throw AgentError(fmt::format("{}: ran out of answers at \"{}\" (options: {})", source_,
                                 d.prompt(), option_list(d)));
  const std::string& answer = answers_[next_++];
  const int i = match_answer(d, answer);
  if (i < 0)
    throw AgentError(fmt::format("{}: answer {} '{}' is not among the options of \"{}\" ({})",
                                 source_, next_, answer, d.prompt(), option_list(d)));
  return i;
}

int HumanAgent::choose(const Decision& d) {
  if (before_prompt_) before_prompt_();
  const nlohmann::json view = d.view();
  std::string who = fmt::format("Seat {}", d.seat());
  if (view.contains("players") && view.at("players").size() > static_cast<size_t>(d.seat()))
    who = view.at("players").at(d.seat()).value("name", who);
  out_ << "\n" << who << ", it is your decision.\n";
  print_view(out_, view);
  for (;;) {
    out_ << d.prompt() << "\n";
    for (int i = 0; i < d.count(); ++i) out_ << "  " << (i + 1) << ") " << d.label(i) << "\n";
    out_ << "> " << std::flush;
    std::string line;
    if (!std::getline(in_, line)) throw AgentError("no more input from the terminal");
    const int i = match_answer(d, line);
    if (i >= 0) return i;
    out_ << "Please answer with a number from 1 to " << d.count() << ".\n";
  }
}

std::unique_ptr<Agent> make_agent(const std::string& spec, std::istream& in, std::ostream& out) {
  if (spec == "random") return std::make_unique<RandomAgent>();
  if (spec == "first") return std::make_unique<FirstAgent>();
  if (spec == "human") return std::make_unique<HumanAgent>(in, out);
  if (spec.rfind("scripted:", 0) == 0) return ScriptedAgent::from_file(spec.substr(9));
  throw AgentError(fmt::format("unknown agent '{}' (expected random, first, human or scripted:FILE)", spec));
}

}  // namespace rulebook
