// The `fields` measurement against constructed flows and a settled bed: rigid rotation has no
// strain rate, simple shear v_x = γ̇ z has |D| = γ̇/√2, and a bed between frictionless walls
// carries its own weight: σ_zz is the weight above per area, density the bulk density.
#include "bench_scenes.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {

extern const MeasurementFactory kFieldsMeasurement;

namespace {

constexpr double kDiameter = 0.01;  // m

MeasurementRequest fieldsRequest(const Vec3& min, const Vec3& max, const Vec3& cells,
                                 double from = 0.0) {
    return {"fields",
            {{"from", from}},
            {},
            {{"min", {min.x(), min.y(), min.z()}},
             {"max", {max.x(), max.y(), max.z()}},
             {"cells", {cells.x(), cells.y(), cells.z()}}}};
}

std::unique_ptr<Measurement> makeFields(const MeasurementRequest& r, const World& world) {
    auto m = kFieldsMeasurement.make(r, world);
    EXPECT_TRUE(m.ok()) << m.error().message;
    return m.ok() ? std::move(m.value()) : nullptr;
}

// ---------------------------------------------------------------------------------------
// Constructed velocity fields on a jittered lattice, no stepping
// ---------------------------------------------------------------------------------------

/// 8 × 8 × 8 grains on a lattice of spacing d in [0, 8d]³, jittered by ±5 % d, no gravity:
/// 4³ cells of 2d hold 8 grains each.
World latticeWorld() {
    Scene scene;
    scene.materials = {scenes::servinGrain()};
    scene.settings.gravity = Vec3::Zero();
    Random random(7);
    for (int i = 0; i < 512; ++i) {
        ParticleSpec p;
        p.radius = 0.45 * kDiameter;  // apart: no contacts, the stress is purely kinetic
        for (int a = 0; a < 3; ++a)
            p.position[a] = ((i >> (3 * a) & 7) + 0.5 + random.uniform(-0.05, 0.05)) * kDiameter;
        scene.particles.push_back(p);
    }
    return test::makeWorld(scene);
}

/// Samples the world once, as World::step would after a step.
MeasurementResult sampleOnce(const World& world) {
    auto fields = makeFields(
        fieldsRequest(Vec3::Zero(), Vec3::Constant(8 * kDiameter), Vec3::Constant(4)), world);
    StepStats stats;
    stats.step = 1;
    stats.time = world.settings().timeStep;
    fields->sample(world, stats);
    return fields->result();
}

TEST(Fields, RigidRotationHasNoStrainRate) {
    World world = latticeWorld();
    const Vec3 omega(0.3, -0.5, 1.2), centre = Vec3::Constant(4 * kDiameter);  // rad/s, m
    ParticleStore& p = world.particles();
    for (size_t i = 0; i < p.size(); ++i)
        p.velocity[i] = omega.cross(p.position[i] - centre);
    const MeasurementResult r = sampleOnce(world);
    const Table& grid = r.tables.at("grid");
    ASSERT_EQ(grid.at("shearRate").size(), 64u);
    for (size_t k = 0; k < 64; ++k) {
        EXPECT_EQ(grid.at("count")[k], 8.0);
        // Cell velocity is the rotation at the cell's mass centre, within the jitter.
        const Vec3 x(grid.at("x")[k], grid.at("y")[k], grid.at("z")[k]);
        const Vec3 v(grid.at("vx")[k], grid.at("vy")[k], grid.at("vz")[k]);
        EXPECT_LT((v - omega.cross(x - centre)).norm(), 0.05 * kDiameter * omega.norm());
        // Jitter makes the mass centres an imperfect grid, which leaves a residue of about
        // 1 % of |ω| (0 without jitter); the symmetric part of ∇v alone keeps it that small.
        EXPECT_LT(grid.at("shearRate")[k], 0.05 * omega.norm()) << "cell " << k;
    }
}

TEST(Fields, SimpleShearGivesRateOverRootTwoAndItsKineticStress) {
    World world = latticeWorld();
    const double rate = 2.0;  // γ̇ = ∂v_x/∂z (1/s)
    ParticleStore& p = world.particles();
    for (size_t i = 0; i < p.size(); ++i)
        p.velocity[i] = Vec3(rate * p.position[i].z(), 0, 0);
    const MeasurementResult r = sampleOnce(world);
    const Table& grid = r.tables.at("grid");
    // D = sym(∇v) has D_xz = D_zx = γ̇/2, so √tr(DᵀD) = γ̇/√2, edges (one-sided) included.
    const double cellVolume = std::pow(2 * kDiameter, 3);
    for (size_t k = 0; k < 64; ++k) {
        EXPECT_NEAR(grid.at("shearRate")[k], rate / std::sqrt(2.0), 0.05 * rate / std::sqrt(2.0))
            << "cell " << k;
        // Kinetic stress: Σ m (v_x − V_x)² / V over the cell's own grains, V_x mass-weighted.
        const Vec3 centre(grid.at("x")[k], grid.at("y")[k], grid.at("z")[k]);
        double mass = 0.0, momentum = 0.0, flux = 0.0;
        for (size_t i = 0; i < p.size(); ++i)
            if (((p.position[i] - centre).cwiseAbs().array() < kDiameter).all()) {
                mass += p.mass[i];
                momentum += p.mass[i] * p.velocity[i].x();
                flux += p.mass[i] * p.velocity[i].x() * p.velocity[i].x();
            }
        const double sxx = (flux - momentum * momentum / mass) / cellVolume;
        EXPECT_NEAR(grid.at("sxx")[k], sxx, 1e-9 * sxx);
        EXPECT_NEAR(grid.at("szz")[k], 0.0, 1e-12);
        EXPECT_NEAR(grid.at("density")[k], mass / cellVolume, 1e-9 * mass / cellVolume);
        // I = γ̇ d / √(p/ρ_s) with p = sxx/3, d = 0.9 × 1 cm, ρ_s = 2500 kg/m³.
        const double pressure = sxx / 3.0;
        EXPECT_NEAR(grid.at("pressure")[k], pressure, 1e-9 * pressure);
        const double inertial =
            grid.at("shearRate")[k] * 0.9 * kDiameter / std::sqrt(pressure / 2500.0);
        EXPECT_NEAR(grid.at("inertialNumber")[k], inertial, 1e-9 * inertial);
    }
}

// ---------------------------------------------------------------------------------------
// A settled bed between frictionless side walls
// ---------------------------------------------------------------------------------------

struct SettledBed {
    MeasurementResult slabs, cells;
    double halfWidth = 0.0, bulkDensity = 0.0, fillHeight = 0.0;
    std::vector<double> weightAbove;   ///< per slab: mean over the slab of W(z)/A (Pa)
    std::vector<double> solidDensity;  ///< per slab: ρ_s × sphere volume inside it / its volume
};

/// Volume of a sphere of radius r centred at height c below the plane z = a (m³).
double volumeBelow(double c, double r, double a) {
    const double h = std::clamp(a - (c - r), 0.0, 2.0 * r);
    return std::numbers::pi * h * h * (3.0 * r - h) / 3.0;
}

const SettledBed& settledBed() {
    static const SettledBed bed = [] {
        StepSettings s;
        s.iterations = 100;
        s.warmStart = true;
        Scene scene = scenes::bed(1000, kDiameter, scenes::servinGrain(), s);
        test::smoothWallsBut(scene, "floor");
        World world = test::makeWorld(scene);

        SettledBed out;
        out.halfWidth = 0.5 * 10 * 1.1 * kDiameter;  // bed(): side = ⌈√(n/10)⌉ columns 1.1 d apart
        // The box starts 2 mm below the floor so the floor contacts (δ/2 below it) count.
        const Vec3 min(-out.halfWidth, -out.halfWidth, -0.002);
        const Vec3 max(out.halfWidth, out.halfWidth, 0.098);
        world.subscribe(makeFields(fieldsRequest(min, max, Vec3(1, 1, 5), 1.8), world));
        world.subscribe(makeFields(fieldsRequest(min, max, Vec3(3, 3, 5), 1.8), world));
        test::runUntil(world, 2.0);
        out.slabs = world.measurements()[0]->result();
        out.cells = world.measurements()[1]->result();

        const ParticleStore& p = world.particles();
        const double g = world.gravity().norm(), area = 4 * out.halfWidth * out.halfWidth;
        std::vector<double> heights;
        double mass = 0.0;
        for (size_t i = 0; i < p.size(); ++i) {
            heights.push_back(p.position[i].z());
            mass += p.mass[i];
        }
        std::sort(heights.begin(), heights.end());
        out.fillHeight = heights[static_cast<size_t>(0.99 * heights.size())] + 0.5 * kDiameter;
        out.bulkDensity = mass / (area * out.fillHeight);
        // Per slab: the weight above z averaged over the slab (nothing below the floor holds
        // any), and the grains' volume inside it, both independent of the binning.
        const double slab = 0.02;
        for (double zc : out.slabs.tables.at("grid").at("z")) {
            const double lo = zc - 0.5 * slab, hi = zc + 0.5 * slab, above = std::max(lo, 0.0);
            double w = 0.0, volume = 0.0;
            for (size_t i = 0; i < p.size(); ++i) {
                const double z = p.position[i].z(), r = p.radius[i];
                w += p.mass[i] * g * std::clamp(z - above, 0.0, hi - above) / slab;
                volume += volumeBelow(z, r, hi) - volumeBelow(z, r, lo);
            }
            out.weightAbove.push_back(w / area);
            out.solidDensity.push_back(2500.0 * volume / (area * slab));
        }
        return out;
    }();
    return bed;
}

TEST(Fields, SettledBedCarriesItsWeightWithinTenPercent) {
    const SettledBed& bed = settledBed();
    const Table& grid = bed.slabs.tables.at("grid");
    int checked = 0;
    for (size_t k = 0; k < grid.at("z").size(); ++k) {
        if (grid.at("z")[k] > bed.fillHeight - 2 * kDiameter) continue;  // near the surface
        EXPECT_NEAR(grid.at("szz")[k], bed.weightAbove[k], 0.1 * bed.weightAbove[k])
            << "slab at z = " << grid.at("z")[k];
        ++checked;
    }
    EXPECT_GE(checked, 2);
}

TEST(Fields, SettledBedDensityMatchesTheGrainVolumeInsideEachSlabWithin10Percent) {
    // Centre binning against the exact volume of the spheres cut by the slab planes. The
    // bulk density M / (A H) is a looser reference: the floor and surface layers, looser than
    // the interior, pull it down, so the interior lies above it but within a fifth.
    const SettledBed& bed = settledBed();
    const Table& grid = bed.slabs.tables.at("grid");
    int checked = 0;
    for (size_t k = 0; k < grid.at("z").size(); ++k) {
        const double z = grid.at("z")[k];
        if (z < kDiameter || z > bed.fillHeight - 2 * kDiameter) continue;  // interior only
        EXPECT_NEAR(grid.at("density")[k], bed.solidDensity[k], 0.1 * bed.solidDensity[k])
            << "slab at z = " << z;
        EXPECT_GT(grid.at("density")[k], bed.bulkDensity);
        EXPECT_LT(grid.at("density")[k], 1.2 * bed.bulkDensity);
        ++checked;
    }
    EXPECT_GE(checked, 2);
    EXPECT_NEAR(bed.slabs.scalars.at("solidFraction"), bed.slabs.scalars.at("meanDensity") / 2500.0,
                1e-12);
}

TEST(Fields, SettledBedRestsStill) {
    const SettledBed& bed = settledBed();
    for (const MeasurementResult* r : {&bed.slabs, &bed.cells}) {
        const Table& grid = r->tables.at("grid");
        int filled = 0;
        for (size_t k = 0; k < grid.at("z").size(); ++k) {
            if (grid.at("count")[k] == 0.0) continue;
            ++filled;
            const Vec3 v(grid.at("vx")[k], grid.at("vy")[k], grid.at("vz")[k]);
            EXPECT_LT(v.norm(), 2e-3) << "cell " << k;  // m/s; √(g d) ≈ 0.3 m/s
        }
        EXPECT_EQ(r->scalars.at("filledCells"), filled);
    }
}

}  // namespace
}  // namespace ndem

namespace ndem {
namespace {

TEST(Fields, InThePlaneAStackOfDisksIsItsAreaFractionAndItsWeightPerMetre) {
    // 6 columns × 12 rows of touching disks on the floor, at rest, in cells of 2 d height whose
    // edges miss the centres and the contacts: each cell holds disks covering π/4 of its area,
    // and its σ_zz is the Love–Weber sum over the contacts in it, per metre of thickness: the
    // contact at height k d carries the weight of the rows − k disks above it, m = ρ π d²/4
    // each, over the branch d (d/2 for the floor's).
    const int cols = 6, rows = 12;
    StepSettings s;
    s.dimension = 2;
    s.mode = StepMode::Nonsmooth;
    s.timeStep = 1e-3;
    s.iterations = 300;
    Scene scene = scenes::bed2d(1, kDiameter, scenes::servinGrain(), s, 1);
    scene.particles.clear();
    scene.walls.resize(1);  // the floor only
    for (int i = 0; i < cols; ++i)
        for (int k = 0; k < rows; ++k) {
            ParticleSpec p;
            p.radius = 0.5 * kDiameter;
            p.position = Vec3((i + 0.5) * kDiameter, 0.0, (k + 0.5) * kDiameter);
            scene.particles.push_back(p);
        }
    World world = test::makeWorld(scene);
    const double width = cols * kDiameter;
    const Vec3 min(0.0, -kDiameter, -0.25 * kDiameter), max(width, kDiameter, 11.75 * kDiameter);
    auto fields = makeFields(fieldsRequest(min, max, Vec3(1, 1, rows / 2), 0.05), world);
    ASSERT_TRUE(fields);
    while (world.time() < 0.1) {
        const StepStats stats = world.step();
        fields->sample(world, stats);
    }
    const MeasurementResult r = fields->result();
    EXPECT_NEAR(r.scalars.at("solidFraction"), std::numbers::pi / 4.0, 1e-9);
    const Table& grid = r.tables.at("grid");
    const double m = scenes::servinGrain().density * std::numbers::pi / 4.0 * kDiameter * kDiameter;
    ASSERT_EQ(grid.at("szz").size(), static_cast<size_t>(rows / 2));
    for (int j = 0; j < rows / 2; ++j) {
        double moment = 0.0;  // Σ f ℓ over one column's contacts in cell j
        for (int k = 2 * j; k <= 2 * j + 1; ++k)
            moment += (rows - k) * m * 9.81 * (k == 0 ? 0.5 : 1.0) * kDiameter;
        const double expected = moment / (kDiameter * 2.0 * kDiameter);
        EXPECT_NEAR(grid.at("szz")[static_cast<size_t>(j)], expected, 0.01 * expected)
            << "cell " << j;
        EXPECT_NEAR(grid.at("pressure")[static_cast<size_t>(j)],
                    0.5 * (grid.at("sxx")[static_cast<size_t>(j)] + expected), 0.01 * expected);
    }
    // Three dimensions' request on a plane: one clear error.
    auto bad = kFieldsMeasurement.make(fieldsRequest(min, max, Vec3(1, 2, 6)), world);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("one cell along y"), std::string::npos);
}

}  // namespace
}  // namespace ndem
