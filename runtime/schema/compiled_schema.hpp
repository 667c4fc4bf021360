#pragma once
// A compiled JSON Schema: every keyword decoded, regexes compiled and every
// $ref resolved to its target node. The compiler builds it, the validator
// only walks it.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "schema/json_schema.hpp"
#include "schema/safe_regex.hpp"

namespace rulebook::schema {

namespace detail {

using json = nlohmann::json;

// ---------------------------------------------------------------------------
// Compiled schema

struct Regex {
  std::string source;
  std::optional<SafeRegex> re;
};

struct Node;

struct Dependency {
  std::string key;
  std::vector<std::string> required;  // array form
  const Node* schema = nullptr;       // schema form
};

struct Node {
  enum class Kind { Accept, Reject, Normal };
  Kind kind = Kind::Normal;
  std::string where;  // "doc#pointer", for error messages about the schema

  const Node* ref = nullptr;  // when set, every other keyword is ignored

  unsigned types = 0;  // 0 = no "type"
  std::vector<std::string> type_names;

  bool has_const = false;
  json const_value;
  bool has_enum = false;
  std::vector<json> enum_values;

  std::optional<json> multiple_of, maximum, exclusive_maximum, minimum, exclusive_minimum;
  std::optional<std::uint64_t> max_length, min_length, max_items, min_items, max_properties,
      min_properties;
  std::optional<Regex> pattern;

  const Node* items = nullptr;  // schema form
  bool items_is_array = false;
  std::vector<const Node*> items_array;
  const Node* additional_items = nullptr;
  bool unique_items = false;
  const Node* contains = nullptr;

  std::vector<std::string> required;
  std::map<std::string, const Node*> properties;
  std::vector<std::pair<Regex, const Node*>> pattern_properties;
  const Node* additional_properties = nullptr;
  std::vector<Dependency> dependencies;
  const Node* property_names = nullptr;

  const Node* if_ = nullptr;
  const Node* then_ = nullptr;
  const Node* else_ = nullptr;
  const Node* not_ = nullptr;
  std::vector<const Node*> all_of, any_of, one_of;
};

inline const Node* deref(const Node* n) {
  while (n->ref) n = n->ref;
  return n;
}

}  // namespace detail

struct Schema::Impl {
  std::vector<std::unique_ptr<detail::Node>> nodes;
  const detail::Node* root = nullptr;
};

}  // namespace rulebook::schema
