#pragma once
// The schema documents as valijson gets them, and what rulebook keeps of
// them to word messages. valijson (libvalijson-dev) validates; before it
// sees a document, "pattern" is renamed so that RE2 matches it (valijson
// uses std::regex, which recurses once per character), file references and
// $ids are made absolute URIs (valijson's resolution only joins strings),
// unsigned 64-bit bounds become doubles, and cycles of $refs that would
// recurse without end are refused.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <valijson/schema.hpp>

#include "json/sourced_json.hpp"
#include "schema/json_schema.hpp"
#include "schema/json_values.hpp"
#include "schema/safe_regex.hpp"
#include "schema/uri.hpp"

namespace rulebook::schema {

namespace detail {

using json = nlohmann::json;

// A failed "pattern" (checked by rulebook's constraint) is reported as
// kPatternMarker + the pattern.
inline constexpr const char* kPatternMarker = "\x01pattern:";
// References to files reach valijson as file://PATH: it only resolves
// absolute URIs.
inline constexpr const char* kFileScheme = "file://";
// An unsigned bound valijson gets as a double is kept exact, for
// messages, under kExact + its keyword.
inline constexpr const char* kExact = "x-rulebook-";

// What preparing the documents found.
struct Prepared {
  std::map<std::string, json> ids;  // subschemas with an $id of their own, by it
  bool pattern_properties = false;  // valijson matches those keys with std::regex
};

std::string dir_name(const std::string& path);
std::string file_of(const std::string& uri);  // the path of a file:// URI
json read_json_file(const std::string& path, const char* what);

// Prepares a document for valijson (see above); `base` is its file://PATH.
// Throws std::runtime_error on an unknown type name.
void prepare_document(json& doc, const std::string& base, Prepared& prepared);

}  // namespace detail

struct Schema::Impl {
  using json = nlohmann::json;
  using Prepared = detail::Prepared;
  std::string base_dir;
  json doc;                            // as valijson sees it (pattern renamed, URIs absolute)
  std::string root_uri;                // the root document's URI (its $id), for subschema wrappers
  std::map<std::string, json> files;   // referenced documents, by path
  Prepared prepared;
  valijson::Schema compiled;
  // Subschemas compiled on the error path only (anyOf/oneOf branches,
  // propertyNames), by URI: {"$ref": "<document>#<pointer>"}.
  mutable std::mutex sub_mutex;
  mutable std::map<std::string, std::unique_ptr<valijson::Schema>> subs;

  // Every referenced file, read once and prepared as valijson sees it.
  const json& file(const std::string& uri);
  const json* document(const std::string& uri) const {
    const std::string name = detail::strip_fragment(uri);
    if (name.empty() || name == root_uri) return &doc;
    auto it = files.find(detail::file_of(name));
    return it == files.end() ? nullptr : &it->second;
  }

  // valijson's document loader: the root (for wrappers), the built-in
  // meta-schema and files; nothing remote.
  const json* fetch(const std::string& uri) const;

  // Compiles a document (prepared) with `fetch` and the safe pattern.
  void compile(const json& root, valijson::Schema& out) const;

  // A schema node, with where it is (for compiling it on its own).
  struct At {
    const json* node;
    std::string uri;  // its document ("" = the root)
    std::string pointer;
  };

  const valijson::Schema* sub(const At& at) const {
    if (root_uri.empty() && at.uri.empty()) return nullptr;
    const std::string uri = (at.uri.empty() ? root_uri : at.uri) + "#" + at.pointer;
    std::lock_guard<std::mutex> lock(sub_mutex);
    auto& slot = subs[uri];
    if (!slot) {
      auto s = std::make_unique<valijson::Schema>();
      try {
        compile(json{{"$ref", uri}}, *s);
      } catch (const std::exception&) {
        return nullptr;
      }
      slot = std::move(s);
    }
    return slot.get();
  }

  // The schema nodes that apply to one instance location (following $ref and
  // the combinators), to word messages with what the schema allows.
  void collect(At at, std::vector<At>& out, int depth = 0) const {
    if (depth > 40 || !at.node->is_object()) return;
    const json& n = *at.node;
    if (auto ref = n.find("$ref"); ref != n.end() && ref->is_string()) {
      auto [file, fragment] = detail::split_fragment(ref->get<std::string>());
      if (!fragment.empty() && fragment[0] != '/') return;
      const std::string uri = file.empty() ? at.uri : file == root_uri ? std::string() : file;
      const json* d = document(uri);
      const std::string pointer = detail::percent_decode(fragment);
      const json* target = d ? detail::at_pointer(*d, pointer) : nullptr;
      if (target) collect({target, uri, pointer}, out, depth + 1);
      return;
    }
    out.push_back(at);
    for (const char* kw : {"allOf", "anyOf", "oneOf"})
      if (auto it = n.find(kw); it != n.end() && it->is_array())
        for (std::size_t i = 0; i < it->size(); ++i)
          collect({&(*it)[i], at.uri, fmt::format("{}/{}/{}", at.pointer, kw, i)}, out, depth + 1);
    for (const char* kw : {"then", "else"})
      if (auto it = n.find(kw); it != n.end()) collect({&*it, at.uri, at.pointer + "/" + kw}, out, depth + 1);
  }

  std::vector<At> nodes_at(const At& start, const json& value, const std::vector<std::string>& path) const {
    std::vector<At> cur;
    collect(start, cur);
    const json* v = &value;
    for (const auto& seg : path) {
      std::vector<At> next;
      for (const auto& at : cur) {
        const json& n = *at.node;
        auto child = [&](const char* kw, const json& node, const std::string& rest) {
          collect({&node, at.uri, at.pointer + "/" + kw + rest}, next);
        };
        if (v->is_array()) {
          const std::size_t i = std::stoul(seg);
          auto items = n.find("items");
          if (items == n.end()) continue;
          if (items->is_array()) {
            if (i < items->size()) child("items", (*items)[i], "/" + seg);
            else if (auto ai = n.find("additionalItems"); ai != n.end()) child("additionalItems", *ai, "");
          } else {
            child("items", *items, "");
          }
        } else {
          bool matched = false;
          if (auto props = n.find("properties"); props != n.end() && props->contains(seg)) {
            child("properties", (*props)[seg], "/" + escape_pointer_token(seg));
            matched = true;
          }
          if (auto pp = n.find("patternProperties"); pp != n.end() && pp->is_object())
            for (auto it = pp->begin(); it != pp->end(); ++it)
              if (SafeRegex(it.key()).search(seg)) {
                child("patternProperties", *it, "/" + escape_pointer_token(it.key()));
                matched = true;
              }
          if (auto ap = n.find("additionalProperties"); !matched && ap != n.end()) child("additionalProperties", *ap, "");
        }
      }
      cur = std::move(next);
      v = v->is_array() ? &(*v)[std::stoul(seg)] : &(*v)[seg];
    }
    return cur;
  }
};

namespace detail {

// Refuses every cycle of in-place subschemas ($ref, allOf, anyOf, oneOf,
// not, if/then/else: the same value again, no progress), on which valijson
// would recurse until the stack overflows, and $refs to pointers a
// document does not have. Reads the files referenced into impl.
void check_references(Schema::Impl& impl, const json& doc);

}  // namespace detail
}  // namespace rulebook::schema
