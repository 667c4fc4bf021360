#pragma once
// Shared by the libFuzzer targets: the fuzzer's bytes as text, and the one
// place where an exception is called a crash. A target may only end an
// input with the errors the product reports to users (SetupError, and for
// games ScriptError / AgentFailure / AgentSpecError); anything else propagates,
// aborts, and libFuzzer saves the input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rulebook::fuzz {

inline std::string text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Splits at lines holding only "%%" (for targets taking several documents).
inline std::vector<std::string> parts(const std::string& text) {
  std::vector<std::string> out(1);
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    if (line == "%%") out.emplace_back();
    else out.back() += line + "\n";
    pos = end + 1;
  }
  return out;
}

}  // namespace rulebook::fuzz
