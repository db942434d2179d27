// The solverRace measurement: a real step of a column solved again by each method to 1 % of
// its law's exact normal impulses. A column at rest is where PGS's sweeps grow with the height
// and the interior point's Newton steps do not (servin-2014 Eq. 41; krabbenhoft-2012 Sec. 4.5),
// and where the associated and Coulomb answers coincide (nothing slides).
#include "bench_scenes.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

namespace ndem {

extern const MeasurementFactory kSolverRaceMeasurement;

namespace {

MeasurementResult race(int spheres, double target, double rolling = 0.0, double at = 0.25) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    s.warmStart = true;
    s.threads = 1;
    Material grain = scenes::warmStartGrain();
    grain.rollingResistance = rolling;
    World world = test::makeWorld(scenes::column(spheres, 0.013, grain, s));
    MeasurementRequest request;
    request.type = "solverRace";
    request.numbers = {{"at", at}, {"target", target}};
    auto m = kSolverRaceMeasurement.make(request, world);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return {};
    while (world.time() < at + 0.05) {
        (*m)->prepare(world);
        const StepStats stats = world.step();
        (*m)->sample(world, stats);
    }
    return (*m)->result();
}

TEST(SolverRace, TheColumnsSweepsGrowWithItsHeightAndTheNewtonStepsDoNot) {
    const MeasurementResult low = race(10, 0.01), high = race(80, 0.01);
    for (const MeasurementResult* r : {&low, &high}) {
        ASSERT_TRUE(r->scalars.count("pgsColdSweeps")) << r->headline;
        EXPECT_EQ(r->scalars.at("referenceConverged"), 1.0);
        EXPECT_LT(r->scalars.at("lawGap"), 1e-6);  // a column at rest: nothing slides
        EXPECT_GT(r->scalars.at("pgsColdSweeps"), 0.0);
        EXPECT_GT(r->scalars.at("interiorPointNewtonSteps"), 0.0);
        EXPECT_LE(r->scalars.at("interiorPointConvergedSteps"), 30.0);
        // The warm start begins nearer: it needs at most the cold start's sweeps.
        EXPECT_LE(r->scalars.at("pgsWarmSweeps"), r->scalars.at("pgsColdSweeps"));
        // The error curves end within the target.
        EXPECT_LE(r->tables.at("pgsCold").at("error").back(), 0.01);
        EXPECT_LE(r->tables.at("interiorPoint").at("error").back(), 0.01);
    }
    EXPECT_GE(high.scalars.at("pgsColdSweeps"), 2.0 * low.scalars.at("pgsColdSweeps"));
    EXPECT_LE(high.scalars.at("interiorPointConvergedSteps"),
              1.5 * low.scalars.at("interiorPointConvergedSteps"));
    // A tighter target costs the PGS more sweeps.
    EXPECT_GT(race(10, 1e-4).scalars.at("pgsColdSweeps"), low.scalars.at("pgsColdSweeps"));
}

TEST(SolverRace, AStandingColumnWithRollingResistance) {
    // Rolling resistance keeps a tall column standing (without it the column buckles by
    // t = 1 s): at rest, the step where Eq. 41 says the sweeps grow with the height.
    const MeasurementResult low = race(10, 0.01, 0.3, 1.0), high = race(80, 0.01, 0.3, 1.0);
    for (const MeasurementResult* r : {&low, &high}) {
        ASSERT_TRUE(r->scalars.count("pgsColdSweeps")) << r->headline;
        EXPECT_EQ(r->scalars.at("referenceConverged"), 1.0);
        EXPECT_LT(r->scalars.at("lawGap"), 1e-6);
        EXPECT_LE(r->scalars.at("interiorPointConvergedSteps"), 30.0);
    }
    EXPECT_GE(high.scalars.at("pgsColdSweeps"), 4.0 * low.scalars.at("pgsColdSweeps"));
    EXPECT_LE(high.scalars.at("interiorPointConvergedSteps"),
              1.5 * low.scalars.at("interiorPointConvergedSteps"));
}

TEST(SolverRace, RefusesABadTarget) {
    StepSettings s;
    MeasurementRequest request;
    request.type = "solverRace";
    request.numbers = {{"target", 1.5}};
    const World plain = test::makeWorld(scenes::column(3, 0.013, scenes::warmStartGrain(), s));
    auto bad = kSolverRaceMeasurement.make(request, plain);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "measurement 'solverRace': target must be > 0 and < 1");
}

}  // namespace
}  // namespace ndem
