// The Janssen profile along the centre axis of a silo (servin-2014 Sec. 5.1, Fig. 4): the
// Love–Weber contact stress of the grains in slices of a central column, against depth. Where
// wallPressure sees the horizontal stress at the wall, this sees the stress inside the material. In
// the plane the column is a strip about the middle line of a bin (SiloFrame), its stresses per
// metre of thickness, the pressure the mean of σ_xx and σ_zz.
#include "measure/continuum_sampling.hpp"
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "world/world.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace ndem {

namespace {

class AxisPressureMeasurement final : public Measurement {
  public:
    AxisPressureMeasurement(SiloWalls silo, std::string wallName, double radius, double slice,
                            SampleWindow window)
        : m_silo(silo),
          m_name(std::move(wallName)),
          m_radius(radius),
          m_slice(slice),
          m_window(window) {}

    std::string name() const override { return "axisPressure"; }

    void sample(const World& world, const StepStats& stats) override {
        const double h = world.settings().timeStep;
        if (!m_window.takes(stats, h)) return;
        const ParticleStore& p = world.particles();
        const bool plane = world.settings().dimension == 2;
        const SiloFrame silo = siloFrame(m_silo, world.walls(), p, world.gravity(), plane);
        // Defaults follow the grains, which an emitter may bring only later.
        const double d = meanDiameter(p);
        if (m_radius <= 0.0) m_radius = 1.5 * d;
        if (m_slice <= 0.0) m_slice = d;
        if (m_radius <= 0.0 || m_slice <= 0.0) return;
        if (m_stress.empty())
            m_stress.assign(
                plane ? 1
                      : std::max<size_t>(1, static_cast<size_t>(std::ceil(silo.height / m_slice))),
                Mat3::Zero());

        // Love–Weber grain by grain: a grain whose centre lies in the column adds, for each of
        // its contacts, f ⊗ (x_c − x_grain) to the slice holding its centre (f the force the
        // contact puts on the other side; a pair's two halves add up to f ⊗ (x_B − x_A), a
        // wall's contact has the grain's half only). Binning whole contacts by their points
        // instead put the contacts between a floor-ordered layer and the next on a slice
        // boundary, ±20 % on the two lowest slices of a bed at rest. Both vectors go to the
        // wall's frame so that zz is along the axis.
        const ContactSet& c = world.contacts();
        const Quat toLocal = silo.orientation.conjugate();
        auto add = [&](Index grain, const Vec3& force, const Vec3& lever) {
            const Vec3 centre = silo.toLocal(p.position[grain]);
            if (std::hypot(centre.x(), centre.y()) > m_radius) return;
            // The plane's bin has no top: its slices go as high as the grains.
            if (plane && centre.z() >= m_slice * m_stress.size() && centre.z() < 1e5 * m_slice)
                m_stress.resize(static_cast<size_t>(centre.z() / m_slice) + 1, Mat3::Zero());
            // Spread over the grain's height, [z − r, z + r], slice by slice: a layer of
            // grains ordered by the floor then counts where its grains are, whatever the slice.
            const double r = p.radius[grain];
            const Mat3 term = (toLocal * force) * (toLocal * lever).transpose();
            const double low = std::max(0.0, centre.z() - r);
            const double high = std::min(m_slice * m_stress.size(), centre.z() + r);
            if (!(high > low)) return;
            // By slice index, not by stepping z: (k + 1) Δ can round to z itself.
            const size_t first = static_cast<size_t>(low / m_slice);
            const size_t last = std::min(m_stress.size() - 1, static_cast<size_t>(high / m_slice));
            for (size_t k = first; k <= last; ++k) {
                const double share = std::min(high, (k + 1) * m_slice) - std::max(low, k * m_slice);
                if (share > 0.0) m_stress[k] += term * (share / (high - low));
            }
        };
        for (size_t k = 0; k < c.size(); ++k) {
            const Vec3 f = contactForceOnB(c, k, h);
            add(c.bodyA[k], f, c.leverA[k]);
            if (!(c.flags[k] & kWallContact)) add(c.bodyB[k], f, -c.leverB[k]);
        }

        m_fill.add(p, silo, world.gravity().norm());
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "axisPressure";
        r.notes["wall"] = m_name;
        if (m_fill.samples == 0) {
            r.headline = "axisPressure: no step in the sampling window";
            r.notes["status"] = r.headline;
            return r;
        }
        const double n = static_cast<double>(m_fill.samples);
        const double fillHeight = m_fill.height();
        const double bulkDensity = m_fill.bulkDensity();
        const double gravity = m_fill.gravity();
        // The column's slice: a disc, or in the plane a strip 2ρ wide and 1 m thick.
        const bool plane = m_silo.across >= 0;
        const double volume =
            (plane ? 2.0 * m_radius : std::numbers::pi * m_radius * m_radius) * m_slice;
        Table& profile = r.tables["profile"];
        double maxPressure = 0.0;
        for (size_t k = 0; k < m_stress.size() && k * m_slice < fillHeight; ++k) {
            const double z = (k + 0.5) * m_slice;
            const Mat3 stress = m_stress[k] / (n * volume);  // compression positive
            const double pressure =
                plane ? 0.5 * (stress(0, 0) + stress(2, 2)) : stress.trace() / 3.0;
            maxPressure = std::max(maxPressure, pressure);
            profile["z"].push_back(z);
            profile["depth"].push_back(fillHeight - z);
            profile["pressure"].push_back(pressure);
            profile["sigmaZZ"].push_back(stress(2, 2));
            // What σ_zz would be with no wall friction: the weight of the column above.
            profile["hydrostatic"].push_back(bulkDensity * gravity * std::max(0.0, fillHeight - z));
        }
        // p0 of Fig. 4 is the pressure at zero height: the lowest two slices, as the floor
        // layer alone is ordered by the flat floor and noisier.
        // servin-2014 does not say whether its "pressure" is tr σ/3 or the vertical stress that
        // Janssen's law is about, so both are reported.
        const std::vector<double>& pressure = profile["pressure"];
        const std::vector<double>& vertical = profile["sigmaZZ"];
        const size_t lowest = std::min<size_t>(2, pressure.size());
        double bottom = 0.0, bottomVertical = 0.0;
        for (size_t k = 0; k < lowest; ++k) {
            bottom += pressure[k] / lowest;
            bottomVertical += vertical[k] / lowest;
        }
        r.scalars["pressureAtBottom"] = bottom;
        r.scalars["sigmaZZAtBottom"] = bottomVertical;
        r.scalars["maxPressure"] = maxPressure;
        r.scalars["fillHeight"] = fillHeight;
        r.scalars["bulkDensity"] = bulkDensity;
        r.scalars["radius"] = m_radius;
        r.scalars["slice"] = m_slice;
        r.scalars["samples"] = n;
        const double hydrostatic = bulkDensity * gravity * fillHeight;
        char line[200];
        std::snprintf(line, sizeof line,
                      "pressure on the axis p0 = %.4g Pa at the bottom (%.0f %% of the "
                      "hydrostatic %.4g Pa), max %.4g Pa",
                      bottom, hydrostatic > 0.0 ? 100.0 * bottom / hydrostatic : 0.0, hydrostatic,
                      maxPressure);
        r.headline = line;
        return r;
    }

    void archive(StateArchive& a) override {
        archiveSampledLength(a, "radius", m_radius);
        archiveSampledLength(a, "slice", m_slice);
        a.field("stress", m_stress);
        const auto scope = a.scope("fill");
        m_fill.archive(a);
    }

  private:
    SiloWalls m_silo;  ///< across ≥ 0: a bin in the plane
    std::string m_name;
    double m_radius, m_slice;  ///< (m); 0 until the first sample fixes the default
    SampleWindow m_window;
    std::vector<Mat3> m_stress;  ///< Σ over samples of Σ f ⊗ l per slice (N m)
    CylinderFillAverage m_fill;
};

}  // namespace

extern const MeasurementFactory kAxisPressureMeasurement{
    "axisPressure",
    "table profile (z, depth, pressure, sigmaZZ, hydrostatic; Pa, compression positive) of the "
    "Love-Weber contact stress in slices of a central column of a cylinder; pressureAtBottom p0 "
    "(servin-2014 Fig. 4), maxPressure",
    {{"wall", MeasurementParameter::Word,
      "name of the cylinder wall giving the axis; in 2D a side wall of the bin (a plane)"},
     {"across", MeasurementParameter::Word,
      "2D only: the bin's other side wall, parallel and facing `wall`"},
     {"radius", MeasurementParameter::Number,
      "radius of the central column (m, default 1.5 mean diameters)"},
     {"slice", MeasurementParameter::Number, "slice height (m, default 1 mean diameter)"},
     kWindowFrom,
     kWindowUntil,
     kWindowEvery},
    [](const MeasurementRequest& r, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        auto silo = findSiloWalls(w.walls(), w.settings().dimension == 2, r.word("wall", ""),
                                  r.word("across", ""), w.gravity(), "axisPressure");
        if (!silo) return silo.error();
        if (r.number("radius", 1.0) <= 0.0 || r.number("slice", 1.0) <= 0.0)
            return Error{"measurement 'axisPressure': radius and slice must be > 0 (m)"};
        return std::unique_ptr<Measurement>(
            new AxisPressureMeasurement(*silo, r.word("wall", ""), r.number("radius", 0.0),
                                        r.number("slice", 0.0), SampleWindow::fromRequest(r)));
    }};

}  // namespace ndem
