#include "setup/yaml_source.hpp"

#include "core/input_file.hpp"
#include "setup/yaml_scalars.hpp"

#include <fmt/format.h>
#include <locale.h>
#include <yaml-cpp/anchor.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

namespace rulebook {
namespace {

using nlohmann::json;
using namespace yaml_scalars;

// Limit on the nodes produced by expanding aliases ("billion laughs").
constexpr std::size_t kMaxAliasNodes = 100000;

// Builds the JSON tree (and the location table) from yaml-cpp's parse events.
class Builder : public YAML::EventHandler {
 public:
  Builder(const std::string& text, const std::string& file) : text_(text), file_(file) {
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) bom_ = 3;
  }

  SourceLocation loc(const YAML::Mark& mark) const {
    SourceLocation at;
    at.file = file_;
    if (mark.line >= 0 && mark.column >= 0) {
      at.line = mark.line + 1;
      at.column = mark.column + 1;
    }
    return at;
  }

  const std::optional<std::string>& error() const { return error_; }

  // Set when the parser stopped making progress; throws a syntax error.
  void check_stalled() const {
    if (!stalled_) return;
    const YAML::Mark& mark = last_doc_mark_;
    const long offset = mark.pos >= 0 ? static_cast<long>(mark.pos) + bom_ : -1;
    if (offset >= 0 && static_cast<std::size_t>(offset) < text_.size()) {
      const char c = text_[static_cast<std::size_t>(offset)];
      if (c > ' ' && c < 0x7f) fail(mark, fmt::format("unexpected '{}'", c));
    }
    fail(mark, "unexpected character");
  }

  SourcedJson take() {
    SourcedJson out;
    out.value = std::move(root_);
    out.where = std::move(where_);
    if (documents_ == 0) {
      out.value = nullptr;
      out.where.clear();
      out.where[""] = SourceLocation{file_, 1, 1};
    }
    return out;
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    // yaml-cpp 0.7 does not consume a token it cannot start a node with
    // (e.g. a ',' at the top level) and reports an endless series of
    // documents at the same place: stop there.
    if (last_doc_mark_.pos >= 0 && mark.pos == last_doc_mark_.pos) stalled_ = true;
    last_doc_mark_ = mark;
    if (stalled_) return;
    guard([&] {
      if (++documents_ > 1) {
        // A new document without "---" is text that is outside the first
        // document's top-level node, typically because of bad indentation.
        const long offset = mark.pos >= 0 ? static_cast<long>(mark.pos) + bom_ : -1;
        if (offset >= 0 && text_.compare(static_cast<std::size_t>(offset), 3, "---") == 0) {
          fail(mark, "a setup file must contain a single YAML document; a second one starts here");
        }
        fail(mark, "unexpected text after the end of the top-level value (check the indentation)");
      }
      doc_mark_ = mark;
    });
  }
  void OnDocumentEnd() override {}

  void OnAnchor(const YAML::Mark&, const std::string& name) override {
    guard([&] { pending_anchor_name_ = name; });
  }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    guard([&] {
      if (at_key()) fail(mark, "mapping keys must be strings, got null");
      begin_anchor(anchor);
      auto [slot, ptr] = place(json(nullptr), empty_value_location(mark));
      end_anchor(anchor, ptr, *slot);
    });
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    guard([&] {
      auto it = anchors_.find(anchor);
      if (it == anchors_.end() || !it->second.complete) {
        std::string name = it == anchors_.end() ? std::string() : it->second.name;
        fail(
            mark,
            fmt::format(
                "alias *{} refers to a node that contains it (recursive aliases are not supported)",
                name));
      }
      const Anchor& target = it->second;
      alias_nodes_ += target.where.size();
      if (alias_nodes_ > kMaxAliasNodes) {
        fail(mark, fmt::format("aliases expand to more than {} nodes", kMaxAliasNodes));
      }
      if (at_key()) {
        if (!target.value.is_string()) {
          fail(mark, fmt::format("mapping keys must be strings, got {} (alias *{})",
                                 json_type_phrase(target.value), target.name));
        }
        take_key(target.value.get<std::string>(), mark);
        return;
      }
      // The alias itself is located where it is written; the nodes inside
      // it where the anchored node wrote them.
      const std::string ptr = place(target.value, loc(mark)).second;
      for (const auto& [rest, where] : target.where) {
        if (!rest.empty()) where_[ptr + rest] = where;
      }
    });
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    guard([&] {
      if (!valid_utf8(value)) fail(mark, "invalid UTF-8 in scalar");
      json v = scalar_value(mark, tag, value);
      begin_anchor(anchor);
      if (at_key()) {
        if (!v.is_string()) {
          fail(mark,
               fmt::format(
                   "mapping keys must be strings, got {} '{}' (quote the key to make it a string)",
                   json_type_phrase(v), value));
        }
        take_key(v.get<std::string>(), mark);
        if (anchor != YAML::NullAnchor) {
          Anchor& a = anchors_[anchor];
          a.value = std::move(v);
          a.where = {{"", loc(mark)}};
          a.complete = true;
        }
        return;
      }
      auto [slot, ptr] = place(std::move(v), loc(mark));
      end_anchor(anchor, ptr, *slot);
    });
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    guard([&] { start_collection(mark, tag, anchor, false); });
  }
  void OnSequenceEnd() override {
    guard([&] { end_collection(); });
  }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    guard([&] { start_collection(mark, tag, anchor, true); });
  }
  void OnMapEnd() override {
    guard([&] { end_collection(); });
  }

 private:
  struct Frame {
    json* node = nullptr;
    std::string ptr;
    bool is_map = false;
    YAML::anchor_t anchor = YAML::NullAnchor;
    bool want_key = true;
    std::string key;
    YAML::Mark key_mark;
    std::map<std::string, YAML::Mark> seen;
  };
  struct Anchor {
    std::string name;
    bool complete = false;
    json value;
    // Locations relative to the anchored node ("" = the node itself).
    std::vector<std::pair<std::string, SourceLocation>> where;
  };

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const {
    throw SetupError(format_error(loc(mark), message));
  }

  // Semantic errors are kept until the parse ends, and further events are
  // ignored: a syntax error found later wins, since yaml-cpp reports events
  // before it notices that the text around them is malformed.
  template <typename F>
  void guard(F&& handle) {
    if (error_) return;
    try {
      handle();
    } catch (const SetupError& e) {
      error_ = e.what();
    }
  }

  bool at_key() const { return !stack_.empty() && stack_.back().is_map && stack_.back().want_key; }

  json scalar_value(const YAML::Mark& mark, const std::string& tag,
                    const std::string& value) const {
    if (tag == "?") {
      if (is_null_word(value)) return nullptr;
      if (auto b = bool_word(value)) return *b;
      std::int64_t i = 0;
      switch (parse_int(value, i)) {
        case Parsed::ok:
          return i;
        case Parsed::out_of_range:
          fail(mark, fmt::format("integer {} is out of range (64-bit signed)", value));
        case Parsed::no_match:
          break;
      }
      double d = 0;
      switch (parse_float(value, d)) {
        case Parsed::ok:
          return d;
        case Parsed::out_of_range:
          fail(mark, fmt::format("number {} is out of range", value));
        case Parsed::no_match:
          break;
      }
      return value;
    }
    if (tag == "!" || is_core_tag(tag, "str")) return value;
    if (is_core_tag(tag, "int")) {
      std::int64_t i = 0;
      switch (parse_int(value, i)) {
        case Parsed::ok:
          return i;
        case Parsed::out_of_range:
          fail(mark, fmt::format("integer {} is out of range (64-bit signed)", value));
        case Parsed::no_match:
          fail(mark, fmt::format("'{}' is not a valid !!int", value));
      }
    }
    if (is_core_tag(tag, "float")) {
      std::int64_t i = 0;
      if (parse_int(value, i) == Parsed::ok) return static_cast<double>(i);
      double d = 0;
      switch (parse_float(value, d)) {
        case Parsed::ok:
          return d;
        case Parsed::out_of_range:
          fail(mark, fmt::format("number {} is out of range", value));
        case Parsed::no_match:
          fail(mark, fmt::format("'{}' is not a valid !!float", value));
      }
    }
    if (is_core_tag(tag, "bool")) {
      if (auto b = bool_word(value)) return *b;
      fail(mark, fmt::format("'{}' is not a valid !!bool", value));
    }
    if (is_core_tag(tag, "null")) {
      if (is_null_word(value)) return nullptr;
      fail(mark, fmt::format("'{}' is not a valid !!null", value));
    }
    if (is_core_tag(tag, "map") || is_core_tag(tag, "seq")) {
      fail(mark, fmt::format("tag {} cannot be used on a scalar", display_tag(tag)));
    }
    fail(mark, fmt::format("unsupported tag {}", display_tag(tag)));
  }

  void start_collection(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                        bool is_map) {
    const bool tag_ok =
        tag.empty() || tag == "?" || tag == "!" || is_core_tag(tag, is_map ? "map" : "seq");
    if (!tag_ok) {
      fail(mark, fmt::format("unsupported tag {} on a {}", display_tag(tag),
                             is_map ? "mapping" : "list"));
    }
    if (at_key()) {
      fail(mark,
           fmt::format("mapping keys must be strings, got {}", is_map ? "a mapping" : "a list"));
    }
    if (stack_.size() >= static_cast<std::size_t>(kMaxInputNesting))
      fail(mark, fmt::format("nesting deeper than {} levels", kMaxInputNesting));
    begin_anchor(anchor);
    auto [slot, ptr] = place(is_map ? json::object() : json::array(), loc(mark));
    Frame frame;
    frame.node = slot;
    frame.ptr = std::move(ptr);
    frame.is_map = is_map;
    frame.anchor = anchor;
    stack_.push_back(std::move(frame));
  }

  void end_collection() {
    if (stack_.empty()) return;
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    end_anchor(frame.anchor, frame.ptr, *frame.node);
  }

  void take_key(const std::string& key, const YAML::Mark& mark) {
    Frame& f = stack_.back();
    auto it = f.seen.find(key);
    if (it != f.seen.end()) {
      fail(mark,
           fmt::format("duplicate key '{}' (first defined at {})", key, loc(it->second).str()));
    }
    f.seen.emplace(key, mark);
    f.key = key;
    f.key_mark = mark;
    f.want_key = false;
  }

  // Stores `v` where the next node goes; returns its slot and pointer.
  std::pair<json*, std::string> place(json v, const SourceLocation& at) {
    if (stack_.empty()) {
      root_ = std::move(v);
      where_[""] = at;
      return {&root_, ""};
    }
    Frame& f = stack_.back();
    std::string ptr;
    json* slot = nullptr;
    if (f.is_map) {
      ptr = f.ptr + "/" + escape_pointer_token(f.key);
      slot = &(*f.node)[f.key];
      *slot = std::move(v);
      f.want_key = true;
    } else {
      ptr = f.ptr + "/" + std::to_string(f.node->size());
      f.node->push_back(std::move(v));
      slot = &f.node->back();
    }
    where_[ptr] = at;
    return {slot, std::move(ptr)};
  }

  void begin_anchor(YAML::anchor_t anchor) {
    if (anchor == YAML::NullAnchor) return;
    Anchor& a = anchors_[anchor];
    a.name = pending_anchor_name_;
    a.complete = false;
    a.value = nullptr;
    a.where.clear();
    pending_anchor_name_.clear();
  }

  void end_anchor(YAML::anchor_t anchor, const std::string& ptr, const json& value) {
    if (anchor == YAML::NullAnchor) return;
    Anchor& a = anchors_[anchor];
    a.value = value;
    a.where.clear();
    if (auto it = where_.find(ptr); it != where_.end()) a.where.emplace_back("", it->second);
    // Descendants: pointers in [ptr + "/", ptr + "0") ('0' follows '/').
    auto it = where_.lower_bound(ptr + "/");
    auto end = where_.lower_bound(ptr + "0");
    for (; it != end; ++it) a.where.emplace_back(it->first.substr(ptr.size()), it->second);
    a.complete = true;
  }

  // yaml-cpp gives an empty value (`key:` followed by nothing) the position
  // of the next token, possibly on a later line. Use a better one.
  SourceLocation empty_value_location(const YAML::Mark& mark) {
    const long offset = mark.pos >= 0 ? static_cast<long>(mark.pos) + bom_ : -1;
    if (offset >= 0 && static_cast<std::size_t>(offset) < text_.size()) {
      std::string_view rest(text_);
      rest.remove_prefix(static_cast<std::size_t>(offset));
      for (std::string_view word : {"~", "null", "Null", "NULL"}) {
        if (rest.compare(0, word.size(), word) == 0) {
          if (rest.size() == word.size()) return loc(mark);
          char next = rest[word.size()];
          if (next == ' ' || next == '\t' || next == '\r' || next == '\n' || next == ',' ||
              next == ']' || next == '}' || next == '#') {
            return loc(mark);
          }
        }
      }
    }
    if (stack_.empty()) return doc_mark_.line >= 0 ? loc(doc_mark_) : SourceLocation{file_, 1, 1};
    if (stack_.back().is_map) return loc(stack_.back().key_mark);
    // A list item: point at the '-' (or ',' / '[') before it, if the
    // offsets can be trusted.
    if (offset < 0 || static_cast<std::size_t>(offset) > text_.size()) return loc(mark);
    SourceLocation here = location_of_offset(static_cast<std::size_t>(offset));
    if (here.line != mark.line + 1 || here.column != mark.column + 1) return loc(mark);
    std::size_t i = static_cast<std::size_t>(offset);
    while (i > static_cast<std::size_t>(bom_)) {
      char c = text_[i - 1];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        --i;
        continue;
      }
      if (c == '-' || c == ',' || c == '[') return location_of_offset(i - 1);
      break;
    }
    return loc(mark);
  }

  SourceLocation location_of_offset(std::size_t offset) {
    if (line_starts_.empty()) {
      line_starts_.push_back(static_cast<std::size_t>(bom_));
      for (std::size_t i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n') line_starts_.push_back(i + 1);
      }
    }
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());  // 1-based
    if (line == 0) return SourceLocation{file_, 1, 1};
    SourceLocation at;
    at.file = file_;
    at.line = static_cast<int>(line);
    at.column = static_cast<int>(offset - line_starts_[line - 1]) + 1;
    return at;
  }

  const std::string& text_;
  const std::string& file_;
  int bom_ = 0;
  int documents_ = 0;
  YAML::Mark doc_mark_ = YAML::Mark::null_mark();
  json root_;
  std::map<std::string, SourceLocation> where_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, Anchor> anchors_;
  std::string pending_anchor_name_;
  std::size_t alias_nodes_ = 0;
  std::vector<std::size_t> line_starts_;
  std::optional<std::string> error_;
  bool stalled_ = false;
  YAML::Mark last_doc_mark_ = YAML::Mark::null_mark();
};

}  // namespace

const char* json_type_phrase(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "a list";
    case json::value_t::object:
      return "a mapping";
    default:
      return "a value";
  }
}

SourcedJson parse_yaml(const std::string& text, const std::string& file_name) {
  Builder builder(text, file_name);
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(builder)) {
      builder.check_stalled();
    }
    if (builder.error()) throw SetupError(*builder.error());
  } catch (const SetupError&) {
    throw;
  } catch (const YAML::DeepRecursion& e) {
    if (builder.error()) throw SetupError(*builder.error());
    throw SetupError(format_error(builder.loc(e.mark),
                                  fmt::format("nesting deeper than {} levels", kMaxInputNesting)));
  } catch (const YAML::Exception& e) {
    throw SetupError(format_error(builder.loc(e.mark), e.msg));
  } catch (const std::exception& e) {
    SourceLocation at;
    at.file = file_name;
    throw SetupError(format_error(at, fmt::format("cannot parse YAML ({})", e.what())));
  }
  return builder.take();
}

SourcedJson load_yaml_file(const std::string& path) {
  const InputFile file = read_input_file(path);
  if (!file.ok) {
    SourceLocation at;
    at.file = path;
    throw SetupError(format_error(at, file.error));
  }
  return parse_yaml(file.text, path);
}

}  // namespace rulebook
