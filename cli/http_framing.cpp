#include "cli/http_framing.hpp"

#include <cctype>
#include <string_view>

namespace rulebook::cli::http {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Framing refused(std::string why) {
  Framing f;
  f.kind = Framing::Kind::refused;
  f.refusal = std::move(why);
  return f;
}

// 1*DIGIT, at most 18 digits (no overflow; far above any body limit).
bool plain_number(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

}  // namespace

Framing frame_request(const std::vector<std::pair<std::string, std::string>>& fields, unsigned version) {
  size_t lengths = 0, codings = 0, transfer_fields = 0;
  bool chunked_last = false;
  std::string_view length_text;
  for (const auto& [name, value] : fields) {
    if (same_name(name, "content-length")) {
      ++lengths;
      length_text = trimmed(value);
    } else if (same_name(name, "transfer-encoding")) {
      ++transfer_fields;
      // A list of codings, across every Transfer-Encoding field in order.
      std::string_view rest = value;
      for (;;) {
        const size_t comma = rest.find(',');
        const std::string_view coding = trimmed(rest.substr(0, comma));
        if (coding.empty()) return refused("a Transfer-Encoding with an empty coding: this server reads only \"chunked\"");
        ++codings;
        chunked_last = same_name(coding, "chunked");
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
  }
  if (transfer_fields > 0) {
    if (version < 11) return refused("Transfer-Encoding in an HTTP/1.0 request: its body cannot be framed");
    if (lengths > 0) return refused("both Transfer-Encoding and Content-Length: the body cannot be framed");
    if (codings != 1 || !chunked_last)
      return refused("a Transfer-Encoding this server does not read: it reads only \"chunked\", alone");
    Framing f;
    f.kind = Framing::Kind::chunked;
    return f;
  }
  if (lengths == 0) return Framing{};
  if (lengths > 1) return refused("Content-Length given more than once: the body cannot be framed");
  Framing f;
  if (!plain_number(length_text, f.length)) return refused("a Content-Length that is not a plain number of bytes");
  f.kind = Framing::Kind::length;
  return f;
}

}  // namespace rulebook::cli::http
