// rulebook new / new-variant: scaffold a game folder (or a variant file)
// that validates, plays and passes its scenario at once, wired for editors:
// YAML files name their schema, and .luarc.json points lua-language-server
// at the API's type definitions.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace fs = std::filesystem;

namespace rulebook::cli {
namespace {

const std::regex kIdentifier("^[a-z][a-z0-9_-]*$");  // common.json#/definitions/identifier

std::string modeline(const std::string& schema_file) {
  return fmt::format("# yaml-language-server: $schema={}/{}\n", schemas_root(), schema_file);
}

// "my-game" -> "My Game"
std::string title_of(const std::string& name) {
  std::string title;
  bool word_start = true;
  for (char c : name) {
    if (c == '-' || c == '_') {
      title += ' ';
      word_start = true;
    } else {
      title += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      word_start = false;
    }
  }
  return title;
}

void write_new_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw SetupError(fmt::format("{}: error: cannot write file", path.string()));
}

void check_identifier(const std::string& what, const std::string& name) {
  if (!std::regex_match(name, kIdentifier))
    throw SetupError(fmt::format("{}: error: {} must be a lower-case name (letters, digits, '_' and '-', "
                                 "starting with a letter)", name, what));
}

std::string luarc() {
  nlohmann::json rc = {
      {"$schema", "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json"},
      {"runtime.version", "Lua 5.4"},
      // What the sandbox leaves out, the editor should not offer.
      {"runtime.builtin",
       {{"io", "disable"}, {"os", "disable"}, {"debug", "disable"}, {"package", "disable"},
        {"coroutine", "disable"}}},
      {"workspace.library", {schemas_root() + "/meta"}},
      {"workspace.checkThirdParty", false},
      // Rules keep their per-game data in `game` (game.dice = ...).
      {"diagnostics.disable", {"inject-field"}},
  };
  return rc.dump(2) + "\n";
}

std::string game_yaml(const std::string& name) {
  return modeline("game.schema.json") + fmt::format(R"~(name: {}
title: {}
authors: [You]
source: "where the rules come from (a rulebook, its page, or you)"
description: >
  Players take turns flipping their coin; a player who flips heads scores
  a point, and the first to reach the target wins.
script: rules.lua
players: {{min: 2, max: 4, default: 2, names: [Ann, Bob, Cid, Dee]}}
options:
  target: 3
option_help:
  target: heads needed to win
option_schema:
  type: object
  additionalProperties: false
  required: [target]
  properties:
    target: {{type: integer, minimum: 1}}
zones:
  - {{name: supply, title: the box}}
  - {{name: hand, per_player: true, visibility: public, title: "{{player}}'s coin"}}
components:
  - {{name: coin, kind: die, faces: [heads, tails], count: 4, zone: supply}}
)~",
                                                   name, title_of(name));
}

const char* const kRulesLua = R"~(-- The rules: a table of named functions. The runtime calls rules.setup(game),
-- then rules.play(game), which ends the game with game:finish{...}.
-- One function per rulebook step lets a variant replace exactly one step.
-- The API: docs/lua-api.md (your editor completes it: see .luarc.json).

---@type Rules
local rules = {}

---Deal each player a coin.
---@param game Game
function rules.setup(game)
  game.coins = {}                       -- per-game data lives in `game`
  for seat = 0, game:player_count() - 1 do
    game.coins[seat] = game:zone("hand", seat)
    game:zone("supply"):move_top(1, game.coins[seat])
  end
  game.state.heads = {}                 -- public: shown in every view and log
end

---One turn: flip your coin; heads scores a point.
---@param game Game
---@param seat Seat
function rules.turn(game, seat)
  local coin = game.coins[seat]:top()
  if coin:roll() == "heads" then
    game:add_score(seat, 1)
  end
end

---Turns go round until somebody reaches the target.
---@param game Game
function rules.play(game)
  local seat = game:first_seat()
  while true do
    game:begin_turn(seat)
    rules.turn(game, seat)
    if game:score(seat) >= game.options.target then
      return game:finish{winners = {seat}}
    end
    seat = game:next_seat(seat)
  end
end

return rules
)~";

std::string readme(const std::string& name) {
  return fmt::format(R"~(# {}

One paragraph: what the game is, for how many players, and where its rules
come from (`source:` in game.yaml says the same in one line).

## Rules in brief

Players take turns flipping their coin. Heads scores a point. The first
player to reach `target` points (3 by default) wins.

## Components

| component | count | where it starts |
| --- | --- | --- |
| coin (a die with faces heads and tails) | 4 | the box; each player takes one |

## Interpretations

Every choice you made where the rulebook is silent or ambiguous, with the
rulebook's words and the reading you chose.

## Options and variants

| option | default | meaning |
| --- | --- | --- |
| `target` | 3 | heads needed to win |

Variants live in `variants/` (`rulebook new-variant {} NAME` starts one).

## Scenarios

`scenarios/` holds the rulebook's examples as tests, played with forced
dice, deck orders and answers: `rulebook test {}`.

## Checking and playing

```
rulebook validate {}
rulebook test {}
rulebook play {} --agent 0=human
rulebook simulate {} --games 1000
```
)~",
                     title_of(name), name, name, name, name, name, name);
}

std::string scenario(const std::string& name) {
  return modeline("scenario.schema.json") + fmt::format(R"~(name: First heads wins with target 1
source: "{}: rules in brief, 'the first to reach the target wins'"
description: >
  With a target of 1, Ann flips tails and Bob flips heads: Bob wins on the
  second turn.
players: 2
names: [Ann, Bob]
set: ["options.target=1"]
rolls: [[tails], [heads]]          # forced dice: one list per roll, in order
expect:
  finished: true
  winners: [Bob]
  turns: 2
  scores: {{Ann: 0, Bob: 1}}
)~",
                                                        name);
}

// Copies a game folder's own files: folders and regular files. A symbolic
// link is not followed (its target may be any file of the user's, which
// must not end up in a new game folder, perhaps shared): it is left out,
// and so is anything else that is not a file (a FIFO, a device). Returns
// what was left out, relative to `from`.
std::vector<std::string> copy_own_files(const fs::path& from, const fs::path& to, const std::string& shown) {
  std::vector<std::string> left_out;
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) throw SetupError(fmt::format("{}: error: cannot create the folder: {}", shown, ec.message()));
  fs::recursive_directory_iterator it(from, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path relative = it->path().lexically_relative(from);
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_symlink(status) || (!fs::is_directory(status) && !fs::is_regular_file(status))) {
      left_out.push_back(relative.string());
      if (fs::is_directory(status)) it.disable_recursion_pending();
      continue;
    }
    if (fs::is_directory(status)) fs::create_directories(to / relative, ec);
    else fs::copy_file(it->path(), to / relative, ec);
  }
  if (ec) throw SetupError(fmt::format("{}: error: cannot copy {}: {}", shown, from.string(), ec.message()));
  std::sort(left_out.begin(), left_out.end());
  return left_out;
}

struct NewOptions {
  std::string path;
  std::string from;
};

int run_new(const NewOptions& o) {
  const fs::path dir = fs::path(o.path).lexically_normal();
  const std::string name = (dir.filename().empty() ? dir.parent_path() : dir).filename().string();
  check_identifier("a game's name", name);
  std::error_code ec;
  if (fs::exists(dir, ec)) throw SetupError(fmt::format("{}: error: already exists; choose another name", o.path));

  if (!o.from.empty()) {
    const std::string source = resolve_game_dir(o.from);
    if (fs::is_symlink(fs::path(source) / "game.yaml", ec))
      throw SetupError(fmt::format("{}/game.yaml: error: a symbolic link: a new game is copied from a game's own files, "
                                   "never what a link points to",
                                   source));
    for (const std::string& skipped : copy_own_files(source, dir, o.path))
      std::cerr << fmt::format("warning: {}/{} is not copied: it is a symbolic link or not a regular file (a new game "
                               "gets the game's own files, never what a link points to)\n",
                               source, skipped);
    // The copy is a new game: its own name, and the editor wiring.
    const fs::path game_file = dir / "game.yaml";
    std::string text = read_file(game_file.string());
    text = std::regex_replace(text, std::regex("^name:.*$", std::regex::multiline), "name: " + name,
                              std::regex_constants::format_first_only);
    if (text.find("yaml-language-server:") == std::string::npos) text = modeline("game.schema.json") + text;
    write_new_file(game_file, text);
    fs::create_directories(dir / "variants");
    fs::create_directories(dir / "scenarios");
  } else {
    fs::create_directories(dir / "variants", ec);
    fs::create_directories(dir / "scenarios", ec);
    if (ec) throw SetupError(fmt::format("{}: error: cannot create the folder: {}", o.path, ec.message()));
    write_new_file(dir / "game.yaml", game_yaml(name));
    write_new_file(dir / "rules.lua", kRulesLua);
    write_new_file(dir / "README.md", readme(name));
    write_new_file(dir / "scenarios" / "first-heads-wins.yaml", scenario(name));
  }
  if (!fs::exists(dir / ".luarc.json")) write_new_file(dir / ".luarc.json", luarc());

  std::cout << fmt::format("Created game '{}' in {}/{}\n", name, dir.string(),
                           o.from.empty() ? "" : fmt::format(" (a copy of {})", o.from));
  std::cout << fmt::format(
      "Next:\n  rulebook validate {0}\n  rulebook test {0}\n  rulebook play {0} --agent 0=human\n"
      "  rulebook new-variant {0} NAME\nEditor setup (YAML schemas, Lua completion): "
      "docs/editor-setup.md\n",
      dir.string());
  return kOk;
}

struct NewVariantOptions {
  std::string game;
  std::string name;
  bool script = false;
};

int run_new_variant(const NewVariantOptions& o) {
  check_identifier("a variant's name", o.name);
  const fs::path game_dir = resolve_game_dir(o.game);
  const fs::path variants = game_dir / "variants";
  const fs::path file = variants / (o.name + ".yaml");
  std::error_code ec;
  if (fs::exists(file, ec)) throw SetupError(fmt::format("{}: error: already exists", file.string()));
  fs::create_directories(variants, ec);
  std::string text = modeline("variant.schema.json") + fmt::format(R"~(name: {}
title: {}
source: "where the variant comes from (rulebook page, section or author)"
description: >
  What changes, in one or two sentences.
)~",
                                                                   o.name, title_of(o.name));
  if (o.script) text += fmt::format("script: {}.lua\n", o.name);
  text += R"~(# Merged into game.yaml: maps merge, scalars and lists replace, 'key+'
# appends to a list, null removes. For example:
#   options:
#     target: 5
overlay: {}
)~";
  write_new_file(file, text);
  if (o.script) {
    const fs::path lua = variants / (o.name + ".lua");
    if (!fs::exists(lua, ec))
      write_new_file(lua, R"~(-- Receives the rules table and replaces the functions this variant changes.
---@type Rules
local rules = ...

-- For example, to change one step while keeping the original:
-- local original_turn = rules.turn
-- function rules.turn(game, seat)
--   original_turn(game, seat)
-- end
)~");
  }
  std::cout << fmt::format("Created variant '{}' in {}\nTry it: rulebook play {} --variant {}\n", o.name,
                           file.string(), o.game, o.name);
  return kOk;
}

}  // namespace

Runner add_new(CLI::App& app) {
  auto o = std::make_shared<NewOptions>();
  auto* cmd = app.add_subcommand("new", "create a game folder that validates, plays and passes its scenario at once");
  cmd->add_option("NAME", o->path, "the new game's folder; its last part is the game's name")->required();
  cmd->add_option("--from", o->from, "start from a copy of this game (a bundled name or a folder)")
      ->type_name("GAME");
  return [o] { return run_new(*o); };
}

Runner add_new_variant(CLI::App& app) {
  auto o = std::make_shared<NewVariantOptions>();
  auto* cmd = app.add_subcommand("new-variant", "add a variant file to a game folder (variants/NAME.yaml)");
  cmd->add_option("GAME", o->game, "the game's folder (or a bundled game's name)")->required();
  cmd->add_option("NAME", o->name, "the variant's name")->required();
  cmd->add_flag("--script", o->script, "also write variants/NAME.lua, to replace rule functions");
  return [o] { return run_new_variant(*o); };
}

}  // namespace rulebook::cli
