// The divergence guards (world/state_guard.hpp): a non-finite value stops the run and names the
// step, the particle and the quantity; an overlap beyond guards.overlap, energy from nothing and
// grains that left the walls give one warning each, however long the run; a bed settling under
// gravity gives none.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {
namespace {

/// Grains in a square box of planes (floor and four sides), d = 1 cm, gravity on.
Scene grainsOnAFloor(int n) {
    StepSettings s;
    s.timeStep = 0.005;
    s.iterations = 30;
    return scenes::bed(n, 0.01, scenes::servinGrain(), s);
}

long countOf(const World& world, const std::string& kind) {
    return std::count_if(world.warnings().begin(), world.warnings().end(),
                         [&](const RunWarning& w) { return w.kind == kind; });
}

TEST(StateGuard, ASettlingBedGivesNoWarning) {
    World world = test::makeWorld(grainsOnAFloor(300));
    test::runUntil(world, 1.5);
    EXPECT_FALSE(world.divergence());
    for (const RunWarning& w : world.warnings())
        ADD_FAILURE() << w.message;
}

TEST(StateGuard, ANaNStopsTheRunNamingStepParticleAndQuantity) {
    World world = test::makeWorld(grainsOnAFloor(50));
    test::runUntil(world, 0.1);
    ASSERT_FALSE(world.divergence());
    ParticleStore& p = world.particles();
    const size_t k = 17;
    const std::uint32_t id = p.id[k];
    p.angularVelocity[k].y() = std::numeric_limits<double>::quiet_NaN();
    const StepStats st = world.step();
    ASSERT_TRUE(world.divergence());
    const Divergence& d = *world.divergence();
    EXPECT_EQ(d.step, st.step);
    // The NaN spreads to the grain's contact partners within the step: the first one in
    // storage order is named, with what is not finite.
    const size_t named = p.indexOfId()[d.particle];
    EXPECT_FALSE(p.velocity[named].allFinite() && p.angularVelocity[named].allFinite());
    EXPECT_TRUE(d.quantity == "velocity" || d.quantity == "angular velocity") << d.quantity;
    EXPECT_NE(d.message.find("step " + std::to_string(st.step)), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("particle " + std::to_string(d.particle)), std::string::npos);
    EXPECT_FALSE(p.angularVelocity[p.indexOfId()[id]].allFinite());
}

TEST(StateGuard, AnOverflowingKineticEnergyIsADivergence) {
    Scene scene = grainsOnAFloor(8);
    scene.settings.gravity = Vec3(0.0, 0.0, -1e308);
    World world = test::makeWorld(scene);
    world.step();
    ASSERT_TRUE(world.divergence());
    EXPECT_EQ(world.divergence()->quantity, "velocity");
    EXPECT_EQ(world.divergence()->step, 1);
}

TEST(StateGuard, GrainsThrownIntoEachOtherStopTheRunBeforeTheSolve) {
    // A step that went wrong without a NaN (a solve far from converged) can leave grains piled
    // into each other: every pair a contact. The run stops at detection, its state the last
    // step's, rather than building a Delassus operator over all of them.
    World world = test::makeWorld(grainsOnAFloor(300));
    test::runUntil(world, 0.05);
    ASSERT_FALSE(world.divergence());
    ParticleStore& p = world.particles();
    for (size_t i = 0; i < 150; ++i)
        p.position[i] = p.position[0] + Vec3(1e-4 * (i % 7), 1e-4 * (i % 5), 1e-4 * (i % 3));
    const std::vector<Vec3> before = p.position;
    world.step();
    ASSERT_TRUE(world.divergence());
    const Divergence& d = *world.divergence();
    EXPECT_EQ(d.quantity, "contacts");
    EXPECT_NE(d.message.find("touching contacts among 300 grains"), std::string::npos) << d.message;
    EXPECT_LT(p.indexOfId()[d.particle], 150u);
    EXPECT_EQ(p.position, before);
    // An ordinary packing, however dense, is far below the bound.
    World bed = test::makeWorld(grainsOnAFloor(300));
    test::runUntil(bed, 1.0);
    EXPECT_FALSE(bed.divergence());
}

TEST(StateGuard, GrainsThrownMetresInAStepStopTheRunBeforeTheSolve) {
    // Speeds a bad step left behind bring every pair within the speculative reach.
    World world = test::makeWorld(grainsOnAFloor(600));
    test::runUntil(world, 0.02);
    ParticleStore& p = world.particles();
    for (size_t i = 0; i < p.size(); ++i)
        p.velocity[i] = 1000.0 * Vec3(std::cos(0.1 * i), std::sin(0.1 * i), 0.3).normalized();
    world.step();
    ASSERT_TRUE(world.divergence());
    EXPECT_EQ(world.divergence()->quantity, "contacts");
    EXPECT_NE(world.divergence()->message.find("not touching"), std::string::npos)
        << world.divergence()->message;
}

TEST(StateGuard, AStepTooLargeForTheStiffnessWarnsOnceOfOverlapAndEscape) {
    // The example: h = 1 s and E = 10¹² Pa pour the bed through its floor.
    Scene scene = grainsOnAFloor(200);
    scene.settings.timeStep = 1.0;
    scene.materials[0].youngsModulus = 1e12;
    World world = test::makeWorld(scene);
    for (int k = 0; k < 6; ++k)
        world.step();
    EXPECT_EQ(countOf(world, "overlap"), 1);
    EXPECT_EQ(countOf(world, "escape"), 1);
    for (const RunWarning& w : world.warnings()) {
        EXPECT_GE(w.step, 1);
        if (w.kind == "overlap") {
            EXPECT_NE(w.message.find("guards.overlap = 0.2 d"), std::string::npos) << w.message;
        }
        if (w.kind == "escape") {
            EXPECT_NE(w.message.find("behind wall"), std::string::npos) << w.message;
        }
    }
    // The threshold is a setting; 0 turns the overlap warning off.
    scene.settings.guardOverlap = 0.0;
    World quiet = test::makeWorld(scene);
    for (int k = 0; k < 6; ++k)
        quiet.step();
    EXPECT_EQ(countOf(quiet, "overlap"), 0);
}

TEST(StateGuard, EnergyFromNothingWarns) {
    // Two grains placed half a diameter into each other, gravity off: the contact pushes them
    // apart with energy no wall, emitter or ramp supplied.
    Scene scene = grainsOnAFloor(2);
    scene.settings.gravity = Vec3::Zero();
    scene.walls.clear();
    scene.particles[0].position = Vec3::Zero();
    scene.particles[1].position = Vec3(0.005, 0.0, 0.0);
    scene.particles[0].velocity = scene.particles[1].velocity = Vec3::Zero();
    World world = test::makeWorld(scene);
    for (int k = 0; k < 20; ++k)
        world.step();
    EXPECT_EQ(countOf(world, "energy"), 1);
    // The same grains apart, moving: nothing grows.
    scene.particles[1].position = Vec3(0.02, 0.0, 0.0);
    scene.particles[1].velocity = Vec3(0.1, 0.0, 0.0);
    World apart = test::makeWorld(scene);
    for (int k = 0; k < 20; ++k)
        apart.step();
    EXPECT_EQ(countOf(apart, "energy"), 0);
}

TEST(StateGuard, AnEditBetweenStepsIsNoEnergyFromNothing) {
    // The app's gravity field raised threefold, and a side wall moved in by a grain radius,
    // on a settled bed: the energy jumps, but an edit supplied it.
    World world = test::makeWorld(grainsOnAFloor(300));
    test::runUntil(world, 1.0);
    StepSettings s = world.settings();
    s.gravity *= 3.0;
    ASSERT_FALSE(world.applySettings(s));
    test::runUntil(world, 1.3);
    world.walls()[1].position += 0.005 * (world.walls()[1].orientation * Vec3::UnitZ());
    test::runUntil(world, 1.6);
    EXPECT_EQ(countOf(world, "energy"), 0) << world.warnings().front().message;
}

TEST(StateGuard, AGrainThrownOutOfTheSceneWarnsOnce) {
    Scene scene = grainsOnAFloor(50);
    scene.particles[3].velocity = Vec3(0.0, 0.0, 50.0);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.5);
    ASSERT_EQ(countOf(world, "escape"), 1);
    EXPECT_NE(world.warnings()[0].message.find("left the scene"), std::string::npos)
        << world.warnings()[0].message;
}

}  // namespace
}  // namespace ndem
