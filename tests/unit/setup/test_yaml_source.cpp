#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "setup/yaml_source.hpp"

using nlohmann::json;
using rulebook::parse_yaml;
using rulebook::SetupError;
using rulebook::SourcedJson;

namespace {

json value_of(const std::string& yaml_value) {
  return parse_yaml("v: " + yaml_value + "\n", "t.yaml").value.at("v");
}

// The message of the SetupError thrown by parsing `text` ("" if none).
std::string error_of(const std::string& text, const std::string& file = "t.yaml") {
  try {
    parse_yaml(text, file);
  } catch (const SetupError& e) {
    return e.what();
  }
  return "";
}

std::string at(const SourcedJson& s, const std::string& pointer) {
  auto it = s.where.find(pointer);
  return it == s.where.end() ? "<none>" : it->second.str();
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TEST_CASE("YAML plain scalars follow the core schema", "[setup]") {
  struct Row {
    const char* yaml;
    json expected;
  };
  const std::vector<Row> rows = {
      // null
      {"~", nullptr},
      {"null", nullptr},
      {"Null", nullptr},
      {"NULL", nullptr},
      {"", nullptr},
      // booleans (YAML 1.1 words are strings)
      {"true", true},
      {"True", true},
      {"TRUE", true},
      {"false", false},
      {"False", false},
      {"FALSE", false},
      {"yes", "yes"},
      {"no", "no"},
      {"on", "on"},
      {"tRUE", "tRUE"},
      {"nULL", "nULL"},
      // integers
      {"0", 0},
      {"42", 42},
      {"-17", -17},
      {"+12", 12},
      {"007", 7},
      {"0x1F", 31},
      {"0xff", 255},
      {"0o17", 15},
      {"9223372036854775807", std::numeric_limits<std::int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<std::int64_t>::min()},
      {"0x", "0x"},
      {"0o8", "0o8"},
      {"0b101", "0b101"},
      {"1_000", "1_000"},
      {"-0x10", "-0x10"},
      {"12abc", "12abc"},
      // floats
      {"2.5", 2.5},
      {"-0.5", -0.5},
      {".5", 0.5},
      {"1.", 1.0},
      {"1e3", 1000.0},
      {"1E+3", 1000.0},
      {"+.5e-1", 0.05},
      {"1e-400", 0.0},
      {"1e", "1e"},
      {".", "."},
      {"1.2.3", "1.2.3"},
      // strings
      {"hello", "hello"},
      {"hello world", "hello world"},
      {"'42'", "42"},
      {"\"true\"", "true"},
      {"'~'", "~"},
      {"\"\"", ""},
      {"\"a\\tb\"", "a\tb"},
      // explicit tags
      {"!!str 42", "42"},
      {"!!str true", "true"},
      {"!!str ~", "~"},
      {"!!int \"12\"", 12},
      {"!!int 0x10", 16},
      {"!!float 3", 3.0},
      {"!!float '2.5'", 2.5},
      {"!!bool 'false'", false},
      {"!!null ''", nullptr},
      {"! 12", "12"},
  };
  for (const Row& row : rows) {
    INFO("yaml value: " << row.yaml);
    json v = value_of(row.yaml);
    CHECK(v == row.expected);
    CHECK(v.type() == row.expected.type());
  }

  // Block scalars are strings too.
  CHECK(parse_yaml("v: |\n  12\n", "t.yaml").value.at("v") == "12\n");
  CHECK(parse_yaml("v: >-\n  true\n", "t.yaml").value.at("v") == "true");

  // Infinity and NaN.
  for (const char* s : {".inf", ".Inf", ".INF", "+.inf"}) {
    json v = value_of(s);
    REQUIRE(v.is_number_float());
    CHECK(v.get<double>() == std::numeric_limits<double>::infinity());
  }
  CHECK(value_of("-.inf").get<double>() == -std::numeric_limits<double>::infinity());
  for (const char* s : {".nan", ".NaN", ".NAN"}) {
    json v = value_of(s);
    REQUIRE(v.is_number_float());
    CHECK(std::isnan(v.get<double>()));
  }
  CHECK(value_of("-.nan") == "-.nan");
}

TEST_CASE("YAML scalars that cannot be represented are errors", "[setup]") {
  CHECK(error_of("a: 9223372036854775808") ==
        "t.yaml:1:4: error: integer 9223372036854775808 is out of range (64-bit signed)");
  CHECK(error_of("a: -9223372036854775809") ==
        "t.yaml:1:4: error: integer -9223372036854775809 is out of range (64-bit signed)");
  CHECK(error_of("a: 0x8000000000000000") ==
        "t.yaml:1:4: error: integer 0x8000000000000000 is out of range (64-bit signed)");
  CHECK(error_of("a: 1e400") == "t.yaml:1:4: error: number 1e400 is out of range");
  CHECK(error_of("a:\n  b: !!int x") == "t.yaml:2:6: error: 'x' is not a valid !!int");
  CHECK(error_of("a: !!float abc") == "t.yaml:1:4: error: 'abc' is not a valid !!float");
  CHECK(error_of("a: !!bool yes") == "t.yaml:1:4: error: 'yes' is not a valid !!bool");
  CHECK(error_of("a: !!null 0") == "t.yaml:1:4: error: '0' is not a valid !!null");
  CHECK(error_of("a: !color red") == "t.yaml:1:4: error: unsupported tag !color");
  CHECK(error_of("a: !!binary aGk=") == "t.yaml:1:4: error: unsupported tag !!binary");
  CHECK(error_of("a: !!seq x") == "t.yaml:1:4: error: tag !!seq cannot be used on a scalar");
  CHECK(error_of("a: !!seq {}") == "t.yaml:1:4: error: unsupported tag !!seq on a mapping");
  CHECK(error_of("a: !!map {b: 1}").empty());
  CHECK(error_of("a: !!seq [1]").empty());
  CHECK(error_of("a: \"\\xff\"") == "");  // \xff escape is U+00FF, valid
  CHECK(error_of("a: b\xff") == "t.yaml:1:4: error: invalid UTF-8 in scalar");
  CHECK(error_of("k\xc0\xaf: 1") == "t.yaml:1:1: error: invalid UTF-8 in scalar");
}

TEST_CASE("YAML nodes get file:line:col locations", "[setup]") {
  const std::string text =
      "name: demo\n"                 // 1
      "options:\n"                   // 2
      "  target: 5\n"                // 3
      "  odd/key~: x\n"              // 4
      "dice:\n"                      // 5
      "  - count: 2\n"               // 6
      "    faces: [4, 6]\n"          // 7
      "  - {count: 1, faces: 20}\n"  // 8
      "empty:\n"                     // 9
      "list:\n"                      // 10
      "  -\n"                        // 11
      "  - ~\n";                     // 12
  SourcedJson s = parse_yaml(text, "game.yaml");
  CHECK(s.value == json::parse(R"({
    "name": "demo",
    "options": {"target": 5, "odd/key~": "x"},
    "dice": [{"count": 2, "faces": [4, 6]}, {"count": 1, "faces": 20}],
    "empty": null,
    "list": [null, null]
  })"));
  CHECK(at(s, "") == "game.yaml:1:1");
  CHECK(at(s, "/name") == "game.yaml:1:7");
  CHECK(at(s, "/options") == "game.yaml:3:3");
  CHECK(at(s, "/options/target") == "game.yaml:3:11");
  CHECK(at(s, "/options/odd~1key~0") == "game.yaml:4:13");
  CHECK(at(s, "/dice") == "game.yaml:6:3");
  CHECK(at(s, "/dice/0") == "game.yaml:6:5");
  CHECK(at(s, "/dice/0/count") == "game.yaml:6:12");
  CHECK(at(s, "/dice/0/faces") == "game.yaml:7:12");
  CHECK(at(s, "/dice/0/faces/0") == "game.yaml:7:13");
  CHECK(at(s, "/dice/0/faces/1") == "game.yaml:7:16");
  CHECK(at(s, "/dice/1") == "game.yaml:8:5");
  CHECK(at(s, "/dice/1/count") == "game.yaml:8:13");
  CHECK(at(s, "/dice/1/faces") == "game.yaml:8:23");
  // An empty value is located at its key, not at the next line.
  CHECK(at(s, "/empty") == "game.yaml:9:1");
  // An empty list item is located at its '-'.
  CHECK(at(s, "/list/0") == "game.yaml:11:3");
  CHECK(at(s, "/list/1") == "game.yaml:12:5");
  CHECK(s.where.size() == 18);
  CHECK(s.locate("/dice/0/faces/7").str() == "game.yaml:7:12");

  // A byte order mark does not shift columns; flow empties are at the key.
  SourcedJson b = parse_yaml(
      "\xEF\xBB\xBF"
      "a: {x: , y: 2}\n",
      "bom.yaml");
  CHECK(b.value == json::parse(R"({"a": {"x": null, "y": 2}})"));
  CHECK(at(b, "/a/x") == "bom.yaml:1:5");
  CHECK(at(b, "/a/y") == "bom.yaml:1:13");
}

TEST_CASE("YAML empty input and comments give null", "[setup]") {
  for (const char* text : {"", "# just a comment\n", "---\n", "~\n"}) {
    INFO(text);
    SourcedJson s = parse_yaml(text, "e.yaml");
    CHECK(s.value.is_null());
    CHECK(at(s, "") == "e.yaml:1:1");
  }
  CHECK(parse_yaml("%YAML 1.2\n---\na: 1\n...\n", "d.yaml").value == json{{"a", 1}});
}

TEST_CASE("YAML aliases are expanded", "[setup]") {
  SourcedJson s = parse_yaml(
      "base: &b\n"
      "  hp: 10\n"
      "  tags: [x]\n"
      "hero: *b\n"
      "list: [*b, &n 3, *n]\n"
      "&k name: 1\n"
      "other: {*k : 2}\n",
      "a.yaml");
  CHECK(s.value == json::parse(R"({
    "base": {"hp": 10, "tags": ["x"]},
    "hero": {"hp": 10, "tags": ["x"]},
    "list": [{"hp": 10, "tags": ["x"]}, 3, 3],
    "name": 1,
    "other": {"name": 2}
  })"));
  CHECK(at(s, "/hero") == "a.yaml:4:7");
  CHECK(at(s, "/hero/hp") == "a.yaml:2:7");
  CHECK(at(s, "/hero/tags/0") == "a.yaml:3:10");
  CHECK(at(s, "/list/0") == "a.yaml:5:8");
  CHECK(at(s, "/list/0/hp") == "a.yaml:2:7");
  CHECK(at(s, "/list/2") == "a.yaml:5:18");
}

TEST_CASE("YAML errors carry file:line:col", "[setup]") {
  SECTION("syntax errors") {
    CHECK(error_of("a: 1\nb: [1, 2\n", "bad.yaml") ==
          "bad.yaml:3:1: error: end of sequence flow not found");
    CHECK(error_of("a:\n  b: 1\n c: 2\n", "bad.yaml") ==
          "bad.yaml:3:2: error: end of map not found");
    CHECK(error_of("a: b: c\n", "bad.yaml") == "bad.yaml:1:5: error: illegal map value");
    CHECK(error_of("a: *nowhere\n", "bad.yaml") ==
          "bad.yaml:1:4: error: the referenced anchor is not defined");
    CHECK(error_of("- a\nb: 1\n", "bad.yaml") ==
          "bad.yaml:2:1: error: unexpected text after the end of the top-level value "
          "(check the indentation)");
    // yaml-cpp 0.7 would loop forever on these.
    CHECK(error_of(",", "bad.yaml") == "bad.yaml:1:1: error: unexpected ','");
    CHECK(error_of("&a , x", "bad.yaml") == "bad.yaml:1:4: error: unexpected ','");
    // A syntax error wins over an earlier semantic error.
    CHECK(error_of("a: 1\na: 2\nb: [\n", "bad.yaml") ==
          "bad.yaml:4:1: error: end of sequence flow not found");
  }
  SECTION("duplicate keys") {
    CHECK(error_of("a: 1\nb: 2\na: 3\n", "dup.yaml") ==
          "dup.yaml:3:1: error: duplicate key 'a' (first defined at dup.yaml:1:1)");
    CHECK(error_of("x:\n  k: 1\n  'k': 2\n", "dup.yaml") ==
          "dup.yaml:3:3: error: duplicate key 'k' (first defined at dup.yaml:2:3)");
    CHECK(error_of("{a: 1, b: {c: 1, c: 2}}", "dup.yaml") ==
          "dup.yaml:1:18: error: duplicate key 'c' (first defined at dup.yaml:1:12)");
    // The same key in different mappings is fine.
    CHECK(error_of("a: {k: 1}\nb: {k: 2}\n").empty());
  }
  SECTION("non-string keys") {
    CHECK(error_of("1: a\n", "k.yaml") ==
          "k.yaml:1:1: error: mapping keys must be strings, got an integer '1' "
          "(quote the key to make it a string)");
    CHECK(error_of("x:\n  true: a\n", "k.yaml") ==
          "k.yaml:2:3: error: mapping keys must be strings, got a boolean 'true' "
          "(quote the key to make it a string)");
    CHECK(error_of("~: a\n", "k.yaml") ==
          "k.yaml:1:1: error: mapping keys must be strings, got null");
    CHECK(error_of("? [a]\n: 1\n", "k.yaml") ==
          "k.yaml:1:3: error: mapping keys must be strings, got a list");
    CHECK(error_of("? {a: 1}\n: 1\n", "k.yaml") ==
          "k.yaml:1:3: error: mapping keys must be strings, got a mapping");
    CHECK(error_of("'1': a\n\"true\": b\n").empty());
  }
  SECTION("recursive aliases") {
    CHECK(error_of("a: &x [1, *x]\n", "r.yaml") ==
          "r.yaml:1:11: error: alias *x refers to a node that contains it "
          "(recursive aliases are not supported)");
    CHECK(starts_with(error_of("a: &x {b: *x}\n", "r.yaml"), "r.yaml:1:11: error: alias *x"));
  }
  SECTION("alias bombs") {
    std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'j'; ++c) {
      const std::string alias = std::string("*") + static_cast<char>(c - 1);
      bomb += std::string(1, c) + ": &" + c + " [" + alias;
      for (int i = 1; i < 10; ++i) bomb += ", " + alias;
      bomb += "]\n";
    }
    std::string e = error_of(bomb, "bomb.yaml");
    CHECK(starts_with(e, "bomb.yaml:"));
    CHECK(e.find("error: aliases expand to more than 100000 nodes") != std::string::npos);
  }
  SECTION("multiple documents") {
    CHECK(error_of("a: 1\n---\nb: 2\n", "m.yaml") ==
          "m.yaml:2:1: error: a setup file must contain a single YAML document; "
          "a second one starts here");
    CHECK(starts_with(error_of("a: 1\n...\n---\n", "m.yaml"), "m.yaml:3:1: error: a setup file"));
  }
  SECTION("files") {
    namespace fs = std::filesystem;
    CHECK_THROWS_WITH(rulebook::load_yaml_file("/nonexistent/dir/setup.yaml"),
                      "/nonexistent/dir/setup.yaml: error: cannot read file (No such file or "
                      "directory)");
    const fs::path dir = fs::temp_directory_path() / "rulebook_test_yaml_source";
    fs::create_directories(dir);
    CHECK_THROWS_WITH(rulebook::load_yaml_file(dir.string()),
                      dir.string() + ": error: cannot read file (Is a directory)");
    const fs::path file = dir / "ok.yaml";
    {
      std::ofstream out(file);
      out << "players:\n  max: 4\n";
    }
    SourcedJson s = rulebook::load_yaml_file(file.string());
    CHECK(s.value == json::parse(R"({"players": {"max": 4}})"));
    CHECK(s.where.at("/players/max").str() == file.string() + ":2:8");
    {
      std::ofstream out(file);
      out << "players:\n  max: 4\n  max: 5\n";
    }
    CHECK_THROWS_WITH(rulebook::load_yaml_file(file.string()),
                      file.string() + ":3:3: error: duplicate key 'max' (first defined at " +
                          file.string() + ":2:3)");
    fs::remove_all(dir);
  }
}

TEST_CASE("YAML reader never crashes on bad input", "[setup]") {
  const std::string sample =
      "# sample\n"
      "name: \"Demo game\"\n"
      "players: {min: 2, max: 4}\n"
      "options:\n"
      "  target: 10\n"
      "  rules: &r [a, 'b', \"c\\n\", 1, 2.5, ~, true]\n"
      "  again: *r\n"
      "dice:\n"
      "  - count: 2\n"
      "    faces: !!int 6\n"
      "  - {count: 1, faces: 0x14}\n"
      "text: |\n"
      "  line one\n"
      "  line two\n"
      "folded: >-\n"
      "  a\n"
      "  b\n"
      "? complex\n"
      ": value\n"
      "components+: [x]\n";
  REQUIRE(error_of(sample).empty());

  auto check_no_crash = [](const std::string& text) {
    try {
      SourcedJson s = parse_yaml(text, "fuzz.yaml");
      // The result must be usable: dumping checks that strings are UTF-8.
      (void)s.value.dump();
      (void)s.locate("/a/b/c");
    } catch (const SetupError& e) {
      const std::string message = e.what();
      INFO(message);
      CHECK(starts_with(message, "fuzz.yaml"));
      CHECK(message.find(": error: ") != std::string::npos);
    }
  };

  SECTION("truncations") {
    for (std::size_t n = 0; n <= sample.size(); ++n) check_no_crash(sample.substr(0, n));
  }
  SECTION("mutations") {
    std::mt19937 rng(12345);
    const std::string alphabet = "\n\t :-?[]{},&*!|>'\"#%@`~.0123456789abcxyz\\\xc3\xa9\xff";
    for (int round = 0; round < 2000; ++round) {
      std::string text = sample;
      const int edits = 1 + static_cast<int>(rng() % 8);
      for (int k = 0; k < edits; ++k) {
        std::size_t pos = rng() % (text.size() + 1);
        char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0:
            text.insert(pos, 1, c);
            break;
          case 1:
            if (pos < text.size()) text[pos] = c;
            break;
          default:
            if (pos < text.size()) text.erase(pos, 1 + rng() % 5);
            break;
        }
      }
      check_no_crash(text);
    }
  }
  SECTION("random bytes") {
    std::mt19937 rng(987);
    for (int round = 0; round < 500; ++round) {
      std::string text(rng() % 200, '\0');
      for (char& c : text) c = static_cast<char>(rng() % 256);
      check_no_crash(text);
    }
  }
  SECTION("pathological nesting") {
    check_no_crash(std::string(100000, '['));
    check_no_crash(std::string(100000, '{'));
    check_no_crash(std::string(5000, '[') + std::string(5000, ']'));
    std::string deep;
    for (int i = 0; i < 3000; ++i) deep += std::string(static_cast<std::size_t>(i), ' ') + "a:\n";
    check_no_crash(deep);
    check_no_crash(std::string(10000, '-') + " x");
    check_no_crash(std::string("\0\0\0a", 4));
    check_no_crash(
        "\xff\xfe"
        "a\0:\0 \0"
        "1\0");
  }
}
