#include "observation/component_look.hpp"

#include <fmt/format.h>

namespace rulebook {
namespace {

void apply(const nlohmann::json& style, ComponentLook& look) {
  if (!style.is_object()) return;
  if (auto it = style.find("label"); it != style.end()) look.label = it->get<std::string>();
  if (auto it = style.find("colour"); it != style.end()) look.colour = it->get<std::string>();
  if (auto it = style.find("glyph"); it != style.end()) look.glyph = it->get<std::string>();
  if (auto it = style.find("image"); it != style.end()) look.image = it->get<std::string>();
}

// A value of game.state in words: lists joined by commas, maps as "k: v".
std::string words(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const auto& item : v) out += (out.empty() ? "" : ", ") + words(item);
    return out.empty() ? "none" : out;
  }
  if (v.is_object()) {
    std::string out;
    for (const auto& [k, item] : v.items()) out += (out.empty() ? "" : "; ") + k + ": " + words(item);
    return out.empty() ? "none" : out;
  }
  return v.dump();
}

}  // namespace

ComponentLook look_of(const GameDefinition& def, const std::string& type, const std::string& face) {
  ComponentLook look;
  const int index = def.find_type(type);
  if (index < 0) return ComponentLook{type, "", type.substr(0, 1), ""};
  const ComponentType& t = def.types[static_cast<size_t>(index)];
  look.label = t.faces.size() > 1 ? fmt::format("{} ({})", t.title, face) : t.title;
  if (t.attributes.is_object() && t.attributes.contains("colour") && t.attributes["colour"].is_string())
    look.colour = t.attributes["colour"].get<std::string>();
  if (auto it = def.display.find(type); it != def.display.end()) {
    apply(*it, look);
    if (auto faces = it->find("faces"); faces != it->end())
      if (auto f = faces->find(face); f != faces->end()) apply(*f, look);
  }
  if (look.glyph.empty()) look.glyph = look.label.substr(0, 1);
  return look;
}

std::string component_text(const GameDefinition* def, const nlohmann::json& c) {
  if (c.contains("hidden")) return "?";
  const std::string type = c.value("type", ""), face = c.value("face", "");
  if (!def) return face.empty() ? type : face;
  return look_of(*def, type, face).label;
}

std::vector<std::string> glance_lines(const nlohmann::json& view) {
  std::vector<std::string> lines;
  if (view.contains("describe")) {
    for (const auto& item : view.at("describe")) {
      if (item.is_string()) lines.push_back(item.get<std::string>());
      else lines.push_back(item.at("label").get<std::string>() + ": " + words(item.at("value")));
    }
  } else if (view.contains("state") && view.at("state").is_object()) {
    for (const auto& [key, value] : view.at("state").items()) {
      std::string label = key;
      for (char& ch : label) if (ch == '_') ch = ' ';
      lines.push_back(label + ": " + words(value));
    }
  }
  return lines;
}

}  // namespace rulebook
