// JSON Schema draft-07 validator: the official test suite (one TEST_CASE per
// keyword file), message wording, $ref to files, and validate_sourced.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "schema/json_schema.hpp"
#include "json/sourced_json.hpp"

using nlohmann::json;
using rulebook::SourcedJson;
using rulebook::SourceLocation;
using rulebook::schema::Issue;
using rulebook::schema::Schema;

namespace {

namespace fs = std::filesystem;

json read_json_file(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return json::parse(in);
}

// Individual suite cases ("file / group / test") that are not supported.
// Empty: every case of every file listed below passes. Keep the reason next
// to any entry added here.
const std::set<std::string> kSkippedCases = {};

struct SuiteCounts {
  int run = 0;
  int skipped = 0;
};

SuiteCounts run_suite_file(const std::string& file) {
  const std::string dir = JSON_SCHEMA_SUITE_DIR;
  const json groups = read_json_file(dir + "/" + file);
  SuiteCounts counts;
  for (const auto& group : groups) {
    const std::string gdesc = group.at("description").get<std::string>();
    INFO(file << " / " << gdesc << "\nschema: " << group.at("schema").dump());
    std::optional<Schema> schema;
    try {
      schema = Schema::from_json(group.at("schema"), dir);
    } catch (const std::exception& e) {
      FAIL("schema did not compile: " << e.what());
    }
    for (const auto& test : group.at("tests")) {
      const std::string tdesc = test.at("description").get<std::string>();
      const std::string id = file + " / " + gdesc + " / " + tdesc;
      if (kSkippedCases.count(id)) {
        ++counts.skipped;
        continue;
      }
      const bool valid = test.at("valid").get<bool>();
      const std::vector<Issue> issues = schema->validate(test.at("data"));
      std::string listed;
      for (const auto& i : issues) listed += "\n  '" + i.pointer + "': " + i.message;
      INFO("test: " << tdesc << "\ndata: " << test.at("data").dump() << "\nexpected "
                    << (valid ? "valid" : "invalid") << ", issues:" << (listed.empty() ? " none" : listed));
      CHECK(issues.empty() == valid);
      // An invalid instance must always come with at least one message.
      if (!valid) CHECK_FALSE(issues.empty());
      for (const auto& i : issues) CHECK_FALSE(i.message.empty());
      ++counts.run;
    }
  }
  CHECK(counts.run > 0);
  return counts;
}

#define SUITE_FILE_TEST(name)                                                   \
  TEST_CASE("json-schema-test-suite draft7: " name, "[schema][suite]") {        \
    run_suite_file(name);                                                       \
  }

}  // namespace

// Every keyword file of the draft-07 suite except refRemote.json (needs a
// network server for http://localhost:1234) and the optional/ folder.
SUITE_FILE_TEST("additionalItems.json")
SUITE_FILE_TEST("additionalProperties.json")
SUITE_FILE_TEST("allOf.json")
SUITE_FILE_TEST("anyOf.json")
SUITE_FILE_TEST("boolean_schema.json")
SUITE_FILE_TEST("const.json")
SUITE_FILE_TEST("contains.json")
SUITE_FILE_TEST("default.json")
SUITE_FILE_TEST("definitions.json")
SUITE_FILE_TEST("dependencies.json")
SUITE_FILE_TEST("enum.json")
SUITE_FILE_TEST("exclusiveMaximum.json")
SUITE_FILE_TEST("exclusiveMinimum.json")
SUITE_FILE_TEST("if-then-else.json")
SUITE_FILE_TEST("items.json")
SUITE_FILE_TEST("maxItems.json")
SUITE_FILE_TEST("maxLength.json")
SUITE_FILE_TEST("maxProperties.json")
SUITE_FILE_TEST("maximum.json")
SUITE_FILE_TEST("minItems.json")
SUITE_FILE_TEST("minLength.json")
SUITE_FILE_TEST("minProperties.json")
SUITE_FILE_TEST("minimum.json")
SUITE_FILE_TEST("multipleOf.json")
SUITE_FILE_TEST("not.json")
SUITE_FILE_TEST("oneOf.json")
SUITE_FILE_TEST("pattern.json")
SUITE_FILE_TEST("patternProperties.json")
SUITE_FILE_TEST("properties.json")
SUITE_FILE_TEST("propertyNames.json")
SUITE_FILE_TEST("ref.json")
SUITE_FILE_TEST("required.json")
SUITE_FILE_TEST("type.json")
SUITE_FILE_TEST("uniqueItems.json")

TEST_CASE("json-schema-test-suite draft7: every keyword file is covered", "[schema][suite]") {
  // Guards against a new suite file silently going untested.
  const std::set<std::string> covered = {
      "additionalItems.json", "additionalProperties.json", "allOf.json", "anyOf.json",
      "boolean_schema.json", "const.json", "contains.json", "default.json", "definitions.json",
      "dependencies.json", "enum.json", "exclusiveMaximum.json", "exclusiveMinimum.json",
      "if-then-else.json", "items.json", "maxItems.json", "maxLength.json", "maxProperties.json",
      "maximum.json", "minItems.json", "minLength.json", "minProperties.json", "minimum.json",
      "multipleOf.json", "not.json", "oneOf.json", "pattern.json", "patternProperties.json",
      "properties.json", "propertyNames.json", "ref.json", "required.json", "type.json",
      "uniqueItems.json"};
  const std::set<std::string> excluded = {"refRemote.json"};
  for (const auto& entry : fs::directory_iterator(JSON_SCHEMA_SUITE_DIR)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    INFO(name);
    CHECK((covered.count(name) + excluded.count(name)) == 1);
  }
}

// ---------------------------------------------------------------------------
// Messages

namespace {

std::vector<Issue> check(const json& schema, const json& instance) {
  return Schema::from_json(schema).validate(instance);
}

std::string dump_issues(const std::vector<Issue>& issues) {
  std::string s;
  for (const auto& i : issues) s += "'" + i.pointer + "': " + i.message + "\n";
  return s;
}

}  // namespace

TEST_CASE("schema messages: unknown key names the key and the allowed ones", "[schema]") {
  json schema = json::parse(R"({
    "type": "object",
    "properties": {"color": {"type": "string"}, "count": {"type": "integer"}, "faces": {"type": "integer"}},
    "additionalProperties": false
  })");
  auto issues = check(schema, json::parse(R"({"colour": "red", "count": 2})"));
  INFO(dump_issues(issues));
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].pointer == "/colour");
  CHECK(issues[0].message == "unknown key 'colour' (allowed: color, count, faces)");

  SECTION("pattern properties are listed too") {
    schema["patternProperties"] = {{"^x-", true}};
    auto more = check(schema, json::parse(R"({"colour": "red", "x-note": 1})"));
    INFO(dump_issues(more));
    REQUIRE(more.size() == 1);
    CHECK(more[0].message == "unknown key 'colour' (allowed: color, count, faces, keys matching '^x-')");
  }
  SECTION("no keys at all") {
    auto none = check(json::parse(R"({"additionalProperties": false})"), json::parse(R"({"a/b": 1})"));
    REQUIRE(none.size() == 1);
    CHECK(none[0].pointer == "/a~1b");
    CHECK(none[0].message == "unknown key 'a/b' (no keys are allowed here)");
  }
}

TEST_CASE("schema messages: type, enum, const, required, bounds", "[schema]") {
  CHECK(check({{"type", "integer"}}, "3")[0].message == "expected integer, got string");
  CHECK(check({{"type", "integer"}}, 1.5)[0].message == "expected integer, got number");
  CHECK(check({{"type", "integer"}}, 1.0).empty());
  CHECK(check({{"type", {"integer", "string"}}}, true)[0].message == "expected integer or string, got boolean");
  CHECK(check({{"type", {"integer", "string", "null"}}}, json::array())[0].message ==
        "expected integer, string or null, got array");

  auto e = check({{"enum", {"red", "green", 3}}}, "purple");
  REQUIRE(e.size() == 1);
  CHECK(e[0].message == R"(value "purple" is not one of the allowed values: "red", "green", 3)");
  CHECK(check({{"const", "d6"}}, "d8")[0].message == R"(expected "d6", got "d8")");

  auto r = check(json::parse(R"({"properties": {"dice": {"required": ["faces", "count"]}}})"),
                 json::parse(R"({"dice": {"count": 1}})"));
  REQUIRE(r.size() == 1);
  CHECK(r[0].pointer == "/dice");
  CHECK(r[0].message == "missing required key 'faces'");

  CHECK(check({{"maximum", 5}}, 9)[0].message == "value 9 is above the maximum 5");
  CHECK(check({{"minimum", 1}}, 0)[0].message == "value 0 is below the minimum 1");
  CHECK(check({{"exclusiveMaximum", 5}}, 5)[0].message == "value 5 must be below 5");
  CHECK(check({{"exclusiveMinimum", 0}}, 0)[0].message == "value 0 must be above 0");
  CHECK(check({{"multipleOf", 2}}, 7)[0].message == "value 7 is not a multiple of 2");
  CHECK(check({{"maxLength", 2}}, "héllo")[0].message == R"(string "héllo" is too long (5 characters, maximum 2))");
  CHECK(check({{"minLength", 3}}, "é")[0].message == R"(string "é" is too short (1 character, minimum 3))");
  CHECK(check({{"pattern", "^d[0-9]+$"}}, "dx")[0].message == R"(string "dx" does not match the pattern '^d[0-9]+$')");
  CHECK(check({{"maxItems", 1}}, {1, 2})[0].message == "too many items (2, maximum 1)");
  CHECK(check({{"minItems", 3}}, {1, 2})[0].message == "too few items (2, minimum 3)");
  CHECK(check({{"maxProperties", 1}}, {{"a", 1}, {"b", 2}})[0].message == "too many keys (2, maximum 1)");
  CHECK(check({{"minProperties", 2}}, {{"a", 1}})[0].message == "too few keys (1, minimum 2)");
  CHECK(check(json::parse(R"({"dependencies": {"a": ["b"]}})"), {{"a", 1}})[0].message ==
        "key 'a' requires key 'b' to be present");

  auto u = check({{"uniqueItems", true}}, {1, 2, 1.0});
  REQUIRE(u.size() == 1);
  CHECK(u[0].pointer == "/2");
  CHECK(u[0].message == "duplicate item 1.0 (same as item 0); items must be unique");

  auto p = check(json::parse(R"({"propertyNames": {"pattern": "^[a-z]+$"}})"), {{"Bad", 1}});
  REQUIRE(p.size() == 1);
  CHECK(p[0].pointer == "/Bad");
  CHECK(p[0].message == R"(invalid key 'Bad': string "Bad" does not match the pattern '^[a-z]+$')");

  auto ai = check(json::parse(R"({"items": [{}, {}], "additionalItems": false})"), {1, 2, 3});
  REQUIRE(ai.size() == 1);
  CHECK(ai[0].pointer == "/2");
  CHECK(ai[0].message == "too many items (3, at most 2 allowed)");

  auto f = check(json::parse(R"({"properties": {"legacy": false}})"), {{"legacy", 1}});
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "key 'legacy' is not allowed here");
}

TEST_CASE("schema messages: nested pointers and several issues", "[schema]") {
  json schema = json::parse(R"({
    "type": "object",
    "required": ["dice"],
    "properties": {
      "dice": {"type": "array", "items": {"$ref": "#/definitions/die"}}
    },
    "definitions": {
      "die": {
        "type": "object",
        "properties": {"faces": {"type": "integer", "minimum": 2, "maximum": 100}},
        "additionalProperties": false
      }
    }
  })");
  auto issues = check(schema, json::parse(R"({"dice": [{"faces": 6}, {"faces": 1}, {"face": 6}]})"));
  INFO(dump_issues(issues));
  REQUIRE(issues.size() == 2);
  CHECK(issues[0].pointer == "/dice/1/faces");
  CHECK(issues[0].message == "value 1 is below the minimum 2");
  CHECK(issues[1].pointer == "/dice/2/face");
  CHECK(issues[1].message == "unknown key 'face' (allowed: faces)");
}

TEST_CASE("schema messages: anyOf/oneOf failures are concise", "[schema]") {
  SECTION("only type mismatches: merged expected types") {
    auto i = check(json::parse(R"({"anyOf": [{"type": "integer"}, {"type": "string"}]})"), true);
    REQUIRE(i.size() == 1);
    CHECK(i[0].pointer == "");
    CHECK(i[0].message == "expected integer or string, got boolean");
  }
  SECTION("one alternative accepts the type: its issues are reported") {
    auto i = check(json::parse(R"({"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^d[0-9]+$"}]})"),
                   "x6");
    REQUIRE(i.size() == 1);
    CHECK(i[0].message == R"(string "x6" does not match the pattern '^d[0-9]+$')");
  }
  SECTION("discriminated union: the wrong kind lists every allowed kind") {
    json schema = json::parse(R"({"oneOf": [
      {"type": "object", "properties": {"kind": {"const": "roll"}, "dice": {"type": "string"}}, "required": ["kind", "dice"]},
      {"type": "object", "properties": {"kind": {"const": "move"}, "steps": {"type": "integer"}}, "required": ["kind", "steps"]}
    ]})");
    auto i = check(schema, json::parse(R"({"kind": "jump"})"));
    INFO(dump_issues(i));
    REQUIRE(i.size() == 1);
    CHECK(i[0].pointer == "/kind");
    CHECK(i[0].message == R"(value "jump" is not one of the allowed values: "roll", "move")");

    auto j = check(schema, json::parse(R"({"kind": "move", "steps": "two"})"));
    INFO(dump_issues(j));
    REQUIRE(j.size() == 1);
    CHECK(j[0].pointer == "/steps");
    CHECK(j[0].message == "expected integer, got string");
  }
  SECTION("oneOf matching twice") {
    auto i = check(json::parse(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})"), 3);
    REQUIRE(i.size() == 1);
    CHECK(i[0].message ==
          "value matches more than one of the alternatives (#1 and #2 of 'oneOf'); it must match exactly one");
  }
  SECTION("no clear winner: one message naming the closest alternative") {
    auto i = check(json::parse(R"({"anyOf": [{"minimum": 10}, {"maximum": 0}]})"), 5);
    REQUIRE(i.size() == 1);
    CHECK(i[0].pointer == "");
    CHECK(i[0].message ==
          "value does not match any of the 2 alternatives of 'anyOf' (closest is #1: value 5 is below the minimum 10)");
  }
}

TEST_CASE("schema: $ref to other files, load() and errors", "[schema]") {
  const fs::path dir = fs::temp_directory_path() / ("rulebook_schema_test_" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  auto write = [&](const fs::path& p, const std::string& text) {
    std::ofstream out(p);
    out << text;
  };
  write(dir / "common.json", R"({
    "definitions": {
      "identifier": {"type": "string", "pattern": "^[a-z_][a-z0-9_]*$"},
      "die": {"$ref": "sub/die.json"}
    }
  })");
  write(dir / "sub" / "die.json", R"({"type": "object", "properties": {"name": {"$ref": "../common.json#/definitions/identifier"}}})");
  write(dir / "game.json", R"({
    "type": "object",
    "properties": {
      "name": {"$ref": "common.json#/definitions/identifier"},
      "dice": {"type": "array", "items": {"$ref": "common.json#/definitions/die"}}
    }
  })");
  write(dir / "broken.json", R"({"properties": {"x": {"$ref": "missing.json"}}})");
  write(dir / "badregex.json", R"({"pattern": "(("})");

  SECTION("from_json with base_dir") {
    Schema s = Schema::from_json(json::parse(R"({"$ref": "common.json#/definitions/identifier"})"), dir.string());
    CHECK(s.validate("ok_name").empty());
    auto i = s.validate("Bad Name");
    REQUIRE(i.size() == 1);
    CHECK(i[0].message == R"(string "Bad Name" does not match the pattern '^[a-z_][a-z0-9_]*$')");
  }
  SECTION("load() resolves relative to the file, across nested folders") {
    Schema s = Schema::load((dir / "game.json").string());
    CHECK(s.validate(json::parse(R"({"name": "chess", "dice": [{"name": "d6"}]})")).empty());
    auto i = s.validate(json::parse(R"({"name": "chess", "dice": [{"name": "D6"}]})"));
    REQUIRE(i.size() == 1);
    CHECK(i[0].pointer == "/dice/0/name");
  }
  SECTION("errors are clear") {
    CHECK_THROWS_WITH(Schema::load((dir / "nope.json").string()), Catch::Contains("cannot open schema file") &&
                                                                      Catch::Contains("nope.json"));
    CHECK_THROWS_WITH(Schema::load((dir / "broken.json").string()),
                      Catch::Contains("broken.json") && Catch::Contains("missing.json"));
    CHECK_THROWS_WITH(Schema::load((dir / "badregex.json").string()),
                      Catch::Contains("invalid regular expression"));
    CHECK_THROWS_WITH(Schema::from_json(json::parse(R"({"$ref": "#/definitions/nothing"})")),
                      Catch::Contains("#/definitions/nothing"));
    CHECK_THROWS_WITH(Schema::from_json(json::parse(R"({"type": "integr"})")), Catch::Contains("unknown type"));
    CHECK_THROWS_WITH(Schema::from_json(json::parse(R"({"$ref": "#"})")), Catch::Contains("circular"));
    CHECK_THROWS_WITH(Schema::from_json(json::parse(R"({"$ref": "http://example.com/x.json"})")),
                      Catch::Contains("remote"));
  }
  fs::remove_all(dir);
}

TEST_CASE("schema: the draft-07 meta-schema is built in", "[schema]") {
  Schema meta = Schema::from_json(json::parse(R"({"$ref": "http://json-schema.org/draft-07/schema#"})"));
  CHECK(meta.validate(json::parse(R"({"type": "object", "properties": {"a": {"minimum": 1}}})")).empty());
  auto i = meta.validate(json::parse(R"({"properties": {"a": {"type": "integr"}}})"));
  INFO(dump_issues(i));
  REQUIRE_FALSE(i.empty());
  CHECK(i[0].pointer == "/properties/a/type");
}

TEST_CASE("schema: validate_sourced reports file:line:col", "[schema]") {
  Schema s = Schema::from_json(json::parse(R"({
    "type": "object",
    "properties": {
      "options": {"type": "object", "properties": {"target": {"type": "integer", "maximum": 5}},
                  "additionalProperties": false}
    },
    "required": ["options", "players"]
  })"));
  SourcedJson sourced;
  sourced.value = json::parse(R"({"options": {"target": 9, "colour": "red"}})");
  sourced.where[""] = SourceLocation{"game.yaml", 1, 1};
  sourced.where["/options"] = SourceLocation{"game.yaml", 2, 3};
  sourced.where["/options/target"] = SourceLocation{"game.yaml", 3, 13};
  // "/options/colour" is not recorded: its nearest ancestor is used.

  auto errors = s.validate_sourced(sourced);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0] == "game.yaml:1:1: error: missing required key 'players'");
  CHECK(errors[1] == "game.yaml:2:3: error: unknown key 'colour' (allowed: target)");
  CHECK(errors[2] == "game.yaml:3:13: error: value 9 is above the maximum 5");

  sourced.value["options"] = {{"target", 4}};
  sourced.value["players"] = 2;
  CHECK(s.validate_sourced(sourced).empty());
}

TEST_CASE("schema: Schema is cheap to copy and reusable", "[schema]") {
  Schema a = Schema::from_json(json::parse(R"({"items": {"$ref": "#"}, "type": "array"})"));
  Schema b = a;
  CHECK(b.validate(json::parse("[[], [[]]]")).empty());
  auto i = b.validate(json::parse("[[], [[1]]]"));
  REQUIRE(i.size() == 1);
  CHECK(i[0].pointer == "/1/0/0");
  CHECK(i[0].message == "expected array, got integer");
}

TEST_CASE("schema: what valijson cannot do safely stays ours", "[schema]") {
  // A cycle of in-place subschemas would recurse until the stack overflows.
  CHECK_THROWS_WITH(Schema::from_json(json::parse(R"({"allOf": [{"$ref": "#/definitions/a"}],
      "definitions": {"a": {"anyOf": [{"$ref": "#"}]}}})")), Catch::Contains("circular"));
  // Recursion through a property is fine.
  CHECK(Schema::from_json(json::parse(R"({"properties": {"next": {"$ref": "#"}}})"))
            .validate(json::parse(R"({"next": {"next": {}}})"))
            .empty());
  // patternProperties is matched with std::regex inside valijson: long keys
  // are refused before it sees them, short ones are matched as usual.
  Schema s = Schema::from_json(json::parse(R"({"patternProperties": {"^x-[a-z]*$": {"type": "string"}}})"));
  CHECK(s.validate(json::parse(R"({"x-ok": "a"})")).empty());
  CHECK(s.validate(json::parse(R"({"x-ok": 1})"))[0].message == "expected string, got integer");
  json long_key = json::object();
  long_key["x-" + std::string(60000, 'a')] = "a";
  auto i = s.validate(long_key);
  REQUIRE(i.size() == 1);
  CHECK_THAT(i[0].message, Catch::Contains("is too long (60002 bytes, at most 1000 here)"));
  // Integers as draft-07 sees them: 1.0 is one, and so is 2^64-1.
  Schema seed = Schema::from_json(json::parse(R"({"type": "integer", "minimum": 0, "maximum": 18446744073709551615})"));
  CHECK(seed.validate(json(18446744073709551615ULL)).empty());
  CHECK(seed.validate(json(7.0)).empty());
  CHECK(seed.validate(json(1e30))[0].message == "value 1e+30 is above the maximum 18446744073709551615");
}
