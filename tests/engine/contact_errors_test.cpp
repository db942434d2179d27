// servin-2014 Sec. 4.1 metrics on a sphere that cannot roll, on an incline: above the friction
// angle it slides with |f_t| = μ|f_n| against its slip (slide and direction errors vanish),
// below it sticks (no slide mode); its overlap is the Hertz overlap under m g cos θ.
#include "bench_scenes.hpp"
#include "measure/measurement.hpp"
#include "test_util.hpp"

#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

namespace ndem {

extern const MeasurementFactory kContactErrorsMeasurement;

namespace {

constexpr double kG = 9.81;
constexpr double kD = 0.01;

MeasurementResult inclineErrors(double angleDeg, const Material& grain) {
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 50;
    World world = test::makeWorld(scenes::incline(angleDeg, kD, grain, s, /*fixedRotation*/ true));
    // From 0.25 s: the first steps load the contact from zero overlap and the sphere is still
    // slower than u_thr.
    MeasurementRequest r;
    r.type = "contactErrors";
    r.numbers = {{"from", 0.25}};
    auto m = kContactErrorsMeasurement.make(r, world);
    if (!m) ADD_FAILURE() << m.error().message;
    world.subscribe(std::move(m.value()));
    test::runUntil(world, 0.5);
    const MeasurementResult out = world.measurements().front()->result();
    for (const auto& [key, value] : out.scalars) {
        std::ostringstream text;
        text << std::setprecision(10) << value;
        ::testing::Test::RecordProperty(key, text.str());
    }
    return out;
}

Material grainWithFriction(double mu) {
    Material grain = scenes::servinGrain();
    grain.friction = mu;
    return grain;
}

/// δ/d of a sphere on a wall under f_n = m g cos θ: δ = (f_n/k_n)^{2/3}, k_n = E*√(2d)/3.
double hertzOverlapError(double angleDeg, const Material& grain) {
    const double cosTheta = std::cos(angleDeg * std::numbers::pi / 180.0);
    return scenes::hertzColumnOverlaps(1, kD, grain, kG * cosTheta)[0] / kD;
}

TEST(ContactErrors, SlidingSphereHasCoulombFrictionAgainstItsSlipAndHertzOverlap) {
    const Material grain = grainWithFriction(0.5);  // tan 35° = 0.70 > 0.5
    const MeasurementResult r = inclineErrors(35.0, grain);
    EXPECT_EQ(r.scalars.at("samples"), 251.0);  // steps 250 … 500
    EXPECT_EQ(r.scalars.at("contacts"), 1.0);
    EXPECT_EQ(r.scalars.at("slidingContacts"), 1.0);
    EXPECT_LT(std::abs(r.scalars.at("meanSlideError")), 1e-3);
    EXPECT_LT(std::abs(r.scalars.at("meanSlideDirectionError")), 1e-3);
    const double expected = hertzOverlapError(35.0, grain);
    EXPECT_NEAR(r.scalars.at("meanOverlapError") / expected, 1.0, 0.02)
        << "measured " << r.scalars.at("meanOverlapError") << ", Hertz " << expected;
    EXPECT_NEAR(r.scalars.at("maxOverlapError") / expected, 1.0, 0.02);
    EXPECT_LT(r.scalars.at("overlapErrorStd"), 1e-6);  // one contact per sample
    EXPECT_EQ(r.series.at("t").size(), 251u);
    EXPECT_EQ(r.series.at("slidingFraction").back(), 1.0);
}

TEST(ContactErrors, StickingSphereHasNoSlidingContacts) {
    const Material grain = grainWithFriction(0.5);  // tan 20° = 0.36 < 0.5
    const MeasurementResult r = inclineErrors(20.0, grain);
    EXPECT_EQ(r.scalars.at("contacts"), 1.0);
    EXPECT_EQ(r.scalars.at("slidingContacts"), 0.0);
    EXPECT_NEAR(r.scalars.at("meanOverlapError") / hertzOverlapError(20.0, grain), 1.0, 0.02);
}

TEST(ContactErrors, SphereDraggedByAHeavyKinematicSphereSlidesAgainstItsSlip) {
    // A grain resting on top of a big kinematic sphere (id 0, so body A) that moves at
    // 0.1 m/s: friction drags the grain at μ g, it slips for 0.1/(μ g) = 0.2 s. This checks
    // u between two particles, and that the force filter uses the grain's weight, not the
    // 1.3 t of the kinematic sphere.
    Material grain = grainWithFriction(0.05);
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 50;
    Scene scene;
    scene.settings = s;
    scene.materials = {grain};
    ParticleSpec big;
    big.radius = 0.5;
    big.position = Vec3(0.0, 0.0, -0.5);
    big.velocity = Vec3(0.1, 0.0, 0.0);
    big.flags = kKinematic;
    ParticleSpec small;
    small.radius = 0.5 * kD;
    small.position = Vec3(0.0, 0.0, 0.5 * kD);
    small.flags = kFixedRotation;
    scene.particles = {big, small};
    World world = test::makeWorld(scene);
    MeasurementRequest r;
    r.type = "contactErrors";
    r.numbers = {{"from", 0.02}, {"until", 0.12}};
    auto m = kContactErrorsMeasurement.make(r, world);
    ASSERT_TRUE(m) << m.error().message;
    world.subscribe(std::move(m.value()));
    test::runUntil(world, 0.15);
    const MeasurementResult out = world.measurements().front()->result();
    EXPECT_EQ(out.scalars.at("contacts"), 1.0);
    EXPECT_EQ(out.scalars.at("slidingContacts"), 1.0);
    EXPECT_LT(std::abs(out.scalars.at("meanSlideError")), 1e-3);
    EXPECT_LT(std::abs(out.scalars.at("meanSlideDirectionError")), 1e-3);
}

TEST(ContactErrors, RefusesAnEmptyWindow) {
    World world = test::makeWorld(scenes::incline(20.0, kD, scenes::servinGrain(), {}, true));
    MeasurementRequest r;
    r.type = "contactErrors";
    r.numbers = {{"from", 1.0}, {"until", 0.5}};
    EXPECT_FALSE(kContactErrorsMeasurement.make(r, world));
}

}  // namespace
}  // namespace ndem
