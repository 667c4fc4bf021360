#include "schema/schema_compiler.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "schema/draft07_meta_schema.hpp"
#include "schema/json_values.hpp"
#include "schema/uri.hpp"

namespace rulebook::schema::detail {
namespace {

// ---------------------------------------------------------------------------
// Compiler

struct Location {
  std::string doc;
  std::string pointer;
};

class Compiler {
 public:
  Compiler(Schema::Impl& impl, std::string base_dir) : impl_(impl), base_dir_(std::move(base_dir)) {}

  const Node* compile_root(json doc, const std::string& uri) {
    add_document(uri, std::move(doc));
    const Node* root = compile(uri, "");
    check_ref_cycles();
    return root;
  }

 private:
  Schema::Impl& impl_;
  std::string base_dir_;
  std::map<std::string, json> docs_;
  std::map<std::string, Location> ids_;          // absolute URI -> location
  std::map<std::string, std::string> scopes_;    // "doc#pointer" with $id -> base URI
  std::map<std::string, Node*> compiled_;        // "doc#pointer" -> node

  [[noreturn]] void fail(const std::string& doc, const std::string& pointer, const std::string& msg) {
    std::string where = doc.empty() ? "schema" : doc;
    throw std::runtime_error(fmt::format("invalid schema ({} at '#{}'): {}", where, pointer, msg));
  }

  const json& add_document(const std::string& uri, json doc) {
    auto [it, inserted] = docs_.emplace(uri, std::move(doc));
    if (inserted) scan_ids(uri, it->second, "", uri);
    return it->second;
  }

  std::string file_path(const std::string& uri) const {
    std::string path = uri;
    if (path.compare(0, 7, "file://") == 0) path = path.substr(7);
    if (!path.empty() && path[0] == '/') return path;
    if (base_dir_.empty()) return path;
    if (base_dir_.back() == '/') return base_dir_ + path;
    return base_dir_ + "/" + path;
  }

  const json& load_document(const std::string& uri, const std::string& from_doc,
                            const std::string& from_pointer) {
    auto it = docs_.find(uri);
    if (it != docs_.end()) return it->second;
    if (uri == kDraft07Uri) return add_document(uri, json::parse(kDraft07MetaSchema));
    if (has_scheme(uri) && uri.compare(0, 7, "file://") != 0)
      fail(from_doc, from_pointer,
           fmt::format("cannot resolve $ref to '{}': remote schemas are not supported", uri));
    std::string path = file_path(uri);
    std::ifstream in(path, std::ios::binary);
    if (!in)
      fail(from_doc, from_pointer, fmt::format("cannot open referenced schema file '{}'", path));
    json doc;
    try {
      doc = json::parse(in);
    } catch (const json::exception& e) {
      fail(from_doc, from_pointer,
           fmt::format("referenced schema file '{}' is not valid JSON: {}", path, e.what()));
    }
    return add_document(uri, std::move(doc));
  }

  // Records every "$id" (and the base URI it establishes) in a document.
  void scan_ids(const std::string& doc, const json& s, const std::string& pointer, std::string base) {
    if (!s.is_object()) return;
    if (!s.contains("$ref")) {
      auto id = s.find("$id");
      if (id != s.end() && id->is_string()) {
        std::string abs = resolve_uri(base, id->get<std::string>());
        auto [no_frag, frag] = split_fragment(abs);
        Location loc{doc, pointer};
        if (frag.empty()) ids_.emplace(no_frag, loc);
        else ids_.emplace(abs, loc);
        if (no_frag != base) {
          base = no_frag;
          scopes_[doc + "#" + pointer] = base;
        }
      }
    }
    auto child = [&](const std::string& key) {
      auto it = s.find(key);
      if (it != s.end()) scan_ids(doc, *it, pointer + "/" + escape_pointer_token(key), base);
    };
    auto children_of_array = [&](const std::string& key) {
      auto it = s.find(key);
      if (it == s.end() || !it->is_array()) return;
      for (std::size_t i = 0; i < it->size(); ++i)
        scan_ids(doc, (*it)[i], fmt::format("{}/{}/{}", pointer, key, i), base);
    };
    auto children_of_object = [&](const std::string& key) {
      auto it = s.find(key);
      if (it == s.end() || !it->is_object()) return;
      for (auto jt = it->begin(); jt != it->end(); ++jt)
        scan_ids(doc, jt.value(),
                 pointer + "/" + key + "/" + escape_pointer_token(jt.key()), base);
    };
    for (const char* k : {"additionalItems", "contains", "additionalProperties", "propertyNames",
                          "if", "then", "else", "not"})
      child(k);
    auto items = s.find("items");
    if (items != s.end()) {
      if (items->is_array()) children_of_array("items");
      else child("items");
    }
    for (const char* k : {"allOf", "anyOf", "oneOf"}) children_of_array(k);
    for (const char* k : {"properties", "patternProperties", "definitions", "dependencies"})
      children_of_object(k);
  }

  std::string base_uri(const std::string& doc, const std::string& pointer) const {
    std::string p = pointer;
    for (;;) {
      auto it = scopes_.find(doc + "#" + p);
      if (it != scopes_.end()) return it->second;
      if (p.empty()) return doc;
      p = p.substr(0, p.rfind('/'));
    }
  }

  Location resolve_ref(const std::string& doc, const std::string& pointer, const std::string& ref) {
    std::string abs = resolve_uri(base_uri(doc, pointer), ref);
    auto [no_frag, frag_raw] = split_fragment(abs);
    std::string frag = percent_decode(frag_raw);
    Location loc;
    if (!frag.empty() && frag[0] != '/') {
      // Plain-name fragment, defined by an "$id": "#name".
      auto it = ids_.find(abs);
      if (it == ids_.end()) {
        load_document(no_frag, doc, pointer);
        it = ids_.find(abs);
      }
      if (it == ids_.end()) fail(doc, pointer, fmt::format("$ref '{}': no schema has $id '{}'", ref, abs));
      loc = it->second;
    } else {
      auto it = ids_.find(no_frag);
      if (it != ids_.end()) {
        loc = {it->second.doc, it->second.pointer + frag};
      } else {
        load_document(no_frag, doc, pointer);
        loc = {no_frag, frag};
      }
    }
    if (!at_pointer(docs_.at(loc.doc), loc.pointer))
      fail(doc, pointer, fmt::format("$ref '{}' points to nothing (no value at '{}#{}')", ref,
                                     loc.doc, loc.pointer));
    return loc;
  }

  const Node* sub(const std::string& doc, const std::string& pointer, const std::string& key) {
    return compile(doc, pointer + "/" + escape_pointer_token(key));
  }

  Regex regex(const std::string& doc, const std::string& pointer, const json& v) {
    if (!v.is_string()) fail(doc, pointer, "a pattern must be a string");
    Regex r;
    r.source = v.get<std::string>();
    try {
      r.re.emplace(r.source);
    } catch (const std::runtime_error& e) {
      fail(doc, pointer, e.what());
    }
    return r;
  }

  Node* compile(const std::string& doc, const std::string& pointer) {
    std::string key = doc + "#" + pointer;
    auto found = compiled_.find(key);
    if (found != compiled_.end()) return found->second;

    const json* sp = at_pointer(docs_.at(doc), pointer);
    if (!sp) fail(doc, pointer, "no schema at this location");
    const json& s = *sp;

    impl_.nodes.push_back(std::make_unique<Node>());
    Node* node = impl_.nodes.back().get();
    node->where = key;
    compiled_.emplace(key, node);

    if (s.is_boolean()) {
      node->kind = s.get<bool>() ? Node::Kind::Accept : Node::Kind::Reject;
      return node;
    }
    if (!s.is_object())
      fail(doc, pointer, fmt::format("a schema must be an object or a boolean, got {}", type_name(s)));

    auto kw = [&](const char* name) -> const json* {
      auto it = s.find(name);
      return it == s.end() ? nullptr : &*it;
    };
    auto kw_pointer = [&](const char* name) { return pointer + "/" + escape_pointer_token(name); };

    if (const json* ref = kw("$ref")) {
      if (!ref->is_string()) fail(doc, kw_pointer("$ref"), "$ref must be a string");
      Location loc = resolve_ref(doc, pointer, ref->get<std::string>());
      node->ref = compile(loc.doc, loc.pointer);
      // draft-07: all other keywords next to $ref are ignored, but the
      // definitions are still checked so that mistakes in them surface.
      if (const json* defs = kw("definitions"); defs && defs->is_object())
        for (auto it = defs->begin(); it != defs->end(); ++it)
          compile(doc, kw_pointer("definitions") + "/" + escape_pointer_token(it.key()));
      return node;
    }

    auto schema_kw = [&](const char* name) -> const Node* {
      return kw(name) ? sub(doc, pointer, name) : nullptr;
    };
    auto number_kw = [&](const char* name) -> std::optional<json> {
      const json* v = kw(name);
      if (!v) return std::nullopt;
      if (!v->is_number()) fail(doc, kw_pointer(name), fmt::format("'{}' must be a number", name));
      return *v;
    };
    auto count_kw = [&](const char* name) -> std::optional<std::uint64_t> {
      const json* v = kw(name);
      if (!v) return std::nullopt;
      if (!v->is_number() || !is_integral(*v) || num(*v) < 0)
        fail(doc, kw_pointer(name), fmt::format("'{}' must be a non-negative integer", name));
      long double n = num(*v);
      if (n > static_cast<long double>(UINT64_MAX)) return UINT64_MAX;
      return static_cast<std::uint64_t>(n);
    };
    auto schema_array_kw = [&](const char* name) {
      std::vector<const Node*> out;
      const json* v = kw(name);
      if (!v) return out;
      if (!v->is_array()) fail(doc, kw_pointer(name), fmt::format("'{}' must be an array of schemas", name));
      for (std::size_t i = 0; i < v->size(); ++i)
        out.push_back(compile(doc, fmt::format("{}/{}", kw_pointer(name), i)));
      return out;
    };
    auto string_array = [&](const json& v, const std::string& at, const char* what) {
      std::vector<std::string> out;
      if (!v.is_array()) fail(doc, at, fmt::format("{} must be an array of strings", what));
      for (const auto& e : v) {
        if (!e.is_string()) fail(doc, at, fmt::format("{} must be an array of strings", what));
        out.push_back(e.get<std::string>());
      }
      return out;
    };

    if (const json* t = kw("type")) {
      std::vector<json> names = t->is_array() ? t->get<std::vector<json>>() : std::vector<json>{*t};
      for (const auto& n : names) {
        std::optional<unsigned> bit = n.is_string() ? type_bit(n.get<std::string>()) : std::nullopt;
        if (!bit)
          fail(doc, kw_pointer("type"),
               fmt::format("unknown type {} (allowed: array, boolean, integer, null, number, object, "
                           "string)",
                           show(n)));
        node->types |= *bit;
        node->type_names.push_back(n.get<std::string>());
      }
      if (names.empty()) fail(doc, kw_pointer("type"), "'type' must not be an empty array");
    }
    if (const json* c = kw("const")) {
      node->has_const = true;
      node->const_value = *c;
    }
    if (const json* e = kw("enum")) {
      if (!e->is_array()) fail(doc, kw_pointer("enum"), "'enum' must be an array");
      node->has_enum = true;
      node->enum_values = e->get<std::vector<json>>();
    }

    node->multiple_of = number_kw("multipleOf");
    if (node->multiple_of && num(*node->multiple_of) <= 0)
      fail(doc, kw_pointer("multipleOf"), "'multipleOf' must be greater than 0");
    node->maximum = number_kw("maximum");
    node->exclusive_maximum = number_kw("exclusiveMaximum");
    node->minimum = number_kw("minimum");
    node->exclusive_minimum = number_kw("exclusiveMinimum");

    node->max_length = count_kw("maxLength");
    node->min_length = count_kw("minLength");
    if (const json* p = kw("pattern")) node->pattern = regex(doc, kw_pointer("pattern"), *p);

    if (const json* items = kw("items")) {
      if (items->is_array()) {
        node->items_is_array = true;
        node->items_array = schema_array_kw("items");
      } else {
        node->items = sub(doc, pointer, "items");
      }
    }
    node->additional_items = schema_kw("additionalItems");
    node->max_items = count_kw("maxItems");
    node->min_items = count_kw("minItems");
    if (const json* u = kw("uniqueItems")) {
      if (!u->is_boolean()) fail(doc, kw_pointer("uniqueItems"), "'uniqueItems' must be a boolean");
      node->unique_items = u->get<bool>();
    }
    node->contains = schema_kw("contains");

    node->max_properties = count_kw("maxProperties");
    node->min_properties = count_kw("minProperties");
    if (const json* r = kw("required")) node->required = string_array(*r, kw_pointer("required"), "'required'");
    if (const json* props = kw("properties")) {
      if (!props->is_object()) fail(doc, kw_pointer("properties"), "'properties' must be an object");
      for (auto it = props->begin(); it != props->end(); ++it)
        node->properties.emplace(it.key(), compile(doc, kw_pointer("properties") + "/" +
                                                            escape_pointer_token(it.key())));
    }
    if (const json* pp = kw("patternProperties")) {
      if (!pp->is_object())
        fail(doc, kw_pointer("patternProperties"), "'patternProperties' must be an object");
      for (auto it = pp->begin(); it != pp->end(); ++it) {
        std::string at = kw_pointer("patternProperties") + "/" + escape_pointer_token(it.key());
        node->pattern_properties.emplace_back(regex(doc, at, json(it.key())), compile(doc, at));
      }
    }
    node->additional_properties = schema_kw("additionalProperties");
    if (const json* deps = kw("dependencies")) {
      if (!deps->is_object()) fail(doc, kw_pointer("dependencies"), "'dependencies' must be an object");
      for (auto it = deps->begin(); it != deps->end(); ++it) {
        std::string at = kw_pointer("dependencies") + "/" + escape_pointer_token(it.key());
        Dependency d;
        d.key = it.key();
        if (it->is_array()) d.required = string_array(*it, at, "a dependency list");
        else d.schema = compile(doc, at);
        node->dependencies.push_back(std::move(d));
      }
    }
    node->property_names = schema_kw("propertyNames");

    node->if_ = schema_kw("if");
    node->then_ = schema_kw("then");
    node->else_ = schema_kw("else");
    node->not_ = schema_kw("not");
    node->all_of = schema_array_kw("allOf");
    node->any_of = schema_array_kw("anyOf");
    node->one_of = schema_array_kw("oneOf");

    // Definitions are only reached through $ref, but compile them anyway so
    // that a mistake in an unused definition is still reported.
    if (const json* defs = kw("definitions")) {
      if (!defs->is_object()) fail(doc, kw_pointer("definitions"), "'definitions' must be an object");
      for (auto it = defs->begin(); it != defs->end(); ++it)
        compile(doc, kw_pointer("definitions") + "/" + escape_pointer_token(it.key()));
    }
    return node;
  }

  // {"$ref": "#"} at the root (or a ring of such refs) would loop forever.
  void check_ref_cycles() {
    const std::size_t limit = impl_.nodes.size() + 1;
    for (const auto& n : impl_.nodes) {
      const Node* cur = n.get();
      std::size_t steps = 0;
      while (cur->ref) {
        cur = cur->ref;
        if (++steps > limit)
          throw std::runtime_error(
              fmt::format("invalid schema: $ref at '{}' refers to itself (circular $ref)", n->where));
      }
    }
  }
};


}  // namespace

const Node* compile_schema(Schema::Impl& impl, json doc, std::string base_dir, const std::string& uri) {
  Compiler compiler(impl, std::move(base_dir));
  return compiler.compile_root(std::move(doc), uri);
}

}  // namespace rulebook::schema::detail
