#pragma once
// valijson's results turned into messages for a person: valijson says where
// and which keyword failed; the wording (what the schema allows there, the
// closest alternative of an anyOf/oneOf) comes from the schema nodes at
// that place.
#include <vector>

#include <nlohmann/json.hpp>

#include "schema/schema_documents.hpp"

namespace rulebook::schema::detail {

// Every problem of `instance` (none = valid), in instance order.
std::vector<Issue> validate_instance(const Schema::Impl& impl, const nlohmann::json& instance);

}  // namespace rulebook::schema::detail
