// wang-servin-berglund Sec. 4.1, Fig. 3: a 1D column of 50 spheres reaches a column-height error
// ε_l < 1 % with at least 2× fewer PGS iterations when warm started.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>

namespace ndem {
namespace {

constexpr int kSpheres = 50;
constexpr double kD = 0.013;

enum class Start { Cold, Warm, WarmWithoutVelocityStep };

/// |ε_l| of Eq. 12 after 10 s, or a huge value if the column is not at rest.
double columnHeightError(int iterations, Start start) {
    const Material grain = scenes::warmStartGrain();
    StepSettings s;
    s.timeStep = 5e-3;  // Table 1
    s.iterations = iterations;
    s.warmStart = start != Start::Cold;
    s.warmStartVelocity = start != Start::WarmWithoutVelocityStep;
    World world = test::makeWorld(scenes::column(kSpheres, kD, grain, s));
    const StepStats st = test::runUntil(world, 10.0);
    const auto& p = world.particles();
    double top = 0.0;
    for (size_t i = 0; i < p.size(); ++i)
        top = std::max(top, p.position[i].z() + p.radius[i]);
    double height = kSpheres * kD;
    for (double overlap : scenes::hertzColumnOverlaps(kSpheres, kD, grain, 9.81))
        height -= overlap;
    // A column that still moves has no height error to speak of: count it as failing.
    // (Warm starting with very few sweeps, N_it <= 20 here, leaves the column oscillating.)
    const double restEnergy = 1e-8;  // J: ~2e-4 m/s rms over the 50 grains
    if (st.kineticEnergy > restEnergy) return 1e9;
    return std::abs(height - top) / height;
}

int requiredIterations(Start start, double tolerance) {
    for (int n : {10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 100, 125, 150, 200, 300, 500})
        if (columnHeightError(n, start) < tolerance) return n;
    return 1000;
}

TEST(WarmStart, ColumnNeedsAtLeastTwiceFewerIterationsForOnePercentHeightError) {
    const int cold = requiredIterations(Start::Cold, 0.01);
    const int warm = requiredIterations(Start::Warm, 0.01);
    RecordProperty("cold", cold);
    RecordProperty("warm", warm);
    EXPECT_LE(2 * warm, cold) << "cold " << cold << " sweeps, warm " << warm << " sweeps";
    EXPECT_LE(cold, 150) << "cold convergence slower than the paper's Fig. 3";
}

TEST(WarmStart, WithoutTheVelocityStepWarmStartingIsWorseThanCold) {
    // wang-servin-berglund Sec. 4.2: "If the warm start velocity is not applied the result is
    // worse than cold starting."
    const int cold = requiredIterations(Start::Cold, 0.01);
    const int withoutStep = requiredIterations(Start::WarmWithoutVelocityStep, 0.01);
    EXPECT_GT(withoutStep, cold);
}

TEST(WarmStart, ZeroIterationsWarmStartHoldsARestingSphere) {
    // With β = 1 a single resting contact is warm started exactly at its solution: even one
    // sweep leaves it converged (MuJoCo's "warm start with zero iterations" check).
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 50;
    s.warmStart = true;
    s.warmStartBeta = 1.0;
    World world = test::makeWorld(scenes::column(1, kD, scenes::warmStartGrain(), s));
    test::runUntil(world, 1.0);
    s.iterations = 1;
    ASSERT_FALSE(world.applySettings(s).has_value());
    const StepStats st = world.step();
    EXPECT_LT(st.residual, 1e-9);
}

}  // namespace
}  // namespace ndem

namespace ndem {
namespace {

TEST(WarmStart, EachRowTypeCanBeSwitchedOnItsOwn) {
    // A sphere resting on an incline it sticks to carries a normal and a friction impulse.
    // With β = 1 a warm row starts at its solution; warm starting only one of the two rows
    // leaves the other to start cold.
    auto firstSweep = [](bool normal, bool friction) {
        const Material grain = scenes::servinGrain();
        StepSettings s;
        s.timeStep = 5e-3;
        s.iterations = 50;
        s.warmStart = true;
        s.warmStartBeta = 1.0;
        World world = test::makeWorld(scenes::incline(20.0, kD, grain, s, true));
        test::runUntil(world, 0.5);
        s.iterations = 1;
        s.warmStartNormal = normal;
        s.warmStartFriction = friction;
        EXPECT_FALSE(world.applySettings(s).has_value());
        const StepStats st = world.step();
        return std::pair{st.normalResidual, st.residual};
    };
    const auto both = firstSweep(true, true);
    const auto normalOnly = firstSweep(true, false);
    const auto frictionOnly = firstSweep(false, true);
    EXPECT_LT(both.first, 1e-9);
    EXPECT_LT(normalOnly.first, 1e-9);    // normal row warm: converged at once
    EXPECT_GT(frictionOnly.first, 1e-4);  // normal row cold: must rebuild g h
    EXPECT_GT(normalOnly.second, 1e-4);   // friction row cold
    EXPECT_LT(both.second, 1e-9);
}

}  // namespace
}  // namespace ndem
