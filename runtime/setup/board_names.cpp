#include "setup/board_names.hpp"

#include <fmt/format.h>

namespace rulebook {
namespace {

// `count` names from a list, or from a counting word: letters (a, b, ...)
// or numbers (1, 2, ...) from the first edge (west for columns, north for
// rows), or reversed from the far edge (numbers_reversed on rows: 1 at the
// south edge, as on a chessboard).
bool names_of(const nlohmann::json& given, int count, std::vector<std::string>& out, std::string& error) {
  if (given.is_array()) {
    out = given.get<std::vector<std::string>>();
    if (static_cast<int>(out.size()) != count) {
      error = fmt::format("{} names for {} squares", out.size(), count);
      return false;
    }
    return true;
  }
  const std::string word = given.get<std::string>();
  const bool reversed = word.size() > 9 && word.compare(word.size() - 9, 9, "_reversed") == 0;
  const std::string kind = reversed ? word.substr(0, word.size() - 9) : word;
  if (kind == "letters" && count > 26) {
    error = fmt::format("letters name at most 26 squares, not {}", count);
    return false;
  }
  for (int i = 0; i < count; ++i) {
    const int n = reversed ? count - 1 - i : i;
    out.push_back(kind == "letters" ? std::string(1, static_cast<char>('a' + n)) : std::to_string(n + 1));
  }
  return true;
}

}  // namespace

std::string read_board_names(const nlohmann::json& board, BoardGeometry& geometry, std::string& pointer) {
  const auto columns = board.find("column_names"), rows = board.find("row_names");
  if (columns == board.end() && rows == board.end()) return {};
  if (columns == board.end() || rows == board.end()) {
    pointer = columns == board.end() ? "/row_names" : "/column_names";
    return "a board that names its squares names both its columns (column_names) and its rows (row_names)";
  }
  std::vector<std::string> column_list, row_list;
  std::string error;
  if (!names_of(*columns, geometry.width(), column_list, error)) {
    pointer = "/column_names";
    return fmt::format("column_names: {} (the board is {} wide)", error, geometry.width());
  }
  if (!names_of(*rows, geometry.height(), row_list, error)) {
    pointer = "/row_names";
    return fmt::format("row_names: {} (the board is {} high)", error, geometry.height());
  }
  if (!geometry.set_names(std::move(column_list), std::move(row_list))) {
    pointer = "/column_names";
    return "two squares would have the same name (a column's name followed by a row's)";
  }
  return {};
}

}  // namespace rulebook
