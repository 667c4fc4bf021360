#include "schema/safe_regex.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <re2/re2.h>

namespace rulebook::schema {

SafeRegex::SafeRegex(const std::string& pattern) : source_(pattern) {
  RE2::Options options;
  options.set_log_errors(false);  // the error is reported by the exception below
  auto re = std::make_shared<const re2::RE2>(pattern, options);
  if (!re->ok())
    throw std::runtime_error(fmt::format("invalid regular expression '{}': {}", pattern, re->error()));
  re_ = std::move(re);
}

bool SafeRegex::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace rulebook::schema
