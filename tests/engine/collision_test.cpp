// Two-sphere head-on collision: the semi-smooth limit h → 0 reproduces smooth Hertz DEM
// (servin-2014 Eq. 31–33), and the impact stage gives Newton's restitution exactly.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>

namespace ndem {
namespace {

struct CollisionResult {
    double restitution = 0.0;  ///< outgoing / incoming relative speed
    double maxOverlap = 0.0;   ///< max δ/d during the collision
};

CollisionResult collide(StepMode mode, double h, double damping, bool impactStage,
                        double restitution) {
    Material grain = scenes::servinGrain();
    grain.youngsModulus = 1e7;
    grain.damping = damping;
    grain.restitution = restitution;
    StepSettings s;
    s.mode = mode;
    s.timeStep = h;
    s.iterations = 20;
    s.impactEnabled = impactStage;
    const double speed = 0.5;
    World world = test::makeWorld(scenes::headOnCollision(0.01, speed, grain, s));
    CollisionResult out;
    while (world.time() < 0.01)
        out.maxOverlap = std::max(out.maxOverlap, world.step().maxOverlap);
    const auto& p = world.particles();
    const double after = p.velocity[p.indexOfId()[1]].x() - p.velocity[p.indexOfId()[0]].x();
    out.restitution = after / (2.0 * speed);
    return out;
}

TEST(HeadOnCollision, SemiSmoothAtSmallStepMatchesSmoothDem) {
    for (double damping : {1e-5, 1e-4}) {
        const CollisionResult smooth = collide(StepMode::Smooth, 1e-6, damping, false, 0.0);
        const CollisionResult semi = collide(StepMode::SemiSmooth, 1e-6, damping, false, 0.0);
        // A viscous Hertz collision: restitution below 1 set by the damping c, and the
        // analytic peak overlap (15 m* v² / (16 E* √R*))^{2/5} = 0.0346 d for c → 0.
        EXPECT_LT(smooth.restitution, 0.99);
        EXPECT_NEAR(semi.restitution, smooth.restitution, 0.005 * smooth.restitution)
            << "c = " << damping;
        EXPECT_NEAR(semi.maxOverlap, smooth.maxOverlap, 0.01 * smooth.maxOverlap);
    }
}

TEST(HeadOnCollision, SmoothDemPeakOverlapMatchesHertzTheory) {
    const CollisionResult smooth = collide(StepMode::Smooth, 1e-6, 0.0, false, 0.0);
    // m* = m/2, E* = E / (2(1 − ν²)), R* = r/2, approach speed 1 m/s.
    const double mass = 2500.0 * M_PI / 6.0 * 1e-6;
    const double eStar = 1e7 / (2.0 * (1.0 - 0.09));
    const double peak = std::pow(15.0 * 0.5 * mass * 1.0 / (16.0 * eStar * std::sqrt(0.0025)), 0.4);
    EXPECT_NEAR(smooth.maxOverlap, peak / 0.01, 0.01 * peak / 0.01);
    EXPECT_NEAR(smooth.restitution, 1.0, 1e-3);  // undamped Hertz is elastic
}

TEST(HeadOnCollision, ImpactStageGivesRestitutionWithin2Percent) {
    for (double h : {1e-3, 1e-2}) {
        const CollisionResult plastic = collide(StepMode::SemiSmooth, h, 0.0, true, 0.0);
        EXPECT_LT(std::abs(plastic.restitution), 0.02) << "e = 0, h = " << h;
        const CollisionResult half = collide(StepMode::SemiSmooth, h, 0.0, true, 0.5);
        EXPECT_NEAR(half.restitution, 0.5, 0.02 * 0.5) << "e = 0.5, h = " << h;
    }
}

TEST(HeadOnCollision, NonsmoothModeGivesRestitution) {
    const CollisionResult r = collide(StepMode::Nonsmooth, 1e-2, 0.0, true, 0.5);
    EXPECT_NEAR(r.restitution, 0.5, 0.01);
}

}  // namespace
}  // namespace ndem
