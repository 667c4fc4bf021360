#include "play/replay.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "observation/event_recorder.hpp"
#include "play/explicit_chance.hpp"
#include "play/log_file.hpp"
#include "play/match.hpp"
#include "play/position_service.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace rulebook {

using nlohmann::json;

namespace {

// An answer's seat or option index as an int, or nothing when the log holds
// a value no game could have written (negative, fractional, beyond int).
std::optional<int> small_int(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<int>::max())) return static_cast<int>(u);
    return std::nullopt;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (i >= 0 && i <= std::numeric_limits<int>::max()) return static_cast<int>(i);
    return std::nullopt;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d >= 0 && d <= std::numeric_limits<int>::max() && std::floor(d) == d) return static_cast<int>(d);
  }
  return std::nullopt;
}

// An answer as the log writes it (make_log): [seat, index] or [seat, index, N].
std::string answer_text(const AnswerRecord& a) {
  return a.together ? fmt::format("[{}, {}, {}]", a.seat, a.index, a.together) : fmt::format("[{}, {}]", a.seat, a.index);
}

constexpr size_t kMaxLogSetupItems = 1000;

ReplayReport failed(std::string message, size_t events = 0) {
  ReplayReport r;
  r.events = events;
  r.message = std::move(message);
  return r;
}

}  // namespace

ReplayReport replay_log(const json& log, const EngineLimits& limits, EventSink* watcher) {
  if (!log.is_object() || log.value("format", "") != "rulebook-log")
    throw SetupError("log: error: not a rulebook log (\"format\": \"rulebook-log\" missing)");
  GameSpec spec;
  try {
    spec.game = log.at("game").get<std::string>();
    spec.variants = log.at("variants").get<std::vector<std::string>>();
    spec.sets = log.at("sets").get<std::vector<std::string>>();
    // The schema bounds players (1..32) and seed (0..2^64-1), so these
    // conversions are exact.
    spec.players = log.at("players").get<int>();
    spec.seed = log.at("seed").get<uint64_t>();
    spec.names = log.at("names").get<std::vector<std::string>>();
  } catch (const json::exception&) {
    throw SetupError("log: error: the log does not follow schemas/log.schema.json");
  }
  // Lists no game writes so long: refused before any setup is loaded.
  for (const auto& [field, size] : {std::pair<const char*, size_t>{"variants", spec.variants.size()},
                                    {"sets", spec.sets.size()}, {"names", spec.names.size()}})
    if (size > kMaxLogSetupItems)
      return failed(fmt::format("{}: the log lists {}, more than the {} a log may", field, size, kMaxLogSetupItems));
  std::vector<AnswerRecord> answers;
  const json& logged_answers = log.at("answers");
  for (size_t i = 0; i < logged_answers.size(); ++i) {
    const json& a = logged_answers[i];
    const auto seat = small_int(a.at(0)), index = small_int(a.at(1));
    if (!seat || *seat >= spec.players)
      return failed(fmt::format("answer {} is given by seat {}, which is not a seat of this {}-player game",
                                i + 1, a.at(0).dump(), spec.players));
    if (!index) return failed(fmt::format("answer {} picks option {}, which no decision has", i + 1, a.at(1).dump()));
    std::optional<int> together = 0;
    if (a.size() > 2) together = small_int(a.at(2));
    if (!together) return failed(fmt::format("answer {} names simultaneous decision {}, which no game has", i + 1, a.at(2).dump()));
    answers.push_back({Seat{*seat}, *index, *together});
  }
  // Who gave the answers is a record, not a check: any agent's answers
  // (a search bot's, an external program's, a person's) replay alike.
  if (log.contains("agents") && log.at("agents").size() != static_cast<size_t>(spec.players))
    return failed(fmt::format("agents: the log lists {} agents for {} players", log.at("agents").size(), spec.players));

  auto def = load_game(spec.game, LoadOptions{spec.variants, spec.sets});
  if (log.contains("game_name") && log.at("game_name") != def->name)
    return failed(fmt::format("game_name differs:\n  log:    {}\n  replay: {}", log.at("game_name").dump(),
                              json(def->name).dump()));
  {
    GameState named(*def);  // the names the replay will give the players
    named.reset(spec.players, spec.seed, spec.names);
    json names = json::array();
    for (const auto& p : named.players()) names.push_back(p.name);
    if (log.at("names") != names)
      return failed(fmt::format("names differ:\n  log:    {}\n  replay: {}", log.at("names").dump(), names.dump()));
  }
  // A game whose chance was explicit (the Python module's) carries its
  // outcomes: they are played instead of the seed's draws.
  std::unique_ptr<ExplicitChance> chance;
  if (log.contains("chance")) {
    std::vector<int> outcomes;
    const json& logged = log.at("chance");
    for (size_t i = 0; i < logged.size(); ++i) {
      const auto outcome = small_int(logged[i]);
      if (!outcome) return failed(fmt::format("chance outcome {} is {}, which no draw has", i + 1, logged[i].dump()));
      outcomes.push_back(*outcome);
    }
    chance = std::make_unique<ExplicitChance>(std::move(outcomes));
  }
  Match match(def, limits);
  if (chance) match.set_chance_override(chance.get());
  EventRecorder recorder;
  match.add_sink(&recorder);
  if (watcher) match.add_sink(watcher);
  LogReplayAgent replayer(&answers, answers.size());
  for (Seat s : Seat::all(spec.players)) match.set_agent(s, &replayer);
  match.record_answers();
  GameResult result;
  try {
    result = match.play(spec.players, spec.seed, spec.names);
  } catch (const std::exception& e) {
    if (chance && chance->stopped())
      return failed(fmt::format("the log's {} chance outcomes run out: the game draws again", chance->used()));
    return failed(fmt::format("the replay failed: {}", e.what()));
  }
  if (chance && chance->used() != log.at("chance").size())
    return failed(fmt::format("the game drew {} chance outcomes, the log has {}", chance->used(), log.at("chance").size()));
  const auto& expected = log.at("events");
  const auto& got = recorder.events();
  const size_t n = std::min(expected.size(), got.size());
  for (size_t i = 0; i < n; ++i)
    if (expected[i] != got[i])
      return failed(fmt::format("event {} differs:\n  log:    {}\n  replay: {}", i + 1, expected[i].dump(),
                                got[i].dump()),
                    i);
  if (expected.size() != got.size())
    return failed(fmt::format("the log has {} events, the replay {}", expected.size(), got.size()), n);
  if (replayer.next() != answers.size())
    return failed(fmt::format("the replay used {} of the log's {} answers", replayer.next(), answers.size()), n);
  // Every number of every answer, the simultaneous decisions' numbers
  // included: the replay records its answers as the game numbered them.
  const std::vector<AnswerRecord>& given = match.answers();
  for (size_t i = 0; i < answers.size(); ++i)
    if (i >= given.size() || given[i].seat != answers[i].seat || given[i].index != answers[i].index ||
        given[i].together != answers[i].together)
      return failed(fmt::format("answer {} differs:\n  log:    {}\n  replay: {}", i + 1, answer_text(answers[i]),
                                i < given.size() ? answer_text(given[i]) : std::string("none")),
                    n);
  const json replayed = result_json(match.state(), result);
  // The schema lets a log omit its result: everything else is still checked.
  if (log.contains("result") && log.at("result") != replayed)
    return failed(fmt::format("the result differs:\n  log:    {}\n  replay: {}", log.at("result").dump(),
                              replayed.dump()),
                  n);
  ReplayReport report;
  report.ok = true;
  report.events = n;
  report.summary = result.summary;
  return report;
}

}  // namespace rulebook
