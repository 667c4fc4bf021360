#include "spiel/spiel_game.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "setup/game_loader.hpp"
#include "spiel/spiel_state.hpp"

namespace rulebook::spiel {

using nlohmann::json;

std::shared_ptr<SpielGame> SpielGame::load(const SpielGameOptions& options) {
  std::shared_ptr<SpielGame> game(new SpielGame());
  game->definition_ = load_game(options.game, LoadOptions{options.variants, options.sets});
  const GameDefinition& def = *game->definition_;
  const int players = options.players ? options.players : def.default_players;
  if (players < def.min_players || players > def.max_players)
    throw SpielUsageError(fmt::format("{} is played by {} to {} players, not {}", def.title.empty() ? def.name : def.title,
                                      def.min_players, def.max_players, players));
  if (!options.names.empty() && options.names.size() != static_cast<size_t>(players))
    throw SpielUsageError(fmt::format("{} names for {} players", options.names.size(), players));
  game->players_ = players;
  game->spec_ = GameSpec{options.game, options.variants, options.sets, players, 1, options.names};
  game->engine_ = std::make_unique<RuleEngine>(game->definition_, options.limits);
  return game;
}

// The states run on the engine: they hold the game, so it outlives them.
SpielGame::~SpielGame() = default;

std::unique_ptr<SpielState> SpielGame::new_initial_state(uint64_t seed, ChanceMode chance) {
  return std::make_unique<SpielState>(shared_from_this(), seed, chance);
}

namespace {

int log_int(const json& v, const char* what, size_t i) {
  if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > (1 << 30))
    throw SpielUsageError(fmt::format("the log's {} {} is {}, not a small whole number", what, i + 1, v.dump()));
  return static_cast<int>(v.get<int64_t>());
}

}  // namespace

std::unique_ptr<SpielState> SpielGame::deserialize_state(const std::string& text) {
  json log = json::parse(text, nullptr, false);
  if (log.is_discarded() || !log.is_object() || log.value("format", "") != "rulebook-log")
    throw SpielUsageError("not a rulebook log (serialize() writes one: \"format\": \"rulebook-log\")");
  try {
    if (log.contains("game_name") && log.at("game_name").get<std::string>() != definition_->name)
      throw SpielUsageError(fmt::format("the log is of {}, this game is {}", log.at("game_name").dump(),
                                        json(definition_->name).dump()));
    if (log.at("players").get<int>() != players_)
      throw SpielUsageError(fmt::format("the log is of a {}-player game, this game has {} players",
                                        log.at("players").get<int>(), players_));
    if (log.at("variants").get<std::vector<std::string>>() != spec_.variants ||
        log.at("sets").get<std::vector<std::string>>() != spec_.sets)
      throw SpielUsageError(fmt::format("the log's variants {} and settings {} are not this game's ({} and {}): "
                                        "load the game with them",
                                        log.at("variants").dump(), log.at("sets").dump(), json(spec_.variants).dump(),
                                        json(spec_.sets).dump()));
    const uint64_t seed = log.at("seed").get<uint64_t>();
    const bool explicit_chance = log.contains("chance");
    // Answers and chance outcomes interleave in the game as the rules draw;
    // the state keeps them apart (the override plays the outcomes), so
    // their order between each other does not matter here.
    std::vector<SpielState::Step> steps;
    const json& answers = log.at("answers");
    for (size_t i = 0; i < answers.size(); ++i) {
      const json& a = answers.at(i);
      if (!a.is_array() || a.size() < 2 || a.size() > 3)
        throw SpielUsageError(fmt::format("the log's answer {} is {}, not [seat, option] or [seat, option, N]", i + 1, a.dump()));
      const int seat = log_int(a.at(0), "answer's seat", i);
      if (seat >= players_) throw SpielUsageError(fmt::format("the log's answer {} is given by seat {}", i + 1, seat));
      steps.push_back({Seat{seat}, log_int(a.at(1), "answer", i), a.size() > 2 ? log_int(a.at(2), "answer's decision", i) : 0});
    }
    if (explicit_chance) {
      const json& outcomes = log.at("chance");
      if (!outcomes.is_array()) throw SpielUsageError("the log's \"chance\" is not a list of outcomes");
      for (size_t i = 0; i < outcomes.size(); ++i) steps.push_back({Seat::none(), log_int(outcomes.at(i), "chance outcome", i), 0});
    }
    return std::make_unique<SpielState>(shared_from_this(), seed, explicit_chance ? ChanceMode::Explicit : ChanceMode::Sampled,
                                        steps);
  } catch (const json::exception& e) {
    throw SpielUsageError(fmt::format("the log does not follow schemas/log.schema.json: {}", e.what()));
  }
}

}  // namespace rulebook::spiel
