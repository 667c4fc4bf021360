#pragma once
// How a request's body is framed (RFC 9112 §6.3), decided from its head
// alone, before a byte of the body is read: no body, a Content-Length, or
// chunked. Anything else -- a Transfer-Encoding other than exactly
// "chunked", Transfer-Encoding with Content-Length, Content-Length given
// twice or not a plain number, Transfer-Encoding in HTTP/1.0 -- is refused:
// the server answers 400 and closes the connection, so that a body it
// cannot frame is never read as the connection's next request (request
// smuggling). The server (http_server.cpp) and the fuzz target
// (tests/fuzz/fuzz_http_head.cpp) both call frame_request.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rulebook::cli::http {

struct Framing {
  enum class Kind { none, length, chunked, refused };
  Kind kind = Kind::none;
  std::uint64_t length = 0;  // Kind::length: the body's bytes
  std::string refusal;       // Kind::refused: why, in our words (the 400's message)
};

// `fields`: the head's header fields in order (names in any case, values
// as sent); `version`: 10 for HTTP/1.0, 11 for HTTP/1.1.
Framing frame_request(const std::vector<std::pair<std::string, std::string>>& fields, unsigned version);

}  // namespace rulebook::cli::http
