#include "table/public_words.hpp"

#include <filesystem>

namespace rulebook {
namespace {

constexpr size_t kMaxPublicBytes = 2000;

bool ends_word(char c) { return c == ' ' || c == '\t' || c == '\'' || c == '"' || c == '`' || c == '(' || c == ')' || c == ','; }

// One word holding a '/': a path of the server's, cut as the top says.
std::string cut_path(const std::string& word, const std::string& game_dir, const std::string& folder) {
  if (!game_dir.empty()) {
    const size_t whole = word.find(game_dir + "/");
    if (whole != std::string::npos) return word.substr(0, whole) + word.substr(whole + game_dir.size() + 1);
  }
  if (!folder.empty()) {
    const size_t inside = word.rfind("/" + folder + "/");
    if (inside != std::string::npos) return word.substr(inside + folder.size() + 2);
  }
  if (word[0] == '/' || word[0] == '.' || word[0] == '~') return word.substr(word.rfind('/') + 1);
  return word;
}

}  // namespace

std::string public_words(const std::string& text, const std::string& game_dir) {
  const std::string folder = std::filesystem::path(game_dir).lexically_normal().filename().string();
  // The message lines: a script error's excerpt ("  --> rules.lua:3:5",
  // the source line) and its traceback start with blanks or "stack traceback".
  std::string kept;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (start > 0 && (line.empty() || line[0] == ' ' || line[0] == '\t' || line.rfind("stack traceback", 0) == 0)) break;
    if (start > 0) kept += '\n';
    kept += line;
    start = end + 1;
  }
  std::string out;
  for (size_t i = 0; i < kept.size();) {
    if (ends_word(kept[i]) || kept[i] == '\n') {
      out += kept[i++];
      continue;
    }
    size_t end = i;
    while (end < kept.size() && !ends_word(kept[end]) && kept[end] != '\n') ++end;
    const std::string word = kept.substr(i, end - i);
    out += word.find('/') == std::string::npos ? word : cut_path(word, game_dir, folder);
    i = end;
  }
  if (out.size() > kMaxPublicBytes) {
    size_t cut = kMaxPublicBytes;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    out = out.substr(0, cut) + "...";
  }
  return out;
}

}  // namespace rulebook
