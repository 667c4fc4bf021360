// YAML loading with source positions: any text gives a SourcedJson whose
// every recorded location lies inside the text, or a SetupError.
#include <cstdlib>

#include "fuzz_input.hpp"
#include "setup/yaml_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input = rulebook::fuzz::text(data, size);
  try {
    const rulebook::SourcedJson doc = rulebook::parse_yaml(input, "fuzz.yaml");
    for (const auto& [pointer, at] : doc.where) {
      if (at.file != "fuzz.yaml" || at.line < 1 || at.column < 1) std::abort();
      (void)doc.locate(pointer + "/deeper/still");
    }
    (void)doc.value.dump();
  } catch (const rulebook::SetupError&) {
  }
  return 0;
}
