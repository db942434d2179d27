// Rolling resistance in the interior-point methods: the rolling moments as cones led by the
// contact's normal reaction (‖m_r‖ ≤ L r_n, |m_twist| ≤ L r_n, L = μ_r R*), against the
// analytic motions the PGS reproduces (incline_test, solver_options_test, planar_test), for
// the cone program, Coulomb's fixed point in space and the complementarity problem in the plane.
#include "bench_scenes.hpp"
#include "solve/rows/contact_problem.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {
namespace {

constexpr double kG = 9.81;
constexpr double kD = 0.01;

StepSettings interiorPoint(int dimension, SlidingRule rule) {
    StepSettings s;
    s.dimension = dimension;
    s.mode = StepMode::Nonsmooth;
    s.timeStep = 1e-3;
    s.iterations = 50;
    s.method = "interior-point";
    s.solverBlocks.edit<InteriorPointSettings>().slidingRule = rule;
    return s;
}

Material grain(double muR) {
    Material m = scenes::servinGrain();
    m.friction = 0.5;
    m.rollingResistance = muR;
    return m;
}

TEST(InteriorPointRolling, StopsARollingSphereAtSevenTenthsVSquaredOverMuRG) {
    // A constant resisting torque μ_r r m g with rolling contact: a = −(5/7) μ_r g.
    const double v0 = 0.5;
    for (SlidingRule rule : {SlidingRule::Associated, SlidingRule::NonAssociated})
        for (double muR : {0.1, 0.3}) {
            World world =
                test::makeWorld(scenes::rollingSphere(v0, kD, grain(muR), interiorPoint(3, rule)));
            const double predicted = 7.0 * v0 * v0 / (10.0 * muR * kG);
            test::runUntil(world, 2.0 * predicted / v0 + 0.3);
            const ParticleStore& p = world.particles();
            const std::string what =
                "mu_r = " + std::to_string(muR) +
                (rule == SlidingRule::Associated ? ", associated" : ", Coulomb");
            EXPECT_LT(p.velocity[0].norm(), 1e-6) << "still moving, " << what;
            EXPECT_LT(p.angularVelocity[0].norm(), 1e-4) << "still turning, " << what;
            EXPECT_NEAR(p.position[0].x(), predicted, 0.05 * predicted) << what;
            // It rolled on the floor: Coulomb's rule does not open the contact; the associated
            // one lifts it into the dilation layer the gap rows then hold (krabbenhoft-2012 Sec.
            // 3.2), at most L ω h a step.
            const double lift = p.position[0].z() - 0.5 * kD;
            if (rule == SlidingRule::NonAssociated) {
                EXPECT_NEAR(lift, 0.0, 1e-6 * kD) << what;
            }
            EXPECT_LT(std::abs(lift), 0.05 * kD) << what;
        }
}

TEST(InteriorPointRolling, TwistingResistanceStopsASpinningSphere) {
    // Spinning about the vertical: torque μ_r r m g decelerates it at 2.5 μ_r g / r.
    Scene scene =
        scenes::rollingSphere(0.0, kD, grain(0.1), interiorPoint(3, SlidingRule::NonAssociated));
    scene.particles[0].angularVelocity = Vec3(0.0, 0.0, 200.0);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.1);
    const double w1 = world.particles().angularVelocity[0].z();
    test::runUntil(world, 0.2);
    const double w2 = world.particles().angularVelocity[0].z();
    const double expected = 2.5 * 0.1 * kG / 0.005;
    EXPECT_NEAR((w1 - w2) / 0.1, expected, 0.01 * expected);
    test::runUntil(world, 0.5);
    EXPECT_NEAR(world.particles().angularVelocity[0].z(), 0.0, 1e-9);
    EXPECT_NEAR(world.particles().position[0].z(), 0.5 * kD, 1e-6 * kD);
}

/// Down-slope velocity gained between t = 0.1 s and 0.4 s on an incline, over 0.3 s.
double inclineAcceleration(double angleDeg, double muR, const StepSettings& s) {
    World world = test::makeWorld(scenes::incline(angleDeg, kD, grain(muR), s, false));
    const Vec3 down =
        Quat(Eigen::AngleAxisd(angleDeg * std::numbers::pi / 180.0, Vec3::UnitY())) * Vec3::UnitX();
    test::runUntil(world, 0.1);
    const double v0 = world.particles().velocity[0].dot(down);
    test::runUntil(world, 0.4);
    return (world.particles().velocity[0].dot(down) - v0) / 0.3;
}

TEST(InteriorPointRolling, AGrainRestsBelowTheRollingAngleAndRollsAboveIt) {
    // At rest the friction f = m g sin θ turns the grain against the rolling moment f r, held
    // while tan θ ≤ μ_r (R* = r on a wall). Above it the grain rolls at the limit:
    // a = g (sin θ − μ_r cos θ) / (1 + I / (m r²)), 5/7 for a sphere and 2/3 for a disk.
    const double muR = 0.1;
    const double still = std::atan(0.5 * muR) * 180.0 / std::numbers::pi;
    const double rolls = std::atan(3.0 * muR) * 180.0 / std::numbers::pi;
    const double t = std::atan(3.0 * muR);
    for (int dimension : {3, 2})
        for (SlidingRule rule : {SlidingRule::Associated, SlidingRule::NonAssociated}) {
            const StepSettings s = interiorPoint(dimension, rule);
            const std::string what =
                "dimension " + std::to_string(dimension) +
                (rule == SlidingRule::Associated ? ", associated" : ", Coulomb");
            EXPECT_NEAR(inclineAcceleration(still, muR, s), 0.0, 1e-6) << what;
            const double expected =
                kG * (std::sin(t) - muR * std::cos(t)) * (dimension == 3 ? 5.0 / 7.0 : 2.0 / 3.0);
            // The associated rule lifts the rolling grain at L Δω a step; the engine's
            // speculative rows (θ = 1) then let it fall back into up to δ_ref·d of overlap, and
            // it chatters (±9 μm) at 1.4 % (space) and 1.8 % (plane) below the acceleration,
            // where the paper's exact gap rows (θ < 1, the static formulation) keep it on its
            // dilation layer at 0.3 % (docs/physics-notes.md). Coulomb's rule does not lift it.
            const double within = rule == SlidingRule::Associated ? 0.03 : 0.01;
            EXPECT_NEAR(inclineAcceleration(rolls, muR, s), expected, within * expected) << what;
        }
}

TEST(InteriorPointRolling, ADiskStopsAtThreeQuartersVSquaredOverMuRG) {
    const double v0 = 0.5, muR = 0.2;
    for (SlidingRule rule : {SlidingRule::Associated, SlidingRule::NonAssociated}) {
        World world =
            test::makeWorld(scenes::rollingSphere(v0, kD, grain(muR), interiorPoint(2, rule)));
        const double predicted = 3.0 * v0 * v0 / (4.0 * muR * kG);
        test::runUntil(world, 2.0 * predicted / v0 + 0.3);
        const ParticleStore& p = world.particles();
        EXPECT_LT(p.velocity[0].norm(), 1e-6);
        EXPECT_NEAR(p.position[0].x(), predicted, 0.05 * predicted);
    }
}

}  // namespace
}  // namespace ndem
