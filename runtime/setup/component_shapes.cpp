#include "setup/component_shapes.hpp"

#include <cstdint>
#include <limits>
#include <optional>

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

}  // namespace

ComponentShapes::ComponentShapes(const json& setup, int max_players, Fail fail, Locate locate, int min_players)
    : setup_(setup), max_players_(max_players), min_players_(min_players < 0 ? max_players : min_players),
      fail_(std::move(fail)), locate_(std::move(locate)) {}

long long ComponentShapes::plus_of(const json& reference, const std::string& pointer, const std::string& what) const {
  auto it = reference.find("plus");
  if (it == reference.end()) return 0;
  if (!it->is_number_integer())
    fail(pointer + "/plus", fmt::format("{}: plus must be an integer, got {}", what, rendered(*it)));
  const long long plus = saturated(*it);
  if (plus < -ShapeLimits::kMaxFaceNumber || plus > ShapeLimits::kMaxFaceNumber)
    fail(pointer + "/plus", fmt::format("{}: plus {} is out of {}..{}", what, plus, -ShapeLimits::kMaxFaceNumber,
                                        ShapeLimits::kMaxFaceNumber));
  return plus;
}

ComponentShapes::Reference ComponentShapes::reference(const json& v, const std::string& pointer,
                                                      const std::string& what, bool players_allowed,
                                                      const std::string& said_as) const {
  const std::string& as = said_as.empty() ? what : said_as;
  Reference r;
  r.pointer = pointer;
  if (v.is_number_integer()) {
    r.value = r.least = saturated(v);
    r.said = fmt::format("{} {}", as, r.value);
    return r;
  }
  if (v.is_object() && v.contains("players") && !v.contains("option")) {
    if (!players_allowed)
      fail(pointer + "/players", fmt::format("{} cannot follow the player count (an option may set it)", what));
    if (!v.at("players").is_boolean() || !v.at("players").get<bool>())
      fail(pointer + "/players", fmt::format("{} must say players: true to follow the player count", what));
    const long long plus = plus_of(v, pointer, what);
    r.players = true;
    r.plus = plus;
    r.value = max_players_ + plus;
    r.least = min_players_ + plus;
    r.pointer = pointer + (v.contains("plus") ? "/plus" : "/players");
    r.said = fmt::format("{} follows the player count{} ({}..{} for {}..{} players)", as,
                         plus ? fmt::format(" plus {}", plus) : "", r.least, r.value, min_players_, max_players_);
    return r;
  }
  auto option = v.is_object() ? v.find("option") : v.end();
  if (!v.is_object() || option == v.end() || !option->is_string())
    fail(pointer, fmt::format("{} must be a number, {{option: NAME}}{}", what,
                              players_allowed ? " or {players: true}" : ""));
  const std::string name = option->get<std::string>();
  r.pointer = pointer + "/option";
  const long long plus = plus_of(v, pointer, what);
  const long long set = option_value(name, r.pointer, what);
  if (__builtin_add_overflow(set, plus, &r.value))  // saturated, as the option's value
    r.value = plus > 0 ? std::numeric_limits<long long>::max() : std::numeric_limits<long long>::min();
  r.least = r.value;
  r.plus = plus;
  r.said = fmt::format("{} follows option '{}'{} = {}{}", as, name, plus ? fmt::format(" plus {}", plus) : "",
                       r.value, set_at(name));
  return r;
}

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
  if (!(it->is_object() && (it->contains("option") || it->contains("players"))))
    fail(pointer, fmt::format("{} must be a number, {{option: NAME}} or {{players: true}}", what));
  const bool per_player = it->is_object() && is_true(*it, "per_player");
  if (per_player && it->contains("players") && !it->contains("option"))
    fail(pointer + "/per_player", fmt::format("{}: per_player goes with an option, not with players", what));
  const Reference r = reference(*it, pointer, what, true);
  if (r.least < 0) fail(r.pointer, fmt::format("{}, below 0", r.said));
  if (!per_player) {
    if (r.value > ShapeLimits::kMaxCount)
      fail(r.pointer, fmt::format("{}, above the most, {}", r.said, ShapeLimits::kMaxCount));
    return static_cast<int>(r.value);
  }
  // The value is checked alone first, so that the product cannot overflow.
  const std::string seats = fmt::format("for each of {} seats (players.max)", max_players_);
  if (r.value > ShapeLimits::kMaxCount)
    fail(r.pointer, fmt::format("{} {}, above the most, {}", r.said, seats, ShapeLimits::kMaxCount));
  if (r.value * max_players_ > ShapeLimits::kMaxCount)
    fail(r.pointer, fmt::format("{} {} makes {}, above the most, {}", r.said, seats, r.value * max_players_,
                                ShapeLimits::kMaxCount));
  return static_cast<int>(r.value * max_players_);
}

std::optional<int> ComponentShapes::count_plus_players(const json& component) const {
  auto it = component.find("count");
  if (it == component.end() || !it->is_object() || !it->contains("players") || it->contains("option"))
    return std::nullopt;
  auto plus = it->find("plus");
  return plus != it->end() && plus->is_number_integer() ? plus->get<int>() : 0;
}

int ComponentShapes::board_size(const json& board, const std::string& at, const char* key) const {
  auto it = board.find(key);
  const std::string what = fmt::format("board '{}': {}", name_of(board), key);
  if (it == board.end()) fail(at, fmt::format("{} is missing", what));
  // A number is the schema's to bound, as it always was (the geometry takes any).
  if (it->is_number_integer()) return it->get<int>();
  const Reference r = reference(*it, at + "/" + key, what, false);
  if (r.value < 1 || r.value > ShapeLimits::kMaxBoardSide)
    fail(r.pointer, fmt::format("{}, out of 1..{}", r.said, ShapeLimits::kMaxBoardSide));
  return static_cast<int>(r.value);
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
    const std::string what = fmt::format("component '{}': faces' {}", name, key);
    const Reference end = reference(it->at(key), pointer + "/" + key, what, true, key);
    for (long long value : {end.least, end.value})
      if (value < -ShapeLimits::kMaxFaceNumber || value > ShapeLimits::kMaxFaceNumber)
        fail(end.pointer, fmt::format("component '{}': faces' {}, out of {}..{}", name, end.said,
                                      -ShapeLimits::kMaxFaceNumber, ShapeLimits::kMaxFaceNumber));
    return end;
  };
  const Reference from = end_of("from"), to = end_of("to");
  // A range that follows the player count must hold a face at the fewest players too.
  if (to.least < from.least && to.least != to.value)
    fail(to.pointer, fmt::format("component '{}': faces from {} to {} at {} players would be none ({}; {}): to must be "
                                 "at least from",
                                 name, from.least, to.least, min_players_, from.said, to.said));
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
    std::string plus;
    if (v.is_object() && v.contains("plus") && v.at("plus").is_number_integer())
      plus = fmt::format(" {:+}", v.at("plus").get<long long>());
    if (v.is_object() && v.contains("option") && v.at("option").is_string())
      return "options." + v.at("option").get<std::string>() + plus;
    if (v.is_object() && v.contains("players")) return "players" + plus;
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
