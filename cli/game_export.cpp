#include "cli/game_export.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {

namespace {

bool is_csv(const std::string& path) { return std::filesystem::path(path).extension() == ".csv"; }

std::vector<int> seats_of(uint64_t winners, int players) {
  std::vector<int> seats;
  for (int s = 0; s < players; ++s)
    if ((winners >> s) & 1) seats.push_back(s);
  return seats;
}

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

void check_export_file(const std::string& path) {
  const auto ext = std::filesystem::path(path).extension();
  if (ext != ".csv" && ext != ".jsonl")
    throw SetupError(fmt::format("--export: error: '{}' must end in .csv or .jsonl", path));
}

namespace {
constexpr size_t kMaxExportStatColumns = 1000;
}  // namespace

void write_export(const std::string& path, std::vector<ExportedGame> games, int players) {
  std::stable_sort(games.begin(), games.end(),
                   [](const ExportedGame& a, const ExportedGame& b) { return a.index < b.index; });
  const bool with_side = std::any_of(games.begin(), games.end(), [](const auto& g) { return !g.side.empty(); });
  // The game's own statistics, a column each (only when some game gave them).
  std::set<std::string> stat_names, metric_names;
  for (const auto& g : games) {
    for (const auto& [name, value] : g.outcome.stats) stat_names.insert(name);
    for (const auto& [name, value] : g.outcome.metrics) metric_names.insert(name);
  }
  const auto cell = [](const analysis::GameStats& figures, const std::string& name) {
    const auto it = figures.find(name);
    return it == figures.end() ? std::string(",") : "," + nlohmann::json(it->second).dump();
  };
  // Each seat's return, a column a seat (only when some game gave returns).
  const bool with_returns = std::any_of(games.begin(), games.end(), [](const auto& g) { return !g.outcome.returns.empty(); });
  std::string text;
  if (is_csv(path)) {
    // Each game gives at most 64; games that each name their own could make
    // a CSV no spreadsheet opens.
    if (stat_names.size() > kMaxExportStatColumns)
      throw OutputError(fmt::format("--export: error: the games gave {} statistics by name, more than the {} columns "
                                    "a CSV export takes; export to FILE.jsonl",
                                    stat_names.size(), kMaxExportStatColumns));
    text = with_side ? "game,side,seed,winners,turns,end_reason,decisions,details"
                     : "game,seed,winners,turns,end_reason,decisions,details";
    for (const auto& name : stat_names) text += ",stats." + name;
    for (int s = 0; with_returns && s < players; ++s) text += fmt::format(",returns.seat{}", s);
    for (const auto& name : metric_names) text += ",metrics." + name;
    text += "\n";
    for (const auto& g : games) {
      const auto& o = g.outcome;
      text += fmt::format("{},", g.index);
      if (with_side) text += csv_field(g.side) + ",";
      text += fmt::format("{},{},{},{},{},{}", g.seed, fmt::join(seats_of(o.winners, players), " "), o.turns,
                          csv_field(o.reason.empty() ? analysis::kUnspecifiedReason : o.reason), o.decisions,
                          csv_field(o.details.is_null() || o.details.empty() ? "" : o.details.dump()));
      for (const auto& name : stat_names) text += cell(o.stats, name);
      for (int s = 0; with_returns && s < players; ++s)
        text += o.returns.empty() ? std::string(",") : "," + nlohmann::json(o.returns[static_cast<size_t>(s)]).dump();
      for (const auto& name : metric_names) text += cell(o.metrics, name);
      text += "\n";
    }
  } else {
    for (const auto& g : games) {
      const auto& o = g.outcome;
      nlohmann::json row = {{"game", g.index},
                            {"seed", g.seed},
                            {"winners", seats_of(o.winners, players)},
                            {"turns", o.turns},
                            {"end_reason", o.reason.empty() ? analysis::kUnspecifiedReason : o.reason},
                            {"decisions", o.decisions},
                            {"details", o.details.is_null() ? nlohmann::json::object() : o.details}};
      if (with_side) row["side"] = g.side;
      if (!o.stats.empty()) row["stats"] = o.stats;
      if (!o.returns.empty()) row["returns"] = o.returns;
      if (!o.metrics.empty()) row["metrics"] = o.metrics;
      text += row.dump() + "\n";
    }
  }
  write_file("--export", path, text);
}

}  // namespace rulebook::cli
