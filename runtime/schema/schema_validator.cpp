#include "schema/schema_validator.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "json/sourced_json.hpp"
#include "schema/json_values.hpp"

namespace rulebook::schema::detail {
namespace {

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


}  // namespace

std::vector<Issue> validate_instance(const Node* root, const json& instance) {
  std::vector<Found> found;
  Validator validator;
  validator.validate(root, instance, Path{}, &found, 0);
  std::vector<Issue> issues;
  issues.reserve(found.size());
  std::set<std::pair<std::string, std::string>> seen;  // allOf branches may repeat an issue
  for (auto& f : found)
    if (seen.emplace(f.pointer, f.message).second) issues.push_back({std::move(f.pointer), std::move(f.message)});
  return issues;
}

}  // namespace rulebook::schema::detail
