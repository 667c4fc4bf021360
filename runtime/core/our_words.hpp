#pragma once
// Errors in our words. The project's exceptions (std::runtime_error,
// std::logic_error and the types derived from them that it throws) carry
// sentences written for whoever reads them; a library's exception
// (nlohmann::json's, std::bad_alloc, std::system_error and the like)
// carries the library's own text, which no page, HTTP answer or message of
// ours shows: the caller says what failed instead.
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

namespace rulebook {

inline bool worded_by_a_library(const std::exception& e) {
  if (dynamic_cast<const std::system_error*>(&e)) return true;
  return !dynamic_cast<const std::runtime_error*>(&e) && !dynamic_cast<const std::logic_error*>(&e);
}

// e.what() when the words are ours, else `otherwise`.
inline std::string in_our_words(const std::exception& e, const std::string& otherwise) {
  if (!worded_by_a_library(e)) return e.what();
  if (dynamic_cast<const std::bad_alloc*>(&e)) return otherwise + " (out of memory)";
  return otherwise;
}

}  // namespace rulebook
