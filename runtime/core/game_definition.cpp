#include "core/game_definition.hpp"

#include <fmt/format.h>

namespace rulebook {

std::string GameDefinition::default_name(int seat) const {
  if (seat < static_cast<int>(default_names.size())) return default_names[static_cast<size_t>(seat)];
  return fmt::format("Player {}", seat + 1);
}

int GameDefinition::find_type(const std::string& n) const {
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i].name == n) return static_cast<int>(i);
  return -1;
}

int GameDefinition::find_zone_def(const std::string& n) const {
  for (size_t i = 0; i < zone_defs.size(); ++i)
    if (zone_defs[i].name == n) return static_cast<int>(i);
  return -1;
}

int GameDefinition::find_board(const std::string& n) const {
  for (size_t i = 0; i < boards.size(); ++i)
    if (boards[i].name == n) return static_cast<int>(i);
  return -1;
}

int GameDefinition::zone_slot(int zone_def, int key) const {
  if (zone_def < 0 || zone_def >= static_cast<int>(zone_defs.size())) return -1;
  const auto& z = zone_defs[zone_def];
  if (key < 0 || key >= z.slots) return -1;
  return z.first_slot + key;
}

FaceId GameDefinition::face_id(const std::string& face) const {
  for (size_t i = 0; i < face_names.size(); ++i)
    if (face_names[i] == face) return FaceId{static_cast<int>(i)};
  return FaceId::none();
}

int GameDefinition::start_face(int id) const {
  const ComponentType& t = types[static_cast<size_t>(component_type[static_cast<size_t>(id)])];
  if (!t.faces_in_order) return t.initial_face;
  // The copies enter their start zone in id order: the last one lies on top.
  const int from_top = t.first_component + t.count - 1 - id;
  return from_top % static_cast<int>(t.faces.size());
}

int GameDefinition::face_index(int type, const std::string& face) const {
  const auto& faces = types[type].faces;
  for (size_t i = 0; i < faces.size(); ++i)
    if (faces[i] == face) return static_cast<int>(i);
  return -1;
}

}  // namespace rulebook
