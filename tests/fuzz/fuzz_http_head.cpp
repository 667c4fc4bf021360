// An HTTP request's head, as rulebook serve reads it: Boost.Beast's parser
// with the server's header limit, then the framing decision
// (cli/http_framing.hpp). Besides never crashing, whatever frame_request
// accepts the parser must frame the same way (same chunked, same length):
// a disagreement would let a body be read as a next request, so it aborts.
#include <cstdlib>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "cli/http_framing.hpp"
#include "fuzz_input.hpp"

namespace bhttp = boost::beast::http;
using rulebook::cli::http::Framing;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = rulebook::fuzz::text(data, size);
  bhttp::request_parser<bhttp::empty_body> parser;
  parser.eager(false);
  parser.header_limit(8192);
  boost::beast::error_code ec;
  size_t used = 0;
  while (!parser.is_header_done() && used < text.size()) {
    const size_t n = parser.put(boost::asio::buffer(text.data() + used, text.size() - used), ec);
    if (ec == bhttp::error::need_more) return 0;
    if (ec) return 0;  // the server answers the parser's own errors with 400 and closes
    if (n == 0) return 0;
    used += n;
  }
  if (!parser.is_header_done()) return 0;
  const auto& head = parser.get();
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& field : head) fields.emplace_back(std::string(field.name_string()), std::string(field.value()));
  const Framing framing = rulebook::cli::http::frame_request(fields, head.version());
  const auto length = parser.content_length();
  switch (framing.kind) {
    case Framing::Kind::chunked:
      if (!parser.chunked() || length) std::abort();
      break;
    case Framing::Kind::length:
      if (parser.chunked() || !length || *length != framing.length) std::abort();
      break;
    case Framing::Kind::none:
      if (parser.chunked() || length) std::abort();
      break;
    case Framing::Kind::refused:
      if (framing.refusal.empty()) std::abort();
      break;
  }
  return 0;
}
