// The impact stage solves only the network near an impact.
#include "solve/rows/impact_region.hpp"
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <vector>

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
    for (int i = 0; i < 20; ++i)
        EXPECT_EQ(region.contains(i), i >= 8 && i <= 12) << i;
    region.mark(c, 21, 0);
    for (int i = 0; i < 20; ++i)
        EXPECT_TRUE(region.contains(i));
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
        while (world.time() < 0.2)
            impacts += world.step().impacts;
        EXPECT_GT(impacts, 0);
        return world.particles().position[world.particles().indexOfId()[5]];
    };
    EXPECT_EQ(finalTop(10), finalTop(0));
}

// A sphere at 1 m/s strikes a chain of ten at rest in free space, plastically (e = 0), as the
// impact stage sees it (one step, its sweeps enough to converge). The whole network takes the
// impact together: all eleven leave at v0/11, momentum's share. A region two contacts deep
// takes it among the first four spheres alone (v0/4 each after the impact stage); the rest of
// the chain learns of it only through the compliant contacts of the continuous stage, so at
// the step's end the far end of the chain has barely moved. Momentum holds in both.
TEST(ImpactRegion, ATruncatedRegionSharesAnImpactAmongItsOwnBodiesOnly) {
    const double d = 0.01, v0 = 1.0;
    auto afterImpact = [&](int depth) {
        StepSettings s;
        s.timeStep = 1e-3;
        s.iterations = 50;
        s.impactIterations = 5000;
        s.impactDepth = depth;
        s.gravity = Vec3::Zero();
        Material grain = scenes::servinGrain();
        grain.restitution = 0.0;
        grain.friction = 0.0;
        Scene scene = scenes::column(11, d, grain, s);
        scene.walls.clear();
        for (int k = 0; k < 11; ++k) {
            // Sphere 0 a quarter millimetre short of the chain, which it closes within the step.
            scene.particles[k].position = Vec3(k == 0 ? -0.25e-3 : k * d, 0.0, 0.0);
            scene.particles[k].velocity = Vec3(k == 0 ? v0 : 0.0, 0.0, 0.0);
        }
        World world = test::makeWorld(scene);
        const StepStats stats = world.step();
        EXPECT_EQ(stats.impacts, 1);
        std::vector<double> v;
        for (int k = 0; k < 11; ++k)
            v.push_back(world.particles().velocity[world.particles().indexOfId()[k]].x());
        return v;
    };
    const std::vector<double> whole = afterImpact(0), truncated = afterImpact(2);
    double pWhole = 0.0, pTruncated = 0.0;
    for (int k = 0; k < 11; ++k) {
        EXPECT_NEAR(whole[k], v0 / 11.0, 1e-3 * v0) << k;
        pWhole += whole[k];
        pTruncated += truncated[k];
    }
    EXPECT_NEAR(pWhole, v0, 1e-9);
    EXPECT_NEAR(pTruncated, v0, 1e-9);
    EXPECT_GT(truncated[0], 2.0 * v0 / 11.0);   // the struck end still fast
    EXPECT_LT(truncated[10], 0.1 * v0 / 11.0);  // the far end not yet reached
}

}  // namespace
}  // namespace ndem
