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

StepSettings raceSettings() {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    s.warmStart = true;
    s.threads = 1;
    return s;
}

MeasurementResult raceScene(const Scene& scene, double target, double at, bool nullSpace) {
    World world = test::makeWorld(scene);
    MeasurementRequest request;
    request.type = "solverRace";
    request.numbers = {{"at", at}, {"target", target}, {"nullSpace", nullSpace ? 1.0 : 0.0}};
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

MeasurementResult race(int spheres, double target, double rolling = 0.0, double at = 0.25,
                       bool nullSpace = false) {
    Material grain = scenes::warmStartGrain();
    grain.rollingResistance = rolling;
    return raceScene(scenes::column(spheres, 0.013, grain, raceSettings()), target, at, nullSpace);
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

// Alart 2014's solvers raced on a column: a column has no self-stress (each grain's top
// contact is held by the one below alone), so the null space of H is empty and the null-space
// solvers are NLGS from their prediction: all of them reach Coulomb's answer.
TEST(SolverRace, OnAColumnEveryNullSpaceSolverReachesCoulombsAnswer) {
    const MeasurementResult r = race(20, 0.01, 0.0, 0.25, true);
    ASSERT_TRUE(r.scalars.count("nlgsColdSweeps")) << r.headline;
    for (const char* key : {"nlgsCold", "nlgsMemory", "nlkergsP", "nlkergsPElastic", "nlgsJac"}) {
        const std::string k = key;
        EXPECT_GT(r.scalars.at(k + "Sweeps"), 0.0) << k << ": " << r.headline;
        EXPECT_LE(r.scalars.at(k + "BestError"), 0.01) << k;
        EXPECT_LE(r.tables.at(k).at("error").back(), 0.01) << k;
    }
    // Memory (the step's warm start) begins nearer (Alart 2014 Sec. 2.3).
    EXPECT_LE(r.scalars.at("nlgsMemorySweeps"), r.scalars.at("nlgsColdSweeps"));
}

// A bed at rest carries self-stress: its weight is shared among more contacts than
// equilibrium fixes, and the contacts' compliance and overlaps decide the share. That share
// is the null space's, which NLKerGS-P and NLGS-Jac take from their prediction (Alart 2014
// Eq. 16): NLGS reaches the compliant answer, they stop short of it whatever they sweep; the
// elastic prediction, springs on the overlaps, comes nearer than the linear one's dampers.
TEST(SolverRace, OnABedAtRestTheNullSpaceSolversKeepTheirPredictionsSelfStress) {
    const MeasurementResult r = raceScene(
        scenes::bed(200, 0.013, scenes::warmStartGrain(), raceSettings(), 3), 0.01, 1.0, true);
    ASSERT_TRUE(r.scalars.count("nlgsColdSweeps")) << r.headline;
    EXPECT_GT(r.scalars.at("contacts"), 250.0);  // hyperstatic: more contacts than grains
    EXPECT_GT(r.scalars.at("nlgsColdSweeps"), 0.0) << r.headline;
    EXPECT_GT(r.scalars.at("nlgsMemorySweeps"), 0.0);
    EXPECT_LE(r.scalars.at("nlgsMemorySweeps"), r.scalars.at("nlgsColdSweeps"));
    for (const char* key : {"nlkergsP", "nlkergsPElastic", "nlgsJac"})
        EXPECT_LT(r.scalars.at(std::string(key) + "Sweeps"), 0.0) << key << ": " << r.headline;
    EXPECT_GT(r.scalars.at("nlkergsPBestError"), 0.05);
    // Gauss–Seidel on W̃ and NLGS-Jac (Jacobi on ωZ) share the fixed point.
    EXPECT_NEAR(r.scalars.at("nlgsJacBestError"), r.scalars.at("nlkergsPBestError"), 1e-3);
    EXPECT_LT(r.scalars.at("nlkergsPElasticBestError"), r.scalars.at("nlkergsPBestError"));
    // What the answers leave of the overlaps at the step's end: those within 1 % of the exact
    // impulses agree on it; the linear prediction's self-stress lets the bed sink further
    // (Alart's drift, Sec. 3.3), the elastic one's does not.
    const double exact = r.scalars.at("nlgsColdOverlapMax");
    EXPECT_GT(exact, 0.0);
    for (const char* key : {"pgsCold", "pgsWarm", "nlgsMemory", "interiorPoint"})
        EXPECT_NEAR(r.scalars.at(std::string(key) + "OverlapMax"), exact, 0.05 * exact) << key;
    EXPECT_GT(r.scalars.at("nlkergsPOverlapMax"), 1.2 * exact);
    EXPECT_LT(r.scalars.at("nlkergsPElasticOverlapMax"), 1.05 * exact);
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
