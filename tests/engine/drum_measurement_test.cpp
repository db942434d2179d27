// The drum measurement on hand-built fills whose plug zone, tilt and velocity profile are known,
// and once on a real toothed drum.
#include "bench_scenes.hpp"
#include "core/geometry_builders.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {

extern const MeasurementFactory kDrumMeasurement;

namespace {

constexpr double kRadius = 0.1;      // R (m)
constexpr double kSpin = 1.0;        // Ω about +y (rad/s)
constexpr double kDiameter = 0.005;  // d (m)

/// A drum along +y centred at the origin turning at Ω (seen along +y counter-clockwise, so its
/// bottom moves towards −x and material is lifted on the −x side), filled on a cubic lattice
/// below the plane through the axis tilted by `tiltDeg` (positive: higher on the −x side).
Scene tiltedFill(double tiltDeg) {
    Scene scene;
    scene.materials = {scenes::servinGrain()};
    DrumSpec drum;
    drum.diameter = 2.0 * kRadius;
    drum.length = 0.05;
    drum.speed = kSpin;
    buildDrum(drum, scene.walls, scene.meshes);
    const double tilt = tiltDeg * std::numbers::pi / 180.0;
    const Vec3 normal(std::sin(tilt), 0.0, std::cos(tilt));  // out of the free surface
    const double r = 0.5 * kDiameter;
    for (double y = -0.025 + r; y < 0.025; y += kDiameter)
        for (int i = -20; i <= 20; ++i)
            for (int k = -20; k <= 20; ++k) {
                const Vec3 x(i * kDiameter, y, k * kDiameter);
                if (std::hypot(x.x(), x.z()) > kRadius - r || x.dot(normal) > 1e-9) continue;
                ParticleSpec p;
                p.position = x;
                p.radius = r;
                p.velocity = Vec3(0.0, kSpin, 0.0).cross(x);  // rigid co-rotation
                scene.particles.push_back(p);
            }
    return scene;
}

MeasurementResult measureOnce(const World& world, MeasurementRequest request) {
    request.type = "drum";
    request.words.push_back({"wall", "drum"});
    auto m = kDrumMeasurement.make(request, world);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return {};
    StepStats stats;
    stats.step = 1;
    stats.time = 0.01;
    (*m)->sample(world, stats);
    return (*m)->result();
}

TEST(DrumMeasurement, RigidCoRotationIsAllPlugAndTheCentreOfMassGivesTheTilt) {
    for (const double tilt : {30.0, -20.0}) {
        SCOPED_TRACE(tilt);
        World world = test::makeWorld(tiltedFill(tilt));
        const MeasurementResult r = measureOnce(world, {});
        EXPECT_DOUBLE_EQ(r.scalars.at("plugFraction"), 1.0);
        EXPECT_NEAR(r.scalars.at("dynamicAngle"), tilt, 1.0);
        EXPECT_DOUBLE_EQ(r.scalars.at("dynamicAngleStd"), 0.0);
        // Particle volume over the drum volume, and Fr = DΩ²/2g.
        const double n = static_cast<double>(world.particles().size());
        EXPECT_NEAR(r.scalars.at("fillFraction"),
                    n * std::pow(kDiameter, 3) / 6.0 / (kRadius * kRadius * 0.05), 1e-12);
        EXPECT_NEAR(r.scalars.at("froude"), 2.0 * kRadius * kSpin * kSpin / (2.0 * 9.81), 1e-12);

        // Rigid rotation reads v = z' at the particles binned: each bin's mean lies in it,
        // and the material spans z' from −1 to the surface at 0.
        const Table& profile = r.tables.at("profile");
        ASSERT_GE(profile.at("zPrime").size(), 9u);
        EXPECT_NEAR(profile.at("zPrime").front(), -0.95, 1e-12);
        EXPECT_LE(profile.at("zPrime").back(), 0.05 + 1e-12);
        for (size_t k = 0; k < profile.at("zPrime").size(); ++k) {
            EXPECT_NEAR(profile.at("velocity")[k], profile.at("rigid")[k], 1e-12);
            EXPECT_NEAR(profile.at("rigid")[k], profile.at("zPrime")[k], 0.05 + 1e-12);
            EXPECT_GT(profile.at("count")[k], 0.0);
        }
    }
}

TEST(DrumMeasurement, InThePlaneTheFillIsTheDisksAreaOverTheCircles) {
    // The same fill as disks at y = 0 in a drum that is a circle in the x–z plane (a 2D scene
    // has no end caps): the drum is as long as it likes, the fill is an area fraction.
    Scene full = tiltedFill(30.0);
    Scene scene;
    scene.materials = full.materials;
    scene.settings.dimension = 2;
    scene.settings.contactLaw = ContactLaw::Linear;
    scene.walls = {full.walls[0]};
    scene.walls[0].height = 3.0;
    scene.walls[0].position.y() = -1.0;
    for (const ParticleSpec& p : full.particles)
        if (std::abs(p.position.y() - (-0.025 + 0.5 * kDiameter)) < 1e-12) {
            ParticleSpec q = p;
            q.position.y() = 0.0;
            scene.particles.push_back(q);
        }
    ASSERT_GT(scene.particles.size(), 500u);
    World world = test::makeWorld(scene);
    const MeasurementResult r = measureOnce(world, {});
    EXPECT_DOUBLE_EQ(r.scalars.at("plugFraction"), 1.0);
    EXPECT_NEAR(r.scalars.at("dynamicAngle"), 30.0, 1.0);
    const double n = static_cast<double>(world.particles().size());
    EXPECT_NEAR(r.scalars.at("fillFraction"),
                n * std::pow(0.5 * kDiameter, 2) / (kRadius * kRadius), 1e-12);
}

TEST(DrumMeasurement, PlugFractionCountsOnlyTheCoRotatingParticles) {
    // The layer above z' = −0.33 slides down the slope at 2 RΩ: v_r ≥ 2 − |r|/R ≥ 1 there.
    const double tilt = 30.0 * std::numbers::pi / 180.0;
    const Vec3 normal(std::sin(tilt), 0.0, std::cos(tilt));
    const Vec3 downhill(std::cos(tilt), 0.0, -std::sin(tilt));  // away from the lifted side
    Scene scene = tiltedFill(30.0);
    int plug = 0;
    for (ParticleSpec& p : scene.particles) {
        if (p.position.dot(normal) / kRadius > -0.33)
            p.velocity = 2.0 * kRadius * kSpin * downhill;
        else
            ++plug;
    }
    ASSERT_GT(plug, 100);
    ASSERT_LT(plug, static_cast<int>(scene.particles.size()) - 100);
    World world = test::makeWorld(scene);
    const MeasurementResult r = measureOnce(world, {});
    EXPECT_DOUBLE_EQ(r.scalars.at("plugFraction"),
                     static_cast<double>(plug) / scene.particles.size());
    EXPECT_NEAR(r.scalars.at("dynamicAngle"), 30.0, 1.0);

    // Profile: 2 in the sliding layer, rigid (= z') in the plug below; the bin holding the
    // boundary mixes both.
    const Table& profile = r.tables.at("profile");
    int sliding = 0, rigid = 0;
    for (size_t k = 0; k < profile.at("zPrime").size(); ++k) {
        const double z = profile.at("zPrime")[k];
        if (z - 0.05 > -0.3 + 1e-9) {
            EXPECT_NEAR(profile.at("velocity")[k], 2.0, 1e-3) << z;
            ++sliding;
        } else if (z + 0.05 < -0.4 + 1e-9) {
            EXPECT_NEAR(profile.at("velocity")[k], profile.at("rigid")[k], 1e-12) << z;
            EXPECT_NEAR(profile.at("velocity")[k], z, 0.05 + 1e-12) << z;
            ++rigid;
        }
    }
    EXPECT_GE(sliding, 2);
    EXPECT_GE(rigid, 5);

    // The sliders stay out even under a threshold far above wang-servin-berglund's 0.15 (their
    // v_r ≥ 2).
    MeasurementRequest loose;
    loose.numbers = {{"threshold", 1.9}};
    EXPECT_DOUBLE_EQ(measureOnce(world, loose).scalars.at("plugFraction"),
                     static_cast<double>(plug) / scene.particles.size());
}

TEST(DrumMeasurement, ToothedDrumHalfFullRollsWithinAPlausibleBand) {
    // A sanity band, not a reproduction of the papers' drums: Fr = DΩ²/2g ≈ 0.01 is the
    // rolling regime, where the surface stands well above horizontal and part of the
    // material co-rotates.
    Scene scene;
    scene.materials = {scenes::servinGrain()};
    DrumSpec drum;
    drum.diameter = 0.2;
    drum.length = 0.032;
    drum.speed = 1.0;
    drum.teeth = 12;
    buildDrum(drum, scene.walls, scene.meshes);
    const double d = 0.01, spacing = 1.05 * d;
    for (int j = -1; j <= 1; ++j)
        for (int i = -9; i <= 9; ++i)
            for (int k = -9; k <= 0; ++k) {
                const Vec3 x(i * spacing, j * spacing, k * spacing - 0.5 * spacing);
                if (std::hypot(x.x(), x.z()) > 0.1 - drum.toothHeight - d) continue;
                ParticleSpec p;
                p.position = x;
                p.radius = 0.5 * d;
                scene.particles.push_back(p);
            }
    ASSERT_GT(scene.particles.size(), 200u);
    ASSERT_LT(scene.particles.size(), 400u);
    World world = test::makeWorld(scene);
    MeasurementRequest request;
    request.type = "drum";
    request.words = {{"wall", "drum"}};
    request.numbers = {{"from", 1.5}};
    auto m = kDrumMeasurement.make(request, world);
    ASSERT_TRUE(m) << m.error().message;
    world.subscribe(std::move(*m));
    test::runUntil(world, 3.0);
    const MeasurementResult r = world.measurements().back()->result();
    EXPECT_NEAR(r.scalars.at("samples"), 150.0, 1.0);
    EXPECT_GT(r.scalars.at("dynamicAngle"), 15.0);
    EXPECT_LT(r.scalars.at("dynamicAngle"), 60.0);
    EXPECT_GT(r.scalars.at("plugFraction"), 0.2);
    EXPECT_LT(r.scalars.at("plugFraction"), 0.95);
}

TEST(DrumMeasurement, RefusesAWallThatIsNotACylinder) {
    World world = test::makeWorld(tiltedFill(0.0));
    MeasurementRequest request;
    request.type = "drum";
    request.words = {{"wall", "drum.cap0"}};
    auto m = kDrumMeasurement.make(request, world);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().message, "measurement 'drum': wall 'drum.cap0' is not a cylinder");
}

}  // namespace
}  // namespace ndem
