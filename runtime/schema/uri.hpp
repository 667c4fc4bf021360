#pragma once
// URI handling for $id and $ref: just enough of RFC 3986.
#include <string>
#include <utility>

namespace rulebook::schema::detail {

bool has_scheme(const std::string& s);  // "http:", "urn:", not a file path
std::pair<std::string, std::string> split_fragment(const std::string& uri);  // {before '#', after}
std::string strip_fragment(const std::string& uri);
std::string remove_dot_segments(const std::string& path);
// Resolves `ref` against `base` (both may be relative file paths or URIs).
std::string resolve_uri(const std::string& base_with_fragment, const std::string& ref);

}  // namespace rulebook::schema::detail
