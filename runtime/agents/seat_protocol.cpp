#include "agents/seat_protocol.hpp"

#include <fmt/format.h>

#include "core/game_state.hpp"

namespace rulebook::seat_protocol {

using nlohmann::json;

GameInfo game_info(const GameState& state) {
  GameInfo info;
  info.game = state.definition().name;
  info.title = state.definition().title;
  for (const auto& player : state.players()) info.names.push_back(player.name);
  info.options = state.definition().options;
  return info;
}

json hello(const GameInfo& game, Seat seat, uint64_t stream_seed) {
  return json{{"type", "hello"},          {"protocol", kVersion},       {"game", game.game},
              {"title", game.title},      {"seat", seat},               {"players", game.names},
              {"options", game.options},  {"seed", stream_seed}};
}

json event(const json& redacted_event) { return json{{"type", "event"}, {"event", redacted_event}}; }

json decide(const DecisionRequest& request, int number) {
  json options = json::array();
  for (int i = 0; i < request.count(); ++i) {
    json option{{"index", i}, {"label", request.labels[static_cast<size_t>(i)]}};
    // Where the option is on the table (a page offers it by a click).
    if (static_cast<size_t>(i) < request.targets.size() && !request.targets[static_cast<size_t>(i)].is_null())
      option["target"] = request.targets[static_cast<size_t>(i)];
    options.push_back(std::move(option));
  }
  json decide{{"type", "decide"}, {"decision", number}, {"seat", request.seat},
              {"prompt", request.prompt}, {"options", std::move(options)}, {"view", request.view}};
  // A simultaneous decision: the seats deciding at once (every decide of
  // the group goes out before any answer is read).
  if (!request.together.empty()) decide["together"] = request.together;
  return decide;
}

json undo(int number, const json& view) { return json{{"type", "undo"}, {"decision", number}, {"view", view}}; }

json end(const json& result) { return json{{"type", "end"}, {"result", result}}; }

namespace {

std::string excerpt(std::string_view text) {
  constexpr size_t kMax = 80;
  std::string out;
  for (char c : text.substr(0, kMax)) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (static_cast<unsigned char>(c) < 0x20) out += '?';
    else out += c;
  }
  if (text.size() > kMax) out += "...";
  return out;
}

Answer refuse(std::string why) { return Answer{-1, std::move(why)}; }

}  // namespace

Answer check_answer(const json& answer, int option_count, int number) {
  if (!answer.is_object()) return refuse(fmt::format("expected an object {{\"choose\": INDEX}}, got {}", answer.type_name()));
  for (const auto& [key, value] : answer.items())
    if (key != "choose" && key != "decision")
      return refuse(fmt::format("unknown field \"{}\" (an answer is {{\"choose\": INDEX}})", excerpt(key)));
  if (answer.contains("decision")) {
    const json& d = answer.at("decision");
    if (!d.is_number_integer()) return refuse(fmt::format("\"decision\" must be an integer, got {}", excerpt(d.dump())));
    if (d.get<int64_t>() != number)
      return refuse(fmt::format("answers decision {} but decision {} is asked", d.get<int64_t>(), number));
  }
  const auto choose = answer.find("choose");
  if (choose == answer.end()) return refuse("no \"choose\" field (an answer is {\"choose\": INDEX})");
  if (!choose->is_number_integer())
    return refuse(fmt::format("\"choose\" must be an integer index, got {}", excerpt(choose->dump())));
  const int64_t index = choose->get<int64_t>();
  if (index < 0 || index >= option_count)
    return refuse(fmt::format("\"choose\" is {} but there are {} options (0 to {})", index, option_count,
                              option_count - 1));
  return Answer{static_cast<int>(index), {}};
}

Answer parse_answer(std::string_view line, int option_count, int number) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (line.empty()) return refuse("an empty line, not an answer");
  const json answer = json::parse(line.begin(), line.end(), nullptr, false);
  if (answer.is_discarded()) return refuse(fmt::format("not JSON: '{}'", excerpt(line)));
  return check_answer(answer, option_count, number);
}

}  // namespace rulebook::seat_protocol
