// The impact stage solves only the network near an impact.
#include "bench_scenes.hpp"
#include "solve/impact_region.hpp"
#include "test_util.hpp"

namespace ndem {
namespace {

/// A chain of `n` touching particle contacts 0-1, 1-2, ..., with an impact on contact k.
ContactSet chain(int n, int impactAt) {
    ContactSet c;
    for (int i = 0; i < n; ++i)
        c.add(i, i + 1, Vec3::UnitX(), Vec3::Zero(), Vec3::Zero(), 0.0, 0.01, 0.005, 0, 0,
              particlePairKey(i, i + 1), kTouching | (i == impactAt ? kImpact : 0));
    return c;
}

TEST(ImpactRegion, MarksContactsWithinDepthAlongTheNetwork) {
    const ContactSet c = chain(20, 10);  // impact between bodies 10 and 11
    ImpactRegion region;
    region.mark(c, 21, 2);
    // Bodies 10, 11 at distance 0; contacts 9 and 11 reach bodies 9 and 12 (distance 1), whose
    // contacts 8 and 12 reach distance 2: contacts 8..12 are in, the rest out.
    for (int i = 0; i < 20; ++i) EXPECT_EQ(region.contains(i), i >= 8 && i <= 12) << i;
    region.mark(c, 21, 0);
    for (int i = 0; i < 20; ++i) EXPECT_TRUE(region.contains(i));
}

TEST(ImpactRegion, CoveringTheWholeColumnGivesTheSameStepAsTheWholeNetwork) {
    // A sphere dropped on a resting column of 5: with depth 10 the region covers everything,
    // and the result must be bit-identical to solving the whole network.
    auto finalTop = [](int depth) {
        StepSettings s;
        s.timeStep = 1e-3;
        s.iterations = 100;
        s.impactDepth = depth;
        Scene scene = scenes::column(6, 0.01, scenes::servinGrain(), s);
        scene.particles.back().position.z() += 0.02;  // the top sphere falls 2 cm onto the rest
        World world = test::makeWorld(scene);
        int impacts = 0;
        while (world.time() < 0.2) impacts += world.step().impacts;
        EXPECT_GT(impacts, 0);
        return world.particles().position[world.particles().indexOfId()[5]];
    };
    EXPECT_EQ(finalTop(10), finalTop(0));
}

}  // namespace
}  // namespace ndem
