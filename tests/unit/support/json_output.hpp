#pragma once
// What CLI tests ask of a command's JSON: that it succeeded and parses, and
// that it follows its schema in schemas/.
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "schema/json_schema.hpp"

namespace rulebook::test {

inline nlohmann::json json_of(const CommandResult& r) {
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

inline void check_schema(const nlohmann::json& j, const std::string& schema) {
  const auto s = rulebook::schema::Schema::load(std::string(RULEBOOK_SOURCE_DIR) + "/schemas/" + schema);
  const auto issues = s.validate(j);
  for (const auto& issue : issues) INFO(issue.pointer << ": " << issue.message);
  CHECK(issues.empty());
}

}  // namespace rulebook::test
