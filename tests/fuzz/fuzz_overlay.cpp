// Overlays and --set: the input is a base YAML document, a variant's overlay
// and --set assignments (one per line), separated by lines holding "%%".
#include "fuzz_input.hpp"
#include "setup/overlay.hpp"
#include "setup/yaml_source.hpp"

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
  } catch (const rulebook::SetupError&) {
  }
  return 0;
}
