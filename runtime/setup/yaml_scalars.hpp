#pragma once
// The YAML 1.2 core schema's typing of plain scalars, for the YAML reader
// (setup/yaml_source.cpp): which tags are the core schema's, and how a
// plain scalar reads as null, a boolean, an integer or a float. Written
// out rather than left to yaml-cpp, whose conversions follow YAML 1.1
// (`yes`, `on`, sexagesimal numbers) and the C locale's strtod.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rulebook::yaml_scalars {

constexpr std::string_view kCoreTag = "tag:yaml.org,2002:";

// "!!int" for the core schema's own tags, the tag as written otherwise.
std::string display_tag(const std::string& tag);
// Is `tag` the core schema's tag `name` (e.g. "int")?
bool is_core_tag(const std::string& tag, std::string_view name);
bool is_null_word(std::string_view s);
std::optional<bool> bool_word(std::string_view s);

enum class Parsed { ok, no_match, out_of_range };
// Core-schema integer: [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+ (int64).
Parsed parse_int(std::string_view s, std::int64_t& out);
// Core-schema float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?,
// [-+]?(.inf|.Inf|.INF), .nan .NaN .NAN.
Parsed parse_float(std::string_view s, double& out);

}  // namespace rulebook::yaml_scalars
