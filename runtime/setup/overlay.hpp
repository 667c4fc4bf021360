#pragma once
// Variants and --set: layering overrides on top of a base setup.
//
// Merge rules (OverlayStack::apply and OverlayStack::set):
//
//  1. Mappings merge key by key, recursively. A mapping written where the
//     base has no value creates it (merged into an empty mapping; one that
//     holds only removals creates nothing); a mapping written where the base
//     has a scalar, a list or null replaces that value as a whole (after
//     applying rules 3 and 4 inside it).
//  2. Scalars and lists replace the base value as a whole. List items are
//     taken literally: nothing inside a list is merged, appended or removed.
//  3. A key written with a trailing '+' ("components+: [...]") appends the
//     items of the overlay list to the base list. A missing (or null) base
//     value counts as an empty list. It is an error if the base value is
//     something else, if the overlay value is not a list, or if the same
//     mapping also has the plain key ("components" and "components+").
//  4. A null value ("key: ~", "key: null", "key:") removes the key from the
//     base. Removing a key that is not there does nothing.
//  5. Sources: `where` entries of replaced and added values point at the
//     overlay's file:line:col; a mapping that is merged into keeps its own
//     location; removed subtrees lose their entries.
//
// Conflicts between layers (variants and --set; the base is not a layer):
// every layer records the paths it sets, removes or appends to. A layer
// that changes a value -- i.e. the value it writes differs from the current
// one -- is an error ("conflicting overrides") when an earlier layer
//   - set or removed the same path, or appended to it (unless this layer
//     appends too: appends from several layers simply accumulate);
//   - set or removed an enclosing mapping/list (e.g. removed `options`,
//     and this layer sets `options.target`);
//   - changed anything inside the value this layer replaces or removes
//     (e.g. set `options.target` and this layer sets `options: 3`), except
//     that removing a subtree whose parts were already removed is fine.
// Writing the value that is already there is never a conflict, so two
// variants setting the same option to the same value combine fine.
// A failed apply()/set() leaves the stack unchanged.
//
// --set PATH=VALUE: PATH is dotted ("options.target", "players.max");
// a numeric segment indexes a list when the value there is a list
// ("dice.0.count") and is a plain key otherwise; a last segment ending in
// '+' appends ("components+=[x]"). VALUE is read as YAML ("10", "true",
// "[1, 2]", "{a: 1}", "hello"; empty or "~" removes the key). --set behaves
// like a layer containing just that key, so a mapping VALUE merges into a
// mapping, and missing intermediate mappings are created.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "json/sourced_json.hpp"
#include "setup/yaml_source.hpp"

namespace rulebook {

class OverlayStack {
 public:
  explicit OverlayStack(SourcedJson base);

  // Applies one layer (a variant file's content, already parsed); a null
  // (empty) layer does nothing, anything else but a mapping is an error.
  // `layer_name` identifies the layer in conflict messages:
  //   "<this loc>: error: conflicting overrides for options.target:
  //    <earlier loc> sets 5, this sets 7 (layers 'a' and 'b')"
  // Throws SetupError.
  void apply(const SourcedJson& layer, const std::string& layer_name);

  // Applies one "--set PATH=VALUE" assignment as a layer named "--set".
  // The value's location is file "--set", line 1, column = 1-based column
  // of the value in `assignment`. Malformed input gives
  // "--set: error: expected PATH=VALUE, got '...'". Throws SetupError.
  void set(const std::string& assignment);

  const SourcedJson& result() const;

  // What a layer did at one path (for conflict detection).
  struct Touch {
    enum class Kind { set, remove, append };
    int layer = 0;
    std::string layer_name;
    std::string pointer;
    Kind kind = Kind::set;
    nlohmann::json value;  // set: the new value; append: the items
    SourceLocation at;
  };

 private:
  SourcedJson result_;
  std::map<std::string, std::vector<Touch>> touches_;  // by JSON pointer
  int layers_ = 0;
};

}  // namespace rulebook
