// The θ-method (krabbenhoft-2012 Sec. 2.1.1, 2.7): positions advance by h(θ v + (1 − θ) v₀) and
// the contacts hold for that displacement, so two bodies meeting at a step's start part with
// Newton's law e = (1 − θ)/θ (Eq. 18) and keep their momentum (Eq. 16); θ = 1/2 is elastic.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>

namespace ndem {
namespace {

constexpr double kD = 0.01;
constexpr double kSpeed = 0.5;   ///< each disk's approach speed (m/s)
constexpr double kH = 1e-4;      ///< time step (s)
constexpr int kStepsApart = 20;  ///< steps until they touch

StepSettings thetaSettings(double theta, int dimension) {
    StepSettings s;
    s.dimension = dimension;
    s.mode = StepMode::Nonsmooth;
    s.impactEnabled = false;
    s.theta = theta;
    s.timeStep = kH;
    s.iterations = 100;
    s.gravity = Vec3::Zero();
    return s;
}

/// Two grains of different sizes approaching head-on along x; they touch exactly at the start
/// of step kStepsApart. Returns the world after it has run past the collision.
World collide(double theta, int dimension) {
    Scene s;
    s.name = "head-on";
    s.settings = thetaSettings(theta, dimension);
    s.materials = {scenes::servinGrain()};
    s.materials[0].friction = 0.0;
    ParticleSpec a, b;
    a.radius = 0.5 * kD;
    b.radius = 0.3 * kD;
    const double gap = 2.0 * kSpeed * kH * kStepsApart;
    a.position = Vec3(-a.radius - 0.5 * gap, 0.0, 0.0);
    b.position = Vec3(b.radius + 0.5 * gap, 0.0, 0.0);
    a.velocity = Vec3(kSpeed, 0.0, 0.0);
    b.velocity = Vec3(-kSpeed, 0.0, 0.0);
    s.particles = {a, b};
    World world = test::makeWorld(s);
    for (int k = 0; k < 2 * kStepsApart; ++k)
        world.step();
    return world;
}

TEST(ThetaMethod, GrainsMeetingAtAStepPartWithRestitutionOneMinusThetaOverTheta) {
    for (int dimension : {2, 3})
        for (double theta : {0.5, 2.0 / 3.0, 0.8}) {
            SCOPED_TRACE(std::to_string(dimension) + "D, theta " + std::to_string(theta));
            const World w = collide(theta, dimension);
            const ParticleStore& p = w.particles();
            const double e = (1.0 - theta) / theta;
            const double separating = p.velocity[1].x() - p.velocity[0].x();
            EXPECT_NEAR(separating, e * 2.0 * kSpeed, 1e-6 * kSpeed);
            // Eq. 16: momentum is kept, whatever θ.
            const double momentum = p.mass[0] * p.velocity[0].x() + p.mass[1] * p.velocity[1].x();
            const double before = (p.mass[0] - p.mass[1]) * kSpeed;
            EXPECT_NEAR(momentum, before, 1e-9 * std::abs(before));
        }
}

TEST(ThetaMethod, HalfIsElasticAndKeepsTheKineticEnergy) {
    const World w = collide(0.5, 3);
    const ParticleStore& p = w.particles();
    const double energy = kineticEnergy(p, 0) + kineticEnergy(p, 1);
    const double before = 0.5 * (p.mass[0] + p.mass[1]) * kSpeed * kSpeed;
    EXPECT_NEAR(energy, before, 1e-6 * before);
}

TEST(ThetaMethod, ABedRestsUnderItsWeightAndNeedsTheNonsmoothModeWithoutImpacts) {
    // A resting packing feels no restitution: with θ = 0.7 the bed of disks carries its weight.
    StepSettings s = thetaSettings(0.7, 2);
    s.gravity = Vec3(0.0, 0.0, -9.81);
    s.timeStep = 2e-3;
    s.iterations = 200;
    s.warmStart = true;
    World world = test::makeWorld(scenes::bed2d(60, kD, scenes::servinGrain(), s, 3));
    test::runUntil(world, 1.5);
    double weight = 0.0, carried = 0.0, fastest = 0.0;
    for (size_t i = 0; i < world.particles().size(); ++i) {
        weight += world.particles().mass[i] * 9.81;
        fastest = std::max(fastest, world.particles().velocity[i].norm());
    }
    for (const Wall& w : world.walls())
        carried += w.force.z();
    EXPECT_NEAR(std::abs(carried), weight, 0.02 * weight);
    EXPECT_LT(fastest, 0.02);

    StepSettings semi = s;
    semi.mode = StepMode::SemiSmooth;
    semi.contactLaw = ContactLaw::Linear;
    auto e = world.applySettings(semi);
    ASSERT_TRUE(e.has_value());
    EXPECT_NE(e->message.find("settings.theta"), std::string::npos);
    StepSettings impacts = s;
    impacts.impactEnabled = true;
    EXPECT_TRUE(world.applySettings(impacts).has_value());
}

}  // namespace
}  // namespace ndem
