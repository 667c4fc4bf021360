// The sandbox: hostile rule scripts end with a clear ScriptError and the
// engine plays the next game normally; what scripts may not reach is not
// there; what must be deterministic is.
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <sys/wait.h>
#include <vector>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "core/game_state.hpp"
#include "core/rng.hpp"
#include "lua/rule_engine.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using nlohmann::json;
using namespace rulebook;
namespace fs = std::filesystem;

namespace {

const char* const kSandboxYaml = R"(name: sandbox
title: Sandbox
script: rules.lua
players: {min: 2, max: 3, default: 3}
options: {target: 3, nested: {a: 1}}
zones:
  - {name: supply}
components:
  - {name: die, kind: die, faces: [one, two, three, four, five, six], count: 2, zone: supply}
)";

// A game folder with the sandbox test's game.yaml.
class TempGame : public rulebook::test::TempGame {
 public:
  explicit TempGame(const std::string& lua, const std::map<std::string, std::string>& extra = {})
      : rulebook::test::TempGame(kSandboxYaml, lua, extra) {}
};

// Small limits keep the hostile games fast.
constexpr EngineLimits kLimits{5'000'000, 32u * 1024 * 1024};

struct Table {
  explicit Table(const TempGame& game, EngineLimits limits = kLimits)
      : def(load_game(game.dir())), match(def, limits) {}
  GameResult play(int players, uint64_t seed = 1) {
    match.set_agents(std::vector<Agent*>(static_cast<size_t>(players), &first));
    return match.play(players, seed);
  }
  // The message of the ScriptError the game ends with ("" if none).
  std::string failure(int players, uint64_t seed = 1) {
    try {
      play(players, seed);
    } catch (const ScriptError& e) {
      return e.what();
    }
    return "";
  }
  std::shared_ptr<const GameDefinition> def;
  Match match;  // one engine, reused by every game
  FirstAgent first;
};

// A script whose play runs `hostile` with 2 players and finishes normally
// (details.ok = true) with 3: the engine must survive the first to play
// the second.
std::string hostile_script(const std::string& hostile) {
  return "local rules = {}\n"                                    // 1
         "function rules.setup(game) end\n"                      // 2
         "local function hostile(game)\n"                        // 3
         + hostile +                                             // 4..
         "\nend\n"
         "function rules.play(game)\n"
         "  if game:player_count() == 2 then hostile(game) end\n"
         "  game:finish{winners = {0}, details = {ok = true}}\n"
         "end\n"
         "return rules\n";
}

// Runs the hostile game, expects a ScriptError containing every `expected`
// text, then checks the engine plays a normal game afterwards.
std::string expect_contained(const std::string& hostile, const std::vector<std::string>& expected,
                             EngineLimits limits = kLimits) {
  TempGame game(hostile_script(hostile));
  Table t(game, limits);
  const std::string message = t.failure(2);
  INFO(message);
  CHECK_FALSE(message.empty());
  for (const auto& e : expected) CHECK_THAT(message, Catch::Contains(e));
  const GameResult r = t.play(3);
  CHECK(r.finished);
  CHECK(r.details.at("ok") == true);
  // And once more, the hostile game again: the same failure (the first
  // line: how many levels a traceback skips may vary).
  auto first_line = [](const std::string& text) { return text.substr(0, text.find('\n')); };
  CHECK(first_line(t.failure(2)) == first_line(message));
  return message;
}

// A script whose play stores what `body` computes into details `d`.
std::string probe_script(const std::string& body, const std::string& top = "") {
  return "local rules = {}\n" + top + "\nfunction rules.setup(game) end\nfunction rules.play(game)\n  local d = {}\n" +
         body + "\n  game:finish{details = d}\nend\nreturn rules\n";
}

json probe(const std::string& body, const std::string& top = "", EngineLimits limits = kLimits) {
  TempGame game(probe_script(body, top));
  Table t(game, limits);
  return t.play(3).details;
}

}  // namespace

TEST_CASE("sandbox: an infinite loop hits the instruction budget", "[sandbox]") {
  const std::string message = expect_contained("  while true do end", {"rules.lua:4:", "instruction budget"});
  CHECK_THAT(message, Catch::Contains("5000000"));
  CHECK_THAT(message, Catch::Contains("stack traceback:"));
}

TEST_CASE("sandbox: pcall cannot catch the instruction budget", "[sandbox]") {
  expect_contained("  pcall(function() while true do end end)", {"rules.lua:4:", "instruction budget"});
  expect_contained("  xpcall(function() while true do end end, function(m) return m end)",
                   {"instruction budget"});
  // Catching in a loop does not help either.
  expect_contained("  for _ = 1, 1000 do pcall(function() while true do end end) end",
                   {"instruction budget"});
  // Nor does an error handler that loops.
  expect_contained("  xpcall(error, function() while true do end end)", {"instruction budget"});
}

TEST_CASE("sandbox: after a game hits the budget, the next games still have one", "[sandbox]") {
  // A long but finite loop: should the budget be lost after the first
  // failure, the later games would finish instead of failing.
  TempGame game(hostile_script("  for i = 1, 300000000 do end"));
  Table t(game);
  for (int i = 0; i < 3; ++i) {
    CHECK_THAT(t.failure(2), Catch::Contains("instruction budget"));
    CHECK(t.play(3).finished);
  }
}

TEST_CASE("sandbox: the budget is per game", "[sandbox]") {
  // Each game uses about 40% of the budget: fine game after game.
  TempGame game(probe_script("  local n = 0\n  for i = 1, 1000000 do n = n + i end\n  d.n = n"));
  Table t(game);
  for (int i = 0; i < 3; ++i) CHECK(t.play(3).details.at("n") == 500000500000LL);
  // No budget at all (0) means no limit.
  Table unlimited(game, EngineLimits{0, 32u * 1024 * 1024});
  CHECK(unlimited.play(3).details.at("n") == 500000500000LL);
}

TEST_CASE("sandbox: a memory bomb hits the memory cap", "[sandbox]") {
  expect_contained(
      "  local t = {}\n"
      "  for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end",
      {"memory cap of 32 MiB"});
  // One huge allocation.
  expect_contained("  local s = string.rep('x', 1 << 30)", {"memory cap"});
  // Doubling a string inside pcall: still the end of the game.
  expect_contained(
      "  local s = 'x'\n"
      "  pcall(function() while true do s = s .. s end end)",
      {"memory cap"});
  // A table that grows without end.
  expect_contained("  local t = {}\n  local i = 0\n  while true do i = i + 1; t[i] = {i} end",
                   {"memory cap"}, EngineLimits{0, 32u * 1024 * 1024});
}

TEST_CASE("sandbox: a refusal that Lua's emergency collection makes good leaves no abort behind", "[sandbox]") {
  // Half the cap is kept; garbage of the same size comes and goes. The
  // collector starts a cycle late, so an allocation meets the cap, Lua
  // collects everything at once and asks again, and that succeeds: the
  // game goes on and ends well (it used to end with a stale "memory cap"
  // at that line once game:finish raised its own abort).
  const json d = probe(
      "  local keep = {}\n"
      "  for i = 1, 150 do keep[i] = string.rep('k', 100000) .. i end\n"
      "  for i = 1, 2000 do local garbage = string.rep('x', 100000) .. i end\n"
      "  d.kept = #keep");
  CHECK(d.at("kept") == 150);
}

TEST_CASE("sandbox: a weak table made by a metatable changed after setmetatable fails the game",
          "[sandbox][weak]") {
  // setmetatable refuses '__mode'; set on the metatable afterwards, it
  // would make the game depend on when the collector ran. The guard finds
  // it after the game (and before a search's checkpoint), with the line of
  // the setmetatable call.
  const std::string message = expect_contained(
      "  local mt = {}\n"
      "  local t = setmetatable({}, mt)\n"
      "  mt.__mode = 'k'\n"
      "  t[{}] = true",
      {"rules.lua:5: the metatable given to setmetatable here got a '__mode' field afterwards",
       "weak tables are not allowed"});
  (void)message;
  // The same metatable given twice is reported where it was first given.
  expect_contained(
      "  local mt = {}\n"
      "  local a = setmetatable({}, mt)\n"
      "  local b = setmetatable({}, mt)\n"
      "  mt.__mode = 'v'",
      {"rules.lua:5: the metatable given to setmetatable here got a '__mode' field afterwards"});
}

TEST_CASE("sandbox: a late weak metatable among several is found, named by its first position in the text",
          "[sandbox][weak]") {
  // The look after the game reads the metatables in the order given and
  // the positions only when one has a '__mode': the weak one given second
  // must be read, and the message names the first position in text order,
  // not the first given (line 4, in the helper, comes after line 6).
  expect_contained(
      "  local function give(mt) return setmetatable({}, mt) end\n"
      "  local plain, weak = {}, {}\n"
      "  setmetatable({}, plain)\n"
      "  setmetatable({}, weak)\n"
      "  give(weak)\n"
      "  weak.__mode = 'k'",
      {"rules.lua:7: the metatable given to setmetatable here got a '__mode' field afterwards"});
  expect_contained(
      "  local function give(mt) return setmetatable({}, mt) end\n"
      "  local a, b = {}, {}\n"
      "  setmetatable({}, a)\n"
      "  give(b)\n"
      "  a.__mode = 'k'\n"
      "  b.__mode = 'v'",
      {"rules.lua:4: the metatable given to setmetatable here got a '__mode' field afterwards"});
}

TEST_CASE("sandbox: a read-only table given as a metatable is not watched, and its mark cannot be forged",
          "[sandbox][weak]") {
  // The guarded rules table can never get a '__mode' (new fields are
  // refused), so it is left out of the look; a plain metatable given after
  // it is still found.
  expect_contained(
      "  local a = setmetatable({}, rules)\n"
      "  assert(not pcall(function() rules.__mode = 'k' end))\n"
      "  local mt = {}\n"
      "  local b = setmetatable({}, mt)\n"
      "  mt.__mode = 'k'",
      {"rules.lua:7: the metatable given to setmetatable here got a '__mode' field afterwards"});
  // A metatable whose own metatable carries the read-only mark is still a
  // plain table: it is watched.
  expect_contained(
      "  local mt = setmetatable({}, {__frozen = true})\n"
      "  local t = setmetatable({}, mt)\n"
      "  mt.__mode = 'k'",
      {"rules.lua:5: the metatable given to setmetatable here got a '__mode' field afterwards"});
}

namespace {

// A 3-player game of `lua` (rules.play waits at a decision of seat 0 before
// it finishes), started on `t` and waiting there: rules.evaluate can be asked.
void start_waiting(Table& t) {
  t.match.set_agents(std::vector<Agent*>(3, nullptr));
  REQUIRE(t.match.start(3, 1));
}

const char* const kWaitingPlay =
    "local rules = {}\n"
    "function rules.setup(game) end\n"
    "function rules.play(game) game:choose(0, 'wait', {1, 2}) game:finish{winners = {0}} end\n";

}  // namespace

TEST_CASE("sandbox: a decision or the game's end inside rules.evaluate is refused by name", "[sandbox][evaluate]") {
  for (const std::string call : {"game:choose(seat, 'pick', {1, 2})", "game:finish{winners = {0}}",
                                 "game:choose_together({0, 1}, 'pick', {1, 2})"}) {
    TempGame game(std::string(kWaitingPlay) +
                  "function rules.evaluate(game, seat)\n"
                  "  " + call + "\n"
                  "  return 0.5\n"
                  "end\n"
                  "return rules\n");
    Table t(game);
    start_waiting(t);
    const std::string method = call.substr(0, call.find_first_of("({"));
    INFO(call);
    try {
      (void)t.match.evaluation(Seat{1});
      FAIL("no error");
    } catch (const ScriptError& e) {
      CHECK_THAT(e.what(), Catch::Contains("rules.lua:4: rules.evaluate(game, 1) failed: ") &&
                               Catch::Contains("rules.lua:5: " + method + " cannot be called inside rules.evaluate"));
    }
  }
}

TEST_CASE("sandbox: every seat's evaluation is one run under one budget", "[sandbox][evaluate]") {
  // Each seat's evaluation spends 60% of the instruction budget: one
  // seat's fits, all three in one run do not (each seat had a budget of
  // its own): the second seat's runs over.
  TempGame game(std::string(kWaitingPlay) +
                "function rules.evaluate(game, seat)\n"
                "  for i = 1, 600000 do end\n"
                "  return seat / 4\n"
                "end\n"
                "return rules\n");
  Table t(game, EngineLimits{1'000'000, 32u * 1024 * 1024});
  start_waiting(t);
  CHECK(t.match.evaluation(Seat{2}) == 0.5);
  CHECK_THROWS_WITH(t.match.evaluations(), Catch::Contains("rules.lua:4: rules.evaluate(game, 1) failed") &&
                                               Catch::Contains("instruction budget"));
  TempGame fine(std::string(kWaitingPlay) +
                "function rules.evaluate(game, seat) return (seat + math.random(0, 0)) / 4 end\n"
                "return rules\n");
  Table u(fine);
  start_waiting(u);
  const auto all = u.match.evaluations();
  REQUIRE(all);
  CHECK(*all == std::vector<double>{0.0, 0.25, 0.5});
  // A value outside [0, 1] names the function's line and the seat.
  TempGame seven(std::string(kWaitingPlay) + "function rules.evaluate(game, seat) return seat == 1 and 7 or 0 end\n" +
                 "return rules\n");
  Table v(seven);
  start_waiting(v);
  CHECK_THROWS_WITH(v.match.evaluations(), Catch::Contains("rules.lua:4: rules.evaluate(game, 1) returned 7"));
}

TEST_CASE("sandbox: dangerous functions and libraries are absent", "[sandbox]") {
  for (const char* name : {"os", "io", "debug", "package", "dofile", "loadfile", "collectgarbage",
                           "rawset", "coroutine", "next", "loadstring", "setfenv", "module"}) {
    INFO(name);
    // At load time the name is simply nil...
    const json d = probe(std::string("  d.absent_at_load = absent_at_load\n  d.ok, d.err = pcall(function() return ") +
                             name + " end)",
                         std::string("local absent_at_load = ") + name + " == nil");
    CHECK(d.at("absent_at_load") == true);
    // ... and once the globals are sealed, reading it is an error.
    CHECK(d.at("ok") == false);
    CHECK_THAT(d.at("err").get<std::string>(),
               Catch::Contains(std::string("attempt to read undeclared global '") + name + "'"));
  }
  const json d = probe(
      "  d.dump = string.dump == nil\n"
      "  d.randomseed = math.randomseed == nil\n"
      "  d.string_meta = getmetatable('')\n"
      "  d.ok = pcall(function() return os.execute('true') end)");
  CHECK(d.at("dump") == true);
  CHECK(d.at("randomseed") == true);
  CHECK(d.at("string_meta") == "string");  // the real metatable stays out of reach
  CHECK(d.at("ok") == false);
}

TEST_CASE("sandbox: load refuses bytecode and runs text in the sandbox", "[sandbox]") {
  const json d = probe(R"(
  local f, err = load("\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0")
  d.binary_nil = f == nil
  d.binary_err = err
  local ok, err2 = pcall(load, "return 1", "chunk", "b")
  d.mode_ok, d.mode_err = ok, err2
  local ok3, err3 = pcall(load, "return 1", "chunk", "bt")
  d.mode_bt_ok, d.mode_bt_err = ok3, err3
  local ok4, err4 = pcall(load, function() return "return 1" end)
  d.reader_ok, d.reader_err = ok4, err4
  d.text = load("return 1 + 2")()
  local ok5, err5 = pcall(load("return os"))
  d.env_ok, d.env_err = ok5, err5
  local g, syntax = load("return +", "=mine")
  d.syntax_nil, d.syntax = g == nil, syntax
)");
  CHECK(d.at("binary_nil") == true);
  CHECK_THAT(d.at("binary_err").get<std::string>(), Catch::Contains("binary chunk"));
  CHECK(d.at("mode_ok") == false);
  CHECK_THAT(d.at("mode_err").get<std::string>(), Catch::Contains("binary chunks are not allowed"));
  CHECK(d.at("mode_bt_ok") == false);
  CHECK(d.at("reader_ok") == false);
  CHECK_THAT(d.at("reader_err").get<std::string>(), Catch::Contains("source text"));
  CHECK(d.at("text") == 3);
  CHECK(d.at("env_ok") == false);
  CHECK_THAT(d.at("env_err").get<std::string>(), Catch::Contains("undeclared global 'os'"));
  CHECK(d.at("syntax_nil") == true);
  CHECK_THAT(d.at("syntax").get<std::string>(), Catch::Contains("mine:1:"));
}

TEST_CASE("sandbox: deep recursion ends with a clean stack overflow", "[sandbox]") {
  // Plain Lua recursion: the Lua stack's limit.
  expect_contained("  local function f(n) return f(n + 1) + 1 end\n  f(1)", {"stack overflow"},
                   EngineLimits{50'000'000, 256u * 1024 * 1024});
  // Recursion through C (a metamethod): the C stack's limit.
  expect_contained(
      "  local t = setmetatable({}, {__index = function(t, k) return t[k] end})\n"
      "  return t.x",
      {"stack overflow"});
  // Caught by pcall, it is an ordinary error the rules may handle.
  const json d = probe(
      "  local function f(n) return f(n + 1) + 1 end\n"
      "  local ok, err = pcall(f, 1)\n"
      "  d.ok, d.err = ok, err",
      "", EngineLimits{50'000'000, 256u * 1024 * 1024});
  CHECK(d.at("ok") == false);
  CHECK_THAT(d.at("err").get<std::string>(), Catch::Contains("stack overflow"));
}

TEST_CASE("sandbox: require stays inside the game folder", "[sandbox]") {
  const std::map<std::string, std::string> modules{
      {"helpers.lua", "local M = {}\nfunction M.double(x) return 2 * x end\nM.list = {1, 2}\nreturn M\n"},
      {"lib/util.lua", "return {name = 'util', loaded_as = ...}\n"},
      {"noreturn.lua", "local x = 1\n"},
  };
  TempGame game(probe_script(R"(
  local helpers = require("helpers")
  d.double = helpers.double(21)
  d.same = require("helpers") == helpers
  d.util = require("lib.util").name
  d.loaded_as = require("lib.util").loaded_as
  d.noreturn = require("noreturn")
  local function try(name)
    local ok, err = pcall(require, name)
    return {ok, err}
  end
  d.parent = try("../x")
  d.absolute = try("/etc/passwd")
  d.dotdot = try("lib..util")
  d.dots = try("..helpers")
  d.slash = try("lib/util")
  d.missing = try("nothing_here")
  d.empty = try("")
  local ok, err = pcall(function() helpers.list[3] = 99 end)
  d.write_ok, d.write_err = ok, err
  local ok2, err2 = pcall(function() helpers.extra = 1 end)
  d.add_ok, d.add_err = ok2, err2
)"), modules);
  Table t(game);
  const json d = t.play(3).details;
  CHECK(d.at("double") == 42);
  CHECK(d.at("same") == true);
  CHECK(d.at("util") == "util");
  CHECK(d.at("loaded_as") == "lib.util");
  CHECK(d.at("noreturn") == true);
  for (const char* key : {"parent", "absolute", "dotdot", "dots", "slash", "empty"}) {
    INFO(key);
    CHECK(d.at(key)[0] == false);
    CHECK_THAT(d.at(key)[1].get<std::string>(), Catch::Contains("module names are letters"));
  }
  CHECK(d.at("missing")[0] == false);
  CHECK_THAT(d.at("missing")[1].get<std::string>(),
             Catch::Contains("module 'nothing_here' not found in the game folder"));
  // Modules are frozen like the rules table.
  CHECK(d.at("write_ok") == false);
  CHECK_THAT(d.at("write_err").get<std::string>(), Catch::Contains("read-only"));
  CHECK(d.at("add_ok") == false);
  // A second game sees the module as it was.
  CHECK(t.play(3).details == d);
}

TEST_CASE("sandbox: require cannot reach a file next to the game folder", "[sandbox]") {
  // A file that exists next to the game folder cannot be reached.
  TempGame game(hostile_script("  require('../secret')"));
  const fs::path outside = fs::path(game.dir()).parent_path() / "secret.lua";
  { std::ofstream(outside) << "return {}\n"; }
  Table t(game);
  const std::string message = t.failure(2);
  fs::remove(outside);
  CHECK_THAT(message, Catch::Contains("bad argument #1 to 'require'"));
  CHECK(t.play(3).finished);
}

TEST_CASE("sandbox: require does not follow a symbolic link out of the game folder", "[sandbox][security]") {
  // A secret and a file that is no Lua, next to the game folder, reached
  // through links inside it; a link that stays inside still loads.
  TempGame game(probe_script(R"(
  local function try(name)
    local ok, err = pcall(require, name)
    return {ok, tostring(err)}
  end
  d.secret = try("secret")
  d.notes = try("lib.notes")
  d.inside = try("alias")
)"), {{"real.lua", "return 'inside'\n"}, {"lib/.keep", ""}});
  const fs::path next_to = fs::path(game.dir()).parent_path() / (fs::path(game.dir()).filename().string() + "-outside");
  fs::create_directories(next_to);
  { std::ofstream(next_to / "secret.lua") << "return 'TOP-SECRET'\n"; }
  { std::ofstream(next_to / "notes.txt") << "password: hunter2\n"; }
  fs::create_symlink(next_to / "secret.lua", fs::path(game.dir()) / "secret.lua");
  fs::create_symlink(next_to / "notes.txt", fs::path(game.dir()) / "lib" / "notes.lua");
  fs::create_symlink("real.lua", fs::path(game.dir()) / "alias.lua");
  Table t(game);
  const json d = t.play(3).details;
  fs::remove_all(next_to);
  for (const char* key : {"secret", "notes"}) {
    INFO(key << ": " << d.at(key).dump());
    CHECK(d.at(key)[0] == false);
    CHECK_THAT(d.at(key)[1].get<std::string>(), Catch::Contains("is outside the game folder"));
    CHECK_THAT(d.at(key)[1].get<std::string>(), !Catch::Contains("TOP-SECRET") && !Catch::Contains("hunter2"));
  }
  CHECK(d.at("inside") == json::array({true, "inside"}));
}

TEST_CASE("sandbox: undeclared globals", "[sandbox]") {
  expect_contained("  counter = 1", {"rules.lua:4:", "attempt to assign to global 'counter'"});
  expect_contained("  local x = missing_value + 1", {"rules.lua:4:", "attempt to read undeclared global 'missing_value'"});
  // Globals the script declared while loading can be read but not changed.
  const json d = probe(
      "  d.limit = LIMIT\n"
      "  local ok, err = pcall(function() LIMIT = 11 end)\n"
      "  d.ok, d.err = ok, err\n"
      "  d.after = LIMIT\n"
      "  local ok2 = pcall(function() _G = 1 end)\n"
      "  d.g_ok = ok2\n"
      "  local ok3, err3 = pcall(setmetatable, rules, {})\n"
      "  d.meta_ok, d.meta_err = ok3, err3\n"
      "  d.rules_meta = getmetatable(rules)",
      "LIMIT = 10");
  CHECK(d.at("limit") == 10);
  CHECK(d.at("ok") == false);
  CHECK_THAT(d.at("err").get<std::string>(), Catch::Contains("attempt to assign to global 'LIMIT'"));
  CHECK(d.at("after") == 10);
  CHECK(d.at("g_ok") == false);
  CHECK(d.at("meta_ok") == false);
  CHECK_THAT(d.at("meta_err").get<std::string>(), Catch::Contains("protected metatable"));
  CHECK(d.at("rules_meta") == "read-only table");
}

TEST_CASE("sandbox: module tables are frozen; games do not share what they write", "[sandbox]") {
  TempGame game(R"(local rules = {}
rules.data = {count = 0, list = {1, 2, 3}}
function rules.setup(game) end
function rules.play(game)
  local d = {}
  d.count_seen = rules.data.count
  d.extra_seen = rules.extra == nil
  d.mark_seen = game.mark == nil
  d.state_seen = game.state.turns == nil
  local function try(f)
    local ok, err = pcall(f)
    return {ok, err or ""}
  end
  d.rules_add = try(function() rules.extra = 1 end)
  d.nested_add = try(function() rules.data.extra = 1 end)
  d.nested_list = try(function() table.insert(rules.data.list, 4) end)
  d.string_lib = try(function() string.upper = string.lower end)
  d.math_lib = try(function() math.pi = 3 end)
  d.table_lib = try(function() table.sort = nil end)
  d.len = #rules.data.list
  game.mark = true
  game.state.turns = 1
  game:finish{details = d}
end
return rules
)");
  Table t(game);
  const json first = t.play(3).details;
  const json second = t.play(3).details;
  CHECK(first == second);  // nothing the first game did reached the second
  CHECK(second.at("count_seen") == 0);
  CHECK(second.at("extra_seen") == true);
  CHECK(second.at("mark_seen") == true);
  CHECK(second.at("state_seen") == true);
  CHECK(second.at("len") == 3);
  for (const char* key : {"rules_add", "nested_add", "nested_list", "string_lib", "math_lib", "table_lib"}) {
    INFO(key);
    CHECK(second.at(key)[0] == false);
    CHECK_THAT(second.at(key)[1].get<std::string>(), Catch::Contains("read-only table"));
  }
}

TEST_CASE("sandbox: a game that changes a module table's field fails, and the next sees it as loaded", "[sandbox]") {
  // Module tables are read at plain-table speed, so a change to an
  // existing field is found after the game, not as it happens.
  const std::map<std::string, std::string> modules{{"helpers.lua", "return {list = {1, 2}, n = 0}\n"}};
  auto script = [](const std::string& change) {
    return R"(local rules = {}
local helpers = require("helpers")
local cache = {hits = 0}
rules.data = {count = 0, list = {1, 2, 3}}
function rules.setup(game) end
function rules.play(game)
  local d = {count = rules.data.count, len = #rules.data.list, first = helpers.list[1],
             hits = cache.hits, play = rules.play ~= nil}
  local sum = 0
  for _, v in ipairs(rules.data.list) do sum = sum + v end
  d.sum = sum
  if game:player_count() == 2 then )" + change + R"( end
  game:finish{details = d}
end
return rules
)";
  };
  const json clean{{"count", 0}, {"len", 3}, {"first", 1}, {"hits", 0}, {"play", true}, {"sum", 6}};
  const std::vector<std::pair<std::string, std::string>> cases{
      {"rules.data.count = 5", "rules.lua: the game changed the read-only rules.data (field 'count')"},
      {"helpers.list[1] = 99", "the game changed the read-only module 'helpers'.list (index 1)"},
      {"cache.hits = 7", "the game changed the read-only module-level table 'cache' (field 'hits')"},
      {"rules.play = nil", "the game changed the read-only rules (field 'play')"},
  };
  for (const auto& [change, message] : cases) {
    INFO(change);
    TempGame game(script(change), modules);
    Table t(game);
    CHECK(t.play(3).details == clean);
    CHECK_THAT(t.failure(2), Catch::Contains(message));
    CHECK(t.play(3).details == clean);  // put back as loaded
  }
}

TEST_CASE("sandbox: a change to a module first required during the game is found after it", "[sandbox]") {
  // Its table is guarded when required, after the rules were locked: the
  // comparison after the game must not stop at the tables locked with them.
  TempGame game(R"(local rules = {}
function rules.setup(game) end
function rules.play(game)
  local late = require("late")
  if game:player_count() == 2 then late.list[1] = 99 end
  game:finish{details = {first = late.list[1]}}
end
return rules
)", {{"late.lua", "return {list = {1, 2}}\n"}});
  Table t(game);
  CHECK(t.play(3).details == json{{"first", 1}});
  CHECK_THAT(t.failure(2), Catch::Contains("the game changed the read-only module 'late'.list (index 1)"));
  CHECK(t.play(3).details == json{{"first", 1}});
}

TEST_CASE("sandbox: module-level locals start every game as loaded", "[sandbox]") {
  TempGame game(R"(local rules = {}
local games_seen = 0
local cache = {hits = 0}
local later
function rules.setup(game) end
function rules.play(game)
  local d = {}
  games_seen = games_seen + 1
  d.games_seen = games_seen
  d.later_was_nil = later == nil
  later = {}
  d.cache_write = pcall(function() cache.misses = 1 end)
  d.cache_hits = cache.hits
  cache = {hits = 100}
  game:finish{details = d}
end
return rules
)");
  Table t(game);
  const json first = t.play(3).details;
  const json second = t.play(3).details;
  CHECK(first == second);
  CHECK(second.at("games_seen") == 1);         // the number assigned last game is back to 0
  CHECK(second.at("later_was_nil") == true);   // so is a local assigned later
  CHECK(second.at("cache_write") == false);    // module tables are frozen
  CHECK(second.at("cache_hits") == 0);         // and a replaced table is restored
}

TEST_CASE("sandbox: a module required during a game starts the next game as in a fresh state",
          "[sandbox]") {
  // Each module keeps a counter in a module-level local. `late` is first
  // required inside play; `early` is required while the rules load, but
  // only for its effect, so the rules table does not reach it.
  const char* const counter = "local n = 0\nlocal M = {}\nfunction M.next() n = n + 1 return n end\nreturn M\n";
  const std::map<std::string, std::string> modules{{"late.lua", counter}, {"early.lua", counter}};
  TempGame game(R"(require("early")
local rules = {}
function rules.setup(game) end
function rules.play(game)
  local late, early = require("late"), require("early")
  local d = {late = {late.next(), late.next()}, early = {early.next(), early.next()}}
  game:finish{details = d}
end
return rules
)", modules);
  const json fresh = Table(game).play(3).details;
  CHECK(fresh == json::parse(R"({"late": [1, 2], "early": [1, 2]})"));
  Table reused(game);
  CHECK(reused.play(3).details == fresh);
  CHECK(reused.play(3).details == fresh);  // game 2 of a reused state plays like a fresh one
  CHECK(reused.play(2, 7).details == fresh);
}

TEST_CASE("sandbox: a module required in every game costs the state nothing that lasts", "[sandbox]") {
  // Each game requires `big` afresh (the module cache starts every game as
  // loaded) and guards its new table. Kept after its game, each table and
  // its snapshot (some 40 KiB) would fill the 4 MiB cap within a hundred
  // games, and each game would compare every earlier game's tables.
  std::string big = "local M = {}\nfor i = 1, 500 do M['field' .. i] = i end\nreturn M\n";
  TempGame game(R"(local rules = {}
function rules.setup(game) end
function rules.play(game)
  local big = require("big")
  game:finish{details = {fields = big.field500}}
end
return rules
)", {{"big.lua", big}});
  Table t(game, EngineLimits{5'000'000, 4u * 1024 * 1024});
  for (int i = 0; i < 300; ++i) {
    const GameResult r = t.play(2, static_cast<uint64_t>(i));
    REQUIRE(r.details.at("fields") == 500);
  }
}

TEST_CASE("sandbox: pairs walks keys in a fixed order", "[sandbox]") {
  const json d = probe(R"(
  local t = {zeta = 1, alpha = 2, [3] = 3, [1] = 1, mid = 5, [true] = 1, [2.5] = 0, [-4] = 0, Beta = 1, [false] = 0}
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  d.keys = keys
  local option_keys = {}
  for k, v in pairs(game.options) do option_keys[#option_keys + 1] = k end
  d.option_keys = option_keys
  local ok, err = pcall(function() for _ in pairs({[{}] = 1}) do end end)
  d.table_key_ok, d.table_key_err = ok, err
  local many = {}
  for i = 1, 200 do many["k" .. (i * 7919 % 1000)] = i end
  local walked = {}
  for k in pairs(many) do walked[#walked + 1] = k end
  d.first, d.last = walked[1], walked[#walked]
  local sorted = true
  for i = 2, #walked do sorted = sorted and walked[i - 1] < walked[i] end
  d.sorted = sorted
  local seen = 0
  for k, v in pairs(many) do if many[k] == v then seen = seen + 1 end end
  d.seen = seen
)");
  CHECK(d.at("keys") == json::array({"-4", "1", "2.5", "3", "Beta", "alpha", "mid", "zeta", "false", "true"}));
  CHECK(d.at("option_keys") == json::array({"nested", "target"}));
  CHECK(d.at("table_key_ok") == false);
  CHECK_THAT(d.at("table_key_err").get<std::string>(), Catch::Contains("no fixed order"));
  CHECK(d.at("sorted") == true);
  CHECK(d.at("seen") == 200);
  CHECK(d.at("first") == "k109");
  CHECK(d.at("last") == "k987");
}

TEST_CASE("sandbox: tostring and string.format show no addresses", "[sandbox]") {
  const json d = probe(R"(
  d.table = tostring({})
  d.func = tostring(print)
  d.lua_func = tostring(function() end)
  d.named = tostring(setmetatable({}, {__name = "Thing"}))
  d.custom = tostring(setmetatable({}, {__tostring = function() return "custom!" end}))
  d.die = tostring(game:components("die")[1])
  d.zone = tostring(game:zone("supply"))
  d.game = tostring(game)
  d.number, d.float, d.bool, d.none = tostring(42), tostring(1.5), tostring(true), tostring(nil)
  local ok, err = pcall(string.format, "%p", {})
  d.p_ok, d.p_err = ok, err
  d.percent = string.format("100%% %d", 5)
  d.format_s = string.format("%s|%s|%s|%5s", {}, print, game, "x")
  d.format_num = string.format("%5.1f", 2.25)
)");
  CHECK(d.at("table") == "table");
  CHECK(d.at("func") == "function");
  CHECK(d.at("lua_func") == "function");
  CHECK(d.at("named") == "Thing");
  CHECK(d.at("custom") == "custom!");
  CHECK(d.at("die") == "die #0");
  CHECK(d.at("zone") == "supply");
  CHECK(d.at("game") == "game");
  CHECK(d.at("number") == "42");
  CHECK(d.at("float") == "1.5");
  CHECK(d.at("bool") == "true");
  CHECK(d.at("none") == "nil");
  CHECK(d.at("p_ok") == false);
  CHECK_THAT(d.at("p_err").get<std::string>(), Catch::Contains("prints addresses"));
  CHECK(d.at("percent") == "100% 5");
  CHECK(d.at("format_s") == "table|function|game|    x");
  CHECK(d.at("format_num") == "  2.2");
  for (const auto& [key, value] : d.items())
    if (value.is_string()) CHECK(value.get<std::string>().find("0x") == std::string::npos);
}

// string.format's plain cases ("%d" of an integer, "%s" of a string, "%%")
// are written by the runtime itself (det_format's fast path), the rest by
// Lua's own: both must write the same bytes and raise the same errors.
TEST_CASE("sandbox: string.format's plain cases write what Lua's string.format writes", "[sandbox]") {
  const json d = probe(R"(
  d.bid = string.format("bid %d x %s", 3, "5")
  d.negative = string.format("%d|%d|%d", -7, math.maxinteger, math.mininteger)
  d.percent = string.format("%%%d%%", 12)
  d.zeros = #string.format("a%sb", "x\0y")
  d.empty = string.format("")
  d.literal = string.format("no conversions")
  d.float_d = string.format("%d", 4.0)
  d.number_s = string.format("%s|%s", 12, 2.5)
  d.long = #string.format("%s%s", string.rep("a", 200), string.rep("b", 200))
  d.extra = string.format("%d", 1, 2, 3)
  local ok, err = pcall(string.format, "%d %s", 1)
  d.missing_ok, d.missing_err = ok, err
  ok, err = pcall(string.format, "%d", 1.5)
  d.fraction_ok, d.fraction_err = ok, err
  ok, err = pcall(string.format, "50%")
  d.trailing_ok, d.trailing_err = ok, err
)");
  CHECK(d.at("bid") == "bid 3 x 5");
  CHECK(d.at("negative") == "-7|9223372036854775807|-9223372036854775808");
  CHECK(d.at("percent") == "%12%");
  CHECK(d.at("zeros") == 5);
  CHECK(d.at("empty") == "");
  CHECK(d.at("literal") == "no conversions");
  CHECK(d.at("float_d") == "4");
  CHECK(d.at("number_s") == "12|2.5");
  CHECK(d.at("long") == 400);
  CHECK(d.at("extra") == "1");
  CHECK(d.at("missing_ok") == false);
  CHECK_THAT(d.at("missing_err").get<std::string>(), Catch::Contains("bad argument #3") && Catch::Contains("no value"));
  CHECK(d.at("fraction_ok") == false);
  CHECK_THAT(d.at("fraction_err").get<std::string>(), Catch::Contains("number has no integer representation"));
  CHECK(d.at("trailing_ok") == false);
  CHECK_THAT(d.at("trailing_err").get<std::string>(), Catch::Contains("bad argument #2"));
}

TEST_CASE("sandbox: print goes to the game's narration without addresses", "[sandbox]") {
  TempGame game(probe_script("  print('hello', 1, {}, nil, true)\n  game:say('%s and %s', {}, 'x')"));
  Table t(game);
  struct Recorder : EventSink {
    std::vector<std::string> lines;
    void on_event(const GameState&, const Event& e) override {
      if (e.type == EventType::Message) lines.push_back(e.text);
    }
  } rec;
  t.match.add_sink(&rec);
  t.play(3);
  CHECK(rec.lines == std::vector<std::string>{"hello\t1\ttable\tnil\ttrue", "table and x"});
}

TEST_CASE("sandbox: math.random is deterministic per seed", "[sandbox]") {
  const std::string body = R"(
  local r = {}
  for i = 1, 20 do r[i] = math.random(100) end
  d.ints = r
  d.range = math.random(-3, 3)
  d.float = math.random()
  local ok, err = pcall(math.random, 0)
  d.empty_ok, d.empty_err = ok, err
  local ok2 = pcall(math.random, 1, 2, 3)
  d.three_ok = ok2
  local inrange = true
  for _ = 1, 1000 do
    local v = math.random(6)
    inrange = inrange and v >= 1 and v <= 6 and math.type(v) == "integer"
  end
  d.inrange = inrange
)";
  TempGame game(probe_script(body));
  Table t(game);
  const json a = t.play(3, 11).details;
  const json b = t.play(3, 11).details;
  const json c = t.play(3, 12).details;
  CHECK(a == b);
  CHECK(a.at("ints") != c.at("ints"));
  // A fresh engine gives the same numbers: nothing depends on the process.
  Table other(game);
  CHECK(other.play(3, 11).details == a);
  CHECK(a.at("inrange") == true);
  CHECK(a.at("range").get<int>() >= -3);
  CHECK(a.at("range").get<int>() <= 3);
  CHECK(a.at("float").get<double>() >= 0.0);
  CHECK(a.at("float").get<double>() < 1.0);
  CHECK(a.at("empty_ok") == false);
  CHECK_THAT(a.at("empty_err").get<std::string>(), Catch::Contains("interval is empty"));
  CHECK(a.at("three_ok") == false);
  // It is the game's chance stream: the first draw matches a die roll.
  Rng chance;
  chance.reseed(11, kChanceStream);
  CHECK(a.at("ints")[0] == static_cast<int>(chance.below(100)) + 1);
}

TEST_CASE("game:finish without keeping details checks them the same and keeps none", "[sandbox][details]") {
  // What simulate asks for (Match::set_keep_details(false)): the same
  // game, the same errors, no JSON built.
  const std::vector<std::string> bodies = {
      "  d.placings = {2, 0, 1}; d.name = 'x'; d[''] = 1; d[true] = 2; d.f = print",
      "  d[1] = 1; d[3] = {a = {b = {}}}; d[2.5] = d",  // a cycle under a key that is skipped
      "  d[1] = print; d[2] = {x = d}",                  // the cycle is in an array: reached
      "  for i = 1, 10 do d[i] = d end",
      "  local t = {}\n  for i = 1, 40 do t = {t, t} end\n  d.t = t",
      "  local t = {}\n  for i = 1, 1000 do t = {t} end\n  d.t = t",
      "  local t = {}\n  for i = 1, 99990 do t[i] = i end\n  d.t = t; d.u = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}",
  };
  int failures = 0;
  for (const auto& body : bodies) {
    INFO(body);
    TempGame game(probe_script(body));
    Table kept(game), skipped(game);
    skipped.match.set_keep_details(false);
    const std::string failure = kept.failure(3);
    CHECK(skipped.failure(3) == failure);
    failures += !failure.empty();
    if (failure.empty()) {
      CHECK_FALSE(kept.play(3).details.empty());
      CHECK(skipped.play(3).details == json::object());
    }
  }
  CHECK(failures == 5);  // all but the first two
}

TEST_CASE("the time budget still stops a run after a run nested in it (a view read during a decision)",
          "[sandbox][budget]") {
  // An agent reading the seat's view runs rules.describe on the game's own
  // thread, inside the game's run: a run nested in a run of the same state.
  // Once it ended, the game's run must still be stopped by its budget (the
  // nested run once took the outer run's place for good: the loop below
  // then ran to its end, tens of seconds, instead of 0.3 s).
  TempGame game(R"(local rules = {}
function rules.setup(game) end
function rules.describe(game, seat) return {"a line"} end
function rules.play(game)
  game:choose(0, "pick", {"a", "b"})
  for _ = 1, 3e9 do end
  game:finish{winners = {0}}
end
return rules
)");
  struct Viewer : Agent {
    std::string kind() const override { return "viewer"; }
    bool answers_at_once() const override { return true; }
    int choose(const Decision& d) override {
      views += d.view().contains("describe");
      return 0;
    }
    int views = 0;
  } viewer;
  const auto def = load_game(game.dir());
  Match match(def, EngineLimits{0, 32u * 1024 * 1024, 0.3});
  match.set_agents({&viewer, &viewer, &viewer});
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    match.play(3, 1);
  } catch (const ScriptError& e) {
    message = e.what();
  }
  CHECK(viewer.views == 1);
  CHECK_THAT(message, Catch::Contains("rules.lua:6:") && Catch::Contains("time budget"));
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 10.0);
}
