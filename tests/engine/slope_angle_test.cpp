// The slope of a block's top surface, with grains that have left the contact network ignored.
#include "bench_scenes.hpp"
#include "measure/measurements.hpp"
#include "measure/surface_fit.hpp"
#include "test_util.hpp"

#include <cmath>
#include <map>
#include <numbers>

namespace ndem {

extern const MeasurementFactory kSlopeAngleMeasurement;

namespace {

constexpr double kD = 0.01;  // particle diameter d (m)

ParticleSpec grain(const Vec3& x) {
    ParticleSpec p;
    p.position = x;
    p.radius = 0.5 * kD;
    return p;
}

/// Columns of touching grains on a floor at z = 0, 30 d along x and 10 d along y, each as high
/// as fits under the plane z = 5 d + tan(20°) x, plus grains floating 15 d above that plane
/// over its low end: nine alone and one touching pair, none in contact with the block.
Scene tiltedBlock(bool withFloaters) {
    Scene scene;
    scene.materials = {scenes::servinGrain()};
    scene.settings.gravity = Vec3::Zero();  // one step to find the contacts, nothing moves
    scene.walls.push_back(Wall{});          // the floor: a plane z = 0 facing +z
    const double rise = std::tan(20.0 * std::numbers::pi / 180.0);
    auto surface = [&](double x) { return 5 * kD + rise * x; };
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 10; ++j) {
            const double x = (i + 0.5) * kD, y = (j + 0.5) * kD;
            for (int k = 0; (k + 1) * kD <= surface(x); ++k)
                scene.particles.push_back(grain(Vec3(x, y, (k + 0.5) * kD)));
        }
    if (withFloaters) {
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                const double x = (2 * i + 0.5) * kD;
                scene.particles.push_back(grain(Vec3(x, (3 * j + 1.5) * kD, surface(x) + 15 * kD)));
            }
        const double x = 6.5 * kD;
        scene.particles.push_back(grain(Vec3(x, 4.5 * kD, surface(x) + 15 * kD)));
        scene.particles.push_back(grain(Vec3(x + kD, 4.5 * kD, surface(x) + 15 * kD)));
    }
    return scene;
}

MeasurementResult measureAfterOneStep(const Scene& scene) {
    World world = test::makeWorld(scene);
    MeasurementRequest request;
    request.type = "slopeAngle";
    request.lists = {{"min", {0.0, 0.0, 0.0}}, {"max", {0.3, 0.1, 0.5}}};
    auto m = kSlopeAngleMeasurement.make(request, world);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return {};
    world.subscribe(std::move(*m));
    world.step();
    return world.measurements().back()->result();
}

TEST(SlopeAngle, TopOfABlockTiltedBy20DegreesReads20Within1Degree) {
    const MeasurementResult r = measureAfterOneStep(tiltedBlock(false));
    ASSERT_TRUE(r.scalars.count("finalAngle")) << r.headline;
    EXPECT_NEAR(r.scalars.at("finalAngle"), 20.0, 1.0);
    EXPECT_DOUBLE_EQ(r.scalars.at("maxAngle"), r.scalars.at("finalAngle"));
    EXPECT_EQ(r.series.at("surfaceParticles").back(), 300.0);  // one per column
}

/// The plane through the highest grain of each lattice column, floaters included.
double unfilteredAngle(const Scene& scene) {
    std::map<std::pair<int, int>, Vec3> top;
    for (const ParticleSpec& p : scene.particles) {
        const std::pair<int, int> column(static_cast<int>(p.position.x() / kD),
                                         static_cast<int>(p.position.y() / kD));
        const Vec3 point = p.position + Vec3(0.0, 0.0, p.radius);
        if (!top.count(column) || point.z() > top[column].z()) top[column] = point;
    }
    std::vector<Vec3> points;
    for (const auto& [column, point] : top)
        points.push_back(point);
    const auto fit = fitPlane(points);
    return std::atan(std::hypot(fit->b, fit->c)) * 180.0 / std::numbers::pi;
}

TEST(SlopeAngle, GrainsOffTheContactNetworkAreIgnored) {
    // Counted as surface, the floaters would flatten the plane by degrees.
    ASSERT_LT(unfilteredAngle(tiltedBlock(true)), unfilteredAngle(tiltedBlock(false)) - 3.0);
    const MeasurementResult clean = measureAfterOneStep(tiltedBlock(false));
    const MeasurementResult r = measureAfterOneStep(tiltedBlock(true));
    ASSERT_TRUE(r.scalars.count("finalAngle")) << r.headline;
    EXPECT_DOUBLE_EQ(r.scalars.at("finalAngle"), clean.scalars.at("finalAngle"));
    EXPECT_EQ(r.series.at("surfaceParticles").back(), 300.0);
}

TEST(SlopeAngle, NoContactsMeansNoSurface) {
    // Before any step there are no contacts at all: nothing is connected, nothing is fitted.
    World world = test::makeWorld(tiltedBlock(false));
    MeasurementRequest request;
    request.type = "slopeAngle";
    request.lists = {{"min", {0.0, 0.0, 0.0}}, {"max", {0.3, 0.1, 0.5}}};
    auto m = kSlopeAngleMeasurement.make(request, world);
    ASSERT_TRUE(m);
    StepStats stats;
    stats.step = 1;
    (*m)->sample(world, stats);
    EXPECT_FALSE((*m)->result().scalars.count("finalAngle"));
}

/// The tilted block, measured at two steps; after the first, a layer is filled in on top so the
/// current surface is flat at the height of the block's high end.
double angleAfterFillingTheTop(double track) {
    Scene scene = tiltedBlock(false);
    World world = test::makeWorld(scene);
    MeasurementRequest request;
    request.type = "slopeAngle";
    request.lists = {{"min", {0.0, 0.0, 0.0}}, {"max", {0.3, 0.1, 0.5}}};
    if (track >= 0.0) request.numbers = {{"track", track}};
    auto m = kSlopeAngleMeasurement.make(request, world);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return std::nan("");
    world.subscribe(std::move(*m));
    world.step();
    const double top = 5 * kD + std::tan(20.0 * std::numbers::pi / 180.0) * 30 * kD;
    std::map<std::pair<int, int>, double> highest;
    for (const ParticleSpec& p : scene.particles) {
        double& h =
            highest[{static_cast<int>(p.position.x() / kD), static_cast<int>(p.position.y() / kD)}];
        h = std::max(h, p.position.z());
    }
    for (const auto& [column, z] : highest)
        for (double k = z + kD; k + 0.5 * kD <= top; k += kD)
            world.addParticle(
                grain(Vec3((column.first + 0.5) * kD, (column.second + 0.5) * kD, k)));
    world.step();
    world.step();
    return world.measurements().back()->result().scalars.at("finalAngle");
}

TEST(SlopeAngle, TrackedSurfaceGrainsKeepTheirPlaneWhenBuriedUnderALevelLayer) {
    // Untracked, the plane is the new level top; tracked from the first step, it stays the
    // tilted layer of grains that was the surface then (servin-wang's method).
    EXPECT_LT(angleAfterFillingTheTop(-1.0), 3.0);
    EXPECT_NEAR(angleAfterFillingTheTop(0.0), 20.0, 1.0);
}

// A collapse that leaves a plateau: a level block 30 d long and 12 d high, its top tracked;
// then the columns past x = 13 d come down onto a 33° slope that meets the floor at the far
// end (each column shifted down by whole diameters,
// grains below the floor taken out), the first 13 d stay. One plane through every tracked grain
// averages the plateau into the slope; the tracked grains that came down by more than a
// diameter are the slope alone.
MeasurementResult plateauAndSlope() {
    Scene scene;
    scene.materials = {scenes::servinGrain()};
    scene.settings.gravity = Vec3::Zero();
    scene.walls.push_back(Wall{});
    constexpr int kHigh = 12;
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 10; ++j)
            for (int k = 0; k < kHigh; ++k)
                scene.particles.push_back(
                    grain(Vec3((i + 0.5) * kD, (j + 0.5) * kD, (k + 0.5) * kD)));
    World world = test::makeWorld(scene);
    MeasurementRequest request;
    request.type = "slopeAngle";
    request.lists = {{"min", {0.0, 0.0, 0.0}}, {"max", {0.3, 0.1, 0.5}}};
    request.numbers = {{"track", 0.0}, {"drop", kD}};
    auto m = kSlopeAngleMeasurement.make(request, world);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return {};
    world.subscribe(std::move(*m));
    world.step();
    const double slope = std::tan(33.0 * std::numbers::pi / 180.0), edge = 13 * kD;
    ParticleStore& p = world.particles();
    for (Index i = static_cast<Index>(p.size()); i-- > 0;) {
        const double x = p.position[i].x();
        if (x < edge) continue;
        // The column's top comes down from 12 d to the slope's height over its centre, by whole
        // diameters so that the column still stands on the floor and touches its neighbours.
        const double top = std::max(kD, kHigh * kD - slope * (x - edge));
        p.position[i].z() -= std::round((kHigh * kD - top) / kD) * kD;
        if (p.position[i].z() < 0.5 * kD - 1e-9) world.removeParticle(i);
    }
    world.step();
    world.step();
    return world.measurements().back()->result();
}

TEST(SlopeAngle, TrackedGrainsThatCameDownAreTheSlopeWithoutThePlateauBehindIt) {
    const MeasurementResult r = plateauAndSlope();
    ASSERT_TRUE(r.scalars.count("finalAngle")) << r.headline;
    EXPECT_NEAR(r.scalars.at("finalAngle"), 33.0, 1.0);
    // The one plane through every tracked grain: the plateau flattens it by degrees.
    EXPECT_LT(r.scalars.at("finalAngleAllTracked"), 33.0 - 5.0);
}

}  // namespace
}  // namespace ndem
