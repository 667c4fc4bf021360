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

}  // namespace rulebook::cli
