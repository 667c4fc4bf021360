#pragma once
// A game definition: immutable once built (by setup/definition_builder)
// from a game folder's game.yaml, its variants and --set overrides. It
// describes the components, zones and boards and answers lookups;
// GameState instances are created from it, one per game played.
#include <cstdint>
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/board_geometry.hpp"
#include "core/ids.hpp"
#include "core/visibility.hpp"

namespace rulebook {

struct ComponentType {
  std::string name;                // unique id in YAML, e.g. "red_die"
  std::string kind;                // die | tile | card | piece | token
  std::string title;               // narrated name, e.g. "die"
  std::vector<std::string> faces;  // die faces or tile sides, at least one
  std::vector<FaceId> face_ids;    // faces as ids shared by all types
  nlohmann::json attributes;       // free attributes (object), e.g. colour
  int count = 1;
  int initial_face = 0;
  // game.yaml `face: {in_order: true}`: the copies lie in their start zone
  // with the faces in order from the top (the top one the first face, the
  // next the second, ...; after the last face the first again), a suit of
  // numbered cards; else every copy starts on initial_face.
  bool faces_in_order = false;
  // game.yaml `count: {players: true, plus: K}`: `count` copies exist (for
  // players.max) but a game of n players starts with only the top n + K in
  // their start zone (the highest ids, those `faces_in_order` gives the
  // first faces); the rest are out of the game, in no zone. -1: every copy.
  int players_plus = -1;
  bool follows_players = false;
  // The copies a game of `players` starts with in the start zone.
  int in_play(int players) const { return follows_players ? std::max(0, std::min(count, players + players_plus)) : count; }
  int first_component = 0;         // the id of its first copy (its copies' ids follow)
  std::string zone;                // zone the instances start in
};

struct ZoneDef {
  std::string name;
  std::string title;   // "{player}'s dice"; {player} replaced by the owner
  bool per_player = false;
  ZonePolicy policy = ZonePolicy::Public;
  int first_slot = 0;  // index of its first zone in the layout
  int slots = 1;       // max players for per-player zones, cells for boards
  int board = -1;      // index into boards when these are a board's cells
};

struct BoardDef {
  std::string name;
  std::string title;
  BoardGeometry geometry;
  int zone_def = -1;  // the ZoneDef holding its cells
};

struct VariantInfo {
  std::string name;
  std::string title;
  std::string source;
  std::string description;
  std::string script;  // absolute path of its Lua file, or empty
  std::string check_skip;  // why `rulebook check` leaves it out (check: {skip: ...}), or empty
};

class GameDefinition {
 public:
  std::string name, title, dir, script, source, description;
  std::vector<std::string> authors;
  int min_players = 1, max_players = 1, default_players = 1;
  std::vector<std::string> default_names;
  // A seat's name when the game is given none: default_names', else
  // "Player N" (N from 1).
  std::string default_name(int seat) const;
  nlohmann::json options = nlohmann::json::object();
  nlohmann::json option_help = nlohmann::json::object();
  // How components look (game.yaml `display:`): per type name, a style
  // {label, colour, glyph, image} and per face name the same. Checked when
  // loaded: known types and faces, images inside the game's folder.
  nlohmann::json display = nlohmann::json::object();
  nlohmann::json setup;  // the whole merged document
  std::vector<VariantInfo> variants;
  std::vector<ComponentType> types;
  std::vector<ZoneDef> zone_defs;
  std::vector<BoardDef> boards;

  // Layout derived from the above.
  std::vector<int> component_type;  // component id -> type index
  std::vector<int> zone_def_of;     // zone slot -> ZoneDef index
  std::vector<int> zone_key_of;     // zone slot -> seat, cell or 0
  int zone_count() const { return static_cast<int>(zone_def_of.size()); }
  int component_count() const { return static_cast<int>(component_type.size()); }

  int find_type(const std::string& name) const;
  int find_zone_def(const std::string& name) const;
  int find_board(const std::string& name) const;
  // Zone slot of (zone name, key) or -1.
  int zone_slot(int zone_def, int key) const;
  int face_index(int type, const std::string& face) const;
  // The face component `id` starts on (ComponentType::faces_in_order).
  int start_face(int id) const;
  // Every face name of every type gets one id, so that "which components
  // show 'six'" compares integers.
  std::vector<std::string> face_names;
  FaceId face_id(const std::string& face) const;  // none when no type has that face
};

}  // namespace rulebook
