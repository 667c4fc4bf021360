#include <catch2/catch.hpp>
#include <string>

#include "setup/overlay.hpp"
#include "setup/yaml_source.hpp"

using nlohmann::json;
using rulebook::OverlayStack;
using rulebook::parse_yaml;
using rulebook::SetupError;
using rulebook::SourcedJson;

namespace {

const char* const kBase =
    "name: demo\n"               // 1
    "options:\n"                 // 2
    "  target: 5\n"              // 3
    "  bonus: 1\n"               // 4
    "dice: [d6, d6]\n"           // 5
    "components: [board]\n"      // 6
    "players:\n"                 // 7
    "  - {name: ann, hp: 3}\n"   // 8
    "  - {name: bob, hp: 4}\n";  // 9

OverlayStack base_stack() { return OverlayStack(parse_yaml(kBase, "base.yaml")); }

SourcedJson Y(const std::string& text, const std::string& file) { return parse_yaml(text, file); }

std::string at(const OverlayStack& stack, const std::string& pointer) {
  const auto& where = stack.result().where;
  auto it = where.find(pointer);
  return it == where.end() ? "<none>" : it->second.str();
}

bool has_where_under(const OverlayStack& stack, const std::string& pointer) {
  for (const auto& entry : stack.result().where) {
    if (entry.first == pointer || entry.first.compare(0, pointer.size() + 1, pointer + "/") == 0) {
      return true;
    }
  }
  return false;
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const SetupError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("overlay: mappings merge, scalars and lists replace", "[setup]") {
  OverlayStack stack = base_stack();
  stack.apply(Y("options:\n"       // 1
                "  target: 7\n"    // 2
                "  speed: fast\n"  // 3
                "dice: [d8]\n"     // 4
                "players: []\n",   // 5
                "fast.yaml"),
              "fast");
  const json& v = stack.result().value;
  CHECK(v == json::parse(R"({
    "name": "demo",
    "options": {"target": 7, "bonus": 1, "speed": "fast"},
    "dice": ["d8"],
    "components": ["board"],
    "players": []
  })"));
  // Replaced and added values point at the overlay, merged mappings keep theirs.
  CHECK(at(stack, "/options") == "base.yaml:3:3");
  CHECK(at(stack, "/options/target") == "fast.yaml:2:11");
  CHECK(at(stack, "/options/bonus") == "base.yaml:4:10");
  CHECK(at(stack, "/options/speed") == "fast.yaml:3:10");
  CHECK(at(stack, "/dice") == "fast.yaml:4:7");
  CHECK(at(stack, "/dice/0") == "fast.yaml:4:8");
  CHECK(at(stack, "/dice/1") == "<none>");
  CHECK(at(stack, "/players") == "fast.yaml:5:10");
  CHECK_FALSE(has_where_under(stack, "/players/0"));
  CHECK(at(stack, "/name") == "base.yaml:1:7");
}

TEST_CASE("overlay: new keys, and mappings replacing other values", "[setup]") {
  OverlayStack stack = base_stack();
  stack.apply(Y("house:\n"                                                          // 1
                "  rules: {a: 1}\n"                                                 // 2
                "  none: {x: ~}\n"                                                  // 3
                "  empty: {}\n"                                                     // 4
                "name: {short: d, gone: ~, tags+: [t], raw: [{k: ~, 'l+': 1}]}\n",  // 5
                "v.yaml"),
              "v");
  const json& v = stack.result().value;
  CHECK(v["house"] == json::parse(R"({"rules": {"a": 1}, "empty": {}})"));
  CHECK(v["name"] ==
        json::parse(R"({"short": "d", "tags": ["t"], "raw": [{"k": null, "l+": 1}]})"));
  CHECK(at(stack, "/house") == "v.yaml:2:3");
  CHECK(at(stack, "/house/rules/a") == "v.yaml:2:14");
  CHECK(at(stack, "/house/none") == "<none>");
  CHECK(at(stack, "/name") == "v.yaml:5:7");
  CHECK(at(stack, "/name/short") == "v.yaml:5:15");
  CHECK(at(stack, "/name/tags") == "v.yaml:5:34");
  CHECK(at(stack, "/name/tags/0") == "v.yaml:5:35");
  CHECK(at(stack, "/name/gone") == "<none>");
  CHECK(at(stack, "/name/raw/0/l+") == "v.yaml:5:58");
}

TEST_CASE("overlay: 'key+' appends to lists", "[setup]") {
  OverlayStack stack = base_stack();
  stack.apply(Y("components+: [cards, tokens]\n"  // 1
                "extras+: [x]\n"                  // 2
                "options:\n"                      // 3
                "  list+: []\n",                  // 4
                "exp.yaml"),
              "expansion");
  const json& v = stack.result().value;
  CHECK(v["components"] == json::parse(R"(["board", "cards", "tokens"])"));
  CHECK(v["extras"] == json::parse(R"(["x"])"));
  CHECK(v["options"]["list"] == json::array());
  CHECK(at(stack, "/components") == "base.yaml:6:13");
  CHECK(at(stack, "/components/0") == "base.yaml:6:14");
  CHECK(at(stack, "/components/1") == "exp.yaml:1:15");
  CHECK(at(stack, "/components/2") == "exp.yaml:1:22");
  CHECK(at(stack, "/extras") == "exp.yaml:2:10");
  CHECK(at(stack, "/extras/0") == "exp.yaml:2:11");

  // Appends from several layers accumulate.
  stack.apply(Y("components+: [dice]\n", "more.yaml"), "more");
  CHECK(stack.result().value["components"] ==
        json::parse(R"(["board", "cards", "tokens", "dice"])"));

  // A null base value counts as an empty list.
  OverlayStack nulls(Y("list: ~\n", "n.yaml"));
  nulls.apply(Y("list+: [1]\n", "a.yaml"), "a");
  CHECK(nulls.result().value == json::parse(R"({"list": [1]})"));

  OverlayStack errors = base_stack();
  CHECK(error_of([&] { errors.apply(Y("name+: [x]\n", "bad.yaml"), "bad"); }) ==
        "bad.yaml:1:8: error: cannot append to name: it is a string (base.yaml:1:7), not a list");
  CHECK(error_of([&] { errors.apply(Y("options+: [x]\n", "bad.yaml"), "bad"); }) ==
        "bad.yaml:1:11: error: cannot append to options: it is a mapping (base.yaml:3:3), not a "
        "list");
  CHECK(error_of([&] { errors.apply(Y("dice+: d4\n", "bad.yaml"), "bad"); }) ==
        "bad.yaml:1:8: error: 'dice+' must be a list of items to append, got a string");
  CHECK(error_of([&] { errors.apply(Y("dice: [d4]\ndice+: [d6]\n", "bad.yaml"), "bad"); }) ==
        "bad.yaml:2:8: error: both 'dice' and 'dice+' are given; use only one of them");
  CHECK(errors.result().value == base_stack().result().value);
}

TEST_CASE("overlay: null removes keys", "[setup]") {
  OverlayStack stack = base_stack();
  stack.apply(Y("options: {bonus: ~}\n"
                "dice:\n"
                "players: null\n"
                "missing: ~\n"
                "nothing: {here: ~}\n",
                "rm.yaml"),
              "rm");
  CHECK(stack.result().value == json::parse(R"({
    "name": "demo",
    "options": {"target": 5},
    "components": ["board"]
  })"));
  CHECK_FALSE(has_where_under(stack, "/options/bonus"));
  CHECK_FALSE(has_where_under(stack, "/dice"));
  CHECK_FALSE(has_where_under(stack, "/players"));
  CHECK_FALSE(has_where_under(stack, "/nothing"));
  CHECK(at(stack, "/options/target") == "base.yaml:3:11");
  CHECK(stack.result().where.size() == 6);  // "", name, options, target, components, components/0
}

TEST_CASE("overlay: empty and malformed layers", "[setup]") {
  OverlayStack stack = base_stack();
  stack.apply(Y("# nothing\n", "empty.yaml"), "empty");
  CHECK(stack.result().value == base_stack().result().value);
  CHECK(error_of([&] { stack.apply(Y("- a\n", "list.yaml"), "list"); }) ==
        "list.yaml:1:1: error: layer 'list' must be a mapping at the top level, got a list");

  OverlayStack from_nothing(Y("", "empty.yaml"));
  from_nothing.apply(Y("a: 1\n", "a.yaml"), "a");
  CHECK(from_nothing.result().value == json{{"a", 1}});
}

TEST_CASE("overlay: conflicts between layers", "[setup]") {
  const SourcedJson a = Y("options:\n  target: 7\n", "a.yaml");

  SECTION("different values") {
    OverlayStack stack = base_stack();
    stack.apply(a, "a");
    CHECK(error_of([&] { stack.apply(Y("options:\n  target: 9\n", "b.yaml"), "b"); }) ==
          "b.yaml:2:11: error: conflicting overrides for options.target: a.yaml:2:11 sets 7, "
          "this sets 9 (layers 'a' and 'b')");
    // The failed layer changed nothing.
    CHECK(stack.result().value["options"]["target"] == 7);
    CHECK(at(stack, "/options/target") == "a.yaml:2:11");
  }
  SECTION("the same value twice is fine") {
    OverlayStack stack = base_stack();
    stack.apply(a, "a");
    stack.apply(Y("options: {target: 7, bonus: 2}\n", "b.yaml"), "b");
    CHECK(stack.result().value["options"] == json::parse(R"({"target": 7, "bonus": 2})"));
  }
  SECTION("a layer setting the base value still counts") {
    OverlayStack stack = base_stack();
    stack.apply(Y("options: {target: 5}\n", "a.yaml"), "a");
    CHECK(error_of([&] { stack.apply(Y("options: {target: 6}\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:19: error: conflicting overrides for options.target: a.yaml:1:19 sets 5, "
          "this sets 6 (layers 'a' and 'b')");
  }
  SECTION("the base is not a layer") {
    OverlayStack stack = base_stack();
    stack.apply(a, "a");
    CHECK(stack.result().value["options"]["target"] == 7);
  }
  SECTION("removal against setting") {
    OverlayStack stack = base_stack();
    stack.apply(Y("options: {bonus: ~}\n", "a.yaml"), "a");
    CHECK(error_of([&] { stack.apply(Y("options: {bonus: 3}\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:18: error: conflicting overrides for options.bonus: a.yaml:1:18 removes it, "
          "this sets 3 (layers 'a' and 'b')");
    // Removing it again is fine.
    stack.apply(Y("options: {bonus: ~}\n", "c.yaml"), "c");
  }
  SECTION("replacing or removing a mapping that an earlier layer changed inside") {
    OverlayStack stack = base_stack();
    stack.apply(a, "a");
    CHECK(error_of([&] { stack.apply(Y("options: 3\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:10: error: conflicting overrides for options: a.yaml:2:11 sets "
          "options.target to 7, this sets 3 (layers 'a' and 'b')");
    CHECK(error_of([&] { stack.apply(Y("options: ~\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:10: error: conflicting overrides for options: a.yaml:2:11 sets "
          "options.target to 7, this removes it (layers 'a' and 'b')");
  }
  SECTION("replacing a list that an earlier layer changed inside") {
    OverlayStack stack = base_stack();
    stack.set("players.0.hp=5");
    CHECK(error_of([&] { stack.apply(Y("players: []\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:10: error: conflicting overrides for players: --set:1:14 sets players.0.hp "
          "to 5, this sets [] (layers '--set' and 'b')");
  }
  SECTION("changing inside what an earlier layer removed") {
    OverlayStack stack = base_stack();
    stack.apply(Y("options: ~\n", "a.yaml"), "a");
    CHECK(error_of([&] { stack.apply(Y("options: {target: 9}\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:19: error: conflicting overrides for options.target: a.yaml:1:10 removes "
          "options, this sets 9 (layers 'a' and 'b')");
    // Removing inside it does nothing, so it is fine.
    stack.apply(Y("options: {target: ~}\n", "c.yaml"), "c");
    CHECK_FALSE(stack.result().value.contains("options"));
  }
  SECTION("removing a mapping whose parts were removed") {
    OverlayStack stack = base_stack();
    stack.apply(Y("options: {bonus: ~}\n", "a.yaml"), "a");
    stack.apply(Y("options: ~\n", "b.yaml"), "b");
    CHECK_FALSE(stack.result().value.contains("options"));
  }
  SECTION("appends against replacing") {
    OverlayStack one = base_stack();
    one.apply(Y("components+: [x]\n", "a.yaml"), "a");
    CHECK(error_of([&] { one.apply(Y("components: [y]\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:13: error: conflicting overrides for components: a.yaml:1:14 appends "
          "[\"x\"], this sets [\"y\"] (layers 'a' and 'b')");
    OverlayStack two = base_stack();
    two.apply(Y("components: [y]\n", "a.yaml"), "a");
    CHECK(error_of([&] { two.apply(Y("components+: [x]\n", "b.yaml"), "b"); }) ==
          "b.yaml:1:14: error: conflicting overrides for components: a.yaml:1:13 sets "
          "[\"y\"], this appends [\"x\"] (layers 'a' and 'b')");
  }
}

TEST_CASE("overlay: --set assigns YAML values at dotted paths", "[setup]") {
  OverlayStack stack = base_stack();
  stack.set("options.target=10");
  CHECK(stack.result().value["options"]["target"] == 10);
  CHECK(at(stack, "/options/target") == "--set:1:16");

  stack.set("options.fast=true");
  stack.set("options.name=hello world");
  stack.set("options.quoted='10'");
  stack.set("options.list=[1, 2]");
  stack.set("options.map={a: 1, b: [x]}");
  const json& options = stack.result().value["options"];
  CHECK(options["fast"] == true);
  CHECK(options["name"] == "hello world");
  CHECK(options["quoted"] == "10");
  CHECK(options["list"] == json::parse("[1, 2]"));
  CHECK(options["map"] == json::parse(R"({"a": 1, "b": ["x"]})"));
  CHECK(at(stack, "/options/list/1") == "--set:1:18");
  CHECK(at(stack, "/options/map/b/0") == "--set:1:24");

  // Numeric segments index lists.
  stack.set("dice.1=d20");
  CHECK(stack.result().value["dice"] == json::parse(R"(["d6", "d20"])"));
  CHECK(at(stack, "/dice/1") == "--set:1:8");
  stack.set("players.1.hp=9");
  CHECK(stack.result().value["players"][1] == json::parse(R"({"name": "bob", "hp": 9})"));
  stack.set("players.0={hp: 1}");  // a mapping merges into the list item
  CHECK(stack.result().value["players"][0] == json::parse(R"({"name": "ann", "hp": 1})"));

  // Missing mappings are created; a numeric key on a mapping is a key.
  stack.set("new.deep.7=1");
  CHECK(stack.result().value["new"] == json::parse(R"({"deep": {"7": 1}})"));
  CHECK(at(stack, "/new") == "--set:1:1");
  CHECK(at(stack, "/new/deep") == "--set:1:5");
  CHECK(at(stack, "/new/deep/7") == "--set:1:12");

  // Appending and removing.
  stack.set("components+=[cards]");
  CHECK(stack.result().value["components"] == json::parse(R"(["board", "cards"])"));
  CHECK(at(stack, "/components/1") == "--set:1:14");
  stack.set("options.bonus=~");
  stack.set("name=");
  CHECK_FALSE(stack.result().value["options"].contains("bonus"));
  CHECK_FALSE(stack.result().value.contains("name"));
  CHECK_FALSE(stack.result().where.count("/name"));
  stack.set("nowhere.x=~");
  CHECK_FALSE(stack.result().value.contains("nowhere"));
}

TEST_CASE("overlay: --set rejects bad assignments", "[setup]") {
  OverlayStack stack = base_stack();
  for (const char* bad : {"x", "=5", "", "a..b=1", ".a=1", "a.=1"}) {
    INFO(bad);
    CHECK(error_of([&] { stack.set(bad); }) ==
          std::string("--set: error: expected PATH=VALUE, got '") + bad + "'");
  }
  CHECK(error_of([&] { stack.set("dice.5=1"); }) ==
        "--set:1:6: error: cannot set dice.5: dice is a list of 2 items, '5' is not a valid "
        "index");
  CHECK(error_of([&] { stack.set("dice.x.y=1"); }) ==
        "--set:1:6: error: cannot set dice.x.y: dice is a list of 2 items, 'x' is not a valid "
        "index");
  CHECK(error_of([&] { stack.set("name.x=1"); }) ==
        "--set:1:6: error: cannot set name.x: name is a string (base.yaml:1:7), not a mapping or "
        "list");
  CHECK(error_of([&] { stack.set("dice.0=~"); }) ==
        "--set:1:8: error: cannot remove the list item dice.0; set the whole list instead");
  CHECK(error_of([&] { stack.set("options.target=[1"); }).rfind("--set:1:", 0) == 0);
  CHECK(error_of([&] { stack.set("options.target=a: b: c"); }) ==
        "--set:1:20: error: illegal map value");
  CHECK(stack.result().value == base_stack().result().value);
}

TEST_CASE("overlay: --set conflicts like a layer", "[setup]") {
  OverlayStack stack = base_stack();
  stack.apply(Y("options:\n  target: 7\n", "a.yaml"), "a");
  stack.set("options.target=7");  // same value
  CHECK(error_of([&] { stack.set("options.target=9"); }) ==
        "--set:1:16: error: conflicting overrides for options.target: a.yaml:2:11 sets 7, this "
        "sets 9 (layers 'a' and '--set')");
  stack.set("players.0.hp=5");
  CHECK(error_of([&] { stack.set("players.0.hp=6"); }) ==
        "--set:1:14: error: conflicting overrides for players.0.hp: --set:1:14 sets 5, this sets "
        "6 (layers '--set' and '--set')");
  CHECK(stack.result().value["options"]["target"] == 7);
  CHECK(stack.result().value["players"][0]["hp"] == 5);
}

TEST_CASE("overlay: a --set that is not UTF-8 is an error, not a JSON key no one can write", "[setup]") {
  // Regression for a fuzz_overlay crash (tests/fuzz/corpus/overlay/crash-invalid-utf8-set-path.txt).
  OverlayStack stack = base_stack();
  CHECK_THROWS_WITH(stack.set("options.ta\x8e\x9e" "et=7"), Catch::Contains("--set: error: not valid UTF-8 text"));
  CHECK(stack.result().value.dump() == base_stack().result().value.dump());
}
