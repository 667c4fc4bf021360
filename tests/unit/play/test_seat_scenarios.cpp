// Scenarios that look through a seat's eyes (issue 40): what one seat was
// told (`expect: narration_for:`), forced orders of particular copies (by
// id or by the face they show, not only by type), and answers that are
// always a label ({label: "1"}) beside the old forms, which keep their
// meaning.
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <string>

#include "play/scenario.hpp"
#include "setup/setup_error.hpp"

using namespace rulebook;
using rulebook::test::TempGame;

namespace {

std::string all_failures(const ScenarioOutcome& o) {
  std::string out;
  for (const auto& f : o.failures) out += f + "\n";
  return out;
}

// Cards held facing out: Ann sees Bob's card, not her own.
const char* const kYaml = R"(name: eyes
title: Eyes
script: rules.lua
players: {min: 2, max: 2, default: 2, names: [Ann, Bob]}
zones:
  - {name: deck, title: the deck, visibility: hidden}
  - {name: hand, per_player: true, title: "{player}'s hand", visibility: others}
components:
  - {name: guard, kind: card, title: Guard, zone: deck}
  - {name: king, kind: card, title: King, zone: deck}
  - {name: prize, kind: card, title: prize, faces: {from: 1, to: 4}, face: {in_order: true}, count: 4, zone: deck}
)";

const char* const kPlay = R"(
  local deck = game:zone("deck")
  deck:shuffle()
  local order = {}
  for i = 1, deck:count() do
    local c = deck:get(i)
    order[i] = c:type() == "prize" and ("prize " .. c:face()) or c:type()
  end
  game.state.order = table.concat(order, ",")
  deck:top():move(game:zone("hand", 0))
  deck:top():move(game:zone("hand", 1))
  game.state.pick = game:choose(0, "Pick", {"2", "1", "three"})
  game:finish{}
)";

ScenarioOutcome run(const TempGame& game, const std::string& name) {
  return run_scenario(game.dir() + "/scenarios/" + name + ".yaml");
}

}  // namespace

TEST_CASE("scenarios: narration_for checks what one seat was told, by name or seat number", "[scenario][seat]") {
  TempGame game(kYaml, rulebook::test::rules_lua(kPlay),
                {{"scenarios/told.yaml",
                  "name: told\nshuffles: [{zone: deck, top: [king, guard]}]\nanswers: [1]\nexpect:\n"
                  "  narration_for:\n"
                  "    Ann: {contains: [\"Guard moves from the deck to Bob's hand\"], lacks: [King]}\n"
                  "    \"1\": {contains: [\"King moves from the deck to Ann's hand\"], lacks: [Guard]}\n"},
                 {"scenarios/leaks.yaml",
                  "name: leaks\nshuffles: [{zone: deck, top: [king, guard]}]\nanswers: [1]\nexpect:\n"
                  "  narration_for:\n    Ann: {lacks: [Guard]}\n    Bob: {contains: [King moves to nowhere]}\n"},
                 {"scenarios/nobody.yaml", "name: nobody\nanswers: [1]\nexpect:\n  narration_for: {Zed: {lacks: [x]}, \"5\": {lacks: [x]}}\n"}});
  const ScenarioOutcome told = run(game, "told");
  INFO(all_failures(told) << told.narration);
  CHECK(told.passed);
  // The full narration names both cards: only a seat's own is redacted.
  CHECK(told.narration.find("King moves from the deck to Ann's hand") != std::string::npos);

  const ScenarioOutcome leaks = run(game, "leaks");
  CHECK_FALSE(leaks.passed);
  CHECK_THAT(all_failures(leaks), Catch::Contains("narration for Ann: \"Guard\" should not appear (that seat was told it)"));
  CHECK_THAT(all_failures(leaks), Catch::Contains("narration for Bob: \"King moves to nowhere\" not found"));
  const ScenarioOutcome nobody = run(game, "nobody");
  CHECK_THAT(all_failures(nobody), Catch::Contains("expect.narration_for: no player 'Zed'"));
  CHECK_THAT(all_failures(nobody), Catch::Contains("expect.narration_for: no player '5'"));
}

TEST_CASE("scenarios: a forced shuffle may name particular copies, by face or by id", "[scenario][shuffle]") {
  // Component ids: guard 0, king 1, prizes 2..5 showing 1..4.
  TempGame game(kYaml, rulebook::test::rules_lua(kPlay),
                {{"scenarios/faces.yaml",
                  "name: faces\nshuffles: [{zone: deck, top: [{face: \"3\"}, {type: prize, face: \"1\"}, king, {id: 0}]}]\n"
                  "answers: [1]\nexpect:\n  state: {order: 'prize 3,prize 1,king,guard,prize 2,prize 4'}\n"},
                 {"scenarios/ids.yaml",
                  "name: ids\nshuffles: [{zone: deck, top: [{id: 5}, {id: 2}]}]\nanswers: [1]\n"
                  "expect:\n  lua: ['game.state.order:sub(1, 16) == \"prize 1,prize 4,\"']\n"},
                 {"scenarios/missing.yaml",
                  "name: missing\nshuffles: [{zone: deck, top: [{face: \"3\"}, {face: \"3\"}, {type: king, id: 0}]}]\n"
                  "answers: [1]\nexpect: {}\n"}});
  const ScenarioOutcome faces = run(game, "faces");
  INFO(all_failures(faces));
  CHECK(faces.passed);
  const ScenarioOutcome ids = run(game, "ids");
  INFO(all_failures(ids));
  CHECK(ids.passed);
  const ScenarioOutcome missing = run(game, "missing");
  CHECK_THAT(all_failures(missing), Catch::Contains("forced shuffle of deck: no copy with face 3 left to put on top"));
  CHECK_THAT(all_failures(missing), Catch::Contains("forced shuffle of deck: no copy with type king and id 0 left"));
}

TEST_CASE("scenarios: {label: X} always means the label; a number keeps meaning an option's number", "[scenario][answers]") {
  // The options are labelled "2", "1" and "three".
  TempGame game(kYaml, rulebook::test::rules_lua(kPlay),
                {{"scenarios/number.yaml", "name: number\nanswers: [1]\nexpect:\n  state: {pick: \"2\"}\n"},
                 {"scenarios/text.yaml", "name: text\nanswers: [\"1\"]\nexpect:\n  state: {pick: \"2\"}\n"},
                 {"scenarios/label.yaml", "name: label\nanswers: [{label: \"1\"}]\nexpect:\n  state: {pick: \"1\"}\n"},
                 {"scenarios/word.yaml", "name: word\nanswers: [{label: Three}]\nexpect:\n  state: {pick: three}\n"},
                 {"scenarios/none.yaml", "name: none\nanswers: [{label: \"3\"}]\nexpect: {}\n"}});
  for (const char* name : {"number", "text", "label", "word"}) {
    const ScenarioOutcome o = run(game, name);
    INFO(name << ": " << all_failures(o));
    CHECK(o.passed);
  }
  // "3" would be the third option as a number; as a label it is no option.
  CHECK_THAT(all_failures(run(game, "none")), Catch::Contains("scenario answer '3' is not an option of \"Pick\""));
}

TEST_CASE("scenarios: the new forms are checked against the schema", "[scenario][schema]") {
  TempGame game(kYaml, rulebook::test::rules_lua(kPlay),
                {{"scenarios/bad-label.yaml", "name: bad\nanswers: [{label: [1]}]\nexpect: {}\n"},
                 {"scenarios/bad-copy.yaml", "name: bad\nshuffles: [{zone: deck, top: [{colour: red}]}]\nexpect: {}\n"},
                 {"scenarios/bad-seat.yaml", "name: bad\nexpect:\n  narration_for: {Ann: {includes: [x]}}\n"}});
  for (const char* name : {"bad-label", "bad-copy", "bad-seat"}) {
    INFO(name);
    CHECK_THROWS_AS(run(game, name), SetupError);
  }
}
