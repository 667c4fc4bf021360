#include "table/table_page.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "observation/component_look.hpp"

namespace rulebook {

using nlohmann::json;

DisplayImages::DisplayImages(const GameDefinition& def) {
  auto add = [&](const json& style) {
    if (!style.is_object() || !style.contains("image")) return;
    const std::string file = style["image"];
    if (std::find(files_.begin(), files_.end(), file) != files_.end()) return;
    std::ifstream in(def.dir + "/" + file, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    files_.push_back(file);
    bytes_.push_back(bytes.str());
  };
  for (const auto& [type, style] : def.display.items()) {
    if (type == "layout") continue;  // the layout hints, not a type's style
    add(style);
    if (style.contains("faces"))
      for (const auto& [face, face_style] : style["faces"].items()) add(face_style);
  }
}

std::string DisplayImages::url(const std::string& file) const {
  const auto it = std::find(files_.begin(), files_.end(), file);
  return fmt::format("display/{}", it - files_.begin());
}

const std::string* DisplayImages::image(size_t number, std::string& type) const {
  if (number >= bytes_.size()) return nullptr;
  const std::string& file = files_[number];
  const std::string ext = file.substr(file.rfind('.') + 1);
  type = ext == "svg" ? "image/svg+xml" : ext == "png" ? "image/png" : ext == "gif" ? "image/gif"
         : ext == "webp" ? "image/webp" : "image/jpeg";
  return &bytes_[number];
}

json page_message(const TableConfig& config, const DisplayImages& images, Seat seat) {
  const GameDefinition& def = *config.definition;
  json boards = json::object();
  for (const auto& b : def.boards)
    boards[b.name] = {{"title", b.title}, {"width", b.geometry.width()}, {"height", b.geometry.height()}};
  json types = json::object();
  for (const auto& t : def.types) {
    // How each face looks (game.yaml display:, over the defaults).
    json looks = json::object();
    for (const auto& face : t.faces) {
      const ComponentLook look = look_of(def, t.name, face);
      json l{{"label", look.label}, {"glyph", look.glyph}};
      if (!look.colour.empty()) l["colour"] = look.colour;
      if (!look.image.empty()) l["image"] = images.url(look.image);
      looks[face] = std::move(l);
    }
    types[t.name] = {{"title", t.title}, {"kind", t.kind}, {"faces", t.faces}, {"attributes", t.attributes},
                     {"looks", std::move(looks)}};
  }
  json seats = json::array();
  for (size_t i = 0; i < config.kinds.size(); ++i) seats.push_back(config.kinds[i] == "human" ? "web" : config.kinds[i]);
  const bool spectator = seat.is_none();
  return json{{"type", "table"},
              {"game", def.name},
              {"title", def.title},
              {"seat", spectator ? json(nullptr) : json(seat)},
              {"players", config.spec.players},
              {"agents", seats},
              {"options", def.options},
              {"variants", config.spec.variants},
              {"boards", boards},
              {"types", types},
              {"layout", def.display.value("layout", json::object())}};
}

}  // namespace rulebook
