#include "gui/plot.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ndem::app {
namespace {

constexpr int kMaxTicks = 40;
constexpr float kTickLength = 4.0f;  ///< logical px
constexpr float kPad = 4.0f;         ///< logical px

// ---- Axis mapping and ticks ---------------------------------------------------------------

/// One axis: [lo, hi] in plot space (log10 of the value on a log axis) onto screen pixels.
struct Axis {
    double lo = 0.0, hi = 1.0;
    bool log = false;
    float screenLo = 0.0f, screenHi = 1.0f;  ///< pixel of lo and of hi (y runs upwards)

    bool valid(double v) const { return std::isfinite(v) && (!log || v > 0.0); }
    double toPlot(double v) const { return log ? std::log10(v) : v; }
    float toScreen(double v) const {
        const double t = (toPlot(v) - lo) / (hi - lo);
        // Far-off points are clamped so the float vertices keep sub-pixel precision.
        return float(std::clamp(screenLo + t * (screenHi - screenLo), -1.0e6, 1.0e6));
    }
};

struct Ticks {
    double values[kMaxTicks];
    double steps[kMaxTicks];  ///< the resolution each label needs (sets its digits)
    int count = 0;
    void add(double value, double step) {
        if (count == kMaxTicks) return;
        values[count] = value;
        steps[count] = step;
        ++count;
    }
};

/// The 1-2-5 step that splits `span` into about `target` intervals.
double niceStep(double span, double target) {
    const double raw = span / std::max(target, 1.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / magnitude;
    const double nice = fraction <= 1.0   ? 1.0
                        : fraction <= 2.0 ? 2.0
                        : fraction <= 5.0 ? 5.0
                                          : 10.0;
    return nice * magnitude;
}

void linearTicks(double lo, double hi, double target, Ticks& ticks) {
    const double step = niceStep(hi - lo, target);
    const double first = std::ceil(lo / step - 1e-9);
    const double last = std::floor(hi / step + 1e-9);
    for (double k = first; k <= last && ticks.count < kMaxTicks; k += 1.0) {
        const double value = k * step;  // k * step, not a running sum: no drift like 0.30000004
        ticks.add(std::abs(value) < step * 1e-9 ? 0.0 : value, step);
    }
}

// Decades when at least three fit, else 1, 2 and 5 times the decades, else (a range within a
// factor of ~2.5) linear ticks in value space placed on the log scale.
void logTicks(double lo, double hi, double target, Ticks& ticks) {
    const double firstDecade = std::ceil(lo - 1e-9);
    const double lastDecade = std::floor(hi + 1e-9);
    if (lastDecade - firstDecade >= 2.0) {
        const double every = std::max(1.0, std::round(niceStep(hi - lo, target)));
        for (double d = std::ceil(firstDecade / every) * every; d <= lastDecade; d += every) {
            const double value = std::pow(10.0, d);
            ticks.add(value, value);
        }
        return;
    }
    for (double d = std::floor(lo); d <= std::ceil(hi); d += 1.0) {
        for (double mantissa : {1.0, 2.0, 5.0}) {
            const double value = mantissa * std::pow(10.0, d);
            const double p = std::log10(value);
            if (p >= lo - 1e-9 && p <= hi + 1e-9) ticks.add(value, std::pow(10.0, d));
        }
    }
    if (ticks.count >= 2) return;
    ticks.count = 0;
    linearTicks(std::pow(10.0, lo), std::pow(10.0, hi), target, ticks);
}

void makeTicks(const Axis& axis, double target, Ticks& ticks) {
    ticks.count = 0;
    if (axis.log)
        logTicks(axis.lo, axis.hi, target, ticks);
    else
        linearTicks(axis.lo, axis.hi, target, ticks);
}

/// Compact tick label: as many decimals as `step` needs; scientific ("1.5e4", "2e-5") outside
/// [1e-3, 1e4) so labels stay short.
void formatTick(char* out, std::size_t size, double value, double step) {
    const double magnitude = std::abs(value);
    if (magnitude == 0.0) {
        std::snprintf(out, size, "0");
        return;
    }
    const int stepExponent = int(std::floor(std::log10(step) + 1e-9));
    if (magnitude >= 1e4 || magnitude < 1e-3) {
        int exponent = int(std::floor(std::log10(magnitude) + 1e-9));
        // Up to 8 digits: a narrow range far from zero (12345.678 ± 0.01) still gets distinct
        // labels, long ones rather than equal ones.
        const int digits = std::clamp(exponent - stepExponent, 0, 8);
        double mantissa = value / std::pow(10.0, exponent);
        if (std::abs(mantissa) >= 9.9999) {  // 9.99999e3 would print as "10.0e3"
            mantissa /= 10.0;
            ++exponent;
        }
        char number[32];
        std::snprintf(number, sizeof number, "%.*f", digits, mantissa);
        if (std::strchr(number, '.')) {  // "1.50" -> "1.5", "2.0" -> "2"
            char* end = number + std::strlen(number) - 1;
            while (*end == '0')
                *end-- = '\0';
            if (*end == '.') *end = '\0';
        }
        std::snprintf(out, size, "%se%d", number, exponent);
    } else {
        std::snprintf(out, size, "%.*f", std::clamp(-stepExponent, 0, 6), value);
    }
}

// ---- Data range ---------------------------------------------------------------------------

double pointX(const PlotSeries& s, int i) {
    return s.x ? double(s.x[i]) : double(i);
}

bool usable(const PlotSeries& s) {
    return s.y != nullptr && s.count > 0;
}

/// Sets the axes' plot-space ranges from the data and the fixed ends; false: no valid point.
bool fitRanges(const PlotAxes& axes, std::span<const PlotSeries> series, Axis& x, Axis& y) {
    double xLo = INFINITY, xHi = -INFINITY, yLo = INFINITY, yHi = -INFINITY;
    for (const PlotSeries& s : series) {
        if (!usable(s)) continue;
        for (int i = 0; i < s.count; ++i) {
            const double px = pointX(s, i), py = s.y[i];
            if (!x.valid(px) || !y.valid(py)) continue;
            xLo = std::min(xLo, x.toPlot(px));
            xHi = std::max(xHi, x.toPlot(px));
            yLo = std::min(yLo, y.toPlot(py));
            yHi = std::max(yHi, y.toPlot(py));
        }
    }
    const bool hasData = xLo <= xHi;
    auto fit = [](Axis& axis, double lo, double hi, float fixedLo, float fixedHi, bool data) {
        if (!data) {
            lo = 0.0;
            hi = 1.0;
        } else if (hi - lo <= 0.0) {  // one value: centre it
            const double half = axis.log ? 0.5 : std::max(std::abs(lo) * 0.1, 0.5);
            lo -= half;
            hi += half;
        } else {
            const double margin = 0.05 * (hi - lo);
            lo -= margin;
            hi += margin;
        }
        if (axis.valid(fixedLo)) lo = axis.toPlot(fixedLo);
        if (axis.valid(fixedHi)) hi = axis.toPlot(fixedHi);
        if (hi <= lo) hi = lo + 1.0;
        axis.lo = lo;
        axis.hi = hi;
    };
    fit(x, xLo, xHi, axes.xMin, axes.xMax, hasData);
    fit(y, yLo, yHi, axes.yMin, axes.yMax, hasData);
    return hasData;
}

// ---- Drawing ------------------------------------------------------------------------------

/// A dashed polyline: 6 px on, 4 px off, the pattern carried across vertices.
void addDashedPolyline(ImDrawList* draw, const ImVec2* points, int count, ImU32 colour,
                       float thickness) {
    constexpr float kOn = 6.0f, kPeriod = 10.0f;
    float phase = 0.0f;
    for (int i = 1; i < count; ++i) {
        const ImVec2 a = points[i - 1], b = points[i];
        const float length = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
        for (float t = 0.0f; t < length;) {
            const float inPeriod = std::fmod(phase + t, kPeriod);
            const float run =
                std::min(inPeriod < kOn ? kOn - inPeriod : kPeriod - inPeriod, length - t);
            if (inPeriod < kOn) {
                const float t0 = t / length, t1 = (t + run) / length;
                draw->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                              ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), colour,
                              thickness);
            }
            t += run;
        }
        phase = std::fmod(phase + length, kPeriod);
    }
}

// ImGui draws a polyline as one primitive of ~4 vertices per point, and with 16-bit indices a
// primitive must stay below 65536 vertices: long runs go in chunks that share their end point.
constexpr int kMaxPolylinePoints = 4096;

/// One unbroken run on screen: the line's points, and vertical extents (pairs of points) of
/// pixel columns that hold more points than the line keeps.
struct ScreenRun {
    std::vector<ImVec2> line;
    std::vector<ImVec2> extents;
    void clear() {
        line.clear();
        extents.clear();
    }
};

void drawRun(ImDrawList* draw, const PlotSeries& s, const ScreenRun& run) {
    const int n = int(run.line.size());
    if (n == 0) return;
    if (s.dashed) {
        addDashedPolyline(draw, run.line.data(), n, s.colour, 1.5f);
    } else if (!s.markers) {
        for (int first = 0; first + 1 < n; first += kMaxPolylinePoints - 1) {
            const int count = std::min(kMaxPolylinePoints, n - first);
            draw->AddPolyline(run.line.data() + first, count, s.colour, ImDrawFlags_None, 1.5f);
        }
        if (n == 1) draw->AddCircleFilled(run.line[0], 1.5f, s.colour, 6);  // lone point
    }
    if (s.markers)
        for (const ImVec2& p : run.line)
            draw->AddCircleFilled(p, 2.5f, s.colour, 8);
    for (std::size_t i = 0; i + 1 < run.extents.size(); i += 2)
        draw->AddLine(run.extents[i], run.extents[i + 1], s.colour, 1.5f);
}

/// Reduces a run to what can be seen. Of consecutive points in one pixel column the line keeps
/// the first and the last, and the lowest and highest become a vertical extent (M4 aggregation,
/// Jugel et al., VLDB 2014): a 10^5-sample history costs a few vertices per column, and a
/// one-sample spike survives. The extremes are not put in the line itself because ImGui's
/// mitred joins collapse on such up-and-back-down hairpins and cut the spike short. A line point
/// within a pixel of the previous one is dropped too, which thins dense data that wanders back
/// and forth (x not monotonic).
class RunReducer {
  public:
    explicit RunReducer(ScreenRun& out) : m_out(out) {}

    void add(ImVec2 p) {
        if (m_size > 0 && std::floor(p.x) == m_column) {
            m_top = std::min(m_top, p.y);
            m_bottom = std::max(m_bottom, p.y);
            m_last = p;
            ++m_size;
            return;
        }
        flush();
        m_column = std::floor(p.x);
        m_first = m_last = p;
        m_top = m_bottom = p.y;
        m_size = 1;
    }

    /// Emits the pending column.
    void flush() {
        if (m_size == 0) return;
        addLinePoint(m_first);
        if (m_size > 1) addLinePoint(m_last);
        const bool beyondLine = m_top < std::min(m_first.y, m_last.y) - 0.5f ||
                                m_bottom > std::max(m_first.y, m_last.y) + 0.5f;
        if (m_size > 2 && beyondLine) {
            m_out.extents.push_back(ImVec2(m_first.x, m_top));
            m_out.extents.push_back(ImVec2(m_first.x, m_bottom));
        }
        m_size = 0;
    }

  private:
    void addLinePoint(ImVec2 p) {
        std::vector<ImVec2>& line = m_out.line;
        if (!line.empty() && std::abs(p.x - line.back().x) < 1.0f &&
            std::abs(p.y - line.back().y) < 1.0f)
            return;
        line.push_back(p);
    }

    ScreenRun& m_out;
    ImVec2 m_first, m_last;
    float m_top = 0.0f, m_bottom = 0.0f;  ///< smallest and largest screen y in the column
    float m_column = 0.0f;
    int m_size = 0;
};

void drawSeries(ImDrawList* draw, const PlotSeries& s, const Axis& x, const Axis& y) {
    static ScreenRun run;  // GUI thread only; reused so a frame does not allocate
    run.clear();
    RunReducer reducer(run);
    for (int i = 0; i < s.count; ++i) {
        const double px = pointX(s, i), py = s.y[i];
        if (!x.valid(px) || !y.valid(py)) {  // a gap in the data is a gap in the line
            reducer.flush();
            drawRun(draw, s, run);
            run.clear();
            continue;
        }
        reducer.add(ImVec2(x.toScreen(px), y.toScreen(py)));
    }
    reducer.flush();
    drawRun(draw, s, run);
}

void drawLegend(ImDrawList* draw, std::span<const PlotSeries> series, ImVec2 plotMin,
                ImVec2 plotMax) {
    constexpr float kSample = 22.0f;
    const float lineHeight = ImGui::GetTextLineHeight();
    float labelWidth = 0.0f;
    int rows = 0;
    for (const PlotSeries& s : series) {
        if (!s.label || !*s.label) continue;
        labelWidth = std::max(labelWidth, ImGui::CalcTextSize(s.label).x);
        ++rows;
    }
    if (rows == 0) return;
    const ImVec2 size(kSample + 3 * kPad + labelWidth, rows * lineHeight + 2 * kPad);
    const ImVec2 boxMax(plotMax.x - kPad, plotMin.y + kPad + size.y);
    const ImVec2 boxMin(std::max(plotMin.x, boxMax.x - size.x), plotMin.y + kPad);
    draw->AddRectFilled(boxMin, boxMax, ImGui::GetColorU32(ImGuiCol_WindowBg, 0.85f));
    draw->AddRect(boxMin, boxMax, ImGui::GetColorU32(ImGuiCol_Border));
    float rowY = boxMin.y + kPad;
    for (const PlotSeries& s : series) {
        if (!s.label || !*s.label) continue;
        const float midY = rowY + 0.5f * lineHeight;
        const ImVec2 a(boxMin.x + kPad, midY), b(boxMin.x + kPad + kSample, midY);
        const ImVec2 line[2] = {a, b};
        if (s.dashed)
            addDashedPolyline(draw, line, 2, s.colour, 1.5f);
        else if (!s.markers)
            draw->AddLine(a, b, s.colour, 1.5f);
        if (s.markers) {
            draw->AddCircleFilled(ImVec2(a.x + 0.25f * kSample, midY), 2.5f, s.colour, 8);
            draw->AddCircleFilled(ImVec2(a.x + 0.75f * kSample, midY), 2.5f, s.colour, 8);
        }
        draw->AddText(ImVec2(b.x + kPad, rowY), ImGui::GetColorU32(ImGuiCol_Text), s.label);
        rowY += lineHeight;
    }
}

/// Tooltip with the point of the first series nearest the pointer (screen distance).
void drawHover(ImDrawList* draw, const PlotAxes& axes, const PlotSeries& s, const Axis& x,
               const Axis& y, ImVec2 plotMin, ImVec2 plotMax) {
    if (!usable(s)) return;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int nearest = -1;
    float nearestDistance = INFINITY;
    ImVec2 nearestScreen;
    for (int i = 0; i < s.count; ++i) {
        const double px = pointX(s, i), py = s.y[i];
        if (!x.valid(px) || !y.valid(py)) continue;
        const ImVec2 p(x.toScreen(px), y.toScreen(py));
        const float distance =
            (p.x - mouse.x) * (p.x - mouse.x) + (p.y - mouse.y) * (p.y - mouse.y);
        if (distance < nearestDistance) {
            nearest = i;
            nearestDistance = distance;
            nearestScreen = p;
        }
    }
    if (nearest < 0 || nearestScreen.x < plotMin.x || nearestScreen.x > plotMax.x ||
        nearestScreen.y < plotMin.y || nearestScreen.y > plotMax.y)
        return;
    draw->AddCircle(nearestScreen, 4.5f, ImGui::GetColorU32(ImGuiCol_Text), 12, 1.5f);
    ImGui::BeginTooltip();
    if (s.label && *s.label) ImGui::TextUnformatted(s.label);
    ImGui::Text("%s: %.5g", axes.xLabel ? axes.xLabel : "x", pointX(s, nearest));
    ImGui::Text("%s: %.5g", axes.yLabel ? axes.yLabel : "y", double(s.y[nearest]));
    ImGui::EndTooltip();
}

}  // namespace

void plotLines(const char* id, const PlotAxes& axes, std::span<const PlotSeries> series,
               ImVec2 size) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 available = ImGui::GetContentRegionAvail();
    // ImGui's convention: 0 fills the available space, a negative size leaves that much free.
    const float width = std::max(size.x > 0.0f ? size.x : available.x + size.x, 80.0f);
    const float height = std::max(size.y > 0.0f ? size.y : available.y + size.y, 120.0f);
    ImGui::InvisibleButton(id, ImVec2(width, height));  // reserves the space, owns the hover
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float lineHeight = ImGui::GetTextLineHeight();
    const ImU32 textColour = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 gridColour = ImGui::GetColorU32(ImGuiCol_Text, 0.12f);

    Axis x, y;
    y.log = axes.logY;
    const bool hasData = fitRanges(axes, series, x, y);

    // Layout: y label above the plot, y numbers left of it, x numbers and x label below. The
    // y ticks come first because their label width sets the plot's width, hence the x ticks.
    const float top = origin.y + lineHeight + kPad;
    const float bottom = origin.y + height - 2.0f * lineHeight - kTickLength - kPad;
    y.screenLo = bottom;
    y.screenHi = top;
    Ticks yTicks, xTicks;
    makeTicks(y, (bottom - top) / (2.5f * lineHeight), yTicks);
    char labels[kMaxTicks][32];
    float yLabelWidth = 0.0f;
    for (int i = 0; i < yTicks.count; ++i) {
        formatTick(labels[i], sizeof labels[i], yTicks.values[i], yTicks.steps[i]);
        yLabelWidth = std::max(yLabelWidth, ImGui::CalcTextSize(labels[i]).x);
    }
    const ImVec2 plotMin(origin.x + yLabelWidth + kTickLength + 2.0f * kPad, top);
    const ImVec2 plotMax(std::max(origin.x + width - 1.5f * lineHeight, plotMin.x + 8.0f), bottom);
    x.screenLo = plotMin.x;
    x.screenHi = plotMax.x;

    draw->AddRectFilled(plotMin, plotMax, ImGui::GetColorU32(ImGuiCol_FrameBg));
    for (int i = 0; i < yTicks.count; ++i) {
        const float sy = y.toScreen(yTicks.values[i]);
        draw->AddLine(ImVec2(plotMin.x, sy), ImVec2(plotMax.x, sy), gridColour);
        draw->AddLine(ImVec2(plotMin.x - kTickLength, sy), ImVec2(plotMin.x, sy), textColour);
        const ImVec2 text = ImGui::CalcTextSize(labels[i]);
        draw->AddText(ImVec2(plotMin.x - kTickLength - kPad - text.x, sy - 0.5f * text.y),
                      textColour, labels[i]);
    }

    // Fewer x ticks until the widest label fits its interval with some room.
    double xTarget = (plotMax.x - plotMin.x) / 70.0;
    for (int attempt = 0; attempt < 4; ++attempt) {
        makeTicks(x, xTarget, xTicks);
        float widest = 0.0f;
        for (int i = 0; i < xTicks.count; ++i) {
            formatTick(labels[i], sizeof labels[i], xTicks.values[i], xTicks.steps[i]);
            widest = std::max(widest, ImGui::CalcTextSize(labels[i]).x);
        }
        const double fits = (plotMax.x - plotMin.x) / (widest + 3.0f * kPad);
        if (xTicks.count <= std::max(2.0, fits)) break;
        xTarget = std::max(1.0, fits * 0.7);
    }
    for (int i = 0; i < xTicks.count; ++i) {
        const float sx = x.toScreen(xTicks.values[i]);
        draw->AddLine(ImVec2(sx, plotMin.y), ImVec2(sx, plotMax.y), gridColour);
        draw->AddLine(ImVec2(sx, plotMax.y), ImVec2(sx, plotMax.y + kTickLength), textColour);
        const float textWidth = ImGui::CalcTextSize(labels[i]).x;
        // Kept inside the widget; std::clamp would be undefined for a label wider than it.
        const float left =
            std::max(origin.x, std::min(sx - 0.5f * textWidth, origin.x + width - textWidth));
        draw->AddText(ImVec2(left, plotMax.y + kTickLength + 1.0f), textColour, labels[i]);
    }
    draw->AddRect(plotMin, plotMax, ImGui::GetColorU32(ImGuiCol_Border));

    // Above the frame's left edge: right of the tick numbers, so never over the top one.
    if (axes.yLabel) draw->AddText(ImVec2(plotMin.x, origin.y), textColour, axes.yLabel);
    if (axes.xLabel) {
        const float textWidth = ImGui::CalcTextSize(axes.xLabel).x;
        draw->AddText(
            ImVec2(0.5f * (plotMin.x + plotMax.x - textWidth), origin.y + height - lineHeight),
            textColour, axes.xLabel);
    }

    draw->PushClipRect(plotMin, plotMax, true);
    if (hasData) {
        for (const PlotSeries& s : series)
            if (usable(s)) drawSeries(draw, s, x, y);
    } else {
        const char* kNoData = "no data";
        const ImVec2 text = ImGui::CalcTextSize(kNoData);
        draw->AddText(ImVec2(0.5f * (plotMin.x + plotMax.x - text.x),
                             0.5f * (plotMin.y + plotMax.y - text.y)),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), kNoData);
    }
    drawLegend(draw, series, plotMin, plotMax);
    draw->PopClipRect();
    if (hovered && hasData && !series.empty())
        drawHover(draw, axes, series.front(), x, y, plotMin, plotMax);
}

}  // namespace ndem::app
