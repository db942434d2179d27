// The static formulation (krabbenhoft-2012 Sec. 3.7): each step the grains are in equilibrium
// with the loads, and a servo wall is an unknown whose force is exactly σA (Sec. 5.2).
#include "test_util.hpp"

#include <numbers>

namespace ndem {
namespace {

constexpr double kR = 0.005;      ///< disk radius (m)
constexpr double kRho = 2600.0;   ///< kg/m³
constexpr double kSigma = 100.0;  ///< servo stress (N/m per metre in the plane)

Wall plane(const std::string& name, const Vec3& at, const Vec3& normal) {
    Wall w;
    w.name = name;
    w.shape = WallShape::Plane;
    w.position = at;
    w.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), normal);
    return w;
}

/// A servo wall pushing along its normal with σ over `length` (per metre of thickness).
Wall servo(const std::string& name, const Vec3& at, const Vec3& normal, double length) {
    Wall w = plane(name, at, normal);
    w.servo.active = true;
    w.servo.direction = normal;
    w.servo.stress = kSigma;
    w.servo.area = length;
    w.servo.maxSpeed = 0.01;
    return w;
}

StepSettings staticSettings() {
    StepSettings s;
    s.dimension = 2;
    s.mode = StepMode::Nonsmooth;
    s.timeStep = 0.01;
    s.method = SolverMethod::InteriorPoint;
    s.formulation = Formulation::Static;
    s.iterations = 50;
    s.impactEnabled = false;
    return s;
}

Scene baseScene(const StepSettings& s, double friction) {
    Scene scene;
    scene.settings = s;
    Material m;
    m.name = "grain";
    m.density = kRho;
    m.friction = friction;
    m.restitution = 0.0;
    scene.materials.push_back(m);
    return scene;
}

void addDisk(Scene& scene, const Vec3& at) {
    ParticleSpec p;
    p.position = at;
    p.radius = kR;
    scene.particles.push_back(p);
}

double diskMass() {
    return kRho * std::numbers::pi * kR * kR;
}

/// Pushed outwards (against its normal) by the grains (N per metre).
double push(const Wall& w) {
    return -w.force.dot(w.orientation * Vec3::UnitZ());
}

TEST(StaticFormulation, AServoWallOnAStackCarriesSigmaAAndTheFloorTheWeightBesides) {
    // Three disks stacked on a floor, a servo platen on top: each step is in equilibrium, so
    // the platen carries σA exactly and the floor σA plus the weight; nothing moves.
    Scene scene = baseScene(staticSettings(), 0.5);
    for (int k = 0; k < 3; ++k)
        addDisk(scene, Vec3(0.0, 0.0, kR + 2.0 * kR * k));
    const double length = 2.0 * kR;
    scene.walls.push_back(plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    scene.walls.push_back(servo("top", Vec3(0.0, 0.0, 6.0 * kR), -Vec3::UnitZ(), length));
    World world = test::makeWorld(scene);
    test::runUntil(world, 1.0);
    const double weight = 3.0 * diskMass() * 9.81;
    EXPECT_NEAR(push(world.walls()[1]), kSigma * length, 1e-6 * kSigma * length);
    EXPECT_NEAR(push(world.walls()[0]), kSigma * length + weight,
                1e-6 * (kSigma * length + weight));
    EXPECT_NEAR(world.walls()[1].position.z(), 6.0 * kR, 1e-8);
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(world.particles().position[k].z(), kR + 2.0 * kR * k, 1e-8) << k;
}

TEST(StaticFormulation, AServoWallThatTouchesNothingClosesInAtItsMaxSpeedThenHolds) {
    Scene scene = baseScene(staticSettings(), 0.5);
    addDisk(scene, Vec3(0.0, 0.0, kR));
    scene.walls.push_back(plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    // 0.35 mm above the disk: at 10 mm/s it arrives within the fourth step.
    scene.walls.push_back(
        servo("top", Vec3(0.0, 0.0, 2.0 * kR + 3.5e-4), -Vec3::UnitZ(), 2.0 * kR));
    World world = test::makeWorld(scene);
    world.step();
    EXPECT_NEAR(world.walls()[1].position.z(), 2.0 * kR + 2.5e-4, 1e-12);
    test::runUntil(world, 0.1);
    EXPECT_NEAR(world.walls()[1].position.z(), 2.0 * kR, 1e-8);
    EXPECT_NEAR(push(world.walls()[1]), kSigma * 2.0 * kR, 1e-6 * kSigma * 2.0 * kR);
}

TEST(StaticFormulation, TwoServoWallsSqueezeARowWhileTheTopHoldsIt) {
    // A row of three disks between two side servos (no gravity) and under a floor and a
    // fixed lid: the sides balance each other, each carries σA.
    StepSettings s = staticSettings();
    s.gravity = Vec3::Zero();
    Scene scene = baseScene(s, 0.5);
    for (int k = 0; k < 3; ++k)
        addDisk(scene, Vec3(2.0 * kR * (k - 1), 0.0, kR));
    const double height = 2.0 * kR;
    scene.walls.push_back(plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    scene.walls.push_back(plane("lid", Vec3(0.0, 0.0, height), -Vec3::UnitZ()));
    scene.walls.push_back(servo("left", Vec3(-3.0 * kR, 0.0, 0.0), Vec3::UnitX(), height));
    scene.walls.push_back(servo("right", Vec3(3.0 * kR, 0.0, 0.0), -Vec3::UnitX(), height));
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.1);
    EXPECT_NEAR(push(world.walls()[2]), kSigma * height, 1e-6 * kSigma * height);
    EXPECT_NEAR(push(world.walls()[3]), kSigma * height, 1e-6 * kSigma * height);
    EXPECT_NEAR(world.walls()[2].position.x(), -3.0 * kR, 1e-8);
    EXPECT_NEAR(world.walls()[3].position.x(), 3.0 * kR, 1e-8);
}

TEST(StaticFormulation, AFrictionScaleMultipliesEveryPairAndAPhaseRestoresIt) {
    // Sample preparation: compacted frictionless, sheared with friction.
    StepSettings s = staticSettings();
    s.frictionScale = 0.0;
    Scene scene = baseScene(s, 0.5);
    addDisk(scene, Vec3(0.0, 0.0, kR));
    World world = test::makeWorld(scene);
    EXPECT_EQ(world.materials().pair(0, 0).friction, 0.0);
    s.frictionScale = 0.5;
    ASSERT_FALSE(world.applySettings(s).has_value());
    EXPECT_DOUBLE_EQ(world.materials().pair(0, 0).friction, 0.25);
    s.frictionScale = 1.0;
    ASSERT_FALSE(world.applySettings(s).has_value());
    EXPECT_DOUBLE_EQ(world.materials().pair(0, 0).friction, 0.5);
}

TEST(StaticFormulation, TakesTheInteriorPointMethodOnly) {
    StepSettings s = staticSettings();
    s.method = SolverMethod::Pgs;
    const auto e = validate(s);
    ASSERT_TRUE(e.has_value());
    EXPECT_NE(e->message.find("settings.solver.formulation"), std::string::npos);
}

}  // namespace
}  // namespace ndem
