// The force network of a resting column of five spheres: contact k from the top carries k m g,
// so the mean is 3 m g and the strong network (above the mean) is the two lowest contacts,
// 2/5 of the contacts carrying (4 + 5)/15 of the force.
#include "bench_scenes.hpp"
#include "measure/measurement.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ndem {

extern const MeasurementFactory kForceNetworkMeasurement;

namespace {

constexpr double kG = 9.81;
constexpr double kD = 0.01;

MeasurementResult restingColumnNetwork(std::vector<std::pair<std::string, double>> numbers,
                                       std::string method = "pgs") {
    Material grain = scenes::servinGrain();
    grain.damping = 0.01;  // brings the column to rest within the run
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 200;
    if (method == "interior-point") {  // rigid contacts, the paper's solver
        s.mode = StepMode::Nonsmooth;
        s.method = method;
        s.iterations = 50;
    }
    World world = test::makeWorld(scenes::column(5, kD, grain, s));
    MeasurementRequest r;
    r.type = "forceNetwork";
    r.numbers = std::move(numbers);
    auto m = kForceNetworkMeasurement.make(r, world);
    if (!m) ADD_FAILURE() << m.error().message;
    world.subscribe(std::move(m.value()));
    test::runUntil(world, 2.0);
    return world.measurements().front()->result();
}

const double kWeight = 2500.0 * std::numbers::pi / 6.0 * kD * kD * kD * kG;  // m g (N)

TEST(ForceNetwork, RestingColumnCarriesTheWeightAboveEachContact) {
    const MeasurementResult r = restingColumnNetwork({{"every", 10}, {"from", 1.0}});
    ASSERT_EQ(r.scalars.at("contacts"), 5.0) << r.headline;
    const Table& t = r.tables.at("contacts");
    ASSERT_EQ(t.at("fn").size(), 5u);
    for (size_t k = 0; k < 5; ++k) {
        // Spheres are stacked in id order from the floor (wall 0, id −1) upwards, so the
        // contact between ids j and j + 1 carries the 4 − j spheres above it.
        const double lower = std::min(t.at("idA")[k], t.at("idB")[k]);
        const double upper = std::max(t.at("idA")[k], t.at("idB")[k]);
        const double above = lower < 0.0 ? 5.0 : 4.0 - lower;
        EXPECT_EQ(upper, lower < 0.0 ? 0.0 : lower + 1.0);
        EXPECT_NEAR(t.at("fn")[k] / (above * kWeight), 1.0, 0.01) << "contact below id " << upper;
        EXPECT_LT(t.at("ft")[k], 1e-6 * kWeight);
        if (lower < 0.0) {  // B is the contact point: on the floor, within the overlap
            EXPECT_LE(std::abs(t.at("zB")[k]), t.at("overlap")[k]);
        }
    }
    EXPECT_NEAR(r.scalars.at("meanForce") / (3.0 * kWeight), 1.0, 0.01);
    EXPECT_NEAR(r.scalars.at("maxForce") / (5.0 * kWeight), 1.0, 0.01);
    EXPECT_DOUBLE_EQ(r.scalars.at("strongFraction"), 2.0 / 5.0);
    EXPECT_NEAR(r.scalars.at("strongForceShare"), 9.0 / 15.0, 0.01 * 9.0 / 15.0);
    EXPECT_NEAR(r.scalars.at("time"), 2.0, 1e-9);

    // P(f/⟨f⟩) is a density: one fifth of the contacts in each of the bins holding 1/3, 2/3,
    // 1, 4/3, 5/3, and it integrates to one.
    const Table& p = r.tables.at("distribution");
    ASSERT_EQ(p.at("center").size(), 20u);
    double integral = 0.0;
    for (size_t k = 0; k < 20; ++k)
        integral += 0.25 * p.at("probabilityDensity")[k];
    EXPECT_NEAR(integral, 1.0, 1e-12);
    EXPECT_EQ(r.scalars.at("beyondRange"), 0.0);
    EXPECT_NEAR(p.at("probabilityDensity")[1], 0.2 / 0.25, 1e-12);  // f/⟨f⟩ = 1/3 in [0.25, 0.5)

    // Series: one sample every 10 steps from 1 s to 2 s.
    EXPECT_EQ(r.series.at("t").size(), 101u);
    EXPECT_NEAR(r.series.at("meanForce").back(), r.scalars.at("meanForce"), 1e-12);
}

TEST(ForceNetwork, TheInteriorPointsColumnCarriesTheWeightAboveEachContactToo) {
    const MeasurementResult r =
        restingColumnNetwork({{"every", 10}, {"from", 1.0}}, "interior-point");
    ASSERT_EQ(r.scalars.at("contacts"), 5.0) << r.headline;
    const Table& t = r.tables.at("contacts");
    for (size_t k = 0; k < 5; ++k) {
        const double lower = std::min(t.at("idA")[k], t.at("idB")[k]);
        const double above = lower < 0.0 ? 5.0 : 4.0 - lower;
        EXPECT_NEAR(t.at("fn")[k] / (above * kWeight), 1.0, 1e-3) << "contact above id " << lower;
    }
    EXPECT_NEAR(r.scalars.at("meanForce") / (3.0 * kWeight), 1.0, 1e-3);
}

// The associated rule lifts a sliding contact by μ|Δu_t| a step (krabbenhoft-2012 Eq. 22) and
// it slides on at that gap, loaded: the detection sees it apart, the network must not. (A dense
// biaxial sample under the static formulation, where every contact slides, counted 117 of its
// 1 900 loaded contacts before.)
TEST(ForceNetwork, ASlidingContactTheAssociatedRuleHoldsApartCarriesTheWeight) {
    // μ = 0.1 and a rolling resistance that keeps it from rolling: it slides for v/(μg) ≈ 0.5 s,
    // and the lift a step, μ v h = 0.5 mm, is less than gravity's g h² = 1 mm, so it stays on.
    Material grain = scenes::servinGrain();
    grain.friction = 0.1;
    grain.rollingResistance = 1.0;
    StepSettings s;
    s.timeStep = 1e-2;
    s.mode = StepMode::Nonsmooth;
    s.method = "interior-point";
    s.iterations = 50;
    Scene scene = scenes::column(1, kD, grain, s);
    scene.particles[0].velocity = Vec3(0.5, 0.0, 0.0);
    World world = test::makeWorld(std::move(scene));
    MeasurementRequest request;
    request.type = "forceNetwork";
    request.numbers = {{"every", 1}};
    auto m = kForceNetworkMeasurement.make(request, world);
    ASSERT_TRUE(m) << m.error().message;
    world.subscribe(std::move(m.value()));
    int apart = 0;
    for (int k = 0; k < 20; ++k) {
        const StepStats st = world.step();
        const ContactSet& c = world.contacts();
        ASSERT_EQ(c.size(), 1u);
        if (k < 3) continue;  // the first step lifts it off the floor, two more settle it
        EXPECT_EQ(st.contacts, 1) << "step " << k;
        EXPECT_NEAR(c.normalImpulse[0] / (kWeight * s.timeStep), 1.0, 0.05) << "step " << k;
        apart += (c.flags[0] & kTouching) == 0;
    }
    EXPECT_EQ(apart, 17);
    const MeasurementResult r = world.measurements().front()->result();
    EXPECT_EQ(r.scalars.at("contacts"), 1.0) << r.headline;
    EXPECT_NEAR(r.scalars.at("meanForce") / kWeight, 1.0, 0.05);
}

TEST(ForceNetwork, SnapshotAtAGivenTimeIsTheFirstSampleAtOrAfterIt) {
    const MeasurementResult r = restingColumnNetwork({{"every", 7}, {"at", 1.0}});
    // Samples fall on multiples of 7 ms: the first at or after 1 s is 1.001 s.
    EXPECT_NEAR(r.scalars.at("time"), 1.001, 1e-9);
    EXPECT_EQ(r.scalars.at("contacts"), 5.0);
}

}  // namespace
}  // namespace ndem
