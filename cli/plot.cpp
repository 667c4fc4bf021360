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
#include <sstream>

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

namespace {

// Runs gnuplot on `script` (which writes `output`), with its data files in `dir`.
void render(const std::string& path, const std::string& output, const std::string& script_text, const std::string& dir) {
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) check_plot_file(path);  // throws the message
  write_text(dir + "/plot.gp", script_text);
  const std::string errors = dir + "/errors.txt";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const std::string script_path = dir + "/plot.gp";
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

std::string terminal(Format format, int width, int height) {
  if (format == Format::Svg)
    return fmt::format("set terminal svg size {},{} dynamic font 'sans,11' background rgb 'white'\n", width, height);
  return fmt::format("set terminal pngcairo size {},{} font 'sans,10' background rgb 'white'\n", width, height);
}

// A label in a data file: double-quoted (gnuplot's data files do not read
// single quotes), its double quotes dropped.
std::string data_label(const std::string& text) {
  std::string out = "\"";
  for (char c : text)
    if (c != '"') out += c;
  return out + "\"";
}

// Colours by side, named in every legend.
constexpr const char* kBaseColour = "#4a7ab5";
constexpr const char* kWithColour = "#d0703a";

}  // namespace

void write_plot(const std::string& path, const std::string& title, const std::vector<PlotSeries>& series) {
  const Format format = format_of(path);
  if (find_gnuplot().empty()) check_plot_file(path);
  if (series.empty()) throw PlotError("nothing to plot");
  TempFolder dir;
  int64_t width = 1;
  std::pair<double, double> range{0, 1};
  write_text(dir.path + "/wins.dat", wins_data(series));
  write_text(dir.path + "/turns.dat", turns_data(series, width, range));
  const std::string output = fs::absolute(path).string();
  render(path, output, script(output, format, title, series, dir.path, width, range), dir.path);
}

void write_comparison_plot(const std::string& path, const ComparisonPlot& plot) {
  const Format format = format_of(path);
  if (find_gnuplot().empty()) check_plot_file(path);
  const std::vector<PlotSeries> series{plot.base, plot.with};
  TempFolder dir;
  int64_t width = 1;
  std::pair<double, double> range{0, 1};
  write_text(dir.path + "/wins.dat", wins_data(series));
  const std::string turns_text = turns_data(series, width, range);
  write_text(dir.path + "/turns.dat", turns_text);
  // The tallest bin, for the y range (autoscaling misses shifted boxes).
  double tallest = 1;
  {
    std::istringstream rows(turns_text);
    std::string line;
    while (std::getline(rows, line)) {
      std::istringstream row(line);
      double x = 0, share = 0;
      row >> x;
      while (row >> share) tallest = std::max(tallest, share);
    }
  }
  std::string differences;
  for (size_t k = 0; k < plot.differences.size(); ++k) {
    const auto& d = plot.differences[k];
    differences += fmt::format("{} {} {} {} {}\n", k, d.interval.estimate * 100, d.interval.low * 100,
                               d.interval.high * 100, data_label(d.label));
  }
  write_text(dir.path + "/differences.dat", differences);
  const std::string output = fs::absolute(path).string();
  const std::string wins = quoted(dir.path + "/wins.dat"), turns = quoted(dir.path + "/turns.dat"),
                    diffs = quoted(dir.path + "/differences.dat");
  const int players = plot.base.statistics->players();
  std::string s = terminal(format, 1400, 580);
  s += "set encoding utf8\n";
  s += fmt::format("set output {}\n", quoted(output));
  s += fmt::format("set multiplot layout 1,3 title {} noenhanced\n", quoted(plot.title));
  s += "set key below noenhanced\nset grid ytics\n";
  // 1. Win rate by seat, the sides' bars side by side, a dashed line at each side's fair rate.
  s += "set title 'Win rate by seat, 95% Wilson intervals' noenhanced\n";
  s += "set xlabel 'seat'\nset ylabel 'games won (%)'\nset yrange [0:*]\n";
  s += fmt::format("set xrange [-0.6:{}]\nset xtics 1\n", players - 0.4);
  s += "set boxwidth 0.38\nset style fill solid 0.6 border -1\n";
  // The fair rates as lines in front of the bars; their legend entries come from empty plots.
  s += fmt::format("set arrow 1 from graph 0, first {} to graph 1, first {} nohead front dt 2 lw 2 lc rgb '{}'\n",
                   plot.base.statistics->fair_win_rate() * 100, plot.base.statistics->fair_win_rate() * 100, kBaseColour);
  s += fmt::format("set arrow 2 from graph 0, first {} to graph 1, first {} nohead front dt 3 lw 2 lc rgb '{}'\n",
                   plot.with.statistics->fair_win_rate() * 100, plot.with.statistics->fair_win_rate() * 100, kWithColour);
  s += fmt::format(
      "plot {0} using ($1-0.2):2 with boxes lc rgb '{1}' title {2}, {0} using ($1-0.2):2:3:4 with yerrorbars lc rgb 'black' "
      "pt -1 notitle, {0} using ($1+0.2):5 with boxes lc rgb '{3}' title {4}, {0} using ($1+0.2):5:6:7 with yerrorbars "
      "lc rgb 'black' pt -1 title '95% interval', NaN with lines dt 2 lw 2 lc rgb '{1}' title 'fair rate (base)', "
      "NaN with lines dt 3 lw 2 lc rgb '{3}' title 'fair rate (with)'\n",
      wins, kBaseColour, quoted(plot.base.label), kWithColour, quoted(plot.with.label));
  s += "unset arrow 1\nunset arrow 2\n";
  // 2. Game length: each side's bins side by side, each half a bin wide.
  s += "set title 'Game length' noenhanced\nset xlabel 'turns'\nset ylabel 'games (%)'\nset xtics auto\n";
  s += fmt::format("set xrange [{}:{}]\nset yrange [0:{}]\n", range.first, range.second, tallest * 1.08);
  s += fmt::format("set boxwidth {} absolute\nset style fill solid 0.6 border -1\n", static_cast<double>(width) / 2);
  s += fmt::format("plot {0} using ($1-{1}):2 with boxes lc rgb '{2}' title {3}, {0} using ($1+{1}):3 with boxes lc rgb "
                   "'{4}' title {5}\n",
                   turns, static_cast<double>(width) / 4, kBaseColour, quoted(plot.base.label), kWithColour,
                   quoted(plot.with.label));
  // 3. The paired differences with their intervals; 0 is no change.
  s += "set title 'Paired differences, with - base (95% intervals)' noenhanced\n";
  s += "set xlabel ''\nset ylabel 'points'\nset autoscale y\nset xtics rotate by -30 noenhanced\n";
  s += fmt::format("set xrange [-0.6:{}]\n", static_cast<double>(plot.differences.size()) - 0.4);
  s += fmt::format("plot 0 with lines dt 2 lc rgb 'gray40' title 'no change', {0} using 1:2:3:4:xtic(5) with "
                   "yerrorbars pt 7 ps 1.2 lc rgb '{1}' title 'difference and 95% interval'\n",
                   diffs, kWithColour);
  s += "unset multiplot\nset output\n";
  render(path, output, s, dir.path);
}

void write_sweep_plot(const std::string& path, const SweepPlot& plot) {
  const Format format = format_of(path);
  if (find_gnuplot().empty()) check_plot_file(path);
  TempFolder dir;
  std::string data;
  for (size_t k = 0; k < plot.settings.size(); ++k)
    data += fmt::format("{} {} {} {} {} {} {} {}\n", k, plot.unfairness[k].estimate * 100, plot.unfairness[k].low * 100,
                        plot.unfairness[k].high * 100, plot.mean_turns[k].estimate, plot.mean_turns[k].low,
                        plot.mean_turns[k].high, data_label(plot.settings[k]));
  write_text(dir.path + "/settings.dat", data);
  const std::string output = fs::absolute(path).string();
  const std::string settings = quoted(dir.path + "/settings.dat");
  const double last = static_cast<double>(plot.settings.size()) - 0.4;
  std::string s = terminal(format, 1200, 560);
  s += "set encoding utf8\n";
  s += fmt::format("set output {}\n", quoted(output));
  s += fmt::format("set multiplot layout 1,2 title {} noenhanced\n", quoted(plot.title));
  s += "set key below noenhanced\nset grid ytics\nset xtics rotate by -30 noenhanced\n";
  s += fmt::format("set xrange [-0.6:{}]\n", last);
  s += "set title 'Unfairness by setting (RMS seat advantage, 95% intervals)' noenhanced\n";
  s += "set xlabel ''\nset ylabel 'points (0 = fair)'\nset yrange [0:*]\n";
  s += fmt::format("plot {0} using 1:2:3:4:xtic(8) with yerrorbars pt 7 ps 1.2 lc rgb '{1}' title 'unfairness', "
                   "{0} using ($1 == {2} ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb '{3}' title 'fairest'\n",
                   settings, kBaseColour, plot.fairest, kWithColour);
  s += "set title 'Mean game length by setting (95% intervals)' noenhanced\nset ylabel 'turns'\nset autoscale y\n";
  s += fmt::format("plot {0} using 1:5:6:7:xtic(8) with yerrorbars pt 7 ps 1.2 lc rgb '{1}' title 'mean turns'\n",
                   settings, kBaseColour);
  s += "unset multiplot\nset output\n";
  render(path, output, s, dir.path);
}

}  // namespace rulebook::cli
