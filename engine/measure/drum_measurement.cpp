// Flow in a rotating drum: the plug zone that co-rotates with the wall (wang-servin-berglund
// Sec. 4.3, Eq. 14), the dynamic angle of repose from the centre of mass, and the velocity
// profile across the flow along z' perpendicular to the free surface (servin-2014 Sec. 5.2,
// Fig. 8–9).
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

constexpr double kDegrees = 180.0 / std::numbers::pi;

class DrumMeasurement final : public Measurement {
  public:
    DrumMeasurement(int wall, std::string wallName, double threshold, int bins, SampleWindow window)
        : m_wall(wall),
          m_wallName(std::move(wallName)),
          m_threshold(threshold),
          m_window(window),
          m_velocity(bins, 0.0),
          m_rigid(bins, 0.0),
          m_count(bins, 0) {}

    std::string name() const override { return "drum"; }

    void sample(const World& world, const StepStats& stats) override {
        if (!m_window.takes(stats, world.settings().timeStep)) return;
        const Wall& drum = world.walls()[m_wall];
        const Vec3 axis = (drum.orientation * Vec3::UnitZ()).normalized();
        const Vec3 centre = drum.position + 0.5 * drum.height * axis;
        const double radius = drum.radius;
        const Vec3& omega = drum.angularVelocity;
        const double spin = omega.dot(axis);
        Vec3 down = world.gravity() - world.gravity().dot(axis) * axis;
        // A drum at rest has no plug zone to speak of (v_r divides by RΩ), and with gravity
        // along the axis there is no "down" in the cross-section to measure an angle from.
        if (std::abs(spin) * radius < 1e-12 || down.norm() < 1e-12) return;
        down.normalize();
        const double turn = std::copysign(1.0, spin);
        // The wall at c + R·rising moves up, so material dragged there is the lifted side.
        const Vec3 rising = turn * axis.cross(down);
        const double wallSpeed = radius * std::abs(spin);

        // Particles inside the cylinder, the plug zone among them (Eq. 14's v_r), their centre
        // of mass and volume.
        const ParticleStore& p = world.particles();
        // In the plane the drum is a circle: every disk lies in its section, and the fill is
        // the disks' area over the circle's.
        const bool plane = world.settings().dimension == 2;
        m_inside.clear();
        int plug = 0;
        double mass = 0.0, volume = 0.0, diameter = 0.0;
        Vec3 moment = Vec3::Zero();
        for (size_t i = 0; i < p.size(); ++i) {
            if (p.invMass[i] == 0.0) continue;
            const Vec3 r = p.position[i] - centre;
            const double along = r.dot(axis);
            if ((!plane && std::abs(along) > 0.5 * drum.height) ||
                (r - along * axis).norm() >= radius)
                continue;
            m_inside.push_back(static_cast<Index>(i));
            const double relative = (p.velocity[i] - omega.cross(r)).norm() / wallSpeed;
            if (relative <= m_threshold) ++plug;
            mass += p.mass[i];
            moment += p.mass[i] * p.position[i];
            volume += plane ? std::numbers::pi * p.radius[i] * p.radius[i]
                            : 4.0 / 3.0 * std::numbers::pi * std::pow(p.radius[i], 3);
            diameter += 2.0 * p.radius[i];
        }
        if (m_inside.empty()) return;
        diameter /= m_inside.size();

        // Dynamic angle θ' (wang-servin-berglund Sec. 4.3): where the centre of mass sits off the
        // vertical through the axis. Tracking the surface instead was found less robust there.
        Vec3 offset = moment / mass - centre;
        offset -= offset.dot(axis) * axis;
        const double angle = std::atan2(offset.dot(rising), offset.dot(down));

        // Velocity profile along z' (servin-2014 Fig. 8): the line through c perpendicular to
        // the free surface, z' = 0 at the axis and growing out of the material; the velocity
        // is taken along the surface, oriented so that rigid co-rotation reads v = z'.
        const Vec3 normal = -(std::cos(angle) * down + std::sin(angle) * rising);
        const Vec3 tangent = turn * axis.cross(normal);
        const int bins = static_cast<int>(m_count.size());
        for (Index i : m_inside) {
            const Vec3 r = p.position[i] - centre;
            if (std::abs(r.dot(tangent)) > diameter) continue;  // a strip 2d wide
            const double zPrime = r.dot(normal) / radius;
            const int bin = std::clamp(static_cast<int>((zPrime + 1.0) * 0.5 * bins), 0, bins - 1);
            m_velocity[bin] += p.velocity[i].dot(tangent) / wallSpeed;
            m_rigid[bin] += omega.cross(r).dot(tangent) / wallSpeed;
            ++m_count[bin];
        }

        const double plugFraction = static_cast<double>(plug) / m_inside.size();
        m_series["t"].push_back(stats.time);
        m_series["plugFraction"].push_back(plugFraction);
        m_series["dynamicAngle"].push_back(angle * kDegrees);
        m_fill.push_back(volume /
                         (std::numbers::pi * radius * radius * (plane ? 1.0 : drum.height)));
        // Fr = DΩ²/2g (wang-servin-berglund Sec. 4.3) with the full gravity, not a ramp's value.
        m_froude = 2.0 * radius * spin * spin / (2.0 * world.settings().gravity.norm());
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "drum";
        r.notes["wall"] = m_wallName;
        if (m_fill.empty()) {
            r.headline = "drum '" + m_wallName + "': no samples (not turning, or empty)";
            r.notes["status"] = r.headline;
            return r;
        }
        r.series = m_series;
        const Spread plug = spreadOf(r.series.at("plugFraction"));
        const Spread angle = spreadOf(r.series.at("dynamicAngle"));
        r.scalars["plugFraction"] = plug.mean;
        r.scalars["plugFractionStd"] = plug.std;
        r.scalars["dynamicAngle"] = angle.mean;
        r.scalars["dynamicAngleStd"] = angle.std;
        r.scalars["fillFraction"] = spreadOf(m_fill).mean;
        r.scalars["froude"] = m_froude;
        r.scalars["samples"] = static_cast<double>(m_fill.size());

        Table& profile = r.tables["profile"];
        const int bins = static_cast<int>(m_count.size());
        for (int k = 0; k < bins; ++k) {
            if (m_count[k] == 0) continue;
            profile["zPrime"].push_back(-1.0 + (2.0 * k + 1.0) / bins);
            profile["velocity"].push_back(m_velocity[k] / m_count[k]);
            profile["rigid"].push_back(m_rigid[k] / m_count[k]);
            profile["count"].push_back(static_cast<double>(m_count[k]) / m_fill.size());
        }

        char line[160];
        std::snprintf(line, sizeof line,
                      "plug zone %.0f %% of the particles, dynamic angle of repose %.1f° ± %.1f° "
                      "(Fr = %.2g)",
                      100.0 * plug.mean, angle.mean, angle.std, m_froude);
        r.headline = line;
        return r;
    }

    void archive(StateArchive& a) override {
        archiveFixedLength(a, "velocity", m_velocity);
        archiveFixedLength(a, "rigid", m_rigid);
        archiveFixedLength(a, "count", m_count);
        a.field("fill", m_fill);
        a.field("froude", m_froude);
        archiveTable(a, "series", m_series);
    }

  private:
    int m_wall;
    std::string m_wallName;
    double m_threshold;
    SampleWindow m_window;
    std::vector<double> m_velocity, m_rigid;  ///< sums of v/(RΩ) per z' bin over samples
    std::vector<long> m_count;                ///< particle-samples per z' bin
    std::vector<double> m_fill;  ///< particle volume / drum volume per sample (areas in the plane)
    double m_froude = 0.0;
    std::vector<Index> m_inside;  ///< reused between samples
    Table m_series;               ///< t, plugFraction, dynamicAngle per sample
};

}  // namespace

extern const MeasurementFactory kDrumMeasurement{
    "drum",
    "plug-zone fraction (v_r <= threshold), dynamic angle of repose from the centre of mass "
    "(degrees), their spread, fill fraction, Froude number; series t, plugFraction, "
    "dynamicAngle; table profile: zPrime, velocity, rigid, count",
    {{"wall", MeasurementParameter::Word, "name of the drum's cylinder wall"},
     {"threshold", MeasurementParameter::Number,
      "plug zone: v_r = |v - Omega x r| / (R Omega) at most this (default 0.15)"},
     {"bins", MeasurementParameter::Whole, "velocity-profile bins over z' in [-1, 1] (default 20)"},
     kWindowFrom,
     kWindowUntil,
     kWindowEvery},
    [](const MeasurementRequest& r, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        const std::string name = r.word("wall", "");
        const int bins = static_cast<int>(r.number("bins", 20.0));
        if (bins < 1) return Error{"measurement 'drum': bins must be at least 1"};
        const double threshold = r.number("threshold", 0.15);
        if (threshold <= 0.0) return Error{"measurement 'drum': threshold must be positive"};
        for (size_t k = 0; k < w.walls().size(); ++k) {
            if (w.walls()[k].name != name) continue;
            if (w.walls()[k].shape != WallShape::Cylinder)
                return Error{"measurement 'drum': wall '" + name + "' is not a cylinder"};
            return std::unique_ptr<Measurement>(new DrumMeasurement(
                static_cast<int>(k), name, threshold, bins, SampleWindow::fromRequest(r)));
        }
        return Error{"measurement 'drum': no wall named '" + name + "'"};
    }};

}  // namespace ndem
