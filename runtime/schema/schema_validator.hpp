#pragma once
// Validates an instance against a compiled schema, wording each problem
// for a person (allowed types, values and keys; the closest alternative of
// an anyOf/oneOf).
#include <vector>

#include <nlohmann/json.hpp>

#include "schema/compiled_schema.hpp"

namespace rulebook::schema::detail {

// Every problem, in instance order as far as possible, each once.
std::vector<Issue> validate_instance(const Node* root, const json& instance);

}  // namespace rulebook::schema::detail
