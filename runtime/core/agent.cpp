#include "core/agent.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "core/input_file.hpp"

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

// A board as a grid: each cell shows its top component's face ("?" when
// hidden, "." when empty), with an arrow for a piece's facing.
void print_board(std::ostream& out, const std::string& name, const nlohmann::json& cells) {
  int width = 0, height = 0;
  for (const auto& [key, _] : cells.items()) {
    const auto comma = key.find(',');
    width = std::max(width, std::stoi(key.substr(0, comma)));
    height = std::max(height, std::stoi(key.substr(comma + 1)));
  }
  static const std::map<std::string, std::string> arrows{
      {"north", "^"}, {"east", ">"}, {"south", "v"}, {"west", "<"},
      {"northeast", "/"}, {"southeast", "\\"}, {"southwest", "/"}, {"northwest", "\\"}};
  out << "    " << name << ":\n      ";
  for (int x = 1; x <= width; ++x) out << fmt::format("{:<11}", x);
  out << "\n";
  for (int y = 1; y <= height; ++y) {
    out << fmt::format("    {:>2}", y);
    for (int x = 1; x <= width; ++x) {
      std::string text = ".";
      auto it = cells.find(fmt::format("{},{}", x, y));
      if (it != cells.end() && !it->empty()) {
        text.clear();
        for (const auto& c : *it) {
          if (!text.empty()) text += "+";
          if (c.contains("hidden")) text += "?";
          else text += c.at("face").get<std::string>().substr(0, 8);
          if (c.contains("facing")) text += arrows.count(c.at("facing")) ? arrows.at(c.at("facing")) : "*";
        }
      }
      out << " " << fmt::format("{:<10}", text.substr(0, 10));
    }
    out << "\n";
  }
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
  if (view.contains("boards")) {
    for (const auto& [name, cells] : view.at("boards").items()) print_board(out, name, cells);
  }
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
  const InputFile file = read_input_file(path);
  if (!file.ok) throw AgentError(fmt::format("{}: error: {} (answers file)", path, file.error));
  std::istringstream in(file.text);
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
