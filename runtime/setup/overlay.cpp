#include "core/input_file.hpp"
#include "setup/overlay.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace rulebook {
namespace {

using nlohmann::json;
using Touch = OverlayStack::Touch;
using Kind = OverlayStack::Touch::Kind;
using Where = std::vector<std::pair<std::string, SourceLocation>>;

std::string child(const std::string& pointer, std::string_view key) {
  return pointer + "/" + escape_pointer_token(key);
}

std::string child(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

// "/options/target" -> "options.target"; "" -> "(root)".
std::string dotted(const std::string& pointer) {
  if (pointer.empty()) return "(root)";
  std::string out;
  std::size_t start = 1;
  for (;;) {
    std::size_t slash = pointer.find('/', start);
    std::string_view token(pointer.data() + start,
                           (slash == std::string::npos ? pointer.size() : slash) - start);
    if (!out.empty()) out += '.';
    out += unescape_pointer_token(token);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

std::string render(const json& value) {
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

bool is_append_key(const std::string& key) { return key.size() > 1 && key.back() == '+'; }

// A list index: decimal digits without leading zeros.
std::optional<std::size_t> parse_index(const std::string& s) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

void erase_where(std::map<std::string, SourceLocation>& where, const std::string& pointer) {
  where.erase(pointer);
  // Descendants: pointers in [pointer + "/", pointer + "0") ('0' follows '/').
  where.erase(where.lower_bound(pointer + "/"), where.lower_bound(pointer + "0"));
}

[[noreturn]] void fail(const SourceLocation& at, const std::string& message) {
  throw SetupError(format_error(at, message));
}

// Merges one layer into a working copy of the result.
class Merge {
 public:
  Merge(SourcedJson& result, std::map<std::string, std::vector<Touch>>& touches, int layer,
        const std::string& layer_name, const SourcedJson& src)
      : result_(result), touches_(touches), layer_(layer), name_(layer_name), src_(src) {}

  // Merges the overlay mapping `overlay` (at pointer `q` in the layer) into
  // the mapping `target` (at pointer `p` in the result).
  void merge_map(json& target, const std::string& p, const json& overlay, const std::string& q) {
    for (const auto& [key, value] : overlay.items()) {
      const std::string vq = child(q, key);
      if (is_append_key(key)) {
        const std::string base = key.substr(0, key.size() - 1);
        if (overlay.contains(base)) {
          fail(loc(vq),
               fmt::format("both '{}' and '{}' are given; use only one of them", base, key));
        }
        append(target, base, child(p, base), value, vq);
      } else if (value.is_null()) {
        remove(target, key, child(p, key), vq);
      } else if (value.is_object()) {
        const std::string vp = child(p, key);
        auto it = target.find(key);
        if (it != target.end() && it->is_object()) {
          merge_map(*it, vp, value, vq);
        } else if (it != target.end()) {
          assign(*it, true, vp, value, vq);
        } else {
          json& created = target[key];
          created = json::object();
          result_.where[vp] = loc(vq);
          merge_map(created, vp, value, vq);
          // Only removals inside: do not leave an empty mapping behind.
          if (created.empty() && !value.empty()) {
            target.erase(key);
            erase_where(result_.where, vp);
          }
        }
      } else {
        const bool existed = target.contains(key);
        assign(target[key], existed, child(p, key), value, vq);
      }
    }
  }

  // Replaces the value in `slot` (at `p`) by the overlay value at `q`.
  void assign(json& slot, bool existed, const std::string& p, const json& overlay,
              const std::string& q) {
    Where where;
    json value = build(overlay, q, p, true, where);
    if (!(existed && slot == value)) check(p, Kind::set, value, q);
    slot = value;
    erase_where(result_.where, p);
    result_.where.insert(where.begin(), where.end());
    record(p, Kind::set, std::move(value), q);
  }

 private:
  SourceLocation loc(const std::string& q) const { return src_.locate(q); }

  void remove(json& target, const std::string& key, const std::string& p, const std::string& q) {
    auto it = target.find(key);
    if (it != target.end()) {
      check(p, Kind::remove, nullptr, q);
      target.erase(it);
      erase_where(result_.where, p);
    }
    record(p, Kind::remove, nullptr, q);
  }

  void append(json& target, const std::string& key, const std::string& p, const json& items,
              const std::string& q) {
    if (!items.is_array()) {
      fail(loc(q),
           fmt::format("'{}+' must be a list of items to append, got {}", key, json_type_phrase(items)));
    }
    auto it = target.find(key);
    if (it != target.end() && !it->is_array() && !it->is_null()) {
      fail(loc(q), fmt::format("cannot append to {}: it is {} ({}), not a list", dotted(p),
                               json_type_phrase(*it), result_.locate(p).str()));
    }
    if (!items.empty()) check(p, Kind::append, items, q);
    json& list = target[key];
    if (!list.is_array()) {
      list = json::array();
      erase_where(result_.where, p);
      result_.where[p] = loc(q);
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
      Where where;
      list.push_back(build(items[i], child(q, i), child(p, list.size()), false, where));
      result_.where.insert(where.begin(), where.end());
    }
    record(p, Kind::append, items, q);
  }

  // The overlay value at `q`, as it will stand at `p` in the result: in
  // mappings (outside lists) '+' keys become lists and null values are
  // dropped. Collects the locations of all its nodes.
  json build(const json& overlay, const std::string& q, const std::string& p, bool in_mapping,
             Where& where) const {
    where.emplace_back(p, loc(q));
    if (overlay.is_object()) {
      json out = json::object();
      for (const auto& [key, value] : overlay.items()) {
        const std::string vq = child(q, key);
        if (in_mapping && is_append_key(key)) {
          const std::string base = key.substr(0, key.size() - 1);
          if (overlay.contains(base)) {
            fail(loc(vq),
                 fmt::format("both '{}' and '{}' are given; use only one of them", base, key));
          }
          if (!value.is_array()) {
            fail(loc(vq), fmt::format("'{}' must be a list of items to append, got {}", key,
                                      json_type_phrase(value)));
          }
          out[base] = build(value, vq, child(p, base), false, where);
        } else if (in_mapping && value.is_null()) {
          continue;
        } else {
          out[key] = build(value, vq, child(p, key), in_mapping, where);
        }
      }
      return out;
    }
    if (overlay.is_array()) {
      json out = json::array();
      for (std::size_t i = 0; i < overlay.size(); ++i) {
        out.push_back(build(overlay[i], child(q, i), child(p, i), false, where));
      }
      return out;
    }
    return overlay;
  }

  // Throws if changing the value at `p` this way clashes with what an
  // earlier layer did (see the rules in overlay.hpp).
  void check(const std::string& p, Kind kind, const json& value, const std::string& q) const {
    auto earlier = [&](const Touch& t) { return t.layer != layer_; };
    if (auto it = touches_.find(p); it != touches_.end()) {
      for (const Touch& t : it->second) {
        if (earlier(t) && !(kind == Kind::append && t.kind == Kind::append)) {
          conflict(t, p, kind, value, q);
        }
      }
    }
    for (std::string a = p; !a.empty();) {
      a.erase(a.rfind('/'));
      if (auto it = touches_.find(a); it != touches_.end()) {
        for (const Touch& t : it->second) {
          if (earlier(t) && t.kind != Kind::append) conflict(t, p, kind, value, q);
        }
      }
    }
    if (kind != Kind::append) {
      auto it = touches_.lower_bound(p + "/");
      auto end = touches_.lower_bound(p + "0");
      for (; it != end; ++it) {
        for (const Touch& t : it->second) {
          if (earlier(t) && !(kind == Kind::remove && t.kind == Kind::remove)) {
            conflict(t, p, kind, value, q);
          }
        }
      }
    }
  }

  [[noreturn]] void conflict(const Touch& t, const std::string& p, Kind kind, const json& value,
                             const std::string& q) const {
    std::string before;
    const bool same = t.pointer == p;
    switch (t.kind) {
      case Kind::set:
        before = same ? "sets " + render(t.value)
                      : fmt::format("sets {} to {}", dotted(t.pointer), render(t.value));
        break;
      case Kind::remove:
        before = same ? "removes it" : "removes " + dotted(t.pointer);
        break;
      case Kind::append:
        before = same ? "appends " + render(t.value)
                      : fmt::format("appends {} to {}", render(t.value), dotted(t.pointer));
        break;
    }
    std::string now;
    switch (kind) {
      case Kind::set:
        now = "sets " + render(value);
        break;
      case Kind::remove:
        now = "removes it";
        break;
      case Kind::append:
        now = "appends " + render(value);
        break;
    }
    fail(loc(q), fmt::format("conflicting overrides for {}: {} {}, this {} (layers '{}' and '{}')",
                             dotted(p), t.at.str(), before, now, t.layer_name, name_));
  }

  void record(const std::string& p, Kind kind, json value, const std::string& q) {
    Touch t;
    t.layer = layer_;
    t.layer_name = name_;
    t.pointer = p;
    t.kind = kind;
    t.value = std::move(value);
    t.at = loc(q);
    touches_[p].push_back(std::move(t));
  }

  SourcedJson& result_;
  std::map<std::string, std::vector<Touch>>& touches_;
  int layer_;
  const std::string& name_;
  const SourcedJson& src_;
};

}  // namespace

OverlayStack::OverlayStack(SourcedJson base) : result_(std::move(base)) {}

const SourcedJson& OverlayStack::result() const { return result_; }

void OverlayStack::apply(const SourcedJson& layer, const std::string& layer_name) {
  const int id = ++layers_;
  if (layer.value.is_null()) return;
  if (!layer.value.is_object()) {
    fail(layer.locate(""), fmt::format("layer '{}' must be a mapping at the top level, got {}",
                                       layer_name, json_type_phrase(layer.value)));
  }
  SourcedJson result = result_;
  auto touches = touches_;
  if (result.value.is_null()) result.value = json::object();
  if (!result.value.is_object()) {
    fail(result.locate(""),
         fmt::format("cannot apply layer '{}': the base setup is {}, not a mapping", layer_name,
                     json_type_phrase(result.value)));
  }
  Merge merge(result, touches, id, layer_name, layer);
  merge.merge_map(result.value, "", layer.value, "");
  result_ = std::move(result);
  touches_ = std::move(touches);
}

void OverlayStack::set(const std::string& assignment) {
  static const std::string kName = "--set";
  auto malformed = [&]() {
    SourceLocation at;
    at.file = kName;
    fail(at, fmt::format("expected PATH=VALUE, got '{}'", assignment));
  };
  if (!valid_utf8(assignment)) {
    SourceLocation at;
    at.file = kName;
    fail(at, "not valid UTF-8 text");
  }
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) malformed();

  // Split the path, remembering where each segment starts (1-based).
  std::vector<std::string> segments;
  std::vector<int> columns;
  for (std::size_t start = 0;;) {
    std::size_t dot = assignment.find('.', start);
    if (dot == std::string::npos || dot > eq) dot = eq;
    if (dot == start) malformed();
    segments.push_back(assignment.substr(start, dot - start));
    columns.push_back(static_cast<int>(start) + 1);
    if (dot == eq) break;
    start = dot + 1;
  }
  auto at_segment = [&](std::size_t i) {
    SourceLocation at;
    at.file = kName;
    at.line = 1;
    at.column = columns[i];
    return at;
  };
  const std::string path = assignment.substr(0, eq);

  // Parse the value where it stands in the text, so columns come out right.
  const std::string value_text = assignment.substr(eq + 1);
  SourcedJson value = parse_yaml(std::string(eq + 1, ' ') + value_text, kName);
  if (value_text.find_first_not_of(" \t") == std::string::npos) {
    value.where[""] = SourceLocation{kName, 1, static_cast<int>(eq) + 2};
  }
  const bool removal = value.value.is_null() && !is_append_key(segments.back());

  const int id = ++layers_;
  SourcedJson result = result_;
  auto touches = touches_;
  if (result.value.is_null()) result.value = json::object();
  if (!result.value.is_object()) {
    fail(result.locate(""), fmt::format("cannot set {}: the base setup is {}, not a mapping", path,
                                        json_type_phrase(result.value)));
  }

  // Walk to the container of the last segment, creating mappings on the way.
  json* current = &result.value;
  std::string pointer;
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    const std::string& segment = segments[i];
    if (current->is_array()) {
      auto index = parse_index(segment);
      if (!index || *index >= current->size()) {
        fail(at_segment(i),
             fmt::format("cannot set {}: {} is a list of {} items, '{}' is not a valid index", path,
                         dotted(pointer), current->size(), segment));
      }
      current = &(*current)[*index];
      pointer = child(pointer, *index);
    } else {
      pointer = child(pointer, segment);
      auto it = current->find(segment);
      if (it == current->end() || it->is_null()) {
        if (removal) return;  // nothing there to remove
        json& created = (*current)[segment];
        created = json::object();
        erase_where(result.where, pointer);
        result.where[pointer] = at_segment(i);
        current = &created;
      } else {
        current = &*it;
      }
    }
    if (!current->is_object() && !current->is_array()) {
      fail(at_segment(i + 1),
           fmt::format("cannot set {}: {} is {} ({}), not a mapping or list", path, dotted(pointer),
                       json_type_phrase(*current), result.locate(pointer).str()));
    }
  }

  const std::string& last = segments.back();
  const std::size_t last_i = segments.size() - 1;
  if (current->is_array()) {
    if (is_append_key(last)) {
      fail(at_segment(last_i),
           fmt::format("cannot set {}: {} is a list, not a mapping", path, dotted(pointer)));
    }
    auto index = parse_index(last);
    if (!index || *index >= current->size()) {
      fail(at_segment(last_i),
           fmt::format("cannot set {}: {} is a list of {} items, '{}' is not a valid index", path,
                       dotted(pointer), current->size(), last));
    }
    if (value.value.is_null()) {
      fail(value.locate(""),
           fmt::format("cannot remove the list item {}; set the whole list instead", path));
    }
    Merge merge(result, touches, id, kName, value);
    json& item = (*current)[*index];
    const std::string item_pointer = child(pointer, *index);
    if (item.is_object() && value.value.is_object()) {
      merge.merge_map(item, item_pointer, value.value, "");
    } else {
      merge.assign(item, true, item_pointer, value.value, "");
    }
  } else {
    // Same as a layer holding just {last: value} at this place.
    SourcedJson wrapper;
    wrapper.value = json::object();
    wrapper.value[last] = value.value;
    wrapper.where[""] = at_segment(last_i);
    const std::string key_pointer = child("", last);
    for (const auto& [p, at] : value.where) wrapper.where[key_pointer + p] = at;
    Merge merge(result, touches, id, kName, wrapper);
    merge.merge_map(*current, pointer, wrapper.value, "");
  }
  result_ = std::move(result);
  touches_ = std::move(touches);
}

}  // namespace rulebook
