// The angle of repose of piles stacked on a lattice under a cone or a ridge of known slope.
#include "bench_scenes.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {

extern const MeasurementFactory kAngleOfReposeMeasurement;

namespace {

constexpr double kD = 0.01;             // particle diameter d (m)
constexpr double kHalfWidth = 30 * kD;  // where the slope meets the base (m)

/// Grains on a cubic lattice resting on z = 0 whose tops stay under the surface
/// z = tan(slope) (W − s), s the horizontal distance to the axis (radial) or to the line
/// y = y0 (ridge along x from 0 to 0.3 m), plus a one-grain carpet on the base out to 2 W that
/// the measurement must ignore.
Scene latticePile(double slopeDeg, bool radial, double cx, double cy) {
    Scene scene;
    scene.materials = {scenes::servinGrain()};
    const double rise = std::tan(slopeDeg * std::numbers::pi / 180.0);
    const int n = static_cast<int>(2 * kHalfWidth / kD) + 1;
    for (int i = radial ? -n : 0; i <= (radial ? n : 30); ++i)
        for (int j = -n; j <= n; ++j) {
            const double x = (radial ? cx : 0.0) + i * kD, y = cy + j * kD;
            const double s = radial ? std::hypot(x - cx, y - cy) : std::abs(y - cy);
            for (int k = 0;; ++k) {
                const double top = (k + 1) * kD;
                if (top > rise * (kHalfWidth - s) && !(k == 0 && s <= 2 * kHalfWidth)) break;
                ParticleSpec p;
                p.position = Vec3(x, y, top - 0.5 * kD);
                p.radius = 0.5 * kD;
                scene.particles.push_back(p);
            }
        }
    return scene;
}

MeasurementResult measure(const Scene& scene, MeasurementRequest request) {
    World world = test::makeWorld(scene);
    request.type = "angleOfRepose";
    auto m = kAngleOfReposeMeasurement.make(request, world);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return {};
    StepStats stats;
    stats.step = 1;
    stats.time = 0.01;
    (*m)->sample(world, stats);
    return (*m)->result();
}

TEST(AngleOfRepose, ConicalLatticePileGivesItsSlopeWithin1Point5Degrees) {
    for (const double slope : {35.0, 25.0}) {
        SCOPED_TRACE(slope);
        MeasurementRequest request;
        request.words = {{"mode", "radial"}};
        request.lists = {{"center", {0.3, -0.2}}};
        const MeasurementResult r = measure(latticePile(slope, true, 0.3, -0.2), request);
        ASSERT_TRUE(r.scalars.count("angle")) << r.headline;
        EXPECT_NEAR(r.scalars.at("angle"), slope, 1.5);
        // The highest grain sits on the axis under the apex; the extent is the second layer's
        // reach (top 2d), not the carpet's.
        const double rise = std::tan(slope * std::numbers::pi / 180.0);
        EXPECT_NEAR(r.scalars.at("height"), rise * kHalfWidth, kD);
        EXPECT_NEAR(r.scalars.at("extent"), kHalfWidth - 2 * kD / rise, kD);
        EXPECT_LT(r.scalars.at("fitResidual"), kD);
        EXPECT_FALSE(r.tables.at("surface").at("s").empty());
    }
}

TEST(AngleOfRepose, RidgeAlongXPoolsBothFlanksOfTheMidSection) {
    for (const double slope : {35.0, 25.0}) {
        SCOPED_TRACE(slope);
        MeasurementRequest request;
        request.words = {{"mode", "transverse"}};
        request.lists = {{"center", {0.05}}, {"xRange", {0.1, 0.2}}};
        const MeasurementResult r = measure(latticePile(slope, false, 0.0, 0.05), request);
        ASSERT_TRUE(r.scalars.count("angle")) << r.headline;
        EXPECT_NEAR(r.scalars.at("angle"), slope, 1.5);
    }
}

TEST(AngleOfRepose, FitWindowAndBaseChangeWhatIsFitted) {
    // Counting the carpet as the pile (base below it) stretches the extent to 2 W and the
    // fit then runs over the flat carpet: a far lower angle. Guards the base rule above.
    MeasurementRequest request;
    request.words = {{"mode", "radial"}};
    request.lists = {{"center", {0.0, 0.0}}};
    request.numbers = {{"base", -kD}};
    const MeasurementResult r = measure(latticePile(35.0, true, 0.0, 0.0), request);
    EXPECT_NEAR(r.scalars.at("extent"), 2 * kHalfWidth, kD);
    EXPECT_LT(r.scalars.at("angle"), 25.0);
}

TEST(AngleOfRepose, RejectsAMalformedRequest) {
    const World world = test::makeWorld(latticePile(35.0, true, 0.0, 0.0));
    MeasurementRequest request;
    request.type = "angleOfRepose";
    request.words = {{"mode", "transverse"}};
    request.lists = {{"center", {0.0}}, {"xRange", {0.2, 0.1}}};
    auto m = kAngleOfReposeMeasurement.make(request, world);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().message,
              "measurement 'angleOfRepose': xRange: expected [x0, x1] with x0 < x1");
}

}  // namespace
}  // namespace ndem
