// wallPressure on the shipped silo, shrunk: the strips account for every newton the grains
// push the wall with, and friction on the wall makes the profile saturate (Janssen).
#include "io/scene_file.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <numbers>

namespace ndem {

extern const MeasurementFactory kWallPressureMeasurement;

namespace {

constexpr int kGrains = 1000;      // fill ≈ 15 d: six 2.5 d strips below the surface
constexpr double kRadius = 0.045;  // R of silo.json (m)

/// Radial force the grains push the cylinder wall outwards with in the last step (N), from
/// the contact geometry: each contact force on the wall projected on the radial direction at
/// its point. Friction is tangential and drops out; nothing here uses the contact normal.
double radialWallForce(const World& world, int wallIndex) {
    const Wall& wall = world.walls()[wallIndex];
    const ContactSet& c = world.contacts();
    const double h = world.settings().timeStep;
    double total = 0.0;
    for (size_t k = 0; k < c.size(); ++k) {
        if (!(c.flags[k] & kWallContact) || c.bodyB[k] != wallIndex) continue;
        const Vec3 point = wall.toLocal(world.particles().position[c.bodyA[k]] + c.leverA[k]);
        const Vec3 radial = Vec3(point.x(), point.y(), 0.0).normalized();
        const Vec3 impulse =
            (c.normalImpulse[k] + c.impactImpulse[k]) * c.normal[k] + c.frictionImpulse[k];
        total += (wall.orientation.conjugate() * impulse).dot(radial) / h;
    }
    return total;
}

struct SiloRun {
    MeasurementResult lastStep;  ///< default strips, sampled in the last step only
    MeasurementResult profile;   ///< 2.5 d strips over the last 0.5 s
    double radialForce = 0.0;    ///< of the last step (N)
};

/// The silo is settled once for all tests here (about 4 s in Release).
const SiloRun& siloRun() {
    static const SiloRun run = [] {
        auto scene =
            loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/silo.json",
                          {{"particles.0.count", std::to_string(kGrains)}, {"duration", "3"}});
        EXPECT_TRUE(scene.ok()) << scene.error().message;
        World world = test::makeWorld(*scene);
        const MeasurementRequest lastStep{
            "wallPressure", {{"from", 2.995}}, {{"wall", "wall"}}, {}};
        const MeasurementRequest profile{
            "wallPressure", {{"from", 2.5}, {"strip", 0.025}}, {{"wall", "wall"}}, {}};
        for (const MeasurementRequest& r : {lastStep, profile}) {
            auto m = kWallPressureMeasurement.make(r, world);
            EXPECT_TRUE(m.ok()) << m.error().message;
            world.subscribe(std::move(m.value()));
        }
        test::runUntil(world, scene->duration);
        EXPECT_EQ(world.walls()[1].name, "wall");
        return SiloRun{world.measurements()[0]->result(), world.measurements()[1]->result(),
                       radialWallForce(world, 1)};
    }();
    return run;
}

TEST(WallPressure, StripsAddUpToTheRadialForceOnTheWallWithin1Percent) {
    const MeasurementResult& r = siloRun().lastStep;
    ASSERT_EQ(r.scalars.at("samples"), 1.0);
    const double strip = r.scalars.at("strip");
    EXPECT_NEAR(strip, 5 * 0.01, 1e-12);  // default: 5 mean diameters
    double fromStrips = 0.0;
    for (double p : r.tables.at("profile").at("pressure"))
        fromStrips += p * 2.0 * std::numbers::pi * kRadius * strip;
    const double radial = siloRun().radialForce;
    EXPECT_GT(radial, 1.0);  // grains at rest under gravity do push the wall
    EXPECT_NEAR(fromStrips, radial, 0.01 * radial);
    EXPECT_NEAR(r.scalars.at("wallNormalForce"), radial, 0.01 * radial);
}

TEST(WallPressure, FillHeightAndBulkDensityMatchTheGrains) {
    const MeasurementResult& r = siloRun().profile;
    const double fill = r.scalars.at("fillHeight");
    const double grainVolume = kGrains * std::numbers::pi / 6.0 * 1e-6;
    const double area = std::numbers::pi * kRadius * kRadius;
    // A random packing of spheres: solid fraction between 0.5 and 0.65.
    EXPECT_GT(fill, grainVolume / 0.65 / area);
    EXPECT_LT(fill, grainVolume / 0.50 / area);
    EXPECT_NEAR(r.scalars.at("bulkDensity") * area * fill, 2500.0 * grainVolume,
                1e-9 * 2500.0 * grainVolume);
    // The hydrostatic column is ρ_b g (H − z) row by row, 0 above the surface.
    const auto& profile = r.tables.at("profile");
    for (size_t k = 0; k < profile.at("z").size(); ++k)
        EXPECT_NEAR(profile.at("hydrostatic")[k],
                    r.scalars.at("bulkDensity") * 9.82 * std::max(0.0, fill - profile.at("z")[k]),
                    1e-6);
}

TEST(WallPressure, FrictionalWallGivesAJanssenProfileBelowHydrostatic) {
    const MeasurementResult& r = siloRun().profile;
    ASSERT_GE(r.tables.at("profile").at("z").size(), 5u);
    EXPECT_LT(r.scalars.at("fitRelativeResidual"), 0.15);
    EXPECT_LT(r.scalars.at("bottomRatio"), 1.0);  // the wall carries part of the weight
    EXPECT_GT(r.scalars.at("bottomRatio"), 0.0);
    EXPECT_GT(r.scalars.at("janssenK"), 0.0);
    EXPECT_LT(r.scalars.at("janssenK"), 1.5);
    // Saturation: λ is shorter than a few fill heights (a fluid would give λ ≫ H).
    EXPECT_LT(r.scalars.at("lambda"), 3.0 * r.scalars.at("fillHeight"));
    EXPECT_EQ(r.scalars.at("wallFriction"), 0.7);
    EXPECT_NEAR(r.scalars.at("janssenK"), kRadius / (2.0 * 0.7 * r.scalars.at("lambda")), 1e-12);
}

}  // namespace
}  // namespace ndem
