#include "schema/uri.hpp"

#include <cctype>
#include <vector>

namespace rulebook::schema::detail {

// ---------------------------------------------------------------------------
// URI handling (just enough of RFC 3986 for $id / $ref)

bool has_scheme(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == ':') return true;
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.')) return false;
  }
  return false;
}

std::pair<std::string, std::string> split_fragment(const std::string& uri) {
  auto hash = uri.find('#');
  if (hash == std::string::npos) return {uri, ""};
  return {uri.substr(0, hash), uri.substr(hash + 1)};
}

std::string strip_fragment(const std::string& uri) { return split_fragment(uri).first; }

std::string remove_dot_segments(const std::string& path) {
  if (path.empty()) return path;
  bool absolute = path[0] == '/';
  std::vector<std::string> out;
  std::size_t pos = absolute ? 1 : 0;
  bool trailing_slash = false;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    std::string seg = path.substr(pos, next - pos);
    bool last = next == path.size();
    trailing_slash = false;
    if (seg == ".") {
      trailing_slash = last;
    } else if (seg == "..") {
      if (!out.empty() && out.back() != "..") out.pop_back();
      else if (!absolute) out.push_back("..");
      trailing_slash = last;
    } else if (!(last && seg.empty())) {
      out.push_back(seg);
    } else {
      trailing_slash = true;
    }
    pos = next + 1;
  }
  std::string result = absolute ? "/" : "";
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i) result += '/';
    result += out[i];
  }
  if (trailing_slash && !out.empty()) result += '/';
  return result;
}

// Resolves `ref` against `base` (both may be relative file paths or URIs).
std::string resolve_uri(const std::string& base_with_fragment, const std::string& ref) {
  std::string base = strip_fragment(base_with_fragment);
  if (ref.empty()) return base;
  if (ref[0] == '#') return base + ref;
  auto [ref_path, ref_frag] = split_fragment(ref);
  std::string frag = ref.find('#') == std::string::npos ? "" : "#" + ref_frag;

  std::string prefix;  // scheme ":" and "//authority" if any
  std::string path = base;
  bool has_authority = false;
  if (has_scheme(base)) {
    std::size_t colon = base.find(':');
    if (base.compare(colon + 1, 2, "//") == 0) {
      has_authority = true;
      std::size_t end = base.find('/', colon + 3);
      if (end == std::string::npos) end = base.size();
      prefix = base.substr(0, end);
      path = base.substr(end);
    } else {
      prefix = base.substr(0, colon + 1);
      path = base.substr(colon + 1);
    }
  }
  if (has_scheme(ref_path)) {
    std::size_t colon = ref_path.find(':');
    if (ref_path.compare(colon + 1, 2, "//") == 0) {
      std::size_t end = ref_path.find('/', colon + 3);
      if (end == std::string::npos) return ref_path + frag;
      return ref_path.substr(0, end) + remove_dot_segments(ref_path.substr(end)) + frag;
    }
    return ref_path + frag;
  }
  if (ref_path.compare(0, 2, "//") == 0) {
    std::size_t colon = prefix.find(':');
    return (colon == std::string::npos ? std::string() : prefix.substr(0, colon + 1)) + ref_path + frag;
  }
  if (!ref_path.empty() && ref_path[0] == '/') return prefix + remove_dot_segments(ref_path) + frag;
  std::string merged;
  if (has_authority && path.empty()) {
    merged = "/" + ref_path;
  } else {
    auto slash = path.rfind('/');
    merged = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + ref_path;
  }
  return prefix + remove_dot_segments(merged) + frag;
}


}  // namespace rulebook::schema::detail
