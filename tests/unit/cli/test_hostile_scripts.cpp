// The hostile-script suite: every way a rule script has been found to
// escape the budget or the memory cap, run through the real `rulebook`
// binary. Each must end with exit 1, a message naming the script and line,
// and stop within generous bounds of time and memory that prove it was
// stopped (these are not performance assertions: the bounds are ten times
// what is needed).
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "inline_game.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "core/game_state.hpp"
#include "lua/rule_engine.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

extern char** environ;

using namespace rulebook;

namespace {

const std::string kYaml = test::one_die_game_yaml("hostile", "Hostile");

// Rule scripts whose play function starts on line 4.
std::string rules_with_play(const std::string& body) {
  return test::rules_lua(body + "\n  game:finish{winners = {0}}");
}

struct Run {
  int exit_code = -1;
  std::string output;  // stdout and stderr
  double seconds = 0;
  long max_rss_kib = 0;
};

constexpr int kCapMiB = 64;
// What the process may use beyond the cap: its own code and buffers, and
// under AddressSanitizer also the shadow memory and the quarantine of
// freed blocks (about 200 MiB more for the memory bombs).
#ifdef RULEBOOK_SANITIZED
constexpr long kOverheadMiB = 512;
#else
constexpr long kOverheadMiB = 128;
#endif

// Runs `rulebook play DIR` with a small budget and cap; measures the
// child's wall time and peak RSS.
Run play(const std::string& dir, std::vector<std::string> extra = {}, const std::string& seconds = "0.3",
         int cap_mib = kCapMiB) {
  const std::string out = test::temp_folder("hostile") + "/out";
  std::vector<std::string> args{RULEBOOK_BINARY, "play", dir, "--seed", "1", "--max-seconds", seconds,
                                "--max-memory", std::to_string(cap_mib)};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  Run r;
  if (posix_spawn(&pid, RULEBOOK_BINARY, &actions, nullptr, argv.data(), environ) == 0) {
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.max_rss_kib = usage.ru_maxrss;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  posix_spawn_file_actions_destroy(&actions);
  r.output = test::read_text(out);
  return r;
}

// A hostile play function: exit 1, "rules.lua:LINE:" and `expected` in
// the message, within the time and memory bounds.
void expect_stopped(const std::string& body, int line, const std::string& expected,
                    const std::string& seconds = "0.3") {
  test::TempGame game(kYaml, rules_with_play(body));
  const Run r = play(game.dir(), {}, seconds);
  INFO(body);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("rules.lua:" + std::to_string(line) + ":"));
  CHECK_THAT(r.output, Catch::Contains(expected));
  CHECK(r.seconds < 60.0);                                  // a few seconds of CPU at most
  CHECK(r.max_rss_kib < (kCapMiB + kOverheadMiB) * 1024L);  // the cap and the process
}

}  // namespace

TEST_CASE("hostile: loops end with the time budget, whatever catches them", "[hostile]") {
  expect_stopped("  while true do end", 4, "time budget");
  expect_stopped("  for _ = 1, math.maxinteger do pcall(function() while true do end end) end", 4, "time budget");
  expect_stopped("  xpcall(function() while true do end end, function(m) return m end)", 4, "time budget");
  // A message handler that loops never runs once the budget is spent.
  expect_stopped("  local n = 0\n  xpcall(function() while true do n = n + 1 end end, function() while true do end end)",
                 5, "time budget");
  // Endless tail calls (no stack growth) and a loop in a coroutine-free closure.
  expect_stopped("  local function f(n) return f(n + 1) end\n  f(1)", 4, "time budget");
  // A __close handler that loops runs under the budget too.
  expect_stopped(
      "  local guard <close> = setmetatable({}, {__close = function() while true do end end})\n"
      "  while true do end",
      5, "time budget");
  // Deep recursion is Lua's own stack overflow, with its line.
  expect_stopped("  local function f(n) return 1 + f(n + 1) end\n  f(1)", 4, "stack overflow", "20");
}

TEST_CASE("hostile: finalizers are refused", "[hostile]") {
  expect_stopped("  setmetatable({}, {__gc = function() while true do end end})", 4, "'__gc' is not allowed");
  expect_stopped("  setmetatable({}, {__gc = function() local t = {} while true do t[#t + 1] = {} end end})", 4,
                 "'__gc' is not allowed");
  // Adding __gc later does not make a finalizer in Lua 5.4; nothing runs at shutdown.
  test::TempGame later(kYaml, rules_with_play(
                                  "  local mt = {}\n"
                                  "  local keep = setmetatable({}, mt)\n"
                                  "  mt.__gc = function() while true do end end\n"
                                  "  game.state.keep = #tostring(keep)"));
  const Run r = play(later.dir());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.seconds < 30.0);
  // At the top level of rules.lua (where `validate` used to hang).
  test::TempGame top(kYaml, "setmetatable({}, {__gc = function() while true do end end})\n" + rules_with_play(""));
  const auto v = test::run_rulebook("validate '" + top.dir() + "'");
  INFO(v.err);
  CHECK(v.exit_code != 0);
  CHECK_THAT(v.err + v.out, Catch::Contains("rules.lua:1:"));
  CHECK_THAT(v.err + v.out, Catch::Contains("'__gc' is not allowed"));
}

TEST_CASE("hostile: a rules table whose __index raises is an error, not a crash", "[hostile]") {
  // The optional rule functions (evaluate, describe) are read through the
  // table's metatable, in a protected call.
  test::TempGame game(kYaml,
                      "local rules = {}\n"
                      "function rules.setup(game) end\n"
                      "function rules.play(game) game:finish{} end\n"
                      "return setmetatable(rules, {__index = function(t, k) error('no rule ' .. k) end})\n");
  const Run r = play(game.dir());
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("rules.lua:4: no rule evaluate"));
}

TEST_CASE("hostile: weak tables are refused", "[hostile]") {
  // When a weak table loses an entry depends on the whole history of the Lua
  // state: simulate (one state, many games) would play a seed differently
  // from play and replay.
  expect_stopped("  local probe = setmetatable({}, {__mode = 'v'})", 4, "'__mode' is not allowed");
  expect_stopped("  local probe = setmetatable({}, {__mode = 'k', __index = {}})", 4, "'__mode' is not allowed");
}

TEST_CASE("hostile: the pattern matcher's worst cases are refused before they start", "[hostile]") {
  for (const char* call : {"find", "match", "gmatch", "gsub"}) {
    const std::string extra = std::string(call) == "gsub" ? ", 'x'" : "";
    expect_stopped(std::string("  local s = ('a'):rep(600)\n  local r = s:") + call + "('.-.-.-.-b'" + extra + ")", 5,
                   "pattern too complex for a subject of 600 bytes");
  }
  // Plain finds are bounded too.
  expect_stopped("  local s = ('a'):rep(1 << 23)\n  s:find(('a'):rep(1 << 16) .. 'b', 1, true)", 5,
                 "pattern too complex");
}

TEST_CASE("hostile: string.rep and the table library are bounded", "[hostile]") {
  // An empty result takes no time, however many times it is repeated.
  expect_stopped("  local s = string.rep('', math.maxinteger)\n  error('done ' .. #s)", 5, "done 0");
  expect_stopped("  local s = string.rep('', math.maxinteger, '')\n  error('done ' .. #s)", 5, "done 0");
  expect_stopped("  local s = string.rep('x', math.maxinteger)", 4, "larger than the memory cap");
  expect_stopped("  table.move({}, 1, math.maxinteger - 1, 2)", 4, "too many elements to move");
  expect_stopped("  table.move({}, math.mininteger, -2, 1)", 4, "too many elements to move");
  // Metamethods that are C functions run no Lua instruction: the length
  // (read once) bounds the loop.
  const std::string huge =
      "  local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end,\n"
      "                              __index = tostring, __newindex = tostring, __name = ''})\n";
  expect_stopped(huge + "  table.concat(t)", 6, "too many elements");
  expect_stopped(huge + "  table.concat(t, '', 1, math.maxinteger)", 6, "too many elements");
  expect_stopped(huge + "  table.insert(t, 1, 'x')", 6, "too many elements");
  expect_stopped(huge + "  table.insert(t, 'x')", 6, "too many elements");
  expect_stopped(huge + "  table.remove(t, 1)", 6, "too many elements");
  expect_stopped(huge + "  table.sort(t)", 6, "too many elements");
  expect_stopped(huge + "  table.unpack(t)", 6, "too many");
  expect_stopped("  table.unpack({}, 1, 1e8)", 4, "too many elements");
  // Sorting grows faster than its input: a million elements at most.
  expect_stopped("  local t = {}\n  for i = 1, (1 << 20) + 1 do t[i] = -i end\n  table.sort(t)", 6,
                 "too many elements to sort");
}

TEST_CASE("hostile: memory bombs hit the cap", "[hostile]") {
  // A time budget the cap comes well before (collections near the cap take time).
  expect_stopped("  local t = {}\n  for i = 1, math.maxinteger do t[i] = ('x'):rep(1000) .. i end", 5,
                 "memory cap of 64 MiB", "20");
  expect_stopped("  local s = 'x'\n  pcall(function() while true do s = s .. s end end)", 5, "memory cap", "20");
  expect_stopped("  local t = {}\n  for i = 1, math.maxinteger do t[i] = i end", 5, "memory cap", "20");
}

TEST_CASE("hostile: game:finish details that refer to themselves or explode", "[hostile]") {
  expect_stopped("  local t = {}\n  for i = 1, 10 do t[i] = t end\n  game:finish{details = t}", 6, "contains itself");
  expect_stopped("  local t = {}\n  for i = 1, 40 do t = {t, t} end\n  game:finish{details = t}", 6,
                 "more than 100000 values");
  expect_stopped("  local t = {}\n  for i = 1, 1000 do t = {t} end\n  game:finish{details = t}", 6, "nested deeper");
}

TEST_CASE("hostile: a very deep table constructor names its file and line", "[hostile]") {
  const std::string deep = std::string(100000, '{') + std::string(100000, '}');
  test::TempGame game(kYaml, "local rules = {}\nlocal x =\n" + deep + "\n" + rules_with_play(""));
  const Run r = play(game.dir());
  INFO(r.output.substr(0, 2000));
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code < 128);
  CHECK_THAT(r.output, Catch::Contains("rules.lua:3: nesting too deep"));
  // And through load(), in a chunk of its own.
  expect_stopped("  local f, err = load('return ' .. ('{'):rep(100000))\n  error(err)", 5,
                 "(load):1: nesting too deep");
}

TEST_CASE("hostile: runaway code at the top level of rules.lua is stopped while loading", "[hostile]") {
  test::TempGame game(kYaml, "local n = 0\nwhile true do n = n + 1 end\n" + rules_with_play(""));
  const auto def = load_game(game.dir());
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    RuleEngine engine(def, EngineLimits{0, 64u << 20, 0.2});
  } catch (const ScriptError& e) {
    message = e.what();
  }
  CHECK_THAT(message, Catch::Contains("rules.lua:2:"));
  CHECK_THAT(message, Catch::Contains("time budget (0.2 seconds"));
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 30.0);
}

TEST_CASE("hostile: the exact instruction budget still stops every loop", "[hostile]") {
  test::TempGame game(kYaml, rules_with_play("  for _ = 1, 1e9 do pcall(function() while true do end end) end"));
  const Run r = play(game.dir(), {"--max-instructions", "1000000"}, "0");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("rules.lua:4:"));
  CHECK_THAT(r.output, Catch::Contains("instruction budget of 1000000 instructions"));
}

TEST_CASE("hostile: __close handlers a finished game leaves run under the budget", "[hostile]") {
  // game:finish ends the game inside the to-be-closed variable's scope; the
  // handler runs when the engine resets the thread for the next game.
  test::TempGame game(kYaml, rules_with_play(
                                 "  local guard <close> = setmetatable({}, {__close = function() while true do end end})\n"
                                 "  game:finish{winners = {1}}"));
  const auto def = load_game(game.dir());
  Match match(def, EngineLimits{0, 64u << 20, 0.2});
  FirstAgent first;
  match.set_agents({&first, &first});
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 3; ++i) {
    const GameResult r = match.play(2, 1);
    CHECK(r.finished);
    CHECK(r.winners == std::vector<Seat>{Seat{1}});
  }
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 30.0);
}

TEST_CASE("hostile: --max-seconds takes a number of seconds from 0 to 1000000", "[hostile]") {
  test::TempGame game(kYaml, rules_with_play(""));
  for (const char* bad : {"-1", "nan", "1e9", "soon"}) {
    INFO(bad);
    const Run r = play(game.dir(), {}, bad);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("--max-seconds"));
  }
  CHECK(play(game.dir(), {}, "0").exit_code == 0);
  CHECK(play(game.dir(), {}, "2.5").exit_code == 0);
}

TEST_CASE("hostile: rule scripts are read up to the input-file limit", "[hostile]") {
  // A 17 MiB rules.lua (sparse: no disk used), and an endless device as a
  // module required during a game.
  test::TempGame game(kYaml, "");
  std::filesystem::resize_file(game.dir() + "/rules.lua", 17u << 20);
  const Run r = play(game.dir());
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("rules.lua: file is larger than 16 MiB, the limit for input files"));
  CHECK(r.seconds < 60.0);
  CHECK(r.max_rss_kib < (kCapMiB + kOverheadMiB) * 1024L);

  test::TempGame module(kYaml, rules_with_play("  require('endless')"));
  test::TempGame huge(kYaml, rules_with_play("  require('huge')"));
  huge.write("huge.lua", "");
  std::filesystem::resize_file(huge.dir() + "/huge.lua", 17u << 20);
  const Run h = play(huge.dir());
  INFO(h.output);
  CHECK(h.exit_code == 1);
  CHECK_THAT(h.output, Catch::Contains("rules.lua:4:"));
  CHECK_THAT(h.output, Catch::Contains("huge.lua: file is larger than 16 MiB"));
  // An endless device is out of the game folder: a link to it is refused before it is read.
  std::filesystem::create_symlink("/dev/zero", module.dir() + "/endless.lua");
  const Run m = play(module.dir());
  INFO(m.output);
  CHECK(m.exit_code == 1);
  CHECK_THAT(m.output, Catch::Contains("rules.lua:4:"));
  CHECK_THAT(m.output, Catch::Contains("module 'endless' is outside the game folder"));
  CHECK(m.seconds < 60.0);
}

TEST_CASE("hostile: a rules table whose lookups raise or loop is refused while loading", "[hostile]") {
  // Reading 'setup' and 'play' runs the table's __index: it must run under
  // the budget and inside a protected call (never a panic or a hang).
  for (const std::string& index : {std::string("function() error('no rules here') end"),
                                   std::string("function() while true do end end")}) {
    test::TempGame game(kYaml, "return setmetatable({}, {__index = " + index + "})\n");
    const Run r = play(game.dir());
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.exit_code < 128);
    CHECK_THAT(r.output, Catch::Contains("rules.lua:1:"));
    CHECK(r.seconds < 60.0);
  }
  test::TempGame missing(kYaml, "return {setup = function() end}\n");
  const Run r = play(missing.dir());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("rules.lua: the returned table has no function 'play'"));
}

TEST_CASE("hostile: bots that search stop at the first simulation that runs away", "[hostile][search]") {
  // The loop waits for the third decision: every bot's simulations reach it
  // before the true game does. They run under --max-seconds (not the
  // engine's default of 5 s), and the first one that runs over it ends the
  // bot's search: without that, each of hundreds of simulations spent a
  // whole budget (minutes for one game).
  const std::string body =
      "  for turn = 1, 20 do\n"                                 // 4
      "    if turn == 3 then while true do end end\n"           // 5
      "    game:choose(turn % 2, 'pick', {'left', 'right'})\n"  // 6
      "  end";
  test::TempGame game(kYaml, rules_with_play(body));
  for (const char* bot : {"greedy", "ismcts:iterations=50", "mcts:iterations=50"}) {
    const Run r = play(game.dir(), {"--agent", std::string("all=") + bot});
    INFO(bot);
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("rules.lua:5:"));
    CHECK_THAT(r.output, Catch::Contains("time budget (0.3 seconds"));
    // The simulation's own budget was the command line's.
    CHECK_THAT(r.output, Catch::Contains("a simulated game ran over the rules' limits (") &&
                             Catch::Contains("time budget (0.3 seconds of CPU time, --max-seconds)); the bot stops "
                                             "searching and chooses at random for the rest of the game"));
    CHECK(r.seconds < 60.0);  // a few budgets at most
  }
}

TEST_CASE("sandbox: the CLI exits 1 with the message for an infinite loop", "[sandbox]") {
  // The default budget is 5 seconds of CPU time; the test asks for less.
  // Every game is hostile here: the CLI plays the default player count.
  test::TempGame game(kYaml, test::rules_lua("  while true do end"));
  const std::string out = (std::filesystem::temp_directory_path() / ("rb-cli" + std::to_string(::getpid()) + ".txt")).string();
  const std::string command = std::string("'") + RULEBOOK_BINARY + "' play '" + game.dir() +
                              "' --seed 1 --max-seconds 0.3 > '" + out + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(out);
  INFO(text);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK_THAT(text, Catch::Contains("rules.lua:4:"));
  CHECK_THAT(text, Catch::Contains("time budget (0.3 seconds of CPU time, --max-seconds)"));
}

TEST_CASE("hostile: narrating one huge action costs what its lines cost", "[hostile][narration]") {
  // A 20,000-card deal with a message for each card, in one action: the
  // narrator merges an action's lines in C++, outside the script's budget,
  // and its merging compared every line with every message (minutes at
  // --max-seconds 2). Now each question is asked once, from an allowance.
  const std::string yaml =
      "name: deal\ntitle: Deal\nscript: rules.lua\nplayers: {min: 2, max: 2}\n"
      "zones:\n"
      "  - {name: deck, title: the deck, visibility: hidden}\n"
      "  - {name: hand, per_player: true, title: \"{player}'s hand\", visibility: public}\n"
      "components:\n"
      "  - {name: ace, kind: card, title: Ace, count: 10000, zone: deck}\n"
      "  - {name: king, kind: card, title: King, count: 10000, zone: deck}\n";
  const std::string lua = test::rules_lua(
      "  game:finish{winners = {0}}",
      "  local deck, hand = game:zone('deck'), game:zone('hand', 0)\n"
      "  for i = 1, 20000 do\n"
      "    deck:top():move(hand)\n"
      "    game:say('card %d of the deal', i)\n"
      "  end");
  test::TempGame game(yaml, lua);
  const Run r = play(game.dir(), {}, "2");
  INFO(r.output.substr(0, 2000));
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("card 20000 of the deal"));
  CHECK(r.seconds < 60.0);  // seconds at most; it was minutes
}

namespace {

// Runs `play` at a memory cap of `cap_mib` and returns the run.
Run play_capped(const std::string& dir, int cap_mib) {
  return play(dir, {}, "60", cap_mib);
}

}  // namespace

TEST_CASE("hostile: memory freed by one size of block is reused by the next", "[hostile][memory]") {
  // Fill 20 MiB with strings of one size, drop them, then the next size:
  // freed blocks used to stay in their size class (310 MiB at a 64 MiB
  // cap). The heap now holds at most the cap.
  test::TempGame game(kYaml, rules_with_play(
      "  for _, size in ipairs({60, 120, 250, 400, 700, 1000, 1500, 2500, 4000, 6000, 9000, 14000}) do\n"
      "    local t = {}\n"
      "    for i = 1, (20 << 20) // size do t[i] = string.rep('x', size - 8) .. i end\n"
      "  end"));
  const Run r = play(game.dir(), {}, "60");
  INFO(r.output);
  // Either the game ends, or the cap stops it: never more memory than that.
  CHECK((r.exit_code == 0 || r.output.find("memory cap of 64 MiB") != std::string::npos));
  CHECK(r.max_rss_kib < (kCapMiB + kOverheadMiB) * 1024L);
}

TEST_CASE("hostile: the cap counts the memory a block takes, not what it asked for", "[hostile][memory]") {
  // Strings of 520 bytes used to be charged 520 and take 1024: twice the
  // cap (516 MiB at 256). The cap is the heap's real size now.
  const int cap = 200;
  test::TempGame game(kYaml, rules_with_play(
      "  local t = {}\n"
      "  for i = 1, math.maxinteger do t[i] = string.rep('x', 490) .. string.format('%020d', i) end"));
  const Run r = play_capped(game.dir(), cap);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("memory cap of 200 MiB"));
  CHECK(r.max_rss_kib < (cap + kOverheadMiB) * 1024L);
}
