#include "core/visibility.hpp"

namespace rulebook {

const char* to_string(Visibility v) {
  switch (v) {
    case Visibility::Public: return "public";
    case Visibility::Hidden: return "hidden";
    case Visibility::Owner: return "owner";
    case Visibility::Others: return "others";
  }
  return "?";
}

const char* to_string(ZonePolicy p) {
  switch (p) {
    case ZonePolicy::Keep: return "keep";
    case ZonePolicy::Public: return "public";
    case ZonePolicy::Hidden: return "hidden";
    case ZonePolicy::Owner: return "owner";
    case ZonePolicy::Others: return "others";
  }
  return "?";
}

bool parse_zone_policy(const std::string& text, ZonePolicy& out) {
  if (text == "keep") out = ZonePolicy::Keep;
  else if (text == "public") out = ZonePolicy::Public;
  else if (text == "hidden") out = ZonePolicy::Hidden;
  else if (text == "owner") out = ZonePolicy::Owner;
  else if (text == "others") out = ZonePolicy::Others;
  else return false;
  return true;
}

}  // namespace rulebook
