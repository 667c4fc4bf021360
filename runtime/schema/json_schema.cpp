#include "schema/json_schema.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "schema/safe_regex.hpp"

namespace rulebook::schema {

using json = nlohmann::json;

namespace detail {

// The draft-07 meta-schema, so that {"$ref": "http://json-schema.org/draft-07/schema#"}
// works without network access.
constexpr const char* kDraft07Uri = "http://json-schema.org/draft-07/schema";
constexpr const char* kDraft07MetaSchema = R"JSON({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "http://json-schema.org/draft-07/schema#",
  "title": "Core schema meta-schema",
  "definitions": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$ref": "#"}},
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "nonNegativeIntegerDefault0": {
      "allOf": [{"$ref": "#/definitions/nonNegativeInteger"}, {"default": 0}]
    },
    "simpleTypes": {
      "enum": ["array", "boolean", "integer", "null", "number", "object", "string"]
    },
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}
  },
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"type": "string", "format": "uri-reference"},
    "$schema": {"type": "string", "format": "uri"},
    "$ref": {"type": "string", "format": "uri-reference"},
    "$comment": {"type": "string"},
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": true,
    "readOnly": {"type": "boolean", "default": false},
    "writeOnly": {"type": "boolean", "default": false},
    "examples": {"type": "array", "items": true},
    "multipleOf": {"type": "number", "exclusiveMinimum": 0},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "number"},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "number"},
    "maxLength": {"$ref": "#/definitions/nonNegativeInteger"},
    "minLength": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "additionalItems": {"$ref": "#"},
    "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/schemaArray"}], "default": true},
    "maxItems": {"$ref": "#/definitions/nonNegativeInteger"},
    "minItems": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "uniqueItems": {"type": "boolean", "default": false},
    "contains": {"$ref": "#"},
    "maxProperties": {"$ref": "#/definitions/nonNegativeInteger"},
    "minProperties": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "required": {"$ref": "#/definitions/stringArray"},
    "additionalProperties": {"$ref": "#"},
    "definitions": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "properties": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "patternProperties": {
      "type": "object",
      "additionalProperties": {"$ref": "#"},
      "propertyNames": {"format": "regex"},
      "default": {}
    },
    "dependencies": {
      "type": "object",
      "additionalProperties": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/stringArray"}]}
    },
    "propertyNames": {"$ref": "#"},
    "const": true,
    "enum": {"type": "array", "items": true},
    "type": {
      "anyOf": [
        {"$ref": "#/definitions/simpleTypes"},
        {
          "type": "array",
          "items": {"$ref": "#/definitions/simpleTypes"},
          "minItems": 1,
          "uniqueItems": true
        }
      ]
    },
    "format": {"type": "string"},
    "contentMediaType": {"type": "string"},
    "contentEncoding": {"type": "string"},
    "if": {"$ref": "#"},
    "then": {"$ref": "#"},
    "else": {"$ref": "#"},
    "allOf": {"$ref": "#/definitions/schemaArray"},
    "anyOf": {"$ref": "#/definitions/schemaArray"},
    "oneOf": {"$ref": "#/definitions/schemaArray"},
    "not": {"$ref": "#"}
  },
  "default": true
})JSON";

// ---------------------------------------------------------------------------
// Small helpers

enum TypeBit : unsigned {
  kNull = 1u << 0,
  kBoolean = 1u << 1,
  kInteger = 1u << 2,
  kNumber = 1u << 3,  // includes integers
  kString = 1u << 4,
  kArray = 1u << 5,
  kObject = 1u << 6,
};

std::optional<unsigned> type_bit(const std::string& name) {
  if (name == "null") return kNull;
  if (name == "boolean") return kBoolean;
  if (name == "integer") return kInteger;
  if (name == "number") return kNumber;
  if (name == "string") return kString;
  if (name == "array") return kArray;
  if (name == "object") return kObject;
  return std::nullopt;
}

bool is_integral(const json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

// Name of the instance's type, as used in messages.
std::string type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return is_integral(v) ? "integer" : "number";
    case json::value_t::string: return "string";
    case json::value_t::array: return "array";
    case json::value_t::object: return "object";
    default: return "unknown";
  }
}

bool type_matches(const json& v, unsigned types) {
  switch (v.type()) {
    case json::value_t::null: return types & kNull;
    case json::value_t::boolean: return types & kBoolean;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return (types & kNumber) || ((types & kInteger) && is_integral(v));
    case json::value_t::string: return types & kString;
    case json::value_t::array: return types & kArray;
    case json::value_t::object: return types & kObject;
    default: return false;
  }
}

// long double represents every int64, uint64 and double exactly on the
// platforms we build for (x86-64 80-bit, aarch64 128-bit).
long double num(const json& v) {
  if (v.is_number_unsigned()) return static_cast<long double>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<long double>(v.get<std::int64_t>());
  return static_cast<long double>(v.get<double>());
}

// JSON equality: numbers compare by value (1 == 1.0), never equal to booleans.
bool json_equal(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return num(a) == num(b);
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!json_equal(a[i], b[i])) return false;
      return true;
    }
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto jt = b.find(it.key());
        if (jt == b.end() || !json_equal(it.value(), *jt)) return false;
      }
      return true;
    }
    default: return a == b;
  }
}

bool is_multiple_of(const json& v, const json& m) {
  if (is_integral(v) && is_integral(m)) {
    long double r = std::fmod(num(v), num(m));  // exact
    return r == 0;
  }
  double q = v.get<double>() / m.get<double>();
  if (!std::isfinite(q)) return false;
  double tolerance = std::max(1e-9, std::fabs(q) * 8 * DBL_EPSILON);
  return std::fabs(q - std::round(q)) <= tolerance;
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::string unescape_pointer_token(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '~' && i + 1 < s.size() && (s[i + 1] == '0' || s[i + 1] == '1')) {
      out += s[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The value at a JSON pointer (segments escaped with ~0/~1), or nullptr.
const json* at_pointer(const json& root, const std::string& pointer) {
  const json* cur = &root;
  std::size_t pos = 0;
  if (pointer.empty()) return cur;
  if (pointer[0] != '/') return nullptr;
  while (pos < pointer.size()) {
    std::size_t next = pointer.find('/', pos + 1);
    if (next == std::string::npos) next = pointer.size();
    std::string seg = unescape_pointer_token(pointer.substr(pos + 1, next - pos - 1));
    if (cur->is_object()) {
      auto it = cur->find(seg);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    } else if (cur->is_array()) {
      if (seg.empty() || seg.size() > 18 ||
          !std::all_of(seg.begin(), seg.end(), [](unsigned char c) { return std::isdigit(c); }) ||
          (seg.size() > 1 && seg[0] == '0'))
        return nullptr;
      std::size_t idx = std::stoull(seg);
      if (idx >= cur->size()) return nullptr;
      cur = &(*cur)[idx];
    } else {
      return nullptr;
    }
    pos = next;
  }
  return cur;
}

// Short, single-line rendering of a value for messages.
std::string show(const json& v) {
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (code_points(s) > 60) {
    std::size_t cut = 57;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s = s.substr(0, cut) + "...";
  }
  return s;
}

std::string join_values(const std::vector<json>& values) {
  std::string out;
  const std::size_t limit = 20;
  for (std::size_t i = 0; i < values.size() && i < limit; ++i) {
    if (i) out += ", ";
    out += show(values[i]);
  }
  if (values.size() > limit) out += fmt::format(", ... ({} more)", values.size() - limit);
  return out;
}

// "a", "a or b", "a, b or c"
std::string join_or(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// ---------------------------------------------------------------------------
// URI handling (just enough of RFC 3986 for $id / $ref)

bool has_scheme(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == ':') return true;
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.')) return false;
  }
  return false;
}

std::pair<std::string, std::string> split_fragment(const std::string& uri) {
  auto hash = uri.find('#');
  if (hash == std::string::npos) return {uri, ""};
  return {uri.substr(0, hash), uri.substr(hash + 1)};
}

std::string strip_fragment(const std::string& uri) { return split_fragment(uri).first; }

std::string remove_dot_segments(const std::string& path) {
  if (path.empty()) return path;
  bool absolute = path[0] == '/';
  std::vector<std::string> out;
  std::size_t pos = absolute ? 1 : 0;
  bool trailing_slash = false;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    std::string seg = path.substr(pos, next - pos);
    bool last = next == path.size();
    trailing_slash = false;
    if (seg == ".") {
      trailing_slash = last;
    } else if (seg == "..") {
      if (!out.empty() && out.back() != "..") out.pop_back();
      else if (!absolute) out.push_back("..");
      trailing_slash = last;
    } else if (!(last && seg.empty())) {
      out.push_back(seg);
    } else {
      trailing_slash = true;
    }
    pos = next + 1;
  }
  std::string result = absolute ? "/" : "";
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i) result += '/';
    result += out[i];
  }
  if (trailing_slash && !out.empty()) result += '/';
  return result;
}

// Resolves `ref` against `base` (both may be relative file paths or URIs).
std::string resolve_uri(const std::string& base_with_fragment, const std::string& ref) {
  std::string base = strip_fragment(base_with_fragment);
  if (ref.empty()) return base;
  if (ref[0] == '#') return base + ref;
  auto [ref_path, ref_frag] = split_fragment(ref);
  std::string frag = ref.find('#') == std::string::npos ? "" : "#" + ref_frag;

  std::string prefix;  // scheme ":" and "//authority" if any
  std::string path = base;
  bool has_authority = false;
  if (has_scheme(base)) {
    std::size_t colon = base.find(':');
    if (base.compare(colon + 1, 2, "//") == 0) {
      has_authority = true;
      std::size_t end = base.find('/', colon + 3);
      if (end == std::string::npos) end = base.size();
      prefix = base.substr(0, end);
      path = base.substr(end);
    } else {
      prefix = base.substr(0, colon + 1);
      path = base.substr(colon + 1);
    }
  }
  if (has_scheme(ref_path)) {
    std::size_t colon = ref_path.find(':');
    if (ref_path.compare(colon + 1, 2, "//") == 0) {
      std::size_t end = ref_path.find('/', colon + 3);
      if (end == std::string::npos) return ref_path + frag;
      return ref_path.substr(0, end) + remove_dot_segments(ref_path.substr(end)) + frag;
    }
    return ref_path + frag;
  }
  if (ref_path.compare(0, 2, "//") == 0) {
    std::size_t colon = prefix.find(':');
    return (colon == std::string::npos ? std::string() : prefix.substr(0, colon + 1)) + ref_path + frag;
  }
  if (!ref_path.empty() && ref_path[0] == '/') return prefix + remove_dot_segments(ref_path) + frag;
  std::string merged;
  if (has_authority && path.empty()) {
    merged = "/" + ref_path;
  } else {
    auto slash = path.rfind('/');
    merged = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + ref_path;
  }
  return prefix + remove_dot_segments(merged) + frag;
}

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

const Node* deref(const Node* n) {
  while (n->ref) n = n->ref;
  return n;
}

}  // namespace detail

struct Schema::Impl {
  std::vector<std::unique_ptr<detail::Node>> nodes;
  const detail::Node* root = nullptr;
};

namespace detail {

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

// ---------------------------------------------------------------------------
// Validation

// The instance path, as a linked list on the stack; only turned into a JSON
// pointer string when an issue is reported.
struct Path {
  const Path* parent = nullptr;
  const std::string* key = nullptr;  // object member, or
  std::size_t index = 0;             // array index when key == nullptr

  std::string str() const {
    if (!parent) return "";
    std::string s = parent->str();
    s += '/';
    s += key ? escape_pointer_token(*key) : std::to_string(index);
    return s;
  }
  int depth() const { return parent ? parent->depth() + 1 : 0; }
};

enum class IssueKind {
  Type,           // wrong type (expected_types set)
  Discriminator,  // const/enum mismatch (allowed set): usually "wrong alternative"
  Other,
};

struct Found {
  std::string pointer;
  std::string message;
  IssueKind kind = IssueKind::Other;
  std::vector<std::string> expected_types;
  std::vector<json> allowed;
  json got;
};

constexpr int kMaxRecursion = 2000;

class Validator {
 public:
  // Returns whether `v` is valid; when `out` is set, appends what is wrong.
  // Without `out`, stops at the first problem.
  bool validate(const Node* n, const json& v, const Path& path, std::vector<Found>* out, int rec) const {
    if (rec > kMaxRecursion) {
      if (out)
        out->push_back({path.str(), "schema recursion is too deep (circular $ref without progress?)",
                        IssueKind::Other, {}, {}, {}});
      return false;
    }
    n = deref(n);
    if (n->kind == Node::Kind::Accept) return true;
    if (n->kind == Node::Kind::Reject) {
      if (out) out->push_back({path.str(), "no value is allowed here", IssueKind::Other, {}, {}, {}});
      return false;
    }

    bool ok = true;
    auto report = [&](std::string msg) {
      ok = false;
      if (out) out->push_back({path.str(), std::move(msg), IssueKind::Other, {}, {}, {}});
    };
#define RB_REPORT(...)                     \
  do {                                     \
    if (!out) return false;                \
    report(fmt::format(__VA_ARGS__));      \
  } while (0)

    if (n->types && !type_matches(v, n->types)) {
      if (!out) return false;
      out->push_back({path.str(), fmt::format("expected {}, got {}", join_or(n->type_names), type_name(v)),
                      IssueKind::Type, n->type_names, {}, json(type_name(v))});
      return false;  // the other keywords would only add noise
    }
    if (n->has_const && !json_equal(v, n->const_value)) {
      if (!out) return false;
      out->push_back({path.str(), fmt::format("expected {}, got {}", show(n->const_value), show(v)),
                      IssueKind::Discriminator, {}, {n->const_value}, v});
      return false;
    }
    if (n->has_enum &&
        std::none_of(n->enum_values.begin(), n->enum_values.end(),
                     [&](const json& e) { return json_equal(v, e); })) {
      if (!out) return false;
      out->push_back({path.str(),
                      n->enum_values.empty()
                          ? fmt::format("value {} is not allowed (the list of allowed values is empty)",
                                        show(v))
                          : fmt::format("value {} is not one of the allowed values: {}", show(v),
                                        join_values(n->enum_values)),
                      IssueKind::Discriminator, {}, n->enum_values, v});
      return false;
    }

    if (v.is_number()) {
      if (n->multiple_of && !is_multiple_of(v, *n->multiple_of))
        RB_REPORT("value {} is not a multiple of {}", show(v), show(*n->multiple_of));
      if (n->maximum && num(v) > num(*n->maximum))
        RB_REPORT("value {} is above the maximum {}", show(v), show(*n->maximum));
      if (n->exclusive_maximum && num(v) >= num(*n->exclusive_maximum))
        RB_REPORT("value {} must be below {}", show(v), show(*n->exclusive_maximum));
      if (n->minimum && num(v) < num(*n->minimum))
        RB_REPORT("value {} is below the minimum {}", show(v), show(*n->minimum));
      if (n->exclusive_minimum && num(v) <= num(*n->exclusive_minimum))
        RB_REPORT("value {} must be above {}", show(v), show(*n->exclusive_minimum));
    } else if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      if (n->max_length || n->min_length) {
        std::size_t len = code_points(s);
        if (n->max_length && len > *n->max_length)
          RB_REPORT("string {} is too long ({}, maximum {})", show(v), plural(len, "character"),
                    *n->max_length);
        if (n->min_length && len < *n->min_length)
          RB_REPORT("string {} is too short ({}, minimum {})", show(v), plural(len, "character"),
                    *n->min_length);
      }
      if (n->pattern && !n->pattern->re->search(s))
        RB_REPORT("string {} does not match the pattern '{}'", show(v), n->pattern->source);
    } else if (v.is_array()) {
      if (!validate_array(n, v, path, out, rec)) {
        if (!out) return false;
        ok = false;
      }
    } else if (v.is_object()) {
      if (!validate_object(n, v, path, out, rec)) {
        if (!out) return false;
        ok = false;
      }
    }

    for (const Node* s : n->all_of) {
      if (!validate(s, v, path, out, rec + 1)) {
        if (!out) return false;
        ok = false;
      }
    }
    if (!n->any_of.empty()) {
      bool any = false;
      for (const Node* s : n->any_of)
        if (validate(s, v, path, nullptr, rec + 1)) {
          any = true;
          break;
        }
      if (!any) {
        if (!out) return false;
        ok = false;
        report_alternatives(n->any_of, "anyOf", v, path, *out, rec);
      }
    }
    if (!n->one_of.empty()) {
      std::vector<std::size_t> matching;
      for (std::size_t i = 0; i < n->one_of.size() && matching.size() < 2; ++i)
        if (validate(n->one_of[i], v, path, nullptr, rec + 1)) matching.push_back(i);
      if (matching.size() != 1) {
        if (!out) return false;
        ok = false;
        if (matching.empty())
          report_alternatives(n->one_of, "oneOf", v, path, *out, rec);
        else
          report(fmt::format(
              "value matches more than one of the alternatives (#{} and #{} of 'oneOf'); it must "
              "match exactly one",
              matching[0] + 1, matching[1] + 1));
      }
    }
    if (n->not_ && validate(n->not_, v, path, nullptr, rec + 1))
      RB_REPORT("value {} is not allowed here (it matches the schema under 'not')", show(v));
    if (n->if_) {
      const Node* branch = validate(n->if_, v, path, nullptr, rec + 1) ? n->then_ : n->else_;
      if (branch && !validate(branch, v, path, out, rec + 1)) {
        if (!out) return false;
        ok = false;
      }
    }
#undef RB_REPORT
    return ok;
  }

 private:
  bool validate_array(const Node* n, const json& v, const Path& path, std::vector<Found>* out,
                      int rec) const {
    bool ok = true;
    auto report = [&](const Path& p, std::string msg) {
      ok = false;
      if (out) out->push_back({p.str(), std::move(msg), IssueKind::Other, {}, {}, {}});
    };
    const std::size_t size = v.size();
    if (n->max_items && size > *n->max_items) {
      if (!out) return false;
      report(path, fmt::format("too many items ({}, maximum {})", size, *n->max_items));
    }
    if (n->min_items && size < *n->min_items) {
      if (!out) return false;
      report(path, fmt::format("too few items ({}, minimum {})", size, *n->min_items));
    }
    if (n->items || n->items_is_array) {
      for (std::size_t i = 0; i < size; ++i) {
        Path item{&path, nullptr, i};
        const Node* schema = nullptr;
        if (!n->items_is_array) {
          schema = n->items;
        } else if (i < n->items_array.size()) {
          schema = n->items_array[i];
        } else if (n->additional_items) {
          if (deref(n->additional_items)->kind == Node::Kind::Reject) {
            if (!out) return false;
            report(item, fmt::format("too many items ({}, at most {} allowed)", size,
                                     n->items_array.size()));
            break;
          }
          schema = n->additional_items;
        } else {
          break;
        }
        if (!validate(schema, v[i], item, out, rec + 1)) {
          if (!out) return false;
          ok = false;
        }
      }
    }
    if (n->unique_items) {
      for (std::size_t j = 1; j < size; ++j) {
        for (std::size_t i = 0; i < j; ++i) {
          if (json_equal(v[i], v[j])) {
            if (!out) return false;
            report(Path{&path, nullptr, j},
                   fmt::format("duplicate item {} (same as item {}); items must be unique", show(v[j]), i));
            break;
          }
        }
      }
    }
    if (n->contains) {
      bool found = false;
      for (std::size_t i = 0; i < size && !found; ++i)
        found = validate(n->contains, v[i], Path{&path, nullptr, i}, nullptr, rec + 1);
      if (!found) {
        if (!out) return false;
        report(path, size == 0 ? std::string("array is empty, but must contain an item matching the "
                                             "'contains' schema")
                               : std::string("no item matches the 'contains' schema"));
      }
    }
    return ok;
  }

  bool validate_object(const Node* n, const json& v, const Path& path, std::vector<Found>* out,
                       int rec) const {
    bool ok = true;
    auto report = [&](const Path& p, std::string msg) {
      ok = false;
      if (out) out->push_back({p.str(), std::move(msg), IssueKind::Other, {}, {}, {}});
    };
    for (const auto& key : n->required) {
      if (!v.contains(key)) {
        if (!out) return false;
        report(path, fmt::format("missing required key '{}'", key));
      }
    }
    const bool check_members =
        !n->properties.empty() || !n->pattern_properties.empty() || n->additional_properties;
    if (check_members) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string& key = it.key();
        Path member{&path, &key, 0};
        bool matched = false;
        auto prop = n->properties.find(key);
        if (prop != n->properties.end()) {
          matched = true;
          if (deref(prop->second)->kind == Node::Kind::Reject) {
            if (!out) return false;
            report(member, fmt::format("key '{}' is not allowed here", key));
          } else if (!validate(prop->second, it.value(), member, out, rec + 1)) {
            if (!out) return false;
            ok = false;
          }
        }
        for (const auto& [re, schema] : n->pattern_properties) {
          if (!re.re->search(key)) continue;
          matched = true;
          if (!validate(schema, it.value(), member, out, rec + 1)) {
            if (!out) return false;
            ok = false;
          }
        }
        if (!matched && n->additional_properties) {
          if (deref(n->additional_properties)->kind == Node::Kind::Reject) {
            if (!out) return false;
            report(member, unknown_key_message(n, key));
          } else if (!validate(n->additional_properties, it.value(), member, out, rec + 1)) {
            if (!out) return false;
            ok = false;
          }
        }
      }
    }
    const std::size_t size = v.size();
    if (n->max_properties && size > *n->max_properties) {
      if (!out) return false;
      report(path, fmt::format("too many keys ({}, maximum {})", size, *n->max_properties));
    }
    if (n->min_properties && size < *n->min_properties) {
      if (!out) return false;
      report(path, fmt::format("too few keys ({}, minimum {})", size, *n->min_properties));
    }
    for (const auto& dep : n->dependencies) {
      if (!v.contains(dep.key)) continue;
      if (dep.schema) {
        if (!validate(dep.schema, v, path, out, rec + 1)) {
          if (!out) return false;
          ok = false;
        }
      } else {
        for (const auto& req : dep.required) {
          if (!v.contains(req)) {
            if (!out) return false;
            report(path, fmt::format("key '{}' requires key '{}' to be present", dep.key, req));
          }
        }
      }
    }
    if (n->property_names) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        Path member{&path, &it.key(), 0};
        json name(it.key());
        if (!out) {
          if (!validate(n->property_names, name, member, nullptr, rec + 1)) return false;
          continue;
        }
        std::vector<Found> inner;
        if (!validate(n->property_names, name, member, &inner, rec + 1)) {
          ok = false;
          for (auto& f : inner) {
            f.message = fmt::format("invalid key '{}': {}", it.key(), f.message);
            f.kind = IssueKind::Other;
            out->push_back(std::move(f));
          }
        }
      }
    }
    return ok;
  }

  static std::string unknown_key_message(const Node* n, const std::string& key) {
    std::vector<std::string> allowed;
    for (const auto& [name, schema] : n->properties)
      if (deref(schema)->kind != Node::Kind::Reject) allowed.push_back(name);
    std::string list;
    for (std::size_t i = 0; i < allowed.size(); ++i) {
      if (i) list += ", ";
      list += allowed[i];
    }
    for (const auto& pp : n->pattern_properties) {
      if (!list.empty()) list += ", ";
      list += fmt::format("keys matching '{}'", pp.first.source);
    }
    if (list.empty()) return fmt::format("unknown key '{}' (no keys are allowed here)", key);
    return fmt::format("unknown key '{}' (allowed: {})", key, list);
  }

  // All alternatives of an anyOf/oneOf failed: report concisely.
  void report_alternatives(const std::vector<const Node*>& branches, const char* keyword, const json& v,
                           const Path& path, std::vector<Found>& out, int rec) const {
    const std::string here = path.str();
    struct Branch {
      std::size_t index;
      std::vector<Found> issues;
      bool type_mismatch = false;  // rejected the instance's type outright
      std::size_t discriminators = 0;
    };
    std::vector<Branch> branches_info;
    std::vector<std::string> expected;  // union of expected types, first-seen order
    for (std::size_t i = 0; i < branches.size(); ++i) {
      Branch b{i, {}, false, 0};
      validate(branches[i], v, path, &b.issues, rec + 1);
      for (const auto& f : b.issues) {
        if (f.kind == IssueKind::Type && f.pointer == here) {
          b.type_mismatch = true;
          for (const auto& t : f.expected_types)
            if (std::find(expected.begin(), expected.end(), t) == expected.end()) expected.push_back(t);
        }
        if (f.kind == IssueKind::Discriminator) ++b.discriminators;
      }
      branches_info.push_back(std::move(b));
    }

    std::vector<const Branch*> candidates;
    for (const auto& b : branches_info)
      if (!b.type_mismatch && !b.issues.empty()) candidates.push_back(&b);

    if (candidates.empty()) {
      if (!expected.empty()) {
        out.push_back({here, fmt::format("expected {}, got {}", join_or(expected), type_name(v)),
                       IssueKind::Type, expected, {}, json(type_name(v))});
      } else {
        out.push_back({here, fmt::format("value does not match any of the alternatives of '{}'", keyword),
                       IssueKind::Other, {}, {}, {}});
      }
      return;
    }

    // Every plausible alternative was ruled out by the same const/enum
    // (a "kind: ..." style discriminator): merge the allowed values.
    if (candidates.size() > 1) {
      const Found* first = nullptr;
      for (const auto& f : candidates[0]->issues)
        if (f.kind == IssueKind::Discriminator) {
          first = &f;
          break;
        }
      if (first) {
        std::vector<json> allowed;
        bool all = true;
        for (const Branch* b : candidates) {
          bool has = false;
          for (const auto& f : b->issues) {
            if (f.kind != IssueKind::Discriminator || f.pointer != first->pointer) continue;
            has = true;
            for (const auto& a : f.allowed)
              if (std::none_of(allowed.begin(), allowed.end(), [&](const json& x) { return json_equal(x, a); }))
                allowed.push_back(a);
          }
          all = all && has;
        }
        if (all) {
          out.push_back({first->pointer,
                         fmt::format("value {} is not one of the allowed values: {}", show(first->got),
                                     join_values(allowed)),
                         IssueKind::Discriminator, {}, allowed, first->got});
          return;
        }
      }
    }

    // The closest alternative: fewest discriminator mismatches, then fewest issues.
    std::stable_sort(candidates.begin(), candidates.end(), [](const Branch* a, const Branch* b) {
      if (a->discriminators != b->discriminators) return a->discriminators < b->discriminators;
      return a->issues.size() < b->issues.size();
    });
    const Branch* best = candidates[0];
    bool clear_winner =
        candidates.size() == 1 ||
        (best->discriminators < candidates[1]->discriminators ||
         (best->discriminators == candidates[1]->discriminators &&
          best->issues.size() < candidates[1]->issues.size()));
    if (clear_winner && best->discriminators == 0) {
      for (const auto& f : best->issues) out.push_back(f);
      return;
    }
    const Found& f = best->issues.front();
    std::string at = f.pointer == here ? std::string() : fmt::format(" at '{}'", f.pointer);
    out.push_back({here,
                   fmt::format("value does not match any of the {} alternatives of '{}' (closest is #{}: "
                               "{}{})",
                               branches.size(), keyword, best->index + 1, f.message, at),
                   IssueKind::Other, {}, {}, {}});
  }
};

}  // namespace detail

// ---------------------------------------------------------------------------
// Public API

Schema::Schema(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

namespace {

Schema::Impl* compile_into(std::shared_ptr<Schema::Impl>& impl, json doc, std::string base_dir,
                           const std::string& uri) {
  impl = std::make_shared<Schema::Impl>();
  detail::Compiler compiler(*impl, std::move(base_dir));
  impl->root = compiler.compile_root(std::move(doc), uri);
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
  std::vector<detail::Found> found;
  detail::Validator validator;
  validator.validate(impl_->root, instance, detail::Path{}, &found, 0);
  std::vector<Issue> issues;
  issues.reserve(found.size());
  std::set<std::pair<std::string, std::string>> seen;  // allOf branches may repeat an issue
  for (auto& f : found)
    if (seen.emplace(f.pointer, f.message).second)
      issues.push_back({std::move(f.pointer), std::move(f.message)});
  return issues;
}

std::vector<std::string> Schema::validate_sourced(const SourcedJson& sourced) const {
  std::vector<std::string> out;
  for (const auto& issue : validate(sourced.value))
    out.push_back(format_error(sourced.locate(issue.pointer), issue.message));
  return out;
}

}  // namespace rulebook::schema
