// Rolling resistance between two grains: its lever arm. The rolling and twisting torques are
// bounded by μ_r r* f_n (Wang, Servin & Berglund Eq. 1 and App. A); the papers print the
// effective radius as r* = (r_a + r_b)/(r_a r_b), the inverse of the reduced radius, which
// cannot be a length. The engine takes r* = r_a r_b/(r_a + r_b) (d*/2): the grain's own
// radius on a wall, half of it between equal grains. Every other rolling test is a sphere on
// a wall, where the readings agree; here a sphere spins on the top of a fixed sphere twice its
// size, without friction (nothing pushes it off the top), and the torque μ_r r* m g stops it
// at α = μ_r r* g/(0.4 r²): with r* = r_a r_b/(r_a + r_b) = r/1.5, against 1.5× that with the
// grain's radius.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <string>

namespace ndem {
namespace {

constexpr double kRadius = 0.005, kBase = 0.01, kMuR = 0.1;

/// The sphere's angular velocity about `axis` at t = 0.05 s and 0.15 s, spun at 100 rad/s.
std::pair<double, double> spinDown(const Vec3& axis) {
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 50;
    Material grain = scenes::servinGrain();
    grain.friction = 0.0;
    grain.rollingResistance = kMuR;
    Scene scene = scenes::column(2, 2.0 * kRadius, grain, s);
    scene.walls.clear();
    scene.particles[0].radius = kBase;
    scene.particles[0].position = Vec3::Zero();
    scene.particles[0].flags = kKinematic;  // fixed: velocity zero, no force moves it
    scene.particles[1].position = Vec3(0.0, 0.0, kBase + kRadius);
    scene.particles[1].angularVelocity = 100.0 * axis;
    World world = test::makeWorld(scene);
    const Index top = world.particles().indexOfId()[1];
    test::runUntil(world, 0.05);
    const double w1 = world.particles().angularVelocity[top].dot(axis);
    test::runUntil(world, 0.15);
    const double w2 = world.particles().angularVelocity[top].dot(axis);
    EXPECT_NEAR(world.particles().position[top].x(), 0.0, 1e-9);  // still on the top
    EXPECT_NEAR(world.particles().position[top].y(), 0.0, 1e-9);
    return {w1, w2};
}

TEST(RollingResistance, BetweenTwoSpheresTheLeverIsTheReducedRadius) {
    const double reduced = kRadius * kBase / (kRadius + kBase);
    const double expected = kMuR * reduced * 9.81 / (0.4 * kRadius * kRadius);
    for (const Vec3& axis : {Vec3(0.0, 1.0, 0.0), Vec3(0.0, 0.0, 1.0)}) {  // rolling, twisting
        const auto [w1, w2] = spinDown(axis);
        EXPECT_NEAR((w1 - w2) / 0.1, expected, 0.01 * expected) << "axis " << axis.transpose();
        EXPECT_GT(w2, 0.0);  // still spinning: the deceleration is the bound's, not a stop
    }
}

}  // namespace
}  // namespace ndem
