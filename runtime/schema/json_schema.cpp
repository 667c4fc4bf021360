#include "schema/json_schema.hpp"

#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "schema/compiled_schema.hpp"
#include "schema/schema_compiler.hpp"
#include "schema/schema_validator.hpp"

namespace rulebook::schema {

using json = nlohmann::json;

Schema::Schema(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

namespace {

Schema::Impl* compile_into(std::shared_ptr<Schema::Impl>& impl, json doc, std::string base_dir,
                           const std::string& uri) {
  impl = std::make_shared<Schema::Impl>();
  impl->root = detail::compile_schema(*impl, std::move(doc), std::move(base_dir), uri);
  return impl.get();
}

std::string dir_name(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

Schema Schema::from_json(json doc, std::string base_dir) {
  std::shared_ptr<Impl> impl;
  compile_into(impl, std::move(doc), std::move(base_dir), "");
  return Schema(std::move(impl));
}

Schema Schema::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot open schema file '{}'", path));
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("schema file '{}' is not valid JSON: {}", path, e.what()));
  }
  std::string dir = dir_name(path);
  std::string name = dir.empty() ? path : path.substr(path.rfind('/') + 1);
  std::shared_ptr<Impl> impl;
  try {
    compile_into(impl, std::move(doc), dir, name);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("schema file '{}': {}", path, e.what()));
  }
  return Schema(std::move(impl));
}

std::vector<Issue> Schema::validate(const json& instance) const {
  return detail::validate_instance(impl_->root, instance);
}

std::vector<std::string> Schema::validate_sourced(const SourcedJson& sourced) const {
  std::vector<std::string> out;
  for (const auto& issue : validate(sourced.value))
    out.push_back(format_error(sourced.locate(issue.pointer), issue.message));
  return out;
}

}  // namespace rulebook::schema

