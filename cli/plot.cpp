#include "cli/plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "setup/setup_error.hpp"

extern char** environ;

namespace rulebook::cli {
namespace fs = std::filesystem;

namespace {

enum class Format { Svg, Png };

Format format_of(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".svg" || ext == ".SVG") return Format::Svg;
  if (ext == ".png" || ext == ".PNG") return Format::Png;
  throw SetupError(fmt::format("--plot: error: '{}' must end in .svg or .png", path));
}

// The gnuplot program to run, or "" if there is none.
std::string find_gnuplot() {
  if (const char* chosen = std::getenv("RULEBOOK_GNUPLOT"); chosen && *chosen)
    return access(chosen, X_OK) == 0 ? chosen : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/gnuplot";
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  return "";
}

// A gnuplot single-quoted string ('' stands for a quote).
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A temporary folder, removed when done.
struct TempFolder {
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "rulebook-plot-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw PlotError("cannot make a temporary folder for gnuplot's input");
    path = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string path;
};

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw PlotError(fmt::format("cannot write '{}'", path));
}

std::string wins_data(const std::vector<PlotSeries>& series) {
  std::string data;
  const int players = series.front().statistics->players();
  for (int seat = 0; seat < players; ++seat) {
    data += fmt::format("{}", seat);
    for (const auto& s : series) {
      const auto i = s.statistics->win_rate(seat);
      data += fmt::format(" {} {} {}", i.estimate * 100, i.low * 100, i.high * 100);
    }
    data += "\n";
  }
  return data;
}

// Shares of games (%) by game length, on bins common to every series.
// `range` receives the x range the bins cover.
std::string turns_data(const std::vector<PlotSeries>& series, int64_t& width, std::pair<double, double>& range) {
  std::map<int64_t, int64_t> all;
  for (const auto& s : series)
    for (const auto& [turns, games] : s.statistics->turns_histogram()) all[turns] += games;
  if (all.empty()) return "";
  width = analysis::nice_bin_width(all.begin()->first, all.rbegin()->first, 30);
  const auto bins = analysis::bin_histogram(all, 30, width);
  range = {static_cast<double>(bins.front().from) - 0.5, static_cast<double>(bins.back().to) + 0.5};
  std::vector<std::map<int64_t, int64_t>> per_series;
  for (const auto& s : series) {
    std::map<int64_t, int64_t> by_from;
    for (const auto& b : analysis::bin_histogram(s.statistics->turns_histogram(), 30, width)) by_from[b.from] = b.games;
    per_series.push_back(std::move(by_from));
  }
  std::string data;
  for (const auto& b : bins) {
    data += fmt::format("{}", static_cast<double>(b.from + b.to) / 2);
    for (size_t k = 0; k < series.size(); ++k) {
      const auto games = series[k].statistics->games();
      const auto it = per_series[k].find(b.from);
      const int64_t count = it == per_series[k].end() ? 0 : it->second;
      data += fmt::format(" {}", games ? 100.0 * static_cast<double>(count) / static_cast<double>(games) : 0.0);
    }
    data += "\n";
  }
  return data;
}

std::string script(const std::string& path, Format format, const std::string& title,
                   const std::vector<PlotSeries>& series, const std::string& dir, int64_t width,
                   std::pair<double, double> range) {
  const std::string wins = quoted(dir + "/wins.dat"), turns = quoted(dir + "/turns.dat");
  std::string s;
  if (format == Format::Svg)
    s += "set terminal svg size 1000,420 dynamic font 'sans,11' background rgb 'white'\n";
  else
    s += "set terminal pngcairo size 1000,420 font 'sans,10' background rgb 'white'\n";
  s += "set encoding utf8\n";
  s += fmt::format("set output {}\n", quoted(path));
  s += fmt::format("set multiplot layout 1,2 title {} noenhanced\n", quoted(title));
  s += "set key top right noenhanced\nset grid ytics\nset yrange [0:*]\n";
  s += "set title 'Win rate by seat, 95% Wilson intervals' noenhanced\n";
  s += "set xlabel 'seat'\nset ylabel 'games won (%)'\n";
  s += "set style data histogram\nset style histogram errorbars gap 2 lw 1\nset style fill solid 0.5 border -1\n";
  s += "plot ";
  for (size_t k = 0; k < series.size(); ++k)
    s += fmt::format("{}{} using {}:{}:{}{} title {}", k ? ", " : "", wins, 2 + 3 * k, 3 + 3 * k, 4 + 3 * k,
                     k == 0 ? ":xtic(1)" : "", quoted(series[k].label));
  s += "\n";
  s += "set title 'Game length' noenhanced\nset xlabel 'turns'\nset ylabel 'games (%)'\nset xtics auto\n";
  s += fmt::format("set xrange [{}:{}]\n", range.first, range.second);
  s += fmt::format("set boxwidth {} absolute\nset style fill transparent solid 0.45 border -1\n", width);
  s += "plot ";
  for (size_t k = 0; k < series.size(); ++k)
    s += fmt::format("{}{} using 1:{} with boxes title {}", k ? ", " : "", turns, 2 + k, quoted(series[k].label));
  s += "\nunset multiplot\nset output\n";
  return s;
}

}  // namespace

void check_plot_file(const std::string& path) {
  format_of(path);
  if (find_gnuplot().empty())
    throw PlotError(
        "--plot needs gnuplot, which was not found on PATH (Debian: apt-get install gnuplot-nox; "
        "or set RULEBOOK_GNUPLOT to the program)");
}

void write_plot(const std::string& path, const std::string& title, const std::vector<PlotSeries>& series) {
  const Format format = format_of(path);
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) check_plot_file(path);  // throws the message
  if (series.empty()) throw PlotError("nothing to plot");
  TempFolder dir;
  int64_t width = 1;
  std::pair<double, double> range{0, 1};
  write_text(dir.path + "/wins.dat", wins_data(series));
  write_text(dir.path + "/turns.dat", turns_data(series, width, range));
  const std::string output = fs::absolute(path).string();
  write_text(dir.path + "/plot.gp", script(output, format, title, series, dir.path, width, range));
  const std::string errors = dir.path + "/errors.txt";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const std::string script_path = dir.path + "/plot.gp";
  std::vector<char*> argv{const_cast<char*>(gnuplot.c_str()), const_cast<char*>(script_path.c_str()), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw PlotError(fmt::format("cannot run {}: {}", gnuplot, std::strerror(spawned)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string messages;
  try {
    messages = read_file(errors);
  } catch (const std::exception&) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw PlotError(fmt::format("gnuplot could not draw '{}':\n{}", path, messages));
  std::error_code ec;
  if (fs::file_size(output, ec) == 0 || ec)
    throw PlotError(fmt::format("gnuplot did not write '{}':\n{}", path, messages));
}

}  // namespace rulebook::cli
