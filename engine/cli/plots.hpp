// PNG line plots drawn by gnuplot (Debian gnuplot-nox) from CSV files.
#pragma once

#include <string>
#include <vector>

namespace ndem::cli {

struct PlotLine {
    std::string csv;  ///< data file
    int xColumn = 1;  ///< 1-based columns in the CSV
    int yColumn = 2;
    std::string title;                  ///< legend entry
    std::string style = "linespoints";  ///< gnuplot style: lines, points, linespoints
    std::string function = "";  ///< if set, a gnuplot expression of x drawn instead of the CSV
};

struct Plot {
    std::string png;  ///< output file
    std::string title, xLabel, yLabel;
    bool logX = false, logY = false;
    std::vector<PlotLine> lines;
    std::vector<std::string> extra;  ///< further gnuplot commands (e.g. reference functions)
};

/// True if gnuplot can be run.
bool gnuplotAvailable();

/// Draws the plots with one gnuplot process; returns an error message or "".
std::string drawPlots(const std::vector<Plot>& plots, const std::string& scriptPath);

}  // namespace ndem::cli
