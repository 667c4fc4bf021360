#pragma once
// A JSON Schema (draft-07) validator whose messages are meant for a person
// editing the YAML files the instance was read from.
//
// Validation is valijson's (libvalijson-dev): the schema is compiled once
// when it is built; validate() runs valijson and, only when the instance is
// invalid, words its results (schema_messages.cpp).
//
// Supported: every draft-07 validation keyword (type, enum, const,
// multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum,
// maxLength, minLength, pattern, items, additionalItems, maxItems, minItems,
// uniqueItems, contains, maxProperties, minProperties, required, properties,
// patternProperties, additionalProperties, dependencies, propertyNames,
// if/then/else, allOf, anyOf, oneOf, not), boolean schemas, definitions and
// $ref (JSON pointers within a document, "$id"-based base URIs and plain-name
// fragments, references to other files relative to the base directory, and
// the draft-07 meta-schema "http://json-schema.org/draft-07/schema#", which
// is built in). "format", "default", "title", "description", "examples" and
// other unknown keywords are annotations and are ignored.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json/sourced_json.hpp"

namespace rulebook::schema {

struct Issue {
  // JSON pointer of the offending instance value ("" = root). For an unknown
  // key, the pointer of that key's value.
  std::string pointer;
  // e.g. "unknown key 'colour' (allowed: color, count, faces)",
  // "expected integer, got string", "value 9 is above the maximum 5".
  std::string message;
};

class Schema {
 public:
  // Build from a parsed schema document. `base_dir` is used to resolve $ref
  // to other files, e.g. {"$ref": "common.json#/definitions/identifier"}
  // loads base_dir/common.json (each file is loaded once).
  // Throws std::runtime_error when the schema is malformed (bad keyword
  // value, invalid regex, unresolvable $ref, unreadable referenced file).
  static Schema from_json(nlohmann::json doc, std::string base_dir = "");

  // Reads a JSON schema file; references to other files are resolved
  // relative to its directory. Throws std::runtime_error with a clear
  // message (naming the file) when it cannot be read, parsed or compiled.
  static Schema load(const std::string& path);

  // All problems found (empty = valid). Issues are reported in instance
  // order as far as possible; anyOf/oneOf failures are reported concisely.
  std::vector<Issue> validate(const nlohmann::json& instance) const;

  // Validates sourced.value and formats each issue with the location of its
  // pointer (sourced.locate(pointer)), as "file:line:col: error: message".
  std::vector<std::string> validate_sourced(const SourcedJson& sourced) const;

  struct Impl;

 private:
  explicit Schema(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace rulebook::schema
