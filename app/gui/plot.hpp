// Line plots with numbered, labelled axes drawn with ImGui's draw list (PlotLines has no axes).
#pragma once

#include <imgui.h>

#include <cmath>
#include <span>

namespace ndem::app {

/// One curve. The plot only reads the arrays, during the plotLines() call.
struct PlotSeries {
    const char* label;  ///< legend text; nullptr or "" leaves the series out of the legend
    const float* x;     ///< nullptr: x is the index 0..count-1
    const float* y;
    int count;
    ImU32 colour;
    /// Points instead of a line; with `dashed` as well, points on a dashed line.
    bool markers = false;
    bool dashed = false;
};

struct PlotAxes {
    const char* xLabel;  ///< with its unit, e.g. "depth (m)"
    const char* yLabel;  ///< with its unit, e.g. "p (Pa)"
    bool logY = false;   ///< decades on y, e.g. residual vs iteration; values <= 0 are skipped
    /// Fixed ranges; NaN: from the finite data with a 5 % margin.
    float xMin = NAN, xMax = NAN, yMin = NAN, yMax = NAN;
};

/// Draws a plot of `size` logical pixels into the current window. As for ImGui items, 0 fills
/// the available width/height and a negative value leaves that much free (at least 80 x 120).
/// Shows a frame, 1-2-5 ticks with numbers on both axes, the axis labels, the series clipped to
/// the plot area, a legend, and a tooltip with the point of the first series nearest the
/// pointer. NaN/inf points break a line. Data with no finite point draws the axes and "no
/// data". `id` must be unique within the window. Dense data is reduced to a few vertices per
/// pixel column, so 10^5 points are cheap (~1 ms).
void plotLines(const char* id, const PlotAxes& axes, std::span<const PlotSeries> series,
               ImVec2 size);

}  // namespace ndem::app
