// The step's stages are timed where they are called: every phase that ran reports time, one
// that did not run reports none, and the phases never add up to more than the step took.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <chrono>

namespace ndem {
namespace {

double wallSecondsOf(World& world, StepStats& stats) {
    const auto start = std::chrono::steady_clock::now();
    stats = world.step();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(StepStages, EveryPhaseThatRanIsTimedAndTheySumToNoMoreThanTheStep) {
    StepSettings s;
    s.timeStep = 0.005;
    s.iterations = 30;
    s.threads = 1;
    s.reduction.enabled = true;
    World world = test::makeWorld(scenes::bed(200, 0.01, scenes::servinGrain(), s));
    test::runUntil(world, 1.0);
    ASSERT_GT(world.reduction().memberCount(), 0) << "the bed should have merged by now";

    // A grain thrown onto the bed: an impact, a split, the solve and a merge in one step.
    double top = 0.0;
    const ParticleStore& p = world.particles();
    for (size_t i = 0; i < p.size(); ++i)
        top = std::max(top, p.position[i].z() + p.radius[i]);
    ParticleSpec drop;
    drop.radius = 0.005;
    drop.position = Vec3(0.0, 0.0, top + 0.0055);
    drop.velocity = Vec3(0.0, 0.0, -1.0);
    world.addParticle(drop);
    StepStats st;
    double wall = 0.0;
    for (int k = 0; k < 3 && st.impacts == 0; ++k)
        wall = wallSecondsOf(world, st);
    ASSERT_GT(st.impacts, 0);
    const PhaseTimes& t = st.seconds;
    EXPECT_GT(t.collide, 0.0);
    EXPECT_GT(t.impact, 0.0);
    EXPECT_GT(t.solve, 0.0);
    EXPECT_GT(t.integrate, 0.0);
    EXPECT_GT(t.reduce, 0.0);
    EXPECT_GT(t.measure, 0.0);
    EXPECT_LE(t.total(), wall);

    // Smooth DEM has neither an impact stage nor model reduction.
    StepSettings smooth = world.settings();
    smooth.mode = StepMode::Smooth;
    smooth.reduction.enabled = false;
    smooth.timeStep = 0.5 * world.smoothStabilityLimit();
    ASSERT_FALSE(world.applySettings(smooth).has_value());
    wall = wallSecondsOf(world, st);
    EXPECT_GT(st.seconds.collide, 0.0);
    EXPECT_GT(st.seconds.solve, 0.0);
    EXPECT_GT(st.seconds.integrate, 0.0);
    EXPECT_EQ(st.seconds.impact, 0.0);
    EXPECT_EQ(st.seconds.reduce, 0.0);
    EXPECT_LE(st.seconds.total(), wall);
}

}  // namespace
}  // namespace ndem
