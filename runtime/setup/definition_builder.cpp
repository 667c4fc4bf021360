#include "setup/definition_builder.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "setup/board_names.hpp"
#include "setup/component_shapes.hpp"
#include "setup/setup_error.hpp"

namespace rulebook {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string str_or(const json& j, const char* key, const std::string& fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

int int_or(const json& j, const char* key, int fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int>() : fallback;
}
// display: layout: each hint names a zone of this game and a place that
// fits it (a seat's place for a per-player zone, a board's side or the row
// of piles for a shared one).
void check_layout_hints(const GameDefinition& def, const json& layout,
                        const std::function<void(const std::string&, const std::string&)>& fail) {
  auto zones = layout.find("zones");
  if (zones == layout.end()) return;
  for (const auto& [zone_name, hint] : zones->items()) {
    const std::string at = "/display/layout/zones/" + zone_name;
    const int zone = def.find_zone_def(zone_name);
    if (zone < 0) {
      std::vector<std::string> known;
      for (const auto& z : def.zone_defs)
        if (z.board < 0) known.push_back(z.name);
      fail(at, fmt::format("display: layout: '{}' is not a zone of this game (its zones: {})", zone_name,
                           fmt::join(known, ", ")));
    }
    const ZoneDef& z = def.zone_defs[static_cast<size_t>(zone)];
    if (z.board >= 0)
      fail(at, fmt::format("display: layout: '{}' is a board, which the table draws itself; hints place zones", zone_name));
    const std::string place = hint.at("place").get<std::string>();
    const bool beside = place == "side";
    if (beside && !hint.contains("board"))
      fail(at, fmt::format("display: layout: '{}' lies beside a board: say which (board: NAME)", zone_name));
    if (beside && !hint.contains("side"))
      fail(at, fmt::format("display: layout: '{}' lies beside a board: say which side (north, south, east or west)", zone_name));
    if (!beside && (hint.contains("board") || hint.contains("side")))
      fail(at + (hint.contains("board") ? "/board" : "/side"),
           fmt::format("display: layout: board and side go with place: side, not place: {}", place));
    if (beside) {
      const std::string board = hint.at("board").get<std::string>();
      if (def.find_board(board) < 0) {
        std::vector<std::string> known;
        for (const auto& b : def.boards) known.push_back(b.name);
        fail(at + "/board", known.empty()
                                ? fmt::format("display: layout: no board '{}' (this game has no boards)", board)
                                : fmt::format("display: layout: no board '{}' (its boards: {})", board, fmt::join(known, ", ")));
      }
    }
    const bool per_seat = place == "hand" || place == "seat";
    if (per_seat && !z.per_player)
      fail(at + "/place", fmt::format("display: layout: '{}' is one shared zone; place: {} is for a per-player zone", zone_name, place));
    if (!per_seat && z.per_player)
      fail(at + "/place", fmt::format("display: layout: '{}' is per player; place it as hand or seat", zone_name));
  }
}
}  // namespace

GameDefinition build_game_definition(const json& setup, const std::string& dir, std::vector<VariantInfo> variants,
                                     const DefinitionLocator& locate) {
  const std::string file = dir + "/game.yaml";
  auto fail = [&](const std::string& pointer, const std::string& message) {
    throw SetupError(fmt::format("{}: error: {}", locate ? locate(pointer) : file, message));
  };
  GameDefinition def;
  def.setup = setup;
  def.dir = dir;
  def.variants = std::move(variants);
  def.name = str_or(setup, "name", "");
  def.title = str_or(setup, "title", def.name);
  def.script = str_or(setup, "script", "rules.lua");
  def.source = str_or(setup, "source", "");
  def.description = str_or(setup, "description", "");
  if (auto it = setup.find("authors"); it != setup.end())
    for (const auto& a : *it) def.authors.push_back(a.get<std::string>());
  const json& players = setup.at("players");
  def.min_players = int_or(players, "min", 1);
  def.max_players = int_or(players, "max", def.min_players);
  def.default_players = int_or(players, "default", def.max_players);
  if (def.min_players > def.max_players)
    fail("/players/min", fmt::format("players: min {} is above max {}", def.min_players, def.max_players));
  if (def.default_players < def.min_players || def.default_players > def.max_players)
    fail("/players/default", fmt::format("players: default {} is outside {}..{}", def.default_players,
                           def.min_players, def.max_players));
  if (auto it = players.find("names"); it != players.end())
    for (const auto& n : *it) def.default_names.push_back(n.get<std::string>());
  if (auto it = setup.find("options"); it != setup.end()) def.options = *it;
  if (auto it = setup.find("option_help"); it != setup.end()) def.option_help = *it;

  // Counts, faces and board sizes may follow options (and counts and faces
  // the player count): resolved here, from the options after every variant
  // and --set (component_shapes.hpp).
  const ComponentShapes shapes(setup, def.max_players, fail, locate, def.min_players);

  // Boards first: each board owns a zone definition for its cells.
  std::set<std::string> zone_names;
  if (auto it = setup.find("boards"); it != setup.end()) {
    int board_index = -1;
    for (const auto& b : *it) {
      ++board_index;
      const std::string at = fmt::format("/boards/{}", board_index);
      BoardDef board;
      board.name = b.at("name").get<std::string>();
      board.title = str_or(b, "title", board.name);
      const int width = shapes.board_size(b, at, "width");  // width first: its error comes first
      board.geometry = BoardGeometry(width, shapes.board_size(b, at, "height"));
      std::string names_at;
      if (const std::string why = read_board_names(b, board.geometry, names_at); !why.empty())
        fail(at + names_at, fmt::format("board '{}': {}", board.name, why));
      if (auto p = b.find("paths"); p != b.end()) {
        for (const auto& pj : *p) {
          BoardPath path;
          path.name = pj.at("name").get<std::string>();
          path.cyclic = pj.value("cyclic", true);
          if (auto r = pj.find("ring"); r != pj.end()) {
            path.cells = board.geometry.ring((*r)[0].get<int>() - 1, (*r)[1].get<int>() - 1,
                                             (*r)[2].get<int>(), (*r)[3].get<int>());
          } else if (auto c = pj.find("cells"); c != pj.end()) {
            for (const auto& xy : *c) {
              int cell = board.geometry.cell(xy[0].get<int>() - 1, xy[1].get<int>() - 1);
              if (cell < 0)
                fail(at + "/paths", fmt::format("board '{}': path '{}' leaves the board", board.name,
                                       path.name));
              path.cells.push_back(cell);
            }
          }
          for (int cell : path.cells)
            if (cell < 0)
              fail(at + "/paths", fmt::format("board '{}': path '{}' leaves the board", board.name,
                                     path.name));
          board.geometry.add_path(std::move(path));
        }
      }
      if (!zone_names.insert(board.name).second)
        fail(at + "/name", fmt::format("the name '{}' is used twice among zones and boards", board.name));
      ZoneDef zone;
      zone.name = board.name;
      zone.title = board.title;
      zone.policy = ZonePolicy::Keep;
      if (auto v = b.find("visibility"); v != b.end()) parse_zone_policy(v->get<std::string>(), zone.policy);
      zone.slots = board.geometry.cell_count();
      zone.board = static_cast<int>(def.boards.size());
      board.zone_def = static_cast<int>(def.zone_defs.size());
      def.zone_defs.push_back(zone);
      def.boards.push_back(std::move(board));
    }
  }
  if (auto it = setup.find("zones"); it != setup.end()) {
    int zone_index = -1;
    for (const auto& z : *it) {
      ++zone_index;
      const std::string at = fmt::format("/zones/{}", zone_index);
      ZoneDef zone;
      zone.name = z.at("name").get<std::string>();
      zone.per_player = z.value("per_player", false);
      zone.title = str_or(z, "title", zone.per_player ? "{player}'s " + zone.name : zone.name);
      if (!parse_zone_policy(str_or(z, "visibility", "public"), zone.policy))
        fail(at + "/visibility", fmt::format("zone '{}': bad visibility", zone.name));
      zone.slots = zone.per_player ? def.max_players : 1;
      if (!zone_names.insert(zone.name).second)
        fail(at + "/name", fmt::format("the name '{}' is used twice among zones and boards", zone.name));
      def.zone_defs.push_back(zone);
    }
  }
  for (size_t d = 0; d < def.zone_defs.size(); ++d) {
    auto& zone = def.zone_defs[d];
    zone.first_slot = def.zone_count();
    for (int k = 0; k < zone.slots; ++k) {
      def.zone_def_of.push_back(static_cast<int>(d));
      def.zone_key_of.push_back(k);
    }
  }

  std::set<std::string> type_names;
  if (auto it = setup.find("components"); it != setup.end()) {
    int component_index = -1;
    for (const auto& c : *it) {
      ++component_index;
      const std::string at = fmt::format("/components/{}", component_index);
      ComponentType type;
      type.name = c.at("name").get<std::string>();
      type.kind = str_or(c, "kind", "token");
      type.title = str_or(c, "title", type.name);
      type.count = shapes.count(c, at);
      if (const std::optional<int> plus = shapes.count_plus_players(c)) {
        type.follows_players = true;
        type.players_plus = *plus;
      }
      type.faces = shapes.faces(c, at);
      if (type.faces.empty()) type.faces.push_back(type.name);
      type.attributes = c.value("attributes", json::object());
      type.zone = str_or(c, "zone", "");
      // `face: NAME` (every copy), or `face: {in_order: true}` (each copy its own, a suit)
      const json* face_written = c.contains("face") ? &c.at("face") : nullptr;
      type.faces_in_order = face_written && face_written->is_object() && face_written->value("in_order", false);
      const std::string face =
          face_written && face_written->is_string() ? face_written->get<std::string>() : type.faces.front();
      type.initial_face = -1;
      for (size_t i = 0; i < type.faces.size(); ++i)
        if (type.faces[i] == face) type.initial_face = static_cast<int>(i);
      if (type.initial_face < 0)
        fail(at + "/face", fmt::format("component '{}': face '{}' is not one of its faces", type.name, face));
      type.first_component = def.component_count();
      if (!type_names.insert(type.name).second)
        fail(at + "/name", fmt::format("component name '{}' is used twice", type.name));
      if (!type.zone.empty()) {
        int zd = def.find_zone_def(type.zone);
        if (zd < 0) fail(at + "/zone", fmt::format("component '{}': unknown zone '{}'", type.name, type.zone));
        if (def.zone_defs[zd].per_player || def.zone_defs[zd].board >= 0)
          fail(at + "/zone", fmt::format("component '{}': starts in '{}', which is not a single shared zone",
                                 type.name, type.zone));
      }
      for (const auto& f : type.faces) {
        FaceId id = def.face_id(f);
        if (id.is_none()) {
          id = FaceId{static_cast<int>(def.face_names.size())};
          def.face_names.push_back(f);
        }
        type.face_ids.push_back(id);
      }
      const int index = static_cast<int>(def.types.size());
      for (int i = 0; i < type.count; ++i) def.component_type.push_back(index);
      def.types.push_back(std::move(type));
    }
  }
  if (auto it = setup.find("display"); it != setup.end()) {
    // Every style names a type (and faces) of this game; an image is a
    // file of the game's own folder.
    auto check_image = [&](const json& style, const std::string& at) {
      if (!style.contains("image")) return;
      const std::string image = style.at("image").get<std::string>();
      const fs::path path(image);
      bool inside = !image.empty() && path.is_relative();
      for (const auto& part : path) inside = inside && part != "..";
      if (!inside) fail(at + "/image", fmt::format("display: image '{}' must be a file of the game's folder (a relative path, no '..')", image));
      std::error_code ec;
      if (!fs::is_regular_file(fs::path(dir) / path, ec))
        fail(at + "/image", fmt::format("display: image '{}' not found in {}", image, dir));
    };
    for (const auto& [type_name, style] : it->items()) {
      const std::string at = "/display/" + type_name;
      if (type_name == "layout") {
        check_layout_hints(def, style, fail);
        continue;
      }
      const int type = def.find_type(type_name);
      if (type < 0) fail(at, fmt::format("display: '{}' is not a component type of this game", type_name));
      check_image(style, at);
      if (auto faces = style.find("faces"); faces != style.end()) {
        const auto& known = def.types[static_cast<size_t>(type)].faces;
        // Faces numbered by a range may be styled beyond what today's
        // options give (a d20's style stays valid for a d6).
        const json& written = setup.at("components").at(static_cast<size_t>(type)).value("faces", json());
        const bool ranged = written.is_object();
        for (const auto& [face, face_style] : faces->items()) {
          if (std::find(known.begin(), known.end(), face) == known.end() && !(ranged && may_be_range_face(face)))
            fail(at + "/faces/" + face,
                 ranged ? fmt::format("display: '{}' is not a face of '{}' (its faces: numbers, {}..{} now)", face,
                                      type_name, known.front(), known.back())
                        : fmt::format("display: '{}' is not a face of '{}' (its faces: {})", face, type_name,
                                      fmt::join(known, ", ")));
          check_image(face_style, at + "/faces/" + face);
        }
      }
    }
    def.display = *it;
  }
  return def;
}

}  // namespace rulebook
