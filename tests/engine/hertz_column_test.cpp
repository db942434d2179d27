// servin-2014 Sec. 5.4: a resting column of 20 Hertz spheres, E = 1e5 … 1e13 Pa, N_it = 500,
// overlaps within 0.001 d of the analytic Hertz overlaps; converged, within 1e-4 of each
// overlap itself.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ndem {
namespace {

class HertzColumn : public ::testing::TestWithParam<double> {};

/// The column after 3 s at N_it sweeps a step: each contact's overlap from the positions
/// (the floor's for k = 0, the sphere below's otherwise) and Hertz's.
struct ColumnOverlaps {
    std::vector<double> measured, expected;
};

ColumnOverlaps settle(double youngsModulus, int iterations, bool warmStart) {
    const double d = 0.01;
    Material grain = scenes::servinGrain();
    grain.youngsModulus = youngsModulus;
    // Viscous damping only brings the soft columns to rest within the run; it does not move
    // the static overlaps. h = 1 ms keeps the PGS truncation error (each step must remove
    // g·h again) well below the tolerance: at h = 10 ms it is ~8e-4 d for the stiff columns.
    grain.damping = 0.01;
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = iterations;
    s.warmStart = warmStart;
    World world = test::makeWorld(scenes::column(20, d, grain, s));
    test::runUntil(world, 3.0);
    ColumnOverlaps c;
    c.expected = scenes::hertzColumnOverlaps(20, d, grain, 9.81);
    const auto& p = world.particles();
    for (int k = 0; k < 20; ++k) {
        const Index i = p.indexOfId()[k];
        if (k == 0) {
            c.measured.push_back(p.radius[i] - p.position[i].z());
            continue;
        }
        const Index below = p.indexOfId()[k - 1];
        c.measured.push_back(p.radius[i] + p.radius[below] -
                             (p.position[i] - p.position[below]).norm());
    }
    return c;
}

// The paper's bound, at its N_it = 500 without warm start. It is absolute: for E ≥ 1e11
// the overlaps (1e-5 d and less) are below what 500 sweeps resolve, see the next test.
TEST_P(HertzColumn, OverlapsMatchAnalyticWithin1e3Diameter) {
    const double d = 0.01;
    const ColumnOverlaps c = settle(GetParam(), 500, false);
    double errorSum = 0.0, worstRelative = 0.0;
    for (int k = 0; k < 20; ++k) {
        errorSum += std::abs(c.measured[k] - c.expected[k]);
        worstRelative = std::max(worstRelative, std::abs(c.measured[k] / c.expected[k] - 1.0));
    }
    const double meanError = errorSum / 20.0;
    RecordProperty("meanErrorOverD", std::to_string(meanError / d));
    EXPECT_LT(meanError, 1e-3 * d) << "E = " << GetParam() << ", bottom overlap measured "
                                   << c.measured[0] << " expected " << c.expected[0];
    // Where 500 sweeps resolve the overlaps (E ≤ 1e7: 6e-3 d and more at the floor) every
    // contact follows Hertz to 1 % (at E = 1e9 the worst is 9 % off); the floor's, which the
    // last colour settles, to 2 % at any stiffness.
    EXPECT_NEAR(c.measured[0] / c.expected[0], 1.0, 0.02);
    if (GetParam() <= 1e7) {
        EXPECT_LT(worstRelative, 0.01) << "E = " << GetParam();
    }
}

// Relative accuracy where the overlap is tiny: the stiff columns' 1e-5 … 1e-7 d overlaps are
// the PGS's truncation at 500 sweeps (every other contact up to 140× Hertz's at E = 1e13, the
// coloured order's pattern), not the contact law: converged — 5 000 sweeps from the last
// step's impulses — every overlap is Hertz's to 1e-4 of itself.
TEST_P(HertzColumn, ConvergedOverlapsMatchHertzRelativelyAtAnyStiffness) {
    const ColumnOverlaps c = settle(GetParam(), 5000, true);
    for (int k = 0; k < 20; ++k)
        EXPECT_NEAR(c.measured[k] / c.expected[k], 1.0, 1e-4)
            << "E = " << GetParam() << ", k " << k;
}

INSTANTIATE_TEST_SUITE_P(YoungsModulus, HertzColumn, ::testing::Values(1e5, 1e7, 1e9, 1e11, 1e13));

}  // namespace
}  // namespace ndem
