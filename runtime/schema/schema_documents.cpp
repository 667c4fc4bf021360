#include "schema/schema_documents.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>

#include "json/sourced_json.hpp"
#include "schema/draft07_meta_schema.hpp"
#include "schema/json_values.hpp"
#include "schema/safe_regex.hpp"
#include "schema/uri.hpp"

namespace rulebook::schema {
namespace detail {
namespace {


// valijson 1.0 matches "pattern" (and "format") with std::regex, whose
// matcher recurses once per character: a long user string overflows the
// stack. So the schema handed to valijson carries these keywords renamed;
// "pattern" is checked with RE2 (SafeRegex) by a custom constraint, "format"
// stays an annotation as before.
constexpr const char* kSafePattern = "x-rulebook-pattern";
constexpr const char* kFormat = "x-rulebook-format";

// Renames pattern/format in every subschema; values of enum/const/default/
// examples are data, not schemas, and are left alone.
// Also: "type" names are checked (valijson's error does not say which
// keyword), and $refs to other files are made relative to the base
// directory (valijson appends a relative reference to the referring
// document's name, so "../common.json" from "sub/die.json" goes astray).
// Keywords whose value is data, not a schema, and keywords whose value
// maps names (which may be "default" or "enum") to schemas.
bool is_data_keyword(const std::string& key) {
  return key == "enum" || key == "const" || key == "default" || key == "examples";
}
bool is_schema_map(const std::string& key) {
  return key == "properties" || key == "patternProperties" || key == "definitions" || key == "dependencies";
}


// `base` is the URI relative references resolve against (the document's
// file://PATH, or the nearest $id); subschemas with an $id of their own are
// added to `ids` (valijson fetches them by that URI).
void rename_regex_keywords(json& node, const std::string& base = "", bool names = false,
                           Prepared* ids = nullptr) {
  if (node.is_array() || (names && node.is_object())) {
    for (auto& item : node) rename_regex_keywords(item, base, false, ids);
    return;
  }
  if (!node.is_object()) return;
  if (auto t = node.find("type"); t != node.end() && (t->is_string() || t->is_array())) {
    for (const auto& name : t->is_array() ? *t : json::array({*t}))
      if (!name.is_string() || !detail::type_bit(name.get<std::string>()))
        throw std::runtime_error(fmt::format("unknown type {} in \"type\"", show(name)));
  }
  std::string doc_name = base;
  bool own_id = false;
  if (auto id = node.find("$id"); id != node.end() && id->is_string() && !base.empty()) {
    const std::string name = id->get<std::string>();
    if (!name.empty() && name[0] != '#') {
      doc_name = detail::resolve_uri(base, name);
      *id = doc_name;
      own_id = detail::strip_fragment(doc_name) != detail::strip_fragment(base);
    }
  }
  if (auto r = node.find("$ref"); r != node.end() && r->is_string() && !doc_name.empty()) {
    const std::string ref = r->get<std::string>();
    if (!ref.empty() && ref[0] != '#') *r = detail::resolve_uri(doc_name, ref);
  }
  for (const char* kw : {"pattern", "format"}) {
    auto it = node.find(kw);
    if (it != node.end() && it->is_string()) {
      json value = std::move(*it);
      node.erase(it);
      node[kw == std::string("pattern") ? kSafePattern : kFormat] = std::move(value);
    }
  }
  // valijson reads bounds as signed 64-bit: 2^64-1 (the seed's maximum)
  // would become -1. Above INT64_MAX a double bound is exact enough; the
  // exact value is kept (x-rulebook-maximum) for messages.
  for (const char* kw : {"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"}) {
    auto it = node.find(kw);
    if (it != node.end() && it->is_number_unsigned() &&
        it->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
      json exact = *it;
      *it = static_cast<double>(it->get<std::uint64_t>());
      node[std::string(kExact) + kw] = std::move(exact);
    }
  }
  if (ids && node.contains("patternProperties")) ids->pattern_properties = true;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (is_data_keyword(it.key())) continue;
    rename_regex_keywords(it.value(), doc_name, is_schema_map(it.key()), ids);
  }
  if (own_id && ids) ids->ids.emplace(detail::strip_fragment(doc_name), node);
}

class SafePatternConstraint : public valijson::constraints::PolyConstraint {
 public:
  explicit SafePatternConstraint(const std::string& source) : re_(source) {}
  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString()) return true;
    if (re_.search(target.asString())) return true;
    if (results) results->pushError(context, kPatternMarker + re_.source());
    return false;
  }

 private:
  valijson::constraints::Constraint* cloneInto(void* where) const override {
    return new (where) SafePatternConstraint(*this);
  }
  size_t sizeOf() const override { return sizeof(*this); }
  SafeRegex re_;
};

class SafePatternBuilder : public valijson::ConstraintBuilder {
 public:
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& node) const override {
    if (!node.isString()) throw std::runtime_error("'pattern' must be a string");
    return new SafePatternConstraint(node.asString());
  }
};


// valijson follows a $ref without checking for a cycle: {"$ref": "#"}
// recurses until the stack overflows. So every cycle of in-place
// subschemas ($ref, allOf, anyOf, oneOf, not, if, then, else: the same
// instance value, no progress) is refused here, and so is a reference to a
// pointer that the document does not have. `load` reads a referenced file.
class RefCheck {
 public:
  RefCheck(const std::function<const json&(const std::string&)>& load) : load_(load) {}

  void check(const json& doc, const std::string& doc_name) { walk(doc, doc, doc_name, ""); }

 private:
  struct Target {
    const json* doc = nullptr;
    const json* node = nullptr;
    std::string doc_name, pointer;
  };

  // The node a $ref names, or nothing for what valijson resolves itself
  // ($id-based names, the built-in meta-schema, remote documents).
  std::optional<Target> resolve(const json& doc, const std::string& doc_name, const std::string& ref) {
    auto [file, fragment] = detail::split_fragment(ref);
    const bool local_file = file.empty() || file.compare(0, 7, kFileScheme) == 0;
    if (!local_file || (!fragment.empty() && fragment[0] != '/')) return std::nullopt;
    Target t{&doc, nullptr, doc_name, detail::percent_decode(fragment)};
    if (!file.empty()) {
      t.doc = &load_(file);
      t.doc_name = file;
    }
    t.node = detail::at_pointer(*t.doc, t.pointer);
    if (!t.node) throw std::runtime_error(fmt::format("cannot resolve $ref '{}'", ref));
    return t;
  }

  void walk(const json& doc, const json& node, const std::string& doc_name, const std::string& pointer,
            bool names = false) {
    if (!node.is_object() && !node.is_array()) return;
    if (!seen_.insert(doc_name + "#" + pointer).second) return;
    if (node.is_object() && !names) {
      in_place_cycle(doc, node, doc_name, pointer);
      if (auto r = node.find("$ref"); r != node.end() && r->is_string())
        if (auto t = resolve(doc, doc_name, r->get<std::string>()); t && t->doc != &doc)
          walk(*t->doc, *t->doc, t->doc_name, "");
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = node.is_object() ? it.key() : std::to_string(&*it - &node[0]);
      if (node.is_object() && !names && is_data_keyword(key)) continue;
      walk(doc, *it, doc_name, pointer + "/" + escape_pointer_token(key), node.is_object() && !names && is_schema_map(key));
    }
  }

  void in_place_cycle(const json& doc, const json& node, const std::string& doc_name, const std::string& pointer) {
    std::vector<std::string> path;
    visit(doc, node, doc_name, pointer, path);
  }

  void visit(const json& doc, const json& node, const std::string& doc_name, const std::string& pointer,
             std::vector<std::string>& path) {
    if (!node.is_object()) return;
    const std::string id = doc_name + "#" + pointer;
    if (acyclic_.count(id)) return;
    if (std::find(path.begin(), path.end(), id) != path.end())
      throw std::runtime_error(fmt::format("circular $ref: '{}' refers back to itself without going "
                                           "into a property or an item", path.front()));
    path.push_back(id);
    if (auto r = node.find("$ref"); r != node.end() && r->is_string()) {
      if (auto t = resolve(doc, doc_name, r->get<std::string>()))
        visit(*t->doc, *t->node, t->doc_name, t->pointer, path);
    }
    for (const char* kw : {"allOf", "anyOf", "oneOf"})
      if (auto it = node.find(kw); it != node.end() && it->is_array())
        for (std::size_t i = 0; i < it->size(); ++i)
          visit(doc, (*it)[i], doc_name, fmt::format("{}/{}/{}", pointer, kw, i), path);
    for (const char* kw : {"not", "if", "then", "else"})
      if (auto it = node.find(kw); it != node.end()) visit(doc, *it, doc_name, pointer + "/" + kw, path);
    path.pop_back();
    acyclic_.insert(id);
  }

  const std::function<const json&(const std::string&)>& load_;
  std::set<std::string> seen_, acyclic_;
};

}  // namespace

std::string dir_name(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string file_of(const std::string& uri) {
  const std::string name = detail::strip_fragment(uri);
  return name.compare(0, 7, kFileScheme) == 0 ? name.substr(7) : name;
}

json read_json_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot open {} '{}'", what, path));
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{} '{}' is not valid JSON: {}", what, path, e.what()));
  }
}

void prepare_document(json& doc, const std::string& base, Prepared& prepared) {
  rename_regex_keywords(doc, base, false, &prepared);
}

void check_references(Schema::Impl& impl, const json& doc) {
  std::function<const json&(const std::string&)> load = [&impl](const std::string& uri) -> const json& {
    return impl.file(uri);
  };
  RefCheck(load).check(doc, "");
}

}  // namespace detail

using namespace detail;

// Every referenced file, read once and prepared as valijson sees it.
const json& Schema::Impl::file(const std::string& uri) {
  const std::string path = file_of(uri);
  auto it = files.find(path);
  if (it == files.end()) {
    json d = read_json_file(path, "referenced schema file");
    rename_regex_keywords(d, kFileScheme + path, false, &prepared);
    it = files.emplace(path, std::move(d)).first;
  }
  return it->second;
}

// valijson's document loader: the root (for wrappers), the built-in
// meta-schema and files; nothing remote.
const json* Schema::Impl::fetch(const std::string& uri) const {
  if (!root_uri.empty() && uri == root_uri) return new json(doc);
  if (uri.rfind(kDraft07Uri, 0) == 0) {
    auto* meta = new json(json::parse(kDraft07MetaSchema));
    rename_regex_keywords(*meta);
    return meta;
  }
  if (auto it = prepared.ids.find(detail::strip_fragment(uri)); it != prepared.ids.end()) return new json(it->second);
  if (uri.compare(0, 7, kFileScheme) != 0)
    throw std::runtime_error(fmt::format("cannot resolve $ref to '{}': remote schemas are not supported", uri));
  const json* d = document(uri);
  if (!d) throw std::runtime_error(fmt::format("cannot resolve $ref to '{}'", uri));
  return new json(*d);
}

void Schema::Impl::compile(const json& root, valijson::Schema& out) const {
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  parser.addConstraintBuilder(kSafePattern, new SafePatternBuilder);  // the parser owns it
  valijson::adapters::NlohmannJsonAdapter adapter(root);
  parser.populateSchema(adapter, out, [this](const std::string& uri) { return fetch(uri); },
                        [](const json* d) { delete d; });
}

}  // namespace rulebook::schema
