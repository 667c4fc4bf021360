#include "schema/json_schema.hpp"

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "json/sourced_json.hpp"
#include "schema/schema_documents.hpp"
#include "schema/schema_messages.hpp"
#include "schema/uri.hpp"

namespace rulebook::schema {

using json = nlohmann::json;
using detail::dir_name;
using detail::kFileScheme;
using detail::read_json_file;

Schema::Schema(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

Schema Schema::from_json(json doc, std::string base_dir) {
  auto impl = std::make_shared<Impl>();
  impl->base_dir = std::move(base_dir);
  Impl& self = *impl;
  try {
    const std::string dir = std::filesystem::absolute(impl->base_dir.empty() ? "." : impl->base_dir).lexically_normal();
    detail::prepare_document(doc, kFileScheme + dir + (dir.back() == '/' ? "" : "/"), impl->prepared);
    detail::check_references(self, doc);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("invalid schema: {}", e.what()));
  }
  // The root's URI names it in the wrappers of its subschemas.
  if (doc.is_object()) {
    auto id = doc.find("$id");
    if (id == doc.end()) {
      impl->root_uri = "rulebook://schema";
      doc["$id"] = impl->root_uri;
    } else if (id->is_string() && id->get<std::string>().find("://") != std::string::npos) {
      impl->root_uri = detail::strip_fragment(id->get<std::string>());
    }
  }
  impl->doc = std::move(doc);
  try {
    impl->compile(impl->doc, impl->compiled);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("invalid schema: {}", e.what()));
  }
  return Schema(std::move(impl));
}

Schema Schema::load(const std::string& path) {
  json doc = read_json_file(path, "schema file");
  try {
    return from_json(std::move(doc), dir_name(path));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("schema file '{}': {}", path, e.what()));
  }
}


std::vector<Issue> Schema::validate(const json& instance) const {
  return detail::validate_instance(*impl_, instance);
}

std::vector<std::string> Schema::validate_sourced(const SourcedJson& sourced) const {
  std::vector<std::string> out;
  for (const auto& issue : validate(sourced.value))
    out.push_back(format_error(sourced.locate(issue.pointer), issue.message));
  return out;
}

}  // namespace rulebook::schema
