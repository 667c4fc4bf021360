#pragma once
// Compiles a schema document, and the documents its $refs reach, into
// Schema::Impl.
#include <string>

#include <nlohmann/json.hpp>

#include "schema/compiled_schema.hpp"

namespace rulebook::schema::detail {

// Compiles `doc` (named `uri`, "" for an anonymous document) into `impl`,
// loading referenced files relative to `base_dir`; returns the root node.
// Throws std::runtime_error when the schema is malformed (bad keyword
// value, invalid regex, unresolvable or circular $ref, unreadable file).
const Node* compile_schema(Schema::Impl& impl, json doc, std::string base_dir, const std::string& uri);

}  // namespace rulebook::schema::detail
