// servin-2014 Sec. 5.4: a resting column of 20 Hertz spheres, E = 1e5 … 1e13 Pa, N_it = 500,
// overlaps within 0.001 d of the analytic Hertz overlaps.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>

namespace ndem {
namespace {

class HertzColumn : public ::testing::TestWithParam<double> {};

TEST_P(HertzColumn, OverlapsMatchAnalyticWithin1e3Diameter) {
    const double d = 0.01;
    Material grain = scenes::servinGrain();
    grain.youngsModulus = GetParam();
    // Viscous damping only brings the soft columns to rest within the run; it does not move
    // the static overlaps. h = 1 ms keeps the PGS truncation error (each step must remove
    // g·h again) well below the tolerance: at h = 10 ms it is ~8e-4 d for the stiff columns.
    grain.damping = 0.01;
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 500;
    World world = test::makeWorld(scenes::column(20, d, grain, s));
    test::runUntil(world, 3.0);

    const std::vector<double> expected = scenes::hertzColumnOverlaps(20, d, grain, 9.81);
    const auto& p = world.particles();
    // Overlap below sphere k from positions: the floor for k = 0, the sphere below otherwise.
    std::vector<double> measured(20);
    std::vector<Index> byHeight(20);
    for (int k = 0; k < 20; ++k) byHeight[k] = p.indexOfId()[k];
    double errorSum = 0.0;
    for (int k = 0; k < 20; ++k) {
        const Index i = byHeight[k];
        measured[k] = k == 0 ? p.radius[i] - p.position[i].z()
                             : p.radius[i] + p.radius[byHeight[k - 1]] -
                                   (p.position[i] - p.position[byHeight[k - 1]]).norm();
        errorSum += std::abs(measured[k] - expected[k]);
    }
    const double meanError = errorSum / 20.0;
    RecordProperty("meanErrorOverD", std::to_string(meanError / d));
    EXPECT_LT(meanError, 1e-3 * d) << "E = " << GetParam() << ", bottom overlap measured "
                                   << measured[0] << " expected " << expected[0];
    // Not only small: the measured overlap follows Hertz where it is resolvable (> 1e-6 d).
    if (expected[0] > 1e-6 * d) {
        EXPECT_NEAR(measured[0] / expected[0], 1.0, 0.02);
    }
}

INSTANTIATE_TEST_SUITE_P(YoungsModulus, HertzColumn,
                         ::testing::Values(1e5, 1e7, 1e9, 1e11, 1e13));

}  // namespace
}  // namespace ndem
