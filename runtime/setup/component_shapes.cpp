#include "setup/component_shapes.hpp"

#include <cstdint>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/suggest.hpp"
#include "json/sourced_json.hpp"
#include "setup/yaml_source.hpp"

namespace rulebook {
namespace {

using nlohmann::json;

std::string name_of(const json& component) {
  auto it = component.find("name");
  return it != component.end() && it->is_string() ? it->get<std::string>() : "?";
}

// An integer JSON value as a long long, saturated (option values may be
// any int64 or uint64; the bounds are checked afterwards).
long long saturated(const json& value) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    return u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max())
               ? std::numeric_limits<long long>::max() : static_cast<long long>(u);
  }
  return value.get<long long>();
}

// Whether object[key] is `true` (absent or anything else: false).
bool is_true(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

std::string rendered(const json& value) {
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

// One end of a face range as written: a number or an option reference.
struct RangeEnd {
  long long value = 0;
  std::string pointer;  // where it was written (the option's name when it follows one)
  std::string said;     // "to 6" / "to follows option 'sides' = 6 (set at game.yaml:9:9)"
};

}  // namespace

ComponentShapes::ComponentShapes(const json& setup, int max_players, Fail fail, Locate locate)
    : setup_(setup), max_players_(max_players), fail_(std::move(fail)), locate_(std::move(locate)) {}

void ComponentShapes::fail(const std::string& pointer, const std::string& message) const {
  fail_(pointer, message);
  throw SetupError(message);  // a Fail that returned: still never go on
}

std::string ComponentShapes::set_at(const std::string& name) const {
  return locate_ ? fmt::format(" (set at {})", locate_("/options/" + escape_pointer_token(name))) : "";
}

long long ComponentShapes::option_value(const std::string& name, const std::string& at,
                                        const std::string& what) const {
  static const json kNoOptions = json::object();
  auto options_it = setup_.find("options");
  const json& options = options_it != setup_.end() && options_it->is_object() ? *options_it : kNoOptions;
  auto it = options.find(name);
  if (it == options.end()) {
    std::vector<std::string> known;
    for (const auto& [key, value] : options.items()) known.push_back(key);
    fail(at, fmt::format("{} follows option '{}', which this game does not have ({}){}", what, name,
                          known.empty() ? "it has no options" : fmt::format("its options: {}", fmt::join(known, ", ")),
                          did_you_mean(name, known)));
  }
  if (!it->is_number_integer())
    fail(at, fmt::format("{} follows option '{}', which is {}{}: {}, not an integer", what, name, rendered(*it),
                          set_at(name), json_type_phrase(*it)));
  return saturated(*it);
}

int ComponentShapes::count(const json& component, const std::string& at) const {
  auto it = component.find("count");
  if (it == component.end()) return 1;
  const std::string what = fmt::format("component '{}': count", name_of(component));
  const std::string pointer = at + "/count";
  if (it->is_number_integer()) {
    const long long n = saturated(*it);
    if (n < 0 || n > ShapeLimits::kMaxCount)
      fail(pointer, fmt::format("{} {} is out of 0..{}", what, n, ShapeLimits::kMaxCount));
    return static_cast<int>(n);
  }
  auto option = it->is_object() ? it->find("option") : it->end();
  if (!it->is_object() || option == it->end() || !option->is_string())
    fail(pointer, fmt::format("{} must be a number or {{option: NAME}}", what));
  const std::string name = option->get<std::string>();
  const bool per_player = is_true(*it, "per_player");
  const long long value = option_value(name, pointer + "/option", what);
  const std::string said = fmt::format("{} follows option '{}' = {}{}", what, name, value, set_at(name));
  if (value < 0) fail(pointer + "/option", fmt::format("{}, below 0", said));
  if (!per_player) {
    if (value > ShapeLimits::kMaxCount)
      fail(pointer + "/option", fmt::format("{}, above the most, {}", said, ShapeLimits::kMaxCount));
    return static_cast<int>(value);
  }
  // The value is checked alone first, so that the product cannot overflow.
  const std::string seats = fmt::format("for each of {} seats (players.max)", max_players_);
  if (value > ShapeLimits::kMaxCount)
    fail(pointer + "/option", fmt::format("{} {}, above the most, {}", said, seats, ShapeLimits::kMaxCount));
  if (value * max_players_ > ShapeLimits::kMaxCount)
    fail(pointer + "/option", fmt::format("{} {} makes {}, above the most, {}", said, seats, value * max_players_,
                                           ShapeLimits::kMaxCount));
  return static_cast<int>(value * max_players_);
}

std::vector<std::string> ComponentShapes::faces(const json& component, const std::string& at) const {
  std::vector<std::string> out;
  auto it = component.find("faces");
  if (it == component.end()) return out;
  const std::string name = name_of(component);
  const std::string pointer = at + "/faces";
  if (it->is_array()) {
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string())
        fail(pointer + "/" + std::to_string(i), fmt::format("component '{}': a face must be a name", name));
      out.push_back((*it)[i].get<std::string>());
    }
    return out;
  }
  if (!it->is_object() || !it->contains("from") || !it->contains("to"))
    fail(pointer, fmt::format("component '{}': faces must be a list of names or {{from: A, to: B}}", name));

  auto end_of = [&](const char* key) {
    RangeEnd end;
    const json& v = it->at(key);
    end.pointer = pointer + "/" + key;
    const std::string what = fmt::format("component '{}': faces' {}", name, key);
    if (v.is_number_integer()) {
      end.value = saturated(v);
      end.said = fmt::format("{} {}", key, end.value);
    } else {
      auto option = v.is_object() ? v.find("option") : v.end();
      if (!v.is_object() || option == v.end() || !option->is_string())
        fail(end.pointer, fmt::format("{} must be a number or {{option: NAME}}", what));
      const std::string option_name = option->get<std::string>();
      end.pointer += "/option";
      end.value = option_value(option_name, end.pointer, what);
      end.said = fmt::format("{} follows option '{}' = {}{}", key, option_name, end.value, set_at(option_name));
    }
    if (end.value < -ShapeLimits::kMaxFaceNumber || end.value > ShapeLimits::kMaxFaceNumber)
      fail(end.pointer, fmt::format("component '{}': faces' {}, out of {}..{}", name, end.said,
                                     -ShapeLimits::kMaxFaceNumber, ShapeLimits::kMaxFaceNumber));
    return end;
  };
  const RangeEnd from = end_of("from"), to = end_of("to");
  if (to.value < from.value)
    fail(to.pointer, fmt::format("component '{}': faces from {} to {} would be none ({}; {}): to must be at least from",
                                  name, from.value, to.value, from.said, to.said));
  if (to.value - from.value + 1 > ShapeLimits::kMaxFaces)
    fail(to.pointer, fmt::format("component '{}': faces from {} to {} would be {} ({}; {}), above the most, {}", name,
                                  from.value, to.value, to.value - from.value + 1, from.said, to.said,
                                  ShapeLimits::kMaxFaces));
  for (long long face = from.value; face <= to.value; ++face) out.push_back(std::to_string(face));
  return out;
}

std::string shape_summary(const json& component) {
  auto said = [](const json& v) {
    if (v.is_object() && v.contains("option") && v.at("option").is_string())
      return "options." + v.at("option").get<std::string>();
    return rendered(v);
  };
  std::vector<std::string> parts;
  if (auto c = component.find("count"); c != component.end() && c->is_object())
    parts.push_back(fmt::format("count: {}{}", said(*c), is_true(*c, "per_player") ? " per seat" : ""));
  if (auto f = component.find("faces"); f != component.end() && f->is_object() && f->contains("from") && f->contains("to"))
    parts.push_back(fmt::format("faces: {}..{}", said(f->at("from")), said(f->at("to"))));
  return fmt::format("{}", fmt::join(parts, "; "));
}

bool may_be_range_face(const std::string& face) {
  size_t start = !face.empty() && face[0] == '-' ? 1 : 0;
  if (start >= face.size() || face.size() - start > 7) return false;
  for (size_t i = start; i < face.size(); ++i)
    if (face[i] < '0' || face[i] > '9') return false;
  return true;
}

}  // namespace rulebook
