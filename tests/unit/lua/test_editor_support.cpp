// What editors rely on: every schema key described and every bundled YAML
// file valid against the schemas; the LuaLS definitions in
// schemas/meta/rulebook.lua matching the methods the bindings register;
// the closest-name suggestions and the caret under a Lua error.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <lua.hpp>
#include <nlohmann/json.hpp>

#include "core/suggest.hpp"
#include "lua/error_report.hpp"
#include "lua/rule_engine.hpp"
#include "setup/game_loader.hpp"

namespace fs = std::filesystem;
using namespace rulebook;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every property of every (sub)schema, as "file#/pointer".
void collect_undescribed(const nlohmann::json& node, const std::string& where, std::vector<std::string>& out) {
  if (node.is_object()) {
    if (auto props = node.find("properties"); props != node.end() && props->is_object())
      for (const auto& [name, schema] : props->items())
        if (!schema.is_object() || !schema.contains("description")) out.push_back(where + "/properties/" + name);
    for (const auto& [key, child] : node.items()) collect_undescribed(child, where + "/" + key, out);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) collect_undescribed(node[i], where + "/" + std::to_string(i), out);
  }
}

}  // namespace

TEST_CASE("schemas: every schema (bot-protocol/ too) has its file name as $id and every property a description", "[editor]") {
  int schemas = 0, undescribed_total = 0;
  for (const auto& entry : fs::recursive_directory_iterator(schemas_root())) {
    if (entry.path().extension() != ".json") continue;
    ++schemas;
    const auto doc = nlohmann::json::parse(slurp(entry.path()));
    INFO(entry.path().filename().string());
    CHECK(doc.value("$id", "") == entry.path().filename().string());
    std::vector<std::string> undescribed;
    collect_undescribed(doc, entry.path().filename().string() + "#", undescribed);
    for (const auto& u : undescribed) UNSCOPED_INFO("no description: " << u);
    CHECK(undescribed.empty());
    undescribed_total += static_cast<int>(undescribed.size());
  }
  CHECK(schemas >= 5);
  CHECK(undescribed_total == 0);
}

TEST_CASE("schemas: every bundled YAML file is valid against its schema", "[editor]") {
  int files = 0;
  for (const auto& game : fs::directory_iterator(rules_root())) {
    if (!fs::is_regular_file(game.path() / "game.yaml")) continue;
    std::vector<fs::path> yaml{game.path() / "game.yaml"};
    for (const char* sub : {"variants", "scenarios"})
      if (fs::is_directory(game.path() / sub))  // a game may have no variants (Kuhn poker)
        for (const auto& f : fs::directory_iterator(game.path() / sub))
        if (f.path().extension() == ".yaml") yaml.push_back(f.path());
    for (const auto& f : yaml) {
      ++files;
      INFO(f.string());
      CHECK(validate_file(f.string()).empty());
    }
  }
  CHECK(files > 20);
}

TEST_CASE("LuaLS definitions: schemas/meta/rulebook.lua declares exactly the registered methods", "[editor]") {
  const std::string meta = slurp(fs::path(schemas_root()) / "meta" / "rulebook.lua");
  REQUIRE(meta.rfind("---@meta", 0) == 0);
  {  // It is Lua that loads (definitions only: never run).
    lua_State* L = luaL_newstate();
    const int status = luaL_loadbufferx(L, meta.data(), meta.size(), "=rulebook.lua", "t");
    INFO((status == LUA_OK ? "" : lua_tostring(L, -1)));
    CHECK(status == LUA_OK);
    lua_close(L);
  }
  const std::map<std::string, std::string> classes{
      {"Game", "game"}, {"Zone", "zone"}, {"Component", "component"}, {"Board", "board"}};
  std::map<std::string, std::set<std::string>> declared;
  const std::regex function_line(R"(^function (\w+):(\w+)\(([^)]*)\) end$)");
  std::istringstream lines(meta);
  std::vector<std::string> params_above;  // ---@param names since the last function
  std::string line;
  int functions = 0;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (line.rfind("---@param ", 0) == 0) {
      std::string name = line.substr(10, line.find(' ', 10) - 10);
      if (!name.empty() && name.back() == '?') name.pop_back();  // optional
      params_above.push_back(name);
    } else if (std::regex_match(line, m, function_line)) {
      ++functions;
      INFO(line);
      REQUIRE(classes.count(m[1]) == 1);
      declared[classes.at(m[1])].insert(m[2]);
      // The annotations name exactly the function's parameters, in order.
      std::vector<std::string> params;
      std::string list = m[3];
      for (size_t start = 0; !list.empty() && start <= list.size();) {
        size_t comma = list.find(", ", start);
        if (comma == std::string::npos) comma = list.size();
        params.push_back(list.substr(start, comma - start));
        start = comma + 2;
      }
      CHECK(params_above == params);
      params_above.clear();
    } else if (line.rfind("---", 0) != 0) {
      params_above.clear();
    }
  }
  CHECK(functions > 80);

  for (const auto& game : list_games()) {
    RuleEngine engine(load_game(game));
    for (const auto& [type, names] : engine.api_methods()) {
      INFO(game << ": " << type);
      const std::set<std::string> registered(names.begin(), names.end());
      for (const auto& name : registered)
        if (!declared[type].count(name)) FAIL_CHECK("registered but not in rulebook.lua: " << type << ":" << name);
      for (const auto& name : declared[type])
        if (!registered.count(name)) FAIL_CHECK("in rulebook.lua but not registered: " << type << ":" << name);
      CHECK(!registered.empty());
    }
  }
}

TEST_CASE("suggest: the closest name to a typo, nothing for a different word", "[editor]") {
  const std::vector<std::string> methods{"move", "move_all", "move_matching", "move_top", "roll", "shuffle"};
  CHECK(closest_name("move_topp", methods) == "move_top");
  CHECK(closest_name("mvoe_top", methods) == "move_top");  // a swap
  CHECK(closest_name("shufle", methods) == "shuffle");
  CHECK(closest_name("draw_card", methods).empty());
  CHECK(did_you_mean("rol", methods) == "; did you mean `roll`?");
  CHECK(did_you_mean("xyz", methods).empty());
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("error column: the caret goes under what the message names", "[editor]") {
  const std::string line = "    supply:move_topp(per_player, game.dice[seat])";
  CHECK(error_column("attempt to call a nil value (method 'move_topp')", line) == 12);
  CHECK(error_column("attempt to index a nil value (field 'dice')", line) == 39);
  CHECK(error_column("attempt to perform arithmetic on a nil value (local 'per_player')", line) == 22);
  CHECK(error_column("something else entirely", line) == 5);
  CHECK(error_column("attempt to index a nil value (global 'x')", "local y = max + x.y") == 17);
}
