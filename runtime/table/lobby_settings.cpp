#include "table/lobby_settings.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/suggest.hpp"
#include "setup/setup_error.hpp"

namespace rulebook {
namespace {

using nlohmann::json;


std::string shown(const std::string& text) { return text.size() > 60 ? text.substr(0, 57) + "..." : text; }

// Whether `value` is of the option's kind (its default's).
bool same_kind(const json& value, const json& default_value) {
  if (default_value.is_number_integer()) return value.is_number_integer();
  if (default_value.is_number()) return value.is_number();
  if (default_value.is_null()) return !value.is_null() && !value.is_object() && !value.is_array();
  return value.type() == default_value.type();
}

const char* kind_phrase(const json& default_value) {
  if (default_value.is_number_integer()) return "a whole number";
  if (default_value.is_number()) return "a number";
  if (default_value.is_null()) return "a single value";
  return json_type_phrase(default_value);
}

}  // namespace

std::vector<std::string> checked_option_sets(const std::vector<std::string>& sets, const LobbyGame& game) {
  const json& options = game.definition->options;
  std::vector<std::string> names;
  if (options.is_object())
    for (const auto& [name, value] : options.items()) names.push_back(name);
  const std::string offered = names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
  std::vector<std::string> out, given;
  for (const std::string& s : sets) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos) throw LobbyError::malformed_request(fmt::format("set: expected PATH=VALUE, got '{}'", shown(s)));
    const std::string path = s.substr(0, eq), text = s.substr(eq + 1);
    static const std::string kOptions = "options.";
    if (path.rfind(kOptions, 0) != 0)
      throw LobbyError::malformed_request(fmt::format("set: the lobby sets only the game's options (options.NAME=VALUE; {} has: {}), not '{}'",
                                  game.name, offered, shown(path)));
    const std::string name = path.substr(kOptions.size());
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw LobbyError::malformed_request(fmt::format("set: error: unknown key '{}' (allowed: {}){}: the lobby sets only {}'s own options",
                                  shown(name), offered, did_you_mean(name, names), game.name));
    if (std::find(given.begin(), given.end(), name) != given.end())
      throw LobbyError::malformed_request(fmt::format("set: options.{} is given twice", name));
    given.push_back(name);
    if (text.size() > kMaxLobbyOptionBytes)
      throw LobbyError::malformed_request(fmt::format("set: options.{} is {} bytes long, more than the lobby takes ({})", name, text.size(),
                                  kMaxLobbyOptionBytes));
    const json& default_value = options.at(name);
    json value;
    if (default_value.is_string()) {
      value = text;  // a text option's value is the text, whatever it looks like
    } else {
      try {
        value = parse_yaml(text, "set").value;
      } catch (const SetupError& e) {
        throw LobbyError::malformed_request(fmt::format("set: options.{}: {}", name, e.what()));
      }
      if (!same_kind(value, default_value) || (value.is_number_float() && !std::isfinite(value.get<double>())))
        throw LobbyError::malformed_request(fmt::format("set: options.{} takes {}, not '{}'", name, kind_phrase(default_value), shown(text)));
    }
    out.push_back(fmt::format("options.{}={}", name, value.dump(-1, ' ', false, json::error_handler_t::replace)));
  }
  return out;
}

}  // namespace rulebook
