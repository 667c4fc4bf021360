#pragma once
// Reading what users give rulebook (game and variant YAML, scenarios,
// replay logs, scripted answers), with limits that keep a hostile or
// mistaken file from exhausting the machine or the stack.
//
// Limits (documented in docs/writing-a-game.md, "Limits on input files"):
//  - a file is read up to kMaxInputFileBytes; a larger one (or an endless
//    device such as /dev/zero) is an error, not an exhausted machine;
//  - JSON and YAML values may nest at most kMaxInputNesting levels deep.
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/safe_text.hpp"  // valid_utf8

namespace rulebook {

constexpr std::size_t kMaxInputFileBytes = std::size_t{16} << 20;  // 16 MiB
constexpr int kMaxInputNesting = 100;

struct InputFile {
  bool ok = false;
  std::string text;   // the whole file, when ok
  std::string error;  // otherwise, a sentence without the file name:
                      // "cannot read file (No such file or directory)",
                      // "file is larger than 16 MiB, the limit for input files"
};

InputFile read_input_file(const std::string& path);

// Parses JSON text read from `file`, refusing values nested more than
// kMaxInputNesting deep. On failure returns false and sets `error` to a
// complete message, "file:line:col: error: ..." (never a library's text).
bool parse_json_input(const std::string& text, const std::string& file, nlohmann::json& out,
                      std::string& error);

}  // namespace rulebook
