// servin-2014 Eq. 41 reproduces the N_it column of Table I, and the cost model of Eq. 42 its
// τ_N/τ_S column where the table's step follows Eq. 37.
#include "measure/iteration_estimate.hpp"
#include "measure/measurement.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {

extern const MeasurementFactory kIterationEstimateMeasurement;

namespace {

struct TableRow {
    int row;
    double iterations, tolerance, width, length, inertialNumber;
};

// servin-2014 Table I: row, N_it, ε, w, l, I.
constexpr TableRow kTableI[] = {
    {1, 19, 0.05, 6, 10, 0},           {2, 23, 0.05, 15, 10, 0},
    {3, 511, 0.01, 15, 100, 0.1},      {4, 27, 0.05, 500, 10, 0.01},
    {5, 132, 0.01, 1, 10, 0},          {6, 19, 0.05, 6, 10, 0.01},
    {7, 117, 0.01, 15, 10, 0.01},      {8, 23, 0.05, 15, 10, 0.01},
    {9, 540, 0.01, 15, 1000, 0.1},     {10, 131, 0.01, 500, 10, 0},
    {11, 10534, 0.01, 500, 1000, 0.1}, {12, 2107, 0.05, 500, 1000, 0.1},
    {13, 13200, 0.01, 1, 1000, 0},     {14, 19, 0.05, 6, 10, 0},
    {15, 511, 0.01, 15, 100, 0.1},     {16, 26, 0.05, 500, 10, 0},
    {17, 32, 0.05, 500, 10, 0.1},      {18, 10534, 0.01, 500, 1000, 0.1},
    {19, 1320, 0.01, 1, 100, 0},       {20, 19, 0.05, 6, 10, 0},
    {21, 180, 0.01, 6, 100, 0},        {22, 102, 0.05, 15, 100, 0.1},
    {23, 27, 0.05, 500, 10, 0.01},     {24, 32, 0.05, 500, 10, 0.1},
    {25, 10534, 0.01, 500, 1000, 0.1}, {26, 22, 0.05, 6, 10, 0.1},
    {27, 540, 0.01, 15, 1000, 0.1},    {28, 108, 0.05, 15, 1000, 0.1},
    {29, 10534, 0.01, 500, 1000, 0.1}, {30, 2107, 0.05, 500, 1000, 0.1},
    {31, 26, 0.05, 1, 10, 0},          {32, 22, 0.05, 6, 10, 0.1},
    {33, 27, 0.05, 15, 10, 0.1},
};

TEST(IterationEstimate, ReproducesEveryRowOfServinTableIRoundedToNearest) {
    for (const TableRow& r : kTableI) {
        const double n = requiredIterations(r.length, r.width, r.inertialNumber, r.tolerance);
        EXPECT_EQ(std::round(n), r.iterations) << "row " << r.row << ": " << n;
    }
}

TEST(IterationEstimate, MatchesEquation41InBothBranches) {
    // Row 1 (w ≥ 5, saturating): 0.3/0.05 · 6 (1 − e^{−0.44·10/6}) = 18.71.
    EXPECT_NEAR(requiredIterations(10, 6, 0, 0.05), 36.0 * (1.0 - std::exp(-4.4 / 6.0)), 1e-12);
    EXPECT_NEAR(requiredIterations(10, 6, 0, 0.05), 18.71, 0.005);
    // Row 13 (w < 5, linear in l): 0.3/0.01 · 0.44 · 1000 = 13200.
    EXPECT_NEAR(requiredIterations(1000, 1, 0, 0.01), 13200.0, 1e-9);
    // Row 3 (I = 0.1 adds c1 I = 20 %): 36 · 15 (1 − e^{−0.44·100/15}) = 511.26.
    EXPECT_NEAR(requiredIterations(100, 15, 0.1, 0.01), 511.26, 0.005);
    // Wide and shallow, w ≫ l: the saturating branch tends to c2 l.
    EXPECT_NEAR(requiredIterations(10, 1e6, 0, 0.05) / requiredIterations(10, 1, 0, 0.05), 1.0,
                1e-5);
    // The narrow branch starts below w = 5.
    EXPECT_NEAR(requiredIterations(100, 4.999, 0, 0.01), 30.0 * 44.0, 1e-9);
    EXPECT_NEAR(requiredIterations(100, 5.0, 0, 0.01), 30.0 * 5.0 * (1.0 - std::exp(-8.8)), 1e-9);
}

TEST(IterationEstimate, NonsmoothTimeStepIsTheSmallerOfTheImpactAndGravityLimits) {
    // Table I row 1: ε = 0.05, d = 1 mm at rest: √(2 ε d/g) = 3.19 ms (listed as 3 ms).
    EXPECT_NEAR(nonsmoothTimeStep(0.05, 1e-3, 0.0, 9.81), std::sqrt(2.0 * 0.05 * 1e-3 / 9.81),
                1e-15);
    // Impact-limited: ε d / v_n = 0.01 · 1 mm / 28 mm/s = 0.36 ms (rows 11, 29: 0.4 ms).
    EXPECT_NEAR(nonsmoothTimeStep(0.01, 1e-3, 0.028, 9.81), 0.01 * 1e-3 / 0.028, 1e-15);
    EXPECT_TRUE(std::isinf(nonsmoothTimeStep(0.01, 1e-3, 0.0, 0.0)));
}

/// Eq. 42 inputs for a Table I row: k from the listed smooth step h_S = √(m/k), N_c = N_p.
CostModelInputs tableRow(double smoothStep, double tolerance, double width, double length,
                         double inertialNumber, double normalVelocity, double diameter) {
    CostModelInputs in;
    in.diameter = diameter;
    in.mass = 2500.0 * std::numbers::pi / 6.0 * diameter * diameter * diameter;
    in.stiffness = in.mass / (smoothStep * smoothStep);
    in.normalVelocity = normalVelocity;
    in.tolerance = tolerance;
    in.width = width;
    in.length = length;
    in.inertialNumber = inertialNumber;
    return in;
}

TEST(IterationEstimate, CostRatioReproducesTableIWhereTheStepFollowsEquation37) {
    // Rows whose h_N is Eq. 37's (the E = 10 GPa rows clamp h_N by hand and are left out).
    // The printed gravity term of Eq. 42 would make each of these twice as large.
    struct Row {
        int row;
        double ratio, smoothStep, tolerance, width, length, inertial, normalVelocity, diameter;
    };
    const Row rows[] = {
        {13, 150, 0.05e-3, 0.01, 1, 1000, 0, 0, 0.01},
        {15, 5.7, 0.05e-3, 0.01, 15, 100, 0.1, 0.019, 0.01},
        {16, 0.13, 0.05e-3, 0.05, 500, 10, 0, 0, 0.01},
        {27, 34, 0.9e-3, 0.01, 15, 1000, 0.1, 0.063, 0.1},
        {28, 3.0, 0.9e-3, 0.05, 15, 1000, 0.1, 0.063, 0.1},
    };
    for (const Row& r : rows) {
        const double ratio =
            nonsmoothCostRatio(tableRow(r.smoothStep, r.tolerance, r.width, r.length, r.inertial,
                                        r.normalVelocity, r.diameter));
        // The table gives two significant figures and h_S to one or two.
        EXPECT_NEAR(ratio / r.ratio, 1.0, 0.05) << "row " << r.row << ": " << ratio;
    }
}

TEST(IterationEstimate, CostRatioOfThePapersWorkedExampleIsOneThousandthOfNit) {
    // Sec. 3.3 example: m = 1e-3 kg, k = 1e9 N/m (h_S = 1 μs), v_n = 0.1 m/s, ε = 0.01,
    // d = 0.01 m (h_N = 1 ms), K_GS = K_SDEM: τ_N/τ_S ≈ 1e-3 N_it.
    CostModelInputs in;
    in.mass = 1e-3;
    in.stiffness = 1e9;
    in.normalVelocity = 0.1;
    in.tolerance = 0.01;
    in.diameter = 0.01;
    in.length = 20;
    in.width = 1;
    const double n = requiredIterations(20, 1, 0, 0.01);
    EXPECT_NEAR(nonsmoothCostRatio(in), 1e-3 * n, 1e-12 * n);
    in.contactsPerParticle = 6.0;
    in.solverCostRatio = 0.5;
    EXPECT_NEAR(nonsmoothCostRatio(in), 3e-3 * n, 1e-12 * n);
}

TEST(IterationEstimate, MeasurementReportsTheEstimateAndRefusesMissingSizes) {
    StepSettings s;
    s.iterations = 40;
    Scene scene;
    scene.settings = s;
    scene.materials = {Material{}};
    World world = test::makeWorld(scene);
    MeasurementRequest r;
    r.type = "iterationEstimate";
    r.numbers = {{"length", 100}, {"width", 15}, {"inertialNumber", 0.1}, {"tolerance", 0.01}};
    auto m = kIterationEstimateMeasurement.make(r, world);
    ASSERT_TRUE(m) << m.error().message;
    const MeasurementResult out = m.value()->result();
    EXPECT_NEAR(out.scalars.at("requiredIterations"), 511.26, 0.005);
    EXPECT_EQ(out.scalars.at("sceneIterations"), 40.0);

    r.numbers = {{"length", 100}};
    EXPECT_FALSE(kIterationEstimateMeasurement.make(r, world));
    r.numbers = {{"length", 100}, {"width", 15}, {"tolerance", 0}};
    EXPECT_FALSE(kIterationEstimateMeasurement.make(r, world));
}

}  // namespace
}  // namespace ndem
