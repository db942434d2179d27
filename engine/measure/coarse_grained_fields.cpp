// Coarse-grained continuum fields on a regular grid (servin-2014 Sec. 4.1, after Goldhirsch):
// density, velocity, strain rate, stress, pressure and inertial number per cell, averaged
// over the sampled steps. Binning is by cell, not by a smooth kernel: particle mass at its
// centre, contact stress at the contact point. A kernel would give smoother fields but needs
// a width choice per user and couples cells; with cells of a few diameters and time averaging
// the box is good enough for the paper's metrics and cheap enough to sample every step.
#include "measure/continuum_sampling.hpp"
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "world/world.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace ndem {

namespace {

/// Sums over samples for one cell.
struct CellSums {
    double count = 0.0;
    double mass = 0.0;                  ///< Σ m (kg)
    Vec3 momentum = Vec3::Zero();       ///< Σ m v (kg m/s)
    Mat3 momentumFlux = Mat3::Zero();   ///< Σ m v ⊗ v (kg m²/s²)
    Mat3 contactMoment = Mat3::Zero();  ///< Σ f ⊗ l (N m), f on B, l branch A→B
};

class FieldsMeasurement final : public Measurement {
  public:
    /// planar: a 2D scene, whose fields are per metre of thickness (one cell along y).
    FieldsMeasurement(const Vec3& min, const Vec3& max, const std::array<int, 3>& cells,
                      SampleWindow window, bool planar)
        : m_min(min), m_cells(cells), m_window(window), m_planar(planar) {
        for (int a = 0; a < 3; ++a)
            m_size[a] = (max[a] - min[a]) / cells[a];
        m_sums.resize(static_cast<size_t>(cells[0]) * cells[1] * cells[2]);
    }

    std::string name() const override { return "fields"; }

    void sample(const World& world, const StepStats& stats) override {
        const double h = world.settings().timeStep;
        if (!m_window.takes(stats, h)) return;
        const ParticleStore& p = world.particles();
        if (p.empty()) return;
        m_diameter = meanDiameter(p);
        m_solidDensity = world.materials().materials()[dominantMaterial(p)].density;

        for (size_t i = 0; i < p.size(); ++i) {
            if (p.invMass[i] <= 0.0) continue;  // kinematic: prescribed, not material
            const long cell = cellOf(p.position[i]);
            if (cell < 0) continue;
            CellSums& s = m_sums[cell];
            const Vec3& v = p.velocity[i];
            s.count += 1.0;
            s.mass += p.mass[i];
            s.momentum += p.mass[i] * v;
            s.momentumFlux += p.mass[i] * v * v.transpose();
        }
        const ContactSet& c = world.contacts();
        for (size_t k = 0; k < c.size(); ++k) {
            const long cell = cellOf(contactPoint(c, k, p));
            if (cell < 0) continue;
            m_sums[cell].contactMoment +=
                contactForceOnB(c, k, h) * contactBranch(c, k).transpose();
        }
        ++m_samples;
    }

    MeasurementResult result() const override;

    /// The sums per cell (as many as the configuration has cells) and the last sample's scales.
    void archive(StateArchive& a) override {
        a.field("diameter", m_diameter);
        a.field("solidDensity", m_solidDensity);
        a.field("samples", m_samples);
        const auto scope = a.scope("cells");
        archiveMember(a, "count", m_sums, &CellSums::count);
        archiveMember(a, "mass", m_sums, &CellSums::mass);
        archiveMember(a, "momentum", m_sums, &CellSums::momentum);
        archiveMember(a, "momentumFlux", m_sums, &CellSums::momentumFlux);
        archiveMember(a, "contactMoment", m_sums, &CellSums::contactMoment);
    }

  private:
    long cellOf(const Vec3& x) const {
        long index = 0;
        for (int a = 2; a >= 0; --a) {
            const double u = (x[a] - m_min[a]) / m_size[a];
            if (!(u >= 0.0 && u < m_cells[a])) return -1;
            index = index * m_cells[a] + static_cast<long>(u);
        }
        return index;  // x fastest, then y, then z
    }

    Vec3 m_min, m_size;
    std::array<int, 3> m_cells;
    SampleWindow m_window;
    bool m_planar;
    std::vector<CellSums> m_sums;
    double m_diameter = 0.0, m_solidDensity = 0.0;  ///< d (m), ρ_s (kg/m³) of the last sample
    long m_samples = 0;
};

MeasurementResult FieldsMeasurement::result() const {
    MeasurementResult r;
    r.name = "fields";
    if (m_samples == 0) {
        r.headline = "fields: no step in the sampling window";
        r.notes["status"] = r.headline;
        return r;
    }
    const double n = static_cast<double>(m_samples);
    // In the plane a cell's "volume" is its area times the metre of thickness the disks' masses
    // and forces are per (a disk's mass ρ π r²: the solid fraction is then the area fraction).
    const double cellVolume = m_planar ? m_size.x() * m_size.z() : m_size.prod();
    const size_t cells = m_sums.size();

    // Velocity of each cell: mass-weighted over particles and samples alike.
    std::vector<Vec3> velocity(cells, Vec3::Zero());
    for (size_t k = 0; k < cells; ++k)
        if (m_sums[k].mass > 0.0) velocity[k] = m_sums[k].momentum / m_sums[k].mass;

    // ∇v by differences between filled neighbours: central where both exist, one-sided where
    // one does, 0 where none does. An empty cell has no velocity; counting it as v = 0 would
    // put a spurious shear at every free surface and wall.
    const std::array<long, 3> stride = {1, m_cells[0], static_cast<long>(m_cells[0]) * m_cells[1]};
    auto gradient = [&](size_t k) {
        Mat3 grad = Mat3::Zero();  // grad(i, j) = ∂v_i/∂x_j
        for (int a = 0; a < 3; ++a) {
            const long along = (static_cast<long>(k) / stride[a]) % m_cells[a];
            const bool below = along > 0 && m_sums[k - stride[a]].mass > 0.0;
            const bool above = along + 1 < m_cells[a] && m_sums[k + stride[a]].mass > 0.0;
            const Vec3 lo = below ? velocity[k - stride[a]] : velocity[k];
            const Vec3 hi = above ? velocity[k + stride[a]] : velocity[k];
            const int spans = int(below) + int(above);
            if (spans > 0) grad.col(a) = (hi - lo) / (spans * m_size[a]);
        }
        return grad;
    };

    Table& grid = r.tables["grid"];
    double densitySum = 0.0, maxPressure = 0.0;
    int filled = 0;
    for (size_t k = 0; k < cells; ++k) {
        const CellSums& s = m_sums[k];
        const long ix = static_cast<long>(k) % m_cells[0];
        const long iy = (static_cast<long>(k) / m_cells[0]) % m_cells[1];
        const long iz = static_cast<long>(k) / (static_cast<long>(m_cells[0]) * m_cells[1]);
        const Vec3 centre =
            m_min + Vec3((ix + 0.5) * m_size.x(), (iy + 0.5) * m_size.y(), (iz + 0.5) * m_size.z());
        const double density = s.mass / (n * cellVolume);
        double shearRate = 0.0;
        Mat3 stress = s.contactMoment / (n * cellVolume);
        if (s.mass > 0.0) {
            ++filled;
            densitySum += density;
            const Mat3 grad = gradient(k);
            const Mat3 strainRate = 0.5 * (grad + grad.transpose());
            shearRate = std::sqrt((strainRate.transpose() * strainRate).trace());
            // Kinetic (Reynolds) stress Σ m v'v' / V about the cell's time-averaged velocity:
            // Σ m v v − M V V expands it in one pass. Compression positive like the contacts.
            stress += (s.momentumFlux - s.mass * velocity[k] * velocity[k].transpose()) /
                      (n * cellVolume);
        }
        // Per contact f ⊗ l is not symmetric (friction); the mean over a cell in balance is,
        // so the table carries the symmetric part.
        stress = 0.5 * (stress + stress.transpose()).eval();
        // The mean normal stress: of the two in-plane directions for disks.
        const double pressure =
            m_planar ? 0.5 * (stress(0, 0) + stress(2, 2)) : stress.trace() / 3.0;
        maxPressure = std::max(maxPressure, pressure);
        // Inertial number of GDR MiDi (2004), I = γ̇ d / √(p/ρ_s). servin-2014 Sec. 4.1 prints
        // I ≡ γ̇/ρ, which is not dimensionless: a garbled formula, not a different definition.
        const double inertial =
            pressure > 0.0 ? shearRate * m_diameter / std::sqrt(pressure / m_solidDensity) : 0.0;
        grid["x"].push_back(centre.x());
        grid["y"].push_back(centre.y());
        grid["z"].push_back(centre.z());
        grid["count"].push_back(s.count / n);
        grid["density"].push_back(density);
        grid["vx"].push_back(velocity[k].x());
        grid["vy"].push_back(velocity[k].y());
        grid["vz"].push_back(velocity[k].z());
        grid["shearRate"].push_back(shearRate);
        grid["pressure"].push_back(pressure);
        grid["sxx"].push_back(stress(0, 0));
        grid["syy"].push_back(stress(1, 1));
        grid["szz"].push_back(stress(2, 2));
        grid["sxy"].push_back(stress(0, 1));
        grid["sxz"].push_back(stress(0, 2));
        grid["syz"].push_back(stress(1, 2));
        grid["inertialNumber"].push_back(inertial);
    }
    const double meanDensity = filled > 0 ? densitySum / filled : 0.0;
    r.scalars["meanDensity"] = meanDensity;
    r.scalars["solidFraction"] = m_solidDensity > 0.0 ? meanDensity / m_solidDensity : 0.0;
    r.scalars["maxPressure"] = maxPressure;
    r.scalars["filledCells"] = filled;
    r.scalars["samples"] = n;
    char line[200];
    std::snprintf(line, sizeof line,
                  "fields on %dx%dx%d cells: mean density %.4g kg/m3 (solid fraction %.3f) "
                  "in %d filled cells, max pressure %.4g Pa",
                  m_cells[0], m_cells[1], m_cells[2], meanDensity, r.scalars["solidFraction"],
                  filled, maxPressure);
    r.headline = line;
    return r;
}

/// Reads a list of three numbers; the error names the key.
Expected<Vec3> triple(const MeasurementRequest& r, const char* key) {
    const std::vector<double> v = r.list(key, {});
    if (v.size() != 3)
        return Error{std::string("measurement 'fields': ") + key + " must be a list of 3 numbers"};
    return Vec3(v[0], v[1], v[2]);
}

}  // namespace

extern const MeasurementFactory kFieldsMeasurement{
    "fields",
    "table grid (cell centres x, y, z; count, density, velocity, shear rate, pressure, stress "
    "sxx..syz compression positive, inertial number) coarse-grained over a box of cells; mean "
    "density, solid fraction, max pressure (servin-2014 Sec. 4.1); in 2D per metre of thickness "
    "(area fraction, pressure the mean of sxx and szz)",
    {{"min", MeasurementParameter::List,
      "lower corner of the box [x, y, z] (m); a little below a floor to count its contacts"},
     {"max", MeasurementParameter::List, "upper corner of the box [x, y, z] (m)"},
     {"cells", MeasurementParameter::List, "number of cells along x, y, z [nx, ny, nz]"},
     kWindowFrom,
     kWindowUntil,
     kWindowEvery},
    [](const MeasurementRequest& r, const World& world) -> Expected<std::unique_ptr<Measurement>> {
        auto min = triple(r, "min"), max = triple(r, "max"), cells = triple(r, "cells");
        if (!min) return min.error();
        if (!max) return max.error();
        if (!cells) return cells.error();
        if (!((*max).array() > (*min).array()).all())
            return Error{"measurement 'fields': max must exceed min along x, y and z"};
        std::array<int, 3> counts{};
        double total = 1.0;
        for (int a = 0; a < 3; ++a) {
            const double c = (*cells)[a];
            if (!(c >= 1.0 && c == std::floor(c) && c <= 1e4))
                return Error{"measurement 'fields': cells must be whole numbers from 1 to 10000"};
            counts[a] = static_cast<int>(c);
            total *= c;
        }
        if (total > 4e6) return Error{"measurement 'fields': more than 4e6 cells; use fewer cells"};
        const bool planar = world.settings().dimension == 2;
        if (planar && (counts[1] != 1 || !((*min).y() <= 0.0 && (*max).y() >= 0.0)))
            return Error{
                "measurement 'fields': a 2D scene's box has one cell along y and spans "
                "y = 0 (fields per metre of thickness)"};
        return std::unique_ptr<Measurement>(
            new FieldsMeasurement(*min, *max, counts, SampleWindow::fromRequest(r), planar));
    }};

}  // namespace ndem
