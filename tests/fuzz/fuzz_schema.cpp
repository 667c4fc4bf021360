// Schema validation of game, variant and scenario files: the first byte
// picks the schema, the rest is the YAML file.
#include "fuzz_input.hpp"
#include "setup/game_loader.hpp"
#include "setup/yaml_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kSchemas[] = {"game.schema.json", "variant.schema.json", "scenario.schema.json"};
  const char* schema = kSchemas[data[0] % 3];
  try {
    const rulebook::SourcedJson doc = rulebook::parse_yaml(rulebook::fuzz::text(data + 1, size - 1), "fuzz.yaml");
    rulebook::check_against(doc, schema);
  } catch (const rulebook::SetupError&) {
  }
  return 0;
}
