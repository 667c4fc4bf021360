#pragma once
// Pictures of simulations, drawn by gnuplot (Debian's gnuplot-nox): the win
// rate by seat with its 95% interval bars, and the distribution of game
// lengths; several series (the sides of a comparison) are overlaid.
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/run_statistics.hpp"

namespace rulebook::cli {

// gnuplot is missing or failed (exit code 1).
struct PlotError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PlotSeries {
  std::string label;
  const analysis::RunStatistics* statistics = nullptr;
};

// Checks, before any game is played, that `path` ends in .svg or .png
// (SetupError otherwise) and that gnuplot can be found (PlotError).
// The program is $RULEBOOK_GNUPLOT if set, else `gnuplot` on PATH.
void check_plot_file(const std::string& path);

// Draws the picture into `path` (SVG or PNG by its extension).
void write_plot(const std::string& path, const std::string& title, const std::vector<PlotSeries>& series);

// A paired difference (with - base) in rate units, drawn in points.
struct PlottedDifference {
  std::string label;
  analysis::Interval interval;
};

// The picture of `compare`: the win rate by seat of both sides with a line
// at each side's fair rate, the game lengths in bins side by side, and a
// panel of the paired differences with their intervals and a line at 0.
struct ComparisonPlot {
  std::string title;  // names the sides and their agents
  PlotSeries base, with;
  std::vector<PlottedDifference> differences;
};
void write_comparison_plot(const std::string& path, const ComparisonPlot& plot);

// The picture of `sweep`: each setting's unfairness and mean game length
// with their intervals (the fairest setting marked), and its skill figure
// when agents differ.
struct SweepPlot {
  std::string title;
  std::vector<std::string> settings;
  std::vector<analysis::Interval> unfairness;  // rate units
  std::vector<analysis::Interval> mean_turns;
  int fairest = 0;
};
void write_sweep_plot(const std::string& path, const SweepPlot& plot);

}  // namespace rulebook::cli
