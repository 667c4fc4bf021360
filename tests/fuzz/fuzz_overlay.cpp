// Overlays and --set: the input is a base YAML document, a variant's overlay
// and --set assignments (one per line), separated by lines holding "%%".
// The merged document's components are then shaped by its options
// (setup/component_shapes.hpp), which must answer any document with a
// count, faces or a SetupError.
#include "fuzz_input.hpp"
#include "setup/component_shapes.hpp"
#include "setup/overlay.hpp"
#include "setup/yaml_source.hpp"

namespace {

void shape_components(const rulebook::SourcedJson& merged) {
  auto components = merged.value.find("components");
  if (components == merged.value.end() || !components->is_array()) return;
  const rulebook::ComponentShapes shapes(
      merged.value, 4,
      [&merged](const std::string& pointer, const std::string& message) {
        throw rulebook::SetupError(rulebook::format_error(merged.locate(pointer), message));
      },
      [&merged](const std::string& pointer) { return merged.locate(pointer).str(); });
  for (size_t i = 0; i < components->size(); ++i) {
    const auto& component = (*components)[i];
    if (!component.is_object()) continue;
    const std::string at = "/components/" + std::to_string(i);
    (void)shapes.count(component, at);
    (void)shapes.faces(component, at);
    (void)rulebook::shape_summary(component);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = rulebook::fuzz::parts(rulebook::fuzz::text(data, size));
  try {
    rulebook::OverlayStack stack(rulebook::parse_yaml(parts[0], "game.yaml"));
    if (parts.size() > 1) stack.apply(rulebook::parse_yaml(parts[1], "variant.yaml"), "fuzz");
    for (size_t i = 2; i < parts.size(); ++i) {
      size_t pos = 0;
      while (pos < parts[i].size()) {
        const size_t end = parts[i].find('\n', pos);
        stack.set(parts[i].substr(pos, end - pos));
        pos = end + 1;
      }
    }
    (void)stack.result().value.dump();
    shape_components(stack.result());
  } catch (const rulebook::SetupError&) {
  }
  return 0;
}
