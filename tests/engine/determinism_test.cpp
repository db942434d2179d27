// Same scene, same settings, one thread → bit-identical state.
#include "bench_scenes.hpp"
#include "test_util.hpp"

namespace ndem {
namespace {

/// A bed settling from a loose lattice: warm-started, reordered in storage every 7 steps.
StepSettings settlingSettings() {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 30;
    s.warmStart = true;
    s.reorderInterval = 7;
    return s;
}

TEST(Determinism, SameSceneGivesBitIdenticalState) {
    StepSettings s = settlingSettings();
    auto run = [&] {
        World world = test::makeWorld(scenes::bed(300, 0.01, scenes::servinGrain(), s, 3));
        for (int i = 0; i < 100; ++i)
            world.step();
        return stateHash(world.particles());
    };
    const std::uint64_t first = run();
    EXPECT_EQ(first, run());
}

TEST(Determinism, ThreadCountDoesNotChangeTheState) {
    // Colours are independent of the thread count, and so is every sum: 1, 2 and 3 threads
    // step the same bed (rolling resistance on, particles falling onto it) bit for bit.
    StepSettings s = settlingSettings();
    Material grain = scenes::servinGrain();
    grain.rollingResistance = 0.1;
    auto run = [&](int threads) {
        s.threads = threads;
        World world = test::makeWorld(scenes::bed(600, 0.01, grain, s, 3));
        for (int i = 0; i < 70; ++i)
            world.step();
        return stateHash(world.particles());
    };
    const std::uint64_t one = run(1);
    EXPECT_EQ(one, run(2));
    EXPECT_EQ(one, run(3));
}

TEST(Determinism, SmoothDemIsTheSameForAnyThreadCount) {
    // Smooth DEM computes each contact's force on threads and sums them onto the grains in
    // contact order: springs, rolling resistance and walls included, bit for bit.
    StepSettings s = settlingSettings();
    s.mode = StepMode::Smooth;
    s.timeStep = 1e-4;
    Material grain = scenes::servinGrain();
    grain.rollingResistance = 0.1;
    auto run = [&](int threads) {
        s.threads = threads;
        World world = test::makeWorld(scenes::bed(2500, 0.01, grain, s, 3));
        for (int i = 0; i < 800; ++i)
            world.step();
        // Two threads take 1 024 contacts and more (the smooth DEM detects touching ones only).
        EXPECT_GT(world.contacts().size(), 1100u);
        return stateHash(world.particles());
    };
    const std::uint64_t one = run(1);
    EXPECT_EQ(one, run(2));
    EXPECT_EQ(one, run(3));
}

TEST(Determinism, NeighbourListSkinDoesNotChangeTheState) {
    // The skin only decides how often the lists are searched and how many grains escape them:
    // without one, at the default and at a wide one, a bed settling from a loose lattice
    // (grains falling, landing, reordered in storage) steps bit for bit the same.
    StepSettings s = settlingSettings();
    auto run = [&](double skin) {
        s.contactSkin = skin;
        World world = test::makeWorld(scenes::bed(600, 0.01, scenes::servinGrain(), s, 3));
        for (int i = 0; i < 120; ++i)
            world.step();
        return stateHash(world.particles());
    };
    const std::uint64_t none = run(0.0);
    EXPECT_EQ(none, run(0.5));
    EXPECT_EQ(none, run(3.0));
}

TEST(Determinism, ReorderingPermutesStorageButKeepsEveryParticle) {
    // The bed starts as a loose lattice: no contacts in the first step, so the Gauss-Seidel
    // order cannot matter and both worlds must agree exactly, particle by particle (by id).
    StepSettings s;
    s.timeStep = 5e-3;
    auto stepOnce = [&](int reorder) {
        s.reorderInterval = reorder;
        World world = test::makeWorld(scenes::bed(300, 0.01, scenes::servinGrain(), s, 3));
        world.step();
        return world;
    };
    const World plain = stepOnce(0), sorted = stepOnce(1);
    const ParticleStore &a = plain.particles(), &b = sorted.particles();
    ASSERT_EQ(a.size(), b.size());
    int moved = 0;
    for (std::uint32_t id = 0; id < a.size(); ++id) {
        const Index ia = a.indexOfId()[id], ib = b.indexOfId()[id];
        moved += (ia != ib);
        EXPECT_EQ(a.position[ia], b.position[ib]);
        EXPECT_EQ(a.velocity[ia], b.velocity[ib]);
        EXPECT_EQ(a.radius[ia], b.radius[ib]);
        EXPECT_EQ(a.mass[ia], b.mass[ib]);
        EXPECT_EQ(b.id[ib], id);
    }
    EXPECT_GT(moved, 100) << "the Morton sort should have moved most particles";
}

TEST(Determinism, ReorderingGivesTheSameBedWithinItsRandomness) {
    // Storage order is the Gauss-Seidel order: settling is chaotic, packings differ in detail,
    // but not in bulk.
    auto meanHeight = [](int reorder) {
        StepSettings s;
        s.timeStep = 5e-3;
        s.iterations = 50;
        s.reorderInterval = reorder;
        World world = test::makeWorld(scenes::bed(300, 0.01, scenes::servinGrain(), s, 3));
        test::runUntil(world, 1.5);
        double z = 0.0;
        for (const Vec3& x : world.particles().position)
            z += x.z();
        return z / world.particles().size();
    };
    EXPECT_NEAR(meanHeight(0), meanHeight(5), 0.1 * 0.01);
}

}  // namespace
}  // namespace ndem
