// Solver options: the linear law, twisting resistance, the residual tolerance, model-based
// warm starting, the hard nonsmooth limit.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>

namespace ndem {
namespace {

constexpr double kG = 9.81;
constexpr double kD = 0.01;

TEST(ContactLaw, LinearLawGivesOverlapWeightOverStiffness) {
    Material grain = scenes::servinGrain();
    grain.linearStiffness = 3000.0;  // servin-wang, Table 1
    grain.damping = 0.01;
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 200;
    s.contactLaw = ContactLaw::Linear;
    World world = test::makeWorld(scenes::column(5, kD, grain, s));
    test::runUntil(world, 2.0);
    const auto& p = world.particles();
    // Bottom contact carries five spheres; floor and pair stiffness are both 3000 N/m here.
    const Index bottom = p.indexOfId()[0];
    const double expected = 5.0 * p.mass[bottom] * kG / 3000.0;
    EXPECT_NEAR(p.radius[bottom] - p.position[bottom].z(), expected, 1e-3 * expected);
}

TEST(ContactLaw, NonsmoothModeIsRigid) {
    // ε = γ = 0: a resting column keeps no elastic overlap, only the PGS truncation error, far
    // below the Hertz overlap the semi-smooth mode gives the same grains.
    auto maxOverlap = [](StepMode mode) {
        StepSettings s;
        s.timeStep = 1e-3;
        s.iterations = 200;
        s.mode = mode;
        Material grain = scenes::servinGrain();
        grain.damping = 0.01;
        World world = test::makeWorld(scenes::column(10, kD, grain, s));
        const StepStats st = test::runUntil(world, 1.0);
        EXPECT_LT(st.kineticEnergy, 1e-12);
        return st.maxOverlap;
    };
    const double hertz = maxOverlap(StepMode::SemiSmooth);
    EXPECT_GT(hertz, 1e-3);
    EXPECT_LT(maxOverlap(StepMode::Nonsmooth), 0.01 * hertz);
}

TEST(RollingResistance, TwistingResistanceStopsASpinningSphere) {
    // A sphere spinning about the vertical on a floor: torque μ_r R* f_n = μ_r r m g decelerates
    // it at 2.5 μ_r g / r (I = 0.4 m r²).
    Material grain = scenes::servinGrain();
    grain.rollingResistance = 0.1;
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 50;
    Scene scene = scenes::rollingSphere(0.0, kD, grain, s);
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
}

TEST(SolverTolerance, StopsSweepingOnceTheResidualIsBelowTolerance) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 500;
    s.tolerance = 1e-6;
    World world = test::makeWorld(scenes::column(10, kD, scenes::servinGrain(), s));
    test::runUntil(world, 0.5);
    const StepStats st = world.step();
    EXPECT_LT(st.iterations, 500);
    EXPECT_LT(st.residual, 1e-6);
    s.tolerance = 0.0;
    ASSERT_FALSE(world.applySettings(s).has_value());
    EXPECT_EQ(world.step().iterations, 500);
}

TEST(WarmStart, ModelBasedStartsARestingColumnNearItsSolution) {
    // Model based: λ₀ from the Hertz law at the current overlap. On a column at rest the first
    // sweep then has far less to correct than from a cold start.
    auto firstSweepResidual = [](bool warm) {
        StepSettings s;
        s.timeStep = 5e-3;
        s.iterations = 500;
        Material grain = scenes::servinGrain();
        grain.damping = 0.01;
        World world = test::makeWorld(scenes::column(10, kD, grain, s));
        test::runUntil(world, 2.0);
        s.iterations = 1;
        s.warmStart = warm;
        s.warmStartMethod = WarmStartMethod::Model;
        EXPECT_FALSE(world.applySettings(s).has_value());
        return world.step().normalResidual;
    };
    EXPECT_LT(20.0 * firstSweepResidual(true), firstSweepResidual(false));
}

}  // namespace
}  // namespace ndem
