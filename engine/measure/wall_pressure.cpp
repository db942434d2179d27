// Janssen test on a silo wall (servin-2014 Sec. 4.2.1): the contact pressure on horizontal
// strips of the cylinder wall against depth, compared with the hydrostatic pressure of a fluid
// of the same bulk density and with the fitted Janssen curve p_sat (1 − exp(−(H − z)/λ)).
// In the plane the silo is a bin of two side walls (SiloFrame): the pressure on one of them,
// per metre of thickness, and K from λ = A / (P μ K) with A = W × 1 m, P = 2 × 1 m.
#include "measure/continuum_sampling.hpp"
#include "measure/janssen_fit.hpp"
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "world/world.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace ndem {

namespace {

class WallPressureMeasurement final : public Measurement {
  public:
    WallPressureMeasurement(SiloWalls silo, std::string wallName, double strip, SampleWindow window)
        : m_silo(silo), m_name(std::move(wallName)), m_strip(strip), m_window(window) {}

    std::string name() const override { return "wallPressure"; }

    void sample(const World& world, const StepStats& stats) override {
        const double h = world.settings().timeStep;
        if (!m_window.takes(stats, h)) return;
        const ParticleStore& p = world.particles();
        const bool plane = world.settings().dimension == 2;
        const SiloFrame silo = siloFrame(m_silo, world.walls(), p, world.gravity(), plane);
        // The default strip follows the grains, which an emitter may bring only later.
        if (m_strip <= 0.0) m_strip = 5.0 * meanDiameter(p);
        if (m_strip <= 0.0) return;
        if (m_force.empty())
            m_force.assign(
                plane ? 1
                      : std::max<size_t>(1, static_cast<size_t>(std::ceil(silo.height / m_strip))),
                0.0);

        // Every contact with this wall pushes on the strip holding its contact point; the
        // normal of a cylinder contact is radial, so this is the radial force.
        const ContactSet& c = world.contacts();
        for (size_t k = 0; k < c.size(); ++k) {
            if (!(c.flags[k] & kWallContact) || c.bodyB[k] != m_silo.wall) continue;
            const double z = silo.toLocal(contactPoint(c, k, p)).z();
            const double force = std::abs(c.normalImpulse[k] + c.impactImpulse[k]) / h;
            const long strip = std::lround(std::floor(z / m_strip));
            // The plane's bin has no top: its strips go as high as the grains push.
            if (plane && strip >= static_cast<long>(m_force.size()) && strip < 100000)
                m_force.resize(static_cast<size_t>(strip) + 1, 0.0);
            m_force[std::clamp<long>(strip, 0, static_cast<long>(m_force.size()) - 1)] += force;
        }

        m_fill.add(p, silo, world.gravity().norm());
        m_friction = world.materials()
                         .pair(dominantMaterial(p), world.walls()[m_silo.wall].material)
                         .friction;
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "wallPressure";
        r.notes["wall"] = m_name;
        if (m_fill.samples == 0) {
            r.headline = "wallPressure: no step in the sampling window";
            r.notes["status"] = r.headline;
            return r;
        }
        // Averages over the samples; the pressure of a strip is its mean force over its area.
        const double n = static_cast<double>(m_fill.samples);
        const double fillHeight = m_fill.height();
        const double bulkDensity = m_fill.bulkDensity();
        const double gravity = m_fill.gravity();
        const double area = m_fill.perimeter / (m_silo.across >= 0 ? 2.0 : 1.0) * m_strip;
        Table& profile = r.tables["profile"];
        std::vector<double> depths, pressures;
        for (size_t k = 0; k < m_force.size() && k * m_strip < fillHeight; ++k) {
            const double z = (k + 0.5) * m_strip;
            const double pressure = m_force[k] / (n * area);
            profile["z"].push_back(z);
            profile["depth"].push_back(fillHeight - z);
            profile["pressure"].push_back(pressure);
            // The vertical stress of a fluid of the grains' bulk density. A wall carries K times
            // the vertical stress, so even a frictionless wall reads below this (K < 1).
            profile["hydrostatic"].push_back(bulkDensity * gravity * std::max(0.0, fillHeight - z));
            if (fillHeight - z > 0.0) {
                depths.push_back(fillHeight - z);
                pressures.push_back(pressure);
            }
        }
        const JanssenFit fit = fitJanssen(depths, pressures);
        for (double depth : profile["depth"])
            profile["janssen"].push_back(
                fit.lambda > 0.0 ? -fit.pSat * std::expm1(-std::max(0.0, depth) / fit.lambda)
                                 : 0.0);

        double meanPressure = 0.0;
        for (double p : pressures)
            meanPressure += p / pressures.size();
        r.scalars["fillHeight"] = fillHeight;
        r.scalars["bulkDensity"] = bulkDensity;
        r.scalars["strip"] = m_strip;
        r.scalars["samples"] = n;
        double total = 0.0;  // all strips, also any above the fill that the table leaves out
        for (double f : m_force)
            total += f / n;
        r.scalars["wallNormalForce"] = total;
        r.scalars["pSat"] = fit.pSat;
        r.scalars["lambda"] = fit.lambda;
        r.scalars["wallFriction"] = m_friction;
        r.scalars["fitResidualRms"] = fit.residualRms;
        r.scalars["fitRelativeResidual"] =
            meanPressure > 0.0 ? fit.residualRms / meanPressure : 0.0;
        // Janssen: λ = A / (P μ_w K), R / (2 μ_w K) in a cylinder, W / (2 μ_w K) in a bin. A
        // frictionless wall has no Janssen length, so no K.
        const bool fitted = fit.lambda > 0.0 && m_friction > 0.0;
        if (fitted)
            r.scalars["janssenK"] =
                m_fill.crossSection / (m_fill.perimeter * m_friction * fit.lambda);
        else
            r.notes["janssenK"] = "undefined: frictionless wall or no pressure below the fill";
        // Janssen's saturation p_sat = K ρ_b g λ gives K a second time, without μ_w; the two
        // agree only where the wall friction is fully mobilised.
        if (fit.lambda > 0.0 && bulkDensity > 0.0 && gravity > 0.0)
            r.scalars["janssenKFromPSat"] = fit.pSat / (bulkDensity * gravity * fit.lambda);
        // The deepest strip is the first row: strips are numbered up from the base.
        double bottomRatio = 0.0;
        if (!pressures.empty()) {
            const double bottom = profile["pressure"].front();
            const double hydrostatic = profile["hydrostatic"].front();
            bottomRatio = hydrostatic > 0.0 ? bottom / hydrostatic : 0.0;
            r.scalars["bottomPressure"] = bottom;
            r.scalars["bottomHydrostatic"] = hydrostatic;
            r.scalars["bottomRatio"] = bottomRatio;
        }
        char line[200];
        std::snprintf(line, sizeof line,
                      "wall pressure saturates at p_sat = %.4g Pa (lambda = %.3g m, K = %.3g); "
                      "bottom strip at %.0f %% of hydrostatic",
                      fit.pSat, fit.lambda, fitted ? r.scalars["janssenK"] : 0.0,
                      100.0 * bottomRatio);
        r.headline = line;
        return r;
    }

    void archive(StateArchive& a) override {
        archiveSampledLength(a, "strip", m_strip);
        a.field("force", m_force);
        a.field("friction", m_friction);
        const auto scope = a.scope("fill");
        m_fill.archive(a);
    }

  private:
    SiloWalls m_silo;
    std::string m_name;
    double m_strip;  ///< Δz (m); 0 until the first sample fixes the default
    SampleWindow m_window;
    std::vector<double> m_force;  ///< Σ over samples of the normal force per strip (N)
    CylinderFillAverage m_fill;
    double m_friction = 0.0;  ///< μ_w of the grain–wall pair (–)
};

}  // namespace

extern const MeasurementFactory kWallPressureMeasurement{
    "wallPressure",
    "table profile (z, depth, pressure, hydrostatic, janssen; Pa) of the contact pressure on "
    "strips of a cylinder wall (in 2D of a bin's side wall, per metre); fill height, bulk "
    "density, Janssen fit p_sat, lambda, K (servin-2014 Sec. 4.2.1)",
    {{"wall", MeasurementParameter::Word,
      "name of the cylinder wall (the silo); in 2D the bin's side wall (a plane)"},
     {"across", MeasurementParameter::Word,
      "2D only: the bin's other side wall, parallel and facing `wall`"},
     {"strip", MeasurementParameter::Number, "strip height (m, default 5 mean diameters)"},
     kWindowFrom,
     kWindowUntil,
     kWindowEvery},
    [](const MeasurementRequest& r, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        auto silo = findSiloWalls(w.walls(), w.settings().dimension == 2, r.word("wall", ""),
                                  r.word("across", ""), w.gravity(), "wallPressure");
        if (!silo) return silo.error();
        if (r.number("strip", 1.0) <= 0.0)
            return Error{"measurement 'wallPressure': strip must be > 0 (m)"};
        return std::unique_ptr<Measurement>(new WallPressureMeasurement(
            *silo, r.word("wall", ""), r.number("strip", 0.0), SampleWindow::fromRequest(r)));
    }};

}  // namespace ndem
