// A sphere on an incline: sticks for tan θ < μ and slides with a = g (sin θ − μ cos θ) for
// tan θ > μ when it cannot roll; rolls with a = (5/7) g sin θ when it can; rolling resistance
// stops a rolling sphere at the distance 7 v0² / (10 μ_r g).
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {
namespace {

constexpr double kG = 9.81;
constexpr double kD = 0.01;

struct InclineRun {
    double acceleration = 0.0;  ///< down-slope, measured between t = 0.5 s and 1 s (m/s²)
    double displacement = 0.0;  ///< down-slope after 1 s (m)
    double speed = 0.0;         ///< at 1 s (m/s)
};

InclineRun slide(double angleDeg, double mu, bool fixedRotation, FrictionModel model) {
    Material grain = scenes::servinGrain();
    grain.friction = mu;
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 50;
    s.solverBlocks.edit<PgsSettings>().friction = model;
    World world = test::makeWorld(scenes::incline(angleDeg, kD, grain, s, fixedRotation));
    const Vec3 down =
        Quat(Eigen::AngleAxisd(angleDeg * std::numbers::pi / 180.0, Vec3::UnitY())) * Vec3::UnitX();
    test::runUntil(world, 0.5);
    const double v05 = world.particles().velocity[0].dot(down);
    test::runUntil(world, 1.0);
    InclineRun out;
    out.speed = world.particles().velocity[0].dot(down);
    out.acceleration = (out.speed - v05) / 0.5;
    out.displacement = world.particles().position[0].dot(down);
    return out;
}

TEST(Incline, SticksBelowFrictionAngle) {
    for (FrictionModel model : {FrictionModel::Cone, FrictionModel::Box}) {
        const InclineRun r = slide(20.0, 0.5, true, model);  // tan 20° = 0.364 < 0.5
        EXPECT_LT(std::abs(r.speed), 1e-6);
        EXPECT_LT(std::abs(r.displacement), 1e-3 * kD);
    }
}

TEST(Incline, SlidesWithCoulombAccelerationAboveFrictionAngle) {
    const double theta = 35.0 * std::numbers::pi / 180.0;  // tan 35° = 0.70 > 0.5
    const double expected = kG * (std::sin(theta) - 0.5 * std::cos(theta));
    for (FrictionModel model : {FrictionModel::Cone, FrictionModel::Box}) {
        const InclineRun r = slide(35.0, 0.5, true, model);
        EXPECT_NEAR(r.acceleration, expected, 0.01 * expected);
    }
}

TEST(Incline, FreeSphereRollsWithFiveSeventhsGSinTheta) {
    for (double angle : {20.0, 35.0}) {
        const double expected = 5.0 / 7.0 * kG * std::sin(angle * std::numbers::pi / 180.0);
        const InclineRun r = slide(angle, 0.5, false, FrictionModel::Cone);
        EXPECT_NEAR(r.acceleration, expected, 0.005 * expected) << angle << " deg";
    }
}

TEST(RollingResistance, StopsRollingSphereWithin5PercentOfPrediction) {
    const double v0 = 0.5;
    for (double muR : {0.05, 0.1, 0.3}) {
        Material grain = scenes::servinGrain();
        grain.friction = 0.5;
        grain.rollingResistance = muR;
        StepSettings s;
        s.timeStep = 1e-3;
        s.iterations = 50;
        World world = test::makeWorld(scenes::rollingSphere(v0, kD, grain, s));
        // Constant resisting torque μ_r r m g with rolling contact: a = −(5/7) μ_r g.
        const double predicted = 7.0 * v0 * v0 / (10.0 * muR * kG);
        test::runUntil(world, 2.0 * predicted / v0 + 0.5);
        const auto& p = world.particles();
        EXPECT_LT(p.velocity[0].norm(), 1e-6) << "still moving, mu_r = " << muR;
        EXPECT_NEAR(p.position[0].x(), predicted, 0.05 * predicted) << "mu_r = " << muR;
    }
}

}  // namespace
}  // namespace ndem
