// Stresses and strains of a box cell made of six walls (triaxial test, wang-servin-berglund
// Sec. 4.4), or of four in the plane (biaxial test, krabbenhoft-2012 Sec. 5.2, stresses per
// metre of thickness): σ_i = mean push of the two walls facing along i / the cell's
// cross-section; the mobilised friction angle sin φ = (σ1 − σ3)/(σ1 + σ3) (Eq. 58).
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <sstream>

namespace ndem {

namespace {

class CellStress final : public Measurement {
  public:
    CellStress(std::array<int, 6> walls, double from, int every)
        : m_walls(walls), m_from(from), m_every(every) {}
    std::string name() const override { return "cellStress"; }

    void sample(const World& world, const StepStats& stats) override {
        if (stats.time < m_from || stats.step % m_every != 0) return;
        const auto& w = world.walls();
        const bool plane = m_walls[2] < 0;  // x and z walls only: per metre along y
        Vec3 size = Vec3::Ones(), push = Vec3::Zero();
        for (int axis = 0; axis < 3; ++axis) {
            if (m_walls[2 * axis] < 0) continue;
            const Wall& lo = w[m_walls[2 * axis]];
            const Wall& hi = w[m_walls[2 * axis + 1]];
            size[axis] = std::abs(hi.position[axis] - lo.position[axis]);
            // Each wall is pushed outwards (against its normal) by the grains.
            const Vec3 nLo = lo.orientation * Vec3::UnitZ(), nHi = hi.orientation * Vec3::UnitZ();
            push[axis] = 0.5 * (-lo.force.dot(nLo) - hi.force.dot(nHi));
        }
        if (!m_started) {
            m_size0 = size;
            m_started = true;
            // The grains' own area (plane, per metre) or volume: the porosity's solid part.
            m_solid = 0.0;
            for (double r : world.particles().radius)
                m_solid +=
                    plane ? std::numbers::pi * r * r : 4.0 / 3.0 * std::numbers::pi * r * r * r;
        }
        const Vec3 stress(push.x() / (size.y() * size.z()), push.y() / (size.x() * size.z()),
                          push.z() / (size.x() * size.y()));
        const double axial = (m_size0.z() - size.z()) / m_size0.z();
        const double volumetric = 1.0 - size.prod() / m_size0.prod();
        const double lateral = plane ? stress.x() : 0.5 * (stress.x() + stress.y());
        const double deviator = stress.z() - lateral;
        const double sum = stress.z() + lateral;
        const double friction =
            sum > 0.0 ? std::asin(std::clamp(deviator / sum, -1.0, 1.0)) * 180.0 / std::numbers::pi
                      : 0.0;
        m_r.series["t"].push_back(stats.time);
        m_r.series["sigmaX"].push_back(stress.x());
        if (!plane) m_r.series["sigmaY"].push_back(stress.y());
        m_r.series["sigmaZ"].push_back(stress.z());
        m_r.series["deviator"].push_back(deviator);
        m_r.series["frictionAngle"].push_back(friction);
        m_r.series["axialStrain"].push_back(axial);
        m_r.series["volumetricStrain"].push_back(volumetric);
        m_r.series["porosity"].push_back(1.0 - m_solid / size.prod());
        m_peakFriction = std::max(m_peakFriction, friction);
        if (axial >= 0.10 && axial <= 0.25) {
            m_criticalSum += deviator;
            m_residualFrictionSum += friction;
            ++m_criticalCount;
        }
    }
    MeasurementResult result() const override {
        MeasurementResult r = m_r;
        r.name = "cellStress";
        if (m_criticalCount > 0) {
            r.scalars["criticalDeviator"] = m_criticalSum / m_criticalCount;
            r.scalars["residualFrictionAngle"] = m_residualFrictionSum / m_criticalCount;
        }
        r.scalars["peakFrictionAngle"] = m_peakFriction;
        if (!r.series.empty() && !r.series.at("t").empty()) {
            r.scalars["finalAxialStrain"] = r.series.at("axialStrain").back();
            if (r.series.count("porosity"))
                r.scalars["initialPorosity"] = r.series.at("porosity").front();
            r.scalars["finalDeviator"] = r.series.at("deviator").back();
            r.scalars["finalVolumetricStrain"] = r.series.at("volumetricStrain").back();
            r.scalars["finalLateralStress"] =
                r.series.count("sigmaY")
                    ? 0.5 * (r.series.at("sigmaX").back() + r.series.at("sigmaY").back())
                    : r.series.at("sigmaX").back();
        }
        char line[200];
        if (m_criticalCount > 0)
            std::snprintf(line, sizeof line,
                          "critical deviator stress %.4g Pa (mean over 10-25 %% axial strain)",
                          r.scalars["criticalDeviator"]);
        else
            std::snprintf(
                line, sizeof line, "axial strain stayed below 10 %% (%.3g at the end)",
                r.scalars.count("finalAxialStrain") ? r.scalars["finalAxialStrain"] : 0.0);
        r.headline = line;
        return r;
    }
    void archive(StateArchive& a) override {
        a.field("started", m_started);
        a.field("size0", m_size0);  // the strains' reference, fixed at the first sample
        a.field("criticalSum", m_criticalSum);
        a.field("criticalCount", m_criticalCount);
        if (!a.loading() || a.has("peakFriction")) {  // states written before 2D cells had none
            a.field("peakFriction", m_peakFriction);
            a.field("residualFrictionSum", m_residualFrictionSum);
            a.field("solid", m_solid);
        }
        archiveResult(a, "result", m_r);
    }

  private:
    std::array<int, 6> m_walls;
    double m_from;
    int m_every;
    bool m_started = false;
    Vec3 m_size0 = Vec3::Ones();
    double m_criticalSum = 0.0;
    double m_residualFrictionSum = 0.0;  ///< φ over the same strains (degrees)
    double m_peakFriction = 0.0;         ///< largest φ (degrees)
    double m_solid = 0.0;                ///< the grains' area (plane) or volume
    long m_criticalCount = 0;
    MeasurementResult m_r;
};

}  // namespace

extern const MeasurementFactory kCellStressMeasurement{
    "cellStress",
    "stresses sigmaX, sigmaY, sigmaZ (Pa, compression positive; per metre in the plane), "
    "deviator, mobilised friction angle, axial and volumetric strain, porosity over time; the "
    "critical "
    "deviator and residual friction angle averaged over 10-25 % axial strain, the peak angle",
    {{"walls", MeasurementParameter::Word,
      "six wall names: xmin xmax ymin ymax zmin zmax (in the plane four: xmin xmax zmin zmax)"},
     {"from", MeasurementParameter::Number, "start of the measurement, strain reference (s)"},
     {"every", MeasurementParameter::Whole, "sample every N steps (default 1)"}},
    [](const MeasurementRequest& r, const World& world) -> Expected<std::unique_ptr<Measurement>> {
        std::istringstream names(r.word("walls", ""));
        const bool plane = world.settings().dimension == 2;
        std::array<int, 6> walls{-1, -1, -1, -1, -1, -1};
        for (int k = 0; k < 6; ++k) {
            if (plane && (k == 2 || k == 3)) continue;  // no y walls in the plane
            std::string name;
            if (!(names >> name))
                return Error{plane ? "measurement 'cellStress': walls needs four names in the "
                                     "plane (xmin xmax zmin zmax)"
                                   : "measurement 'cellStress': walls needs six names (xmin xmax "
                                     "ymin ymax zmin zmax)"};
            for (size_t w = 0; w < world.walls().size(); ++w)
                if (world.walls()[w].name == name) walls[k] = static_cast<int>(w);
            if (walls[k] < 0)
                return Error{"measurement 'cellStress': no wall named '" + name + "'"};
        }
        return std::unique_ptr<Measurement>(new CellStress(
            walls, r.number("from", 0.0), std::max(1, static_cast<int>(r.number("every", 1.0)))));
    }};

}  // namespace ndem
