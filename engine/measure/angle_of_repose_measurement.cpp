// Static angle of repose of a pile: a conical pile around a vertical axis, or an elongated pile
// along x such as the one on the conveyor of servin-wang (Sec. 4: "the average
// inclination of the pile surface defined by the surface particles in the mid section of the
// conveyor, neglecting particles resting directly on the conveyor surface").
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "measure/surface_fit.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

namespace ndem {

namespace {

constexpr double kDegrees = 180.0 / std::numbers::pi;

struct PileShape {
    bool radial = true;
    double centerX = 0.0, centerY = 0.0;  ///< axis (radial) or centre line y0 (transverse) (m)
    double x0 = 0.0, x1 = 0.0;            ///< mid section along x (transverse) (m)
    double base = 0.0;                    ///< height of the supporting surface (m)
    double bin = 0.0;                     ///< bin width in s (m); 0 = mean diameter
    double fitFrom = 0.2, fitTo = 0.8;    ///< fitted share of the extent (–)
};

class AngleOfReposeMeasurement final : public Measurement {
  public:
    AngleOfReposeMeasurement(PileShape shape, SampleWindow window)
        : m_shape(shape), m_window(window) {}

    std::string name() const override { return "angleOfRepose"; }

    void sample(const World& world, const StepStats& stats) override {
        if (!m_window.takes(stats, world.settings().timeStep)) return;
        const VerticalFrame frame = verticalFrame(world.gravity());
        const ParticleStore& p = world.particles();
        const Vec3 axisPoint(m_shape.centerX, m_shape.centerY, 0.0);

        // The surface is sampled by the particles off the supporting surface: a grain on it
        // (bottom below base + d/2) belongs to the scattered toe, not the slope.
        m_s.clear();
        m_top.clear();
        double diameter = 0.0;
        int dynamic = 0;
        for (size_t i = 0; i < p.size(); ++i) {
            if (p.invMass[i] == 0.0) continue;
            diameter += 2.0 * p.radius[i];
            ++dynamic;
            const Vec3 r = p.position[i] - axisPoint;
            const double height = p.position[i].dot(frame.up);
            if (height - p.radius[i] < m_shape.base + p.radius[i]) continue;
            double s;
            if (m_shape.radial) {
                s = (r - r.dot(frame.up) * frame.up).norm();
            } else {
                const double x = p.position[i].dot(frame.across1);
                if (x < m_shape.x0 || x > m_shape.x1) continue;
                s = std::abs(r.dot(frame.across2));  // both flanks pooled
            }
            m_s.push_back(s);
            m_top.push_back(height + p.radius[i] - m_shape.base);
        }
        if (m_s.empty()) return;
        const double bin = m_shape.bin > 0.0 ? m_shape.bin : diameter / dynamic;
        const double extent = *std::max_element(m_s.begin(), m_s.end());

        // Surface height per bin in s: the highest top there, at that particle's own s.
        const int bins = static_cast<int>(extent / bin) + 1;
        std::vector<int> highest(bins, -1);
        for (size_t k = 0; k < m_s.size(); ++k) {
            const int b = std::min(static_cast<int>(m_s[k] / bin), bins - 1);
            if (highest[b] < 0 || m_top[k] > m_top[highest[b]]) highest[b] = static_cast<int>(k);
        }

        // Fit the flank between the rounded top and the toe.
        std::vector<double> s, height;
        Table surface;
        for (int b = 0; b < bins; ++b) {
            if (highest[b] < 0) continue;
            const double sb = m_s[highest[b]], hb = m_top[highest[b]];
            surface["s"].push_back((b + 0.5) * bin);
            surface["height"].push_back(hb);
            if (sb < m_shape.fitFrom * extent || sb > m_shape.fitTo * extent) continue;
            s.push_back(sb);
            height.push_back(hb);
        }
        const auto fit = fitLine(s, height);
        if (!fit) return;
        m_series["t"].push_back(stats.time);
        m_series["angle"].push_back(std::atan(-fit->slope) * kDegrees);
        m_series["height"].push_back(*std::max_element(m_top.begin(), m_top.end()));
        m_series["extent"].push_back(extent);
        m_series["fitResidual"].push_back(fit->rms);
        m_surface = std::move(surface);
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "angleOfRepose";
        if (m_series.empty()) {
            r.headline = "angle of repose: no pile found (too few particles above the base)";
            r.notes["status"] = r.headline;
            return r;
        }
        r.series = m_series;
        const Spread angle = spreadOf(m_series.at("angle"));
        r.scalars["angle"] = angle.mean;
        r.scalars["angleStd"] = angle.std;
        r.scalars["height"] = spreadOf(m_series.at("height")).mean;
        r.scalars["extent"] = spreadOf(m_series.at("extent")).mean;
        r.scalars["fitResidual"] = spreadOf(m_series.at("fitResidual")).mean;
        r.scalars["samples"] = static_cast<double>(m_series.at("t").size());
        r.tables["surface"] = m_surface;
        char line[160];
        std::snprintf(line, sizeof line, "angle of repose %.1f° ± %.1f° (pile %.3g m high)",
                      angle.mean, angle.std, r.scalars["height"]);
        r.headline = line;
        return r;
    }

    void archive(StateArchive& a) override {
        archiveTable(a, "series", m_series);
        archiveTable(a, "surface", m_surface);
    }

  private:
    PileShape m_shape;
    SampleWindow m_window;
    std::vector<double> m_s, m_top;  ///< per retained particle, reused between samples (m)
    Table m_series;                  ///< t, angle, height, extent, fitResidual per sample
    Table m_surface;                 ///< s, height of the last sample
};

}  // namespace

extern const MeasurementFactory kAngleOfReposeMeasurement{
    "angleOfRepose",
    "static angle of a pile from a line fitted to its surface particles (degrees) and its "
    "spread, pile height and extent, fit residual; series t, angle; table surface: s, height",
    {{"mode", MeasurementParameter::Word,
      "radial (conical pile around a vertical axis) | transverse (elongated pile along x)"},
     {"center", MeasurementParameter::List, "radial: [x, y] of the axis; transverse: [y0] (m)"},
     {"xRange", MeasurementParameter::List, "transverse: [x0, x1], the section measured (m)"},
     {"base", MeasurementParameter::Number,
      "height of the supporting surface (m, default 0); grains resting on it are ignored"},
     {"bin", MeasurementParameter::Number, "bin width in s (m, default: mean diameter)"},
     {"fitFrom", MeasurementParameter::Number, "fit from this share of the extent (default 0.2)"},
     {"fitTo", MeasurementParameter::Number, "fit up to this share of the extent (default 0.8)"},
     kWindowFrom,
     kWindowUntil,
     kWindowEvery},
    [](const MeasurementRequest& r, const World&) -> Expected<std::unique_ptr<Measurement>> {
        const std::string where = "measurement 'angleOfRepose': ";
        PileShape shape;
        const std::string mode = r.word("mode", "radial");
        if (mode != "radial" && mode != "transverse")
            return Error{where + "mode: expected radial | transverse (got \"" + mode + "\")"};
        shape.radial = mode == "radial";
        const std::vector<double> center = r.list("center", {});
        if (shape.radial) {
            if (center.size() != 2) return Error{where + "center: expected [x, y]"};
            shape.centerX = center[0];
            shape.centerY = center[1];
        } else {
            if (center.size() != 1) return Error{where + "center: expected [y0]"};
            shape.centerY = center[0];
            const std::vector<double> range = r.list("xRange", {});
            if (range.size() != 2 || !(range[0] < range[1]))
                return Error{where + "xRange: expected [x0, x1] with x0 < x1"};
            shape.x0 = range[0];
            shape.x1 = range[1];
        }
        shape.base = r.number("base", 0.0);
        shape.bin = r.number("bin", 0.0);
        shape.fitFrom = r.number("fitFrom", 0.2);
        shape.fitTo = r.number("fitTo", 0.8);
        if (shape.bin < 0.0) return Error{where + "bin: must be positive"};
        if (!(0.0 <= shape.fitFrom && shape.fitFrom < shape.fitTo && shape.fitTo <= 1.0))
            return Error{where + "fitFrom, fitTo: expected 0 <= fitFrom < fitTo <= 1"};
        return std::unique_ptr<Measurement>(
            new AngleOfReposeMeasurement(shape, SampleWindow::fromRequest(r)));
    }};

}  // namespace ndem
