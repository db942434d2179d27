// The collapse of a granular column against a symmetry wall (krabbenhoft-2012 Sec. 5.1; the
// planar experiments it cites, lube-2005): the column's height H_i, half-width L_i and aspect
// ratio a = H_i/L_i at the release, then the front's advance (L − L_i)/L_i (the front: 99 % of
// the grains behind it) and the height at the wall H/L_i over the scaled time
// t̄ = (t − release)/√(H_i/g), and the deposit's surface.
// Heights are along −g; distances from the wall along the plane's horizontal.
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "measure/surface_fit.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace ndem {

namespace {

constexpr double kFrontShare = 0.99;  ///< share of the grains behind the front

struct CollapseSetup {
    double release = 0.0;  ///< when the column is let go (s)
    double wall = 0.0;     ///< the symmetry wall's position along the horizontal (m)
    double base = 0.0;     ///< the base's height (m)
    double bin = 0.0;      ///< surface bin width (m); 0 = mean diameter
};

/// The shape of the material at one instant.
struct Deposit {
    double front = 0.0;      ///< the deposit's front: 99 % of the grains (by area) lie within (m)
    double height = 0.0;     ///< highest grain top within one bin of the wall (m)
    double top = 0.0;        ///< highest grain top anywhere (m)
    double solidArea = 0.0;  ///< Σ π r² (m², per metre of thickness in 2D)
    double area = 0.0;       ///< area under the surface profile (m²)
    Table surface;           ///< s (distance from the wall), height
};

class ColumnCollapseMeasurement final : public Measurement {
  public:
    ColumnCollapseMeasurement(CollapseSetup setup, SampleWindow window)
        : m_setup(setup), m_window(window) {}

    std::string name() const override { return "columnCollapse"; }

    void sample(const World& world, const StepStats& stats) override {
        const double h = world.settings().timeStep;
        if (stats.time < m_setup.release - 1e-6 * h) return;
        const bool first = m_initial.empty();
        if (!first && !m_window.takes(stats, h)) return;
        const double g = world.gravity().norm();
        const Deposit d = deposit(world);
        if (first) {
            m_initial["length"] = d.front;
            m_initial["height"] = d.top;
            m_initial["porosity"] = d.area > 0.0 ? 1.0 - d.solidArea / d.area : 0.0;
            m_initialSurface = d.surface;
        }
        const double li = m_initial["length"], hi = m_initial["height"];
        if (!(li > 0.0) || !(hi > 0.0)) return;
        const double scale = g > 0.0 ? std::sqrt(hi / g) : 1.0;
        m_series["t"].push_back(stats.time);
        m_series["tBar"].push_back((stats.time - m_setup.release) / scale);
        m_series["runout"].push_back((d.front - li) / li);
        m_series["heightAtWall"].push_back(d.height / li);
        m_surface = d.surface;
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "columnCollapse";
        if (m_series.empty() || m_series.at("t").empty()) {
            r.headline = "column collapse: no column found at the release";
            r.notes["status"] = r.headline;
            return r;
        }
        r.series = m_series;
        const double li = m_initial.at("length"), hi = m_initial.at("height");
        r.scalars["initialLength"] = li;
        r.scalars["initialHeight"] = hi;
        r.scalars["aspectRatio"] = hi / li;
        r.scalars["initialPorosity"] = m_initial.at("porosity");
        r.scalars["tBar"] = m_series.at("tBar").back();
        r.scalars["runout"] = m_series.at("runout").back();
        r.scalars["finalHeight"] = m_series.at("heightAtWall").back();
        r.scalars["finalHeightOverInitial"] = m_series.at("heightAtWall").back() * li / hi;
        r.tables["initialSurface"] = m_initialSurface;
        r.tables["surface"] = m_surface;
        char line[200];
        std::snprintf(line, sizeof line,
                      "column a = %.2f, porosity %.2f: at t/sqrt(H/g) = %.2f the front is out "
                      "(L - L_i)/L_i = %.2f, the height at the wall H/L_i = %.2f",
                      hi / li, r.scalars["initialPorosity"], r.scalars["tBar"], r.scalars["runout"],
                      r.scalars["finalHeight"]);
        r.headline = line;
        return r;
    }

    void archive(StateArchive& a) override {
        archiveScalars(a, "initial", m_initial);
        archiveTable(a, "initialSurface", m_initialSurface);
        archiveTable(a, "surface", m_surface);
        archiveTable(a, "series", m_series);
    }

  private:
    Deposit deposit(const World& world) const {
        const VerticalFrame frame = verticalFrame(world.gravity());
        const ParticleStore& p = world.particles();
        Deposit d;
        double diameter = 0.0;
        int count = 0;
        for (size_t i = 0; i < p.size(); ++i) {
            if (p.invMass[i] == 0.0) continue;
            diameter += 2.0 * p.radius[i];
            ++count;
        }
        if (count == 0) return d;
        diameter /= count;
        const double bin = m_setup.bin > 0.0 ? m_setup.bin : diameter;
        std::vector<double> highest;
        std::vector<std::pair<double, double>> reach;  // each grain's far edge along s, its area
        for (size_t i = 0; i < p.size(); ++i) {
            if (p.invMass[i] == 0.0) continue;
            const double s = p.position[i].dot(frame.across1) - m_setup.wall;
            const double z = p.position[i].dot(frame.up) - m_setup.base;
            const double r = p.radius[i];
            if (s < 0.0) continue;
            d.solidArea += std::numbers::pi * r * r;
            d.top = std::max(d.top, z + r);
            reach.push_back({s + r, std::numbers::pi * r * r});
            if (s < bin) d.height = std::max(d.height, z + r);
            const size_t b = static_cast<size_t>(s / bin);
            if (b >= highest.size()) highest.resize(b + 1, 0.0);
            highest[b] = std::max(highest[b], z + r);
        }
        // The front: the distance within which 99 % of the grains lie, by area. The flowing
        // front thins into single grains rolling on the base, a few ahead of the rest; the
        // furthest grain, or the first gap, would follow those few.
        std::sort(reach.begin(), reach.end());
        double within = 0.0;
        for (const auto& [edge, area] : reach) {
            within += area;
            d.front = edge;
            if (within >= kFrontShare * d.solidArea) break;
        }
        for (size_t b = 0; b < highest.size(); ++b) {
            d.surface["s"].push_back((static_cast<double>(b) + 0.5) * bin);
            d.surface["height"].push_back(highest[b]);
            d.area += highest[b] * bin;
        }
        return d;
    }

    CollapseSetup m_setup;
    SampleWindow m_window;
    std::map<std::string, double> m_initial;  ///< length, height, porosity at the release
    Table m_initialSurface, m_surface;
    Table m_series;  ///< t, tBar, runout, heightAtWall
};

}  // namespace

extern const MeasurementFactory kColumnCollapseMeasurement{
    "columnCollapse",
    "collapse of a column against a symmetry wall (krabbenhoft-2012 Sec. 5.1): at the release "
    "its half-width L_i, height H_i, aspect ratio a and porosity; then the runout (L - L_i)/L_i "
    "and the height at the wall H/L_i over t/sqrt(H_i/g); tables initialSurface, surface: s, "
    "height",
    {{"release", MeasurementParameter::Number, "time the column is let go (s)"},
     {"wall", MeasurementParameter::Number,
      "position of the symmetry wall along the horizontal (m, default 0)"},
     {"base", MeasurementParameter::Number, "height of the base (m, default 0)"},
     {"bin", MeasurementParameter::Number, "surface bin width (m, default: mean diameter)"},
     kWindowEvery},
    [](const MeasurementRequest& r, const World&) -> Expected<std::unique_ptr<Measurement>> {
        CollapseSetup setup;
        setup.release = r.number("release", 0.0);
        setup.wall = r.number("wall", 0.0);
        setup.base = r.number("base", 0.0);
        setup.bin = r.number("bin", 0.0);
        if (setup.bin < 0.0 || !std::isfinite(setup.release))
            return Error{"measurement 'columnCollapse': bin must be >= 0 and release finite"};
        SampleWindow window = SampleWindow::fromRequest(r);
        return std::unique_ptr<Measurement>(new ColumnCollapseMeasurement(setup, window));
    }};

}  // namespace ndem
