#include "cli/terminal_view.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "core/safe_text.hpp"
#include "observation/component_look.hpp"

namespace rulebook::cli {
namespace {

void board_text(std::ostream& out, const std::string& name, const nlohmann::json& cells, const GameDefinition* def) {
  int width = 0, height = 0;
  for (const auto& [key, _] : cells.items()) {
    const auto comma = key.find(',');
    width = std::max(width, std::stoi(key.substr(0, comma)));
    height = std::max(height, std::stoi(key.substr(comma + 1)));
  }
  static const std::map<std::string, std::string> arrows{
      {"north", "^"}, {"east", ">"}, {"south", "v"}, {"west", "<"},
      {"northeast", "/"}, {"southeast", "\\"}, {"southwest", "/"}, {"northwest", "\\"}};
  std::map<std::string, std::string> legend;  // glyph -> label
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
          if (c.contains("hidden")) {
            text += "?";
          } else if (def && def->display.contains(c.value("type", ""))) {
            const ComponentLook look = look_of(*def, c.at("type"), c.at("face"));
            text += look.glyph;
            legend[look.glyph] = look.label;
          } else {
            text += component_text(def, c).substr(0, 8);
          }
          if (c.contains("facing")) text += arrows.count(c.at("facing")) ? arrows.at(c.at("facing")) : "*";
        }
      }
      out << " " << fmt::format("{:<10}", text.substr(0, 10));
    }
    out << "\n";
  }
  if (!legend.empty()) {
    std::string line;
    for (const auto& [glyph, label] : legend) line += (line.empty() ? "" : ", ") + glyph + " " + label;
    out << "      (" << line << ")\n";
  }
}

void view_text(std::ostream& out, const nlohmann::json& view, const GameDefinition* def) {
  const auto glance = glance_lines(view);
  if (!glance.empty()) {
    out << "  At a glance:\n";
    for (const auto& line : glance) out << "    " << line << "\n";
  }
  out << "  Your view:\n";
  if (!view.contains("zones")) return;
  for (const auto& [id, zone] : view.at("zones").items()) {
    if (zone.at("count").get<int>() == 0) continue;  // empty zones say nothing
    out << "    " << zone.value("title", id) << ": " << zone.at("count").get<int>();
    if (zone.contains("components")) {
      out << " [";
      bool first = true;
      for (const auto& c : zone.at("components")) {
        out << (first ? "" : ", ") << component_text(def, c);
        first = false;
      }
      out << "]";
    }
    out << "\n";
  }
  if (view.contains("boards")) {
    for (const auto& [name, cells] : view.at("boards").items()) board_text(out, name, cells, def);
  }
}

}  // namespace

// Drawn whole, then made safe at once: the view holds the rules' text
// (game.state, rules.describe, labels), whose controls must not reach the
// terminal (core/safe_text.hpp).
void print_board(std::ostream& out, const std::string& name, const nlohmann::json& cells, const GameDefinition* def) {
  std::ostringstream text;
  board_text(text, name, cells, def);
  out << terminal_text(text.str());
}

void print_view(std::ostream& out, const nlohmann::json& view, const GameDefinition* def) {
  std::ostringstream text;
  view_text(text, view, def);
  out << terminal_text(text.str());
}

}  // namespace rulebook::cli
