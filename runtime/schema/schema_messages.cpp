#include "schema/schema_messages.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "json/sourced_json.hpp"
#include "schema/json_values.hpp"
#include "schema/safe_regex.hpp"

namespace rulebook::schema::detail {
namespace {

// valijson matches patternProperties against object keys with std::regex,
// whose matcher recurses once per character. No rulebook schema uses it;
// for a schema that does, longer keys are refused before valijson sees
// them.
constexpr std::size_t kMaxPatternKey = 1000;

// valijson sees integers as int64_t and only JSON integers as integers:
// 1.0 would not be an "integer" (draft-07 says it is) and 2^64-1 would
// wrap to -1. Such numbers reach it as an int64_t: integral floats as
// their value, unsigned values above INT64_MAX as INT64_MAX (no rulebook
// schema has a bound between the two). Copies only when there is one.
bool fits_int64(double d) { return std::floor(d) == d && d >= -9.2e18 && d <= 9.2e18; }

bool needs_normalizing(const json& v) {
  if (v.is_number_float()) return fits_int64(v.get<double>());
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
  if (v.is_structured())
    for (const auto& item : v)
      if (needs_normalizing(item)) return true;
  return false;
}

void normalize(json& v) {
  if (v.is_number_float()) {
    if (fits_int64(v.get<double>())) v = static_cast<std::int64_t>(v.get<double>());
  } else if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) v = INT64_MAX;
  } else if (v.is_structured()) {
    for (auto& item : v) normalize(item);
  }
}

using Error = valijson::ValidationResults::Error;

// valijson's results for a value (empty = valid).
std::vector<Error> errors_of(const valijson::Schema& schema, const json& raw) {
  std::optional<json> normalized;
  if (needs_normalizing(raw)) normalize(normalized.emplace(raw));
  const json& instance = normalized ? *normalized : raw;
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter target(instance);
  std::vector<Error> out;
  // Valid is the common case: find it without collecting messages.
  if (validator.validate(schema, target, nullptr)) return out;
  valijson::ValidationResults results;
  validator.validate(schema, target, &results);
  Error e;
  while (results.popError(e)) out.push_back(e);
  if (out.empty()) out.push_back({{"<root>"}, "Validation failed."});
  return out;
}

bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Issues in instance order: a value before its members, members in key
// order, items by index.
bool before(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const std::size_t ei = std::min(a.find('/', i + 1), a.size()), ej = std::min(b.find('/', j + 1), b.size());
    const std::string ta = a.substr(i + 1, ei - i - 1), tb = b.substr(j + 1, ej - j - 1);
    if (ta != tb) {
      const bool na = !ta.empty() && ta.find_first_not_of("0123456789") == std::string::npos;
      const bool nb = !tb.empty() && tb.find_first_not_of("0123456789") == std::string::npos;
      if (na && nb && ta.size() != tb.size()) return ta.size() < tb.size();
      return ta < tb;
    }
    i = ei;
    j = ej;
  }
  return a.size() - i < b.size() - j;
}

enum class Kind { Type, Discriminator, Other };

struct Found {
  std::string pointer, message;
  Kind kind = Kind::Other;
  std::vector<std::string> types;  // Type: what the schema allows
  std::vector<json> allowed;       // Discriminator: the allowed values
  json got;
};

// Turns valijson's results into messages for a person. valijson says where
// and which keyword failed; the wording (what the schema allows there, the
// closest alternative of an anyOf/oneOf) comes from the schema nodes at
// that place.
class Explainer {
 public:
  explicit Explainer(const Schema::Impl& impl) : impl_(impl) {}
  using At = Schema::Impl::At;

  // Issues of `value` (at `base` in the whole instance) against the schema
  // rooted at `start`, given valijson's results.
  std::vector<Found> explain(const At& start, const json& value, const std::string& base,
                             const std::vector<Error>& errors, int depth = 0) const {
    std::vector<Found> out;
    if (errors.empty()) return out;
    // An anyOf/oneOf failure is preceded by its branches' results: they are
    // replaced by one concise report.
    std::vector<bool> dropped(errors.size(), false);
    std::vector<std::vector<Found>> alternatives(errors.size());
    for (std::size_t k = errors.size(); k-- > 0;) {
      const std::string& d = errors[k].description;
      const bool any = starts(d, "Failed to validate against any schemas allowed by anyOf");
      const bool one = starts(d, "Failed to validate against any child schemas allowed by oneOf") ||
                       starts(d, "Failed to validate against exactly one child schema");
      if (!any && !one) continue;
      Place p = place(start, value, base, errors[k]);
      if (!p.v) continue;
      std::size_t children = 0;
      alternatives[k] = alternatives_report(p, any ? "anyOf" : "oneOf", depth, children);
      for (std::size_t c = 0; c < children && c < k; ++c) dropped[k - 1 - c] = true;
      k -= std::min(children, k);
    }
    std::set<std::string> places;  // where propertyNames may apply
    places.insert(base);
    for (std::size_t k = 0; k < errors.size(); ++k) {
      if (dropped[k]) continue;
      if (!alternatives[k].empty()) {
        for (auto& f : alternatives[k]) out.push_back(std::move(f));
        continue;
      }
      word(start, value, base, errors[k], out, places);
    }
    for (const auto& where : places) property_names(start, value, base, where, out, depth);
    return out;
  }

 private:
  struct Place {
    std::vector<std::string> path;  // below the value explained
    std::string pointer;            // in the whole instance
    const json* v;
    std::vector<At> nodes;
  };

  Place place(const At& start, const json& value, const std::string& base, const Error& e) const {
    Place p{{}, base, &value, {}};
    for (std::size_t i = 1; i < e.context.size(); ++i) {
      const std::string& seg = e.context[i];
      std::string key = seg.size() >= 2 ? seg.substr(1, seg.size() - 2) : seg;
      p.pointer += "/" + escape_pointer_token(key);
      const json* next = nullptr;
      if (p.v->is_array() && !key.empty() && key.find_first_not_of("0123456789") == std::string::npos &&
          std::stoul(key) < p.v->size())
        next = &(*p.v)[std::stoul(key)];
      else if (p.v->is_object() && p.v->contains(key))
        next = &(*p.v)[key];
      if (!next) return {{}, p.pointer, nullptr, {}};
      p.v = next;
      p.path.push_back(std::move(key));
    }
    p.nodes = impl_.nodes_at(start, value, p.path);
    return p;
  }

  static std::vector<json> values_of(const std::vector<At>& nodes, const char* keyword) {
    std::vector<json> out;
    for (const auto& n : nodes) {
      if (auto exact = n.node->find(std::string(kExact) + keyword); exact != n.node->end()) out.push_back(*exact);
      else if (auto it = n.node->find(keyword); it != n.node->end()) out.push_back(*it);
    }
    return out;
  }
  static std::string bound(const std::vector<At>& nodes, const char* keyword) {
    auto v = values_of(nodes, keyword);
    return v.empty() ? "?" : show(v.front());
  }

  void word(const At& start, const json& value, const std::string& base, const Error& e, std::vector<Found>& out,
            std::set<std::string>& places) const {
    const std::string& d = e.description;
    Place p = place(start, value, base, e);
    if (!p.v) return;
    places.insert(p.pointer);
    const json& v = *p.v;
    auto add = [&](std::string message, std::string at = "\x01") {
      out.push_back({at == "\x01" ? p.pointer : std::move(at), std::move(message), Kind::Other, {}, {}, {}});
    };
    if (starts(d, "Failed to validate against schema associated with property name '")) {
      static const std::string prefix = "Failed to validate against schema associated with property name '";
    const std::string key = d.substr(prefix.size(), d.rfind('\'') - prefix.size());
      places.insert(p.pointer + "/" + escape_pointer_token(key));
      for (const auto& props : values_of(p.nodes, "properties"))
        if (auto it = props.find(key); it != props.end() && *it == json(false)) {
          add(fmt::format("key '{}' is not allowed here", key), p.pointer + "/" + escape_pointer_token(key));
          suppress_.insert(p.pointer + "/" + escape_pointer_token(key));
        }
    } else if (starts(d, "Failed to validate item #") && d.find("additional items") != std::string::npos) {
      const std::size_t i = std::stoul(d.substr(25));
      const std::string item = p.pointer + "/" + std::to_string(i);
      suppress_.insert(item);
      if (values_of(p.nodes, "additionalItems") == std::vector<json>{json(false)}) {
        if (too_many_.insert(p.pointer).second)
          add(fmt::format("too many items ({}, at most {} allowed)", v.size(), i), item);
      }
    } else if (starts(d, "Failed to validate item #")) {
      places.insert(p.pointer + "/" + d.substr(25, d.find_first_not_of("0123456789", 25) - 25));
    } else if (starts(d, "Failed to validate against") || starts(d, "Validation failed.") ||
               starts(d, "Cannot validate item #")) {
      // A summary: the nested result says what is wrong.
    } else if (suppress_.count(p.pointer)) {
      // Already reported as a key or an item that is not allowed.
    } else if (starts(d, "Value type not permitted")) {
      std::vector<std::string> types;
      for (const auto& t : values_of(p.nodes, "type"))
        for (const auto& name : t.is_array() ? t : json::array({t}))
          if (std::find(types.begin(), types.end(), name.get<std::string>()) == types.end())
            types.push_back(name.get<std::string>());
      if (v.is_number_float() && !fits_int64(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>() &&
          std::find(types.begin(), types.end(), "integer") != types.end()) {
        // An integer beyond int64_t (1e30): valijson cannot hold it.
        const bool above = v.get<double>() > 0;
        const char* kw = above ? "maximum" : "minimum";
        auto b = values_of(p.nodes, kw);
        add(b.empty() ? fmt::format("value {} is too {} for an integer here", show(v), above ? "large" : "small")
                      : fmt::format("value {} is {} the {} {}", show(v), above ? "above" : "below", kw, show(b.front())));
        return;
      }
      out.push_back({p.pointer, fmt::format("expected {}, got {}", join_or(types), type_name(v)), Kind::Type, types,
                     {}, json(type_name(v))});
    } else if (starts(d, "Failed to match against any enum values")) {
      std::vector<json> allowed;
      for (const auto& e2 : values_of(p.nodes, "enum"))
        for (const auto& x : e2) allowed.push_back(x);
      out.push_back({p.pointer,
                     allowed.empty() ? fmt::format("value {} is not allowed (the list of allowed values is empty)", show(v))
                                     : fmt::format("value {} is not one of the allowed values: {}", show(v),
                                                   detail::join_values(allowed)),
                     Kind::Discriminator, {}, allowed, v});
    } else if (starts(d, "Failed to match expected value set by 'const'")) {
      auto c = values_of(p.nodes, "const");
      out.push_back({p.pointer, fmt::format("expected {}, got {}", c.empty() ? "?" : show(c.front()), show(v)),
                     Kind::Discriminator, {}, c, v});
    } else if (starts(d, "Missing required property '")) {
      add(fmt::format("missing required key '{}'", d.substr(27, d.size() - 29)));
    } else if (starts(d, "Object contains a property that could not be validated")) {
      unknown_keys(p, out);
    } else if (starts(d, kPatternMarker)) {
      add(fmt::format("string {} does not match the pattern '{}'", show(v), d.substr(std::string(kPatternMarker).size())));
    } else if (starts(d, "Expected number less than") || starts(d, "Expected number greater than")) {
      const bool above = starts(d, "Expected number less than");
      const bool exclusive = d.find("or equal") == std::string::npos;
      const char* kw = above ? (exclusive ? "exclusiveMaximum" : "maximum") : (exclusive ? "exclusiveMinimum" : "minimum");
      add(exclusive ? fmt::format("value {} must be {} {}", show(v), above ? "below" : "above", bound(p.nodes, kw))
                    : fmt::format("value {} is {} the {} {}", show(v), above ? "above" : "below", kw, bound(p.nodes, kw)));
    } else if (starts(d, "Value should be a multiple of")) {
      add(fmt::format("value {} is not a multiple of {}", show(v), bound(p.nodes, "multipleOf")));
    } else if (starts(d, "String should be no more than") || starts(d, "String should be no fewer than")) {
      const bool too_long = starts(d, "String should be no more than");
      add(fmt::format("string {} is too {} ({}, {} {})", show(v), too_long ? "long" : "short",
                      plural(code_points(v.get_ref<const std::string&>()), "character"),
                      too_long ? "maximum" : "minimum", bound(p.nodes, too_long ? "maxLength" : "minLength")));
    } else if (starts(d, "Array should contain no more than") || starts(d, "Array should contain no fewer than")) {
      const bool many = starts(d, "Array should contain no more than");
      add(fmt::format("too {} items ({}, {} {})", many ? "many" : "few", v.size(), many ? "maximum" : "minimum",
                      bound(p.nodes, many ? "maxItems" : "minItems")));
    } else if (starts(d, "Object should have no more than") || starts(d, "Object should have no fewer than")) {
      const bool many = starts(d, "Object should have no more than");
      add(fmt::format("too {} keys ({}, {} {})", many ? "many" : "few", v.size(), many ? "maximum" : "minimum",
                      bound(p.nodes, many ? "maxProperties" : "minProperties")));
    } else if (starts(d, "Missing dependency '")) {
      const std::string missing = d.substr(20, d.size() - 22);
      std::string key;
      for (const auto& deps : values_of(p.nodes, "dependencies"))
        for (auto it = deps.begin(); it != deps.end() && key.empty(); ++it)
          if (it->is_array() && v.contains(it.key()) && std::find(it->begin(), it->end(), missing) != it->end())
            key = it.key();
      add(fmt::format("key '{}' requires key '{}' to be present", key, missing));
    } else if (starts(d, "Elements at indexes #")) {
      // "Elements at indexes #I and #J violate uniqueness constraint."
      const std::size_t first = std::stoul(d.substr(21));
      const std::size_t second = std::stoul(d.substr(d.find('#', 22) + 1));
      add(fmt::format("duplicate item {} (same as item {}); items must be unique", show(v[second]), first),
          p.pointer + "/" + std::to_string(second));
    } else if (starts(d, "Array contains more items than allowed by items constraint")) {
      const std::size_t n = values_of(p.nodes, "items").empty() ? 0 : values_of(p.nodes, "items").front().size();
      add(fmt::format("too many items ({}, at most {} allowed)", v.size(), n), p.pointer + "/" + std::to_string(n));
    } else if (starts(d, "Failed to any values against subschema in 'contains'")) {
      add(v.empty() ? "array is empty, but must contain an item matching the 'contains' schema"
                    : "no item matches the 'contains' schema");
    } else if (starts(d, "Target should not validate against schema specified in 'not'")) {
      add(fmt::format("value {} is not allowed here (it matches the schema under 'not')", show(v)));
    } else {
      add(d);
    }
  }

  void unknown_keys(const Place& p, std::vector<Found>& out) const {
    std::vector<std::string> allowed;
    std::vector<SafeRegex> patterns;
    std::string listed;
    for (const auto& props : values_of(p.nodes, "properties"))
      for (auto it = props.begin(); it != props.end(); ++it)
        // Once each: a place's nodes may list a key twice (if/then/else branches).
        if (*it != json(false) && std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
          allowed.push_back(it.key());
    for (const auto& pp : values_of(p.nodes, "patternProperties"))
      for (auto it = pp.begin(); it != pp.end(); ++it) patterns.emplace_back(it.key());
    for (const auto& a : allowed) listed += (listed.empty() ? "" : ", ") + a;
    for (const auto& re : patterns) listed += (listed.empty() ? "" : ", ") + fmt::format("keys matching '{}'", re.source());
    for (auto it = p.v->begin(); it != p.v->end(); ++it) {
      const std::string& key = it.key();
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      if (std::any_of(patterns.begin(), patterns.end(), [&](const SafeRegex& re) { return re.search(key); })) continue;
      out.push_back({p.pointer + "/" + escape_pointer_token(key),
                     listed.empty() ? fmt::format("unknown key '{}' (no keys are allowed here)", key)
                                    : fmt::format("unknown key '{}' (allowed: {})", key, listed),
                     Kind::Other, {}, {}, {}});
    }
  }

  // propertyNames: valijson reports nothing but the failure.
  void property_names(const At& start, const json& value, const std::string& base, const std::string& where,
                      std::vector<Found>& out, int depth) const {
    Error e;
    e.context.push_back("<root>");
    std::string rest = where.substr(base.size());
    for (std::size_t i = 0; i < rest.size();) {
      const std::size_t next = std::min(rest.find('/', i + 1), rest.size());
      e.context.push_back("[" + unescape_pointer_token(rest.substr(i + 1, next - i - 1)) + "]");
      i = next;
    }
    Place p = place(start, value, base, e);
    if (!p.v || !p.v->is_object()) return;
    for (const auto& n : p.nodes) {
      auto pn = n.node->find("propertyNames");
      if (pn == n.node->end()) continue;
      const At at{&*pn, n.uri, n.pointer + "/propertyNames"};
      const valijson::Schema* s = impl_.sub(at);
      if (!s) continue;
      for (auto it = p.v->begin(); it != p.v->end(); ++it) {
        const json key(it.key());
        auto errors = errors_of(*s, key);
        if (errors.empty()) continue;
        const std::string member = p.pointer + "/" + escape_pointer_token(it.key());
        for (auto& f : Explainer(impl_).explain(at, key, member, errors, depth + 1)) {
          f.message = fmt::format("invalid key '{}': {}", it.key(), f.message);
          f.pointer = member;
          f.kind = Kind::Other;
          out.push_back(std::move(f));
        }
      }
    }
  }

  // Every alternative of an anyOf/oneOf failed (or, for oneOf, more than
  // one matched): one concise report. `children` is how many results of
  // the branches valijson put before its own.
  std::vector<Found> alternatives_report(const Place& p, const char* keyword, int depth, std::size_t& children) const {
    std::vector<Found> out;
    const At* owner = nullptr;
    for (const auto& n : p.nodes)
      if (auto it = n.node->find(keyword); it != n.node->end() && it->is_array()) owner = &n;
    if (!owner || depth > 20) return out;
    const json& branches = (*owner->node)[keyword];
    struct Branch {
      std::size_t index;
      std::vector<Found> issues;
      bool type_mismatch = false;
      std::size_t discriminators = 0;
    };
    std::vector<Branch> info;
    std::vector<std::size_t> matching;
    std::vector<std::string> expected;
    for (std::size_t i = 0; i < branches.size(); ++i) {
      const At at{&branches[i], owner->uri, fmt::format("{}/{}/{}", owner->pointer, keyword, i)};
      const valijson::Schema* s = impl_.sub(at);
      if (!s) return {};
      auto errors = errors_of(*s, *p.v);
      if (errors.empty()) {
        matching.push_back(i);
        continue;
      }
      // valijson puts the branch's results, then "Failed to validate
      // against child schema #i".
      children += 1 + (errors.size() == 1 && errors[0].description == "Validation failed." ? 0 : errors.size());
      Branch b{i, Explainer(impl_).explain(at, *p.v, p.pointer, errors, depth + 1), false, 0};
      for (const auto& f : b.issues) {
        if (f.kind == Kind::Type && f.pointer == p.pointer) {
          b.type_mismatch = true;
          for (const auto& t : f.types)
            if (std::find(expected.begin(), expected.end(), t) == expected.end()) expected.push_back(t);
        }
        if (f.kind == Kind::Discriminator) ++b.discriminators;
      }
      info.push_back(std::move(b));
    }
    if (matching.size() > 1) {
      children = 0;
      out.push_back({p.pointer,
                     fmt::format("value matches more than one of the alternatives (#{} and #{} of '{}'); it must "
                                 "match exactly one", matching[0] + 1, matching[1] + 1, keyword),
                     Kind::Other, {}, {}, {}});
      return out;
    }
    std::vector<const Branch*> candidates;
    for (const auto& b : info)
      if (!b.type_mismatch && !b.issues.empty()) candidates.push_back(&b);
    if (candidates.empty()) {
      if (!expected.empty())
        out.push_back({p.pointer, fmt::format("expected {}, got {}", join_or(expected), type_name(*p.v)), Kind::Type,
                       expected, {}, json(type_name(*p.v))});
      else
        out.push_back({p.pointer, fmt::format("value does not match any of the alternatives of '{}'", keyword),
                       Kind::Other, {}, {}, {}});
      return out;
    }
    // Every plausible alternative was ruled out by the same const/enum
    // (a "kind: ..." discriminator): merge the allowed values.
    if (candidates.size() > 1) {
      const Found* first = nullptr;
      for (const auto& f : candidates[0]->issues)
        if (f.kind == Kind::Discriminator) {
          first = &f;
          break;
        }
      if (first) {
        std::vector<json> allowed;
        bool all = true;
        for (const Branch* b : candidates) {
          bool has = false;
          for (const auto& f : b->issues) {
            if (f.kind != Kind::Discriminator || f.pointer != first->pointer) continue;
            has = true;
            for (const auto& a : f.allowed)
              if (std::none_of(allowed.begin(), allowed.end(), [&](const json& x) { return detail::json_equal(x, a); }))
                allowed.push_back(a);
          }
          all = all && has;
        }
        if (all) {
          out.push_back({first->pointer,
                         fmt::format("value {} is not one of the allowed values: {}", show(first->got),
                                     detail::join_values(allowed)),
                         Kind::Discriminator, {}, allowed, first->got});
          return out;
        }
      }
    }
    // The closest alternative: fewest discriminator mismatches, then fewest issues.
    std::stable_sort(candidates.begin(), candidates.end(), [](const Branch* a, const Branch* b) {
      if (a->discriminators != b->discriminators) return a->discriminators < b->discriminators;
      return a->issues.size() < b->issues.size();
    });
    const Branch* best = candidates[0];
    const bool clear_winner =
        candidates.size() == 1 || best->discriminators < candidates[1]->discriminators ||
        (best->discriminators == candidates[1]->discriminators && best->issues.size() < candidates[1]->issues.size());
    if (clear_winner && best->discriminators == 0) return best->issues;
    const Found& f = best->issues.front();
    const std::string at = f.pointer == p.pointer ? std::string() : fmt::format(" at '{}'", f.pointer);
    out.push_back({p.pointer,
                   fmt::format("value does not match any of the {} alternatives of '{}' (closest is #{}: {}{})",
                               branches.size(), keyword, best->index + 1, f.message, at),
                   Kind::Other, {}, {}, {}});
    return out;
  }

  const Schema::Impl& impl_;
  mutable std::set<std::string> suppress_, too_many_;
};

void long_keys(const json& v, const std::string& pointer, std::vector<Issue>& out) {
  if (v.is_array())
    for (std::size_t i = 0; i < v.size(); ++i) long_keys(v[i], pointer + "/" + std::to_string(i), out);
  if (!v.is_object()) return;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string member = pointer + "/" + escape_pointer_token(it.key());
    if (it.key().size() > kMaxPatternKey)
      out.push_back({member, fmt::format("key {} is too long ({} bytes, at most {} here)", show(json(it.key())),
                                         it.key().size(), kMaxPatternKey)});
    long_keys(it.value(), member, out);
  }
}


}  // namespace

std::vector<Issue> validate_instance(const Schema::Impl& impl, const json& instance) {
  if (impl.prepared.pattern_properties) {
    std::vector<Issue> too_long;
    long_keys(instance, "", too_long);
    if (!too_long.empty()) return too_long;
  }
  const auto errors = errors_of(impl.compiled, instance);
  if (errors.empty()) return {};
  std::vector<Issue> issues;
  std::set<std::pair<std::string, std::string>> seen;  // allOf branches may repeat an issue
  for (auto& f : Explainer(impl).explain({&impl.doc, "", ""}, instance, "", errors))
    if (seen.emplace(f.pointer, f.message).second) issues.push_back({std::move(f.pointer), std::move(f.message)});
  // A `false` schema (or a failure valijson does not explain): still say where.
  if (issues.empty()) issues.push_back({"", "no value is allowed here"});
  std::stable_sort(issues.begin(), issues.end(), [](const Issue& a, const Issue& b) { return before(a.pointer, b.pointer); });
  return issues;
}

}  // namespace rulebook::schema::detail
