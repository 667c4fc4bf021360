// Decision::labels and Decision::same_labels (a search's reads of all the
// labels at a step): the same text as Decision::label(i), option by
// option, for every kind of option game:choose takes and for a waiting
// decision (kept labels after a restore included).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "inline_game.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

// Options of every kind game:choose labels: a table's own label, a string,
// a label a metatable builds, one whose __index raises, a number, a
// boolean, invalid UTF-8, a string with a NUL, a component, and longer
// strings whose bad byte or NUL lies past their first eight; then seats.
const char* const kOptions = R"(  local built = setmetatable({}, {__index = function(_, key)
    if key == "label" then return "built" end
  end})
  local raising = setmetatable({}, {__index = function() error("boom") end})
  local die = game:zone("supply"):top()
  game:choose(0, "Pick", {{label = "kept"}, "plain", built, raising, 7, 2.5, true, "\xff\xfe", "a\0b", die,
              "abcdefgh\xffijklmno", "abcdefghij\0klmnop", "twelve chars"})
  game:choose(0, "Who?", {0, 1}, "seat")
  game:finish{winners = {0}}
)";

// What labels(), same_labels() and label(i) said at each decision.
struct Reads {
  std::vector<std::string> one_by_one, all_at_once;
  bool same = false, other_text = true, shorter = true, longer = true;
  bool unmended = false;  // same_labels with an option's raw bytes in place of its mended label
};

Reads read_labels(const Decision& d) {
  Reads r;
  for (int i = 0; i < d.count(); ++i) r.one_by_one.push_back(d.label(i));
  r.all_at_once = {"left over", "from", "before", "x", "x", "x", "x", "x", "x", "x", "x", "x"};  // storage reused
  d.labels(r.all_at_once);
  r.same = d.same_labels(r.one_by_one);
  std::vector<std::string> other = r.one_by_one;
  other.back() += "!";
  r.other_text = d.same_labels(other);
  other = r.one_by_one;
  other.pop_back();
  r.shorter = d.same_labels(other);
  other = r.one_by_one;
  other.push_back("more");
  r.longer = d.same_labels(other);
  other = r.one_by_one;
  bool replaced = false;
  for (std::string& label : other) {
    if (label == "\xEF\xBF\xBD\xEF\xBF\xBD") label = "\xff\xfe", replaced = true;
    if (label == "abcdefgh\xEF\xBF\xBDijklmno") label = "abcdefgh\xffijklmno", replaced = true;
  }
  r.unmended = replaced && d.same_labels(other);
  return r;
}

void check_reads(const Reads& r, const std::vector<std::string>& expected) {
  CHECK(r.one_by_one == expected);
  CHECK(r.all_at_once == expected);
  CHECK(r.same);
  CHECK_FALSE(r.other_text);
  CHECK_FALSE(r.shorter);
  CHECK_FALSE(r.longer);
  CHECK_FALSE(r.unmended);
}

struct ReadingAgent : Agent {
  std::vector<Reads> reads;
  std::string kind() const override { return "reading"; }
  bool answers_at_once() const override { return true; }
  int choose(const Decision& d) override {
    reads.push_back(read_labels(d));
    return 0;
  }
};

const std::vector<std::string> kFirst{"kept",   "plain", "built", "option 4",    "7",  "2.5",
                                      "yes",    "\xEF\xBF\xBD\xEF\xBF\xBD", "a", "die (one)", "abcdefgh\xEF\xBF\xBDijklmno", "abcdefghij",
                                      "twelve chars"};

}  // namespace

TEST_CASE("labels: game:choose's options read all at once, and compared, as one by one", "[labels]") {
  const test::TempGame game(test::one_die_game_yaml("labels", "Labels"), test::rules_lua(kOptions));
  const auto def = load_game(game.dir());
  Match match(def);
  auto agent = std::make_unique<ReadingAgent>();
  ReadingAgent* reading = agent.get();
  match.set_agent(Seat{0}, std::move(agent));
  match.set_agent(Seat{1}, std::make_unique<FirstAgent>());
  match.play(2, 1);
  REQUIRE(reading->reads.size() == 2);
  check_reads(reading->reads[0], kFirst);
  const std::vector<std::string> seats{match.state().player(Seat{0}).name, match.state().player(Seat{1}).name};
  check_reads(reading->reads[1], seats);
}

TEST_CASE("labels: a waiting decision's labels read all at once, kept ones after a restore too", "[labels][checkpoint]") {
  const test::TempGame game(test::one_die_game_yaml("labels", "Labels"), test::rules_lua(kOptions));
  const auto def = load_game(game.dir());
  Match match(def);
  REQUIRE(match.start(2, 1));
  auto reads_now = [&] {
    Reads r;
    match.decide_pending(Seat{0}, [&](const Decision& d) {
      r = read_labels(d);
      return 0;
    });
    return r;
  };
  check_reads(reads_now(), kFirst);
  GameCheckpoint saved;
  match.save(saved);  // keeps the heap's own labels (the first two)
  for (int round = 0; round < 2; ++round) {
    match.restore(saved);
    check_reads(reads_now(), kFirst);
  }
}

TEST_CASE("labels: a restored decision whose labels are all kept has a number for them, and only then", "[labels][checkpoint]") {
  // Decision::labels_token: a search compares it instead of the labels at
  // a node it has seen the same labels at. Only an untouched restore of a
  // save whose labels are all the heap's own has one, a save's own.
  const test::TempGame game(test::one_die_game_yaml("tokens", "Tokens"), test::rules_lua(R"(  game:choose(0, "Pick", {{label = "kept"}, "plain"})
  game:choose(0, "Again", {{label = "kept"}, "plain", setmetatable({}, {__index = function() return "built" end})})
  game:choose(0, "Last", {{label = "kept"}, "plain"})
  game:finish{winners = {0}}
)"));
  const auto def = load_game(game.dir());
  Match match(def);
  REQUIRE(match.start(2, 1));
  auto token_now = [&] {
    uint64_t token = 0;
    match.decide_pending(Seat{0}, [&](const Decision& d) {
      token = d.labels_token();
      return 0;
    });
    return token;
  };
  CHECK(token_now() == 0);  // not restored
  GameCheckpoint first, second, third;
  match.save(first);
  match.restore(first);
  const uint64_t at_first = token_now();
  CHECK(at_first != 0);
  match.restore(first);
  CHECK(token_now() == at_first);
  REQUIRE(match.answer(Seat{0}, 0));
  match.save(second);  // a label built by a metatable: not kept
  match.restore(second);
  CHECK(token_now() == 0);
  REQUIRE(match.answer(Seat{0}, 0));
  match.save(third);
  match.restore(third);
  const uint64_t at_third = token_now();
  CHECK(at_third != 0);
  CHECK(at_third != at_first);  // other labels, another save
  match.save(first);  // saved again: a new number
  match.restore(first);
  CHECK(token_now() != at_third);
  CHECK(token_now() != at_first);
  CHECK(match.pending(Seat{0}).labels == std::vector<std::string>{"kept", "plain"});  // built on first read
  CHECK(token_now() == 0);
}
