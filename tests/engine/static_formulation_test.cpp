// The static formulation (krabbenhoft-2012 Sec. 3.7): each step the grains are in equilibrium
// with the loads, and a servo wall is an unknown whose force is exactly σA (Sec. 5.2).
#include "test_util.hpp"

#include "io/run_report.hpp"

#include <cmath>
#include <numbers>

namespace ndem {
namespace {

constexpr double kR = 0.005;      ///< disk radius (m)
constexpr double kRho = 2600.0;   ///< kg/m³
constexpr double kSigma = 100.0;  ///< servo stress (N/m per metre in the plane)

/// A servo wall pushing along its normal with σ over `length` (per metre of thickness).
Wall servo(const std::string& name, const Vec3& at, const Vec3& normal, double length) {
    Wall w = test::plane(name, at, normal);
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
    s.method = "interior-point";
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
    scene.walls.push_back(test::plane("floor", Vec3::Zero(), Vec3::UnitZ()));
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
    scene.walls.push_back(test::plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    // 0.35 mm above the disk: at 10 mm/s it arrives within the fourth step.
    scene.walls.push_back(
        servo("top", Vec3(0.0, 0.0, 2.0 * kR + 3.5e-4), -Vec3::UnitZ(), 2.0 * kR));
    World world = test::makeWorld(scene);
    RunRecorder recorder;
    const StepStats first = world.step();
    recorder.record(first);
    EXPECT_TRUE(first.servosClosingIn);  // the step says so
    EXPECT_NEAR(world.walls()[1].position.z(), 2.0 * kR + 2.5e-4, 1e-12);
    while (world.time() < 0.1 - 1e-12)
        recorder.record(world.step());
    EXPECT_EQ(recorder.servosClosingIn, 4);  // the fourth step arrives, then the wall pushes
    EXPECT_FALSE(recorder.last().servosClosingIn);
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
    scene.walls.push_back(test::plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    scene.walls.push_back(test::plane("lid", Vec3(0.0, 0.0, height), -Vec3::UnitZ()));
    scene.walls.push_back(servo("left", Vec3(-3.0 * kR, 0.0, 0.0), Vec3::UnitX(), height));
    scene.walls.push_back(servo("right", Vec3(3.0 * kR, 0.0, 0.0), -Vec3::UnitX(), height));
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.1);
    EXPECT_NEAR(push(world.walls()[2]), kSigma * height, 1e-6 * kSigma * height);
    EXPECT_NEAR(push(world.walls()[3]), kSigma * height, 1e-6 * kSigma * height);
    EXPECT_NEAR(world.walls()[2].position.x(), -3.0 * kR, 1e-8);
    EXPECT_NEAR(world.walls()[3].position.x(), 3.0 * kR, 1e-8);
}

/// Two disks on a floor with a third in their groove, a lid moving down on it at 1 mm/s and a
/// servo wall beside each bottom disk, `gap` away from it (gravity off; the walls smooth
/// unless `rough`): the lid can only go down if the servos give way.
World pyramidUnderALid(double friction, double gap, SlidingRule rule, bool rough = false,
                       double fallback = 1e-2) {
    StepSettings s = staticSettings();
    s.solverBlocks.edit<InteriorPointSettings>().staticFallback = fallback;
    s.gravity = Vec3::Zero();
    s.solverBlocks.edit<InteriorPointSettings>().slidingRule = rule;
    if (rule == SlidingRule::NonAssociated)
        s.solverBlocks.edit<InteriorPointSettings>().dilation = 0.01;
    Scene scene = baseScene(s, friction);
    const double apex = kR + std::sqrt(3.0) * kR;
    addDisk(scene, Vec3(-kR, 0.0, kR));
    addDisk(scene, Vec3(kR, 0.0, kR));
    addDisk(scene, Vec3(0.0, 0.0, apex));
    scene.walls.push_back(test::plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    Wall lid = test::plane("lid", Vec3(0.0, 0.0, apex + kR), -Vec3::UnitZ());
    lid.linearVelocity = Vec3(0.0, 0.0, -1e-3);
    scene.walls.push_back(lid);
    scene.walls.push_back(servo("left", Vec3(-2.0 * kR - gap, 0.0, 0.0), Vec3::UnitX(), 2.0 * kR));
    scene.walls.push_back(servo("right", Vec3(2.0 * kR + gap, 0.0, 0.0), -Vec3::UnitX(), 2.0 * kR));
    if (!rough) test::smoothWallsBut(scene, "");
    return test::makeWorld(scene);
}

TEST(StaticFormulation, ServoWallsANanometreOffTheGrainsGiveWayToTheLidAtOnce) {
    // A compliant compaction leaves the platens a few nanometres off the grains once the
    // contacts become rigid. Such a wall pushes with σA from the first step (its gap row
    // closes the gap) instead of closing in as a kinematic wall: with every wall kinematic the
    // lid would press into a rigid pyramid and the step would have no answer.
    const double sigmaA = kSigma * 2.0 * kR;
    World world = pyramidUnderALid(0.0, 1e-7, SlidingRule::Associated);
    const StepStats stats = world.step();
    EXPECT_LT(stats.solverResidual, 1e-8);
    // Frictionless: each groove contact carries 2σA along its 30° line, the lid 2√3 σA.
    // The walls, as heavy as the grains, keep the static formulation's share 10⁻⁴ of their
    // inertia: 10⁻⁵ σA to start them moving.
    EXPECT_NEAR(push(world.walls()[2]), sigmaA, 1e-4 * sigmaA);
    EXPECT_NEAR(push(world.walls()[3]), sigmaA, 1e-4 * sigmaA);
    EXPECT_NEAR(push(world.walls()[1]), 2.0 * std::sqrt(3.0) * sigmaA, 1e-3 * sigmaA);
    // The lid's 10 µm down moves each bottom disk out by √3 times as much (the groove's
    // contacts keep their length to first order), and its wall with it.
    const double spread = 1e-5 * std::sqrt(3.0);
    EXPECT_NEAR(world.walls()[2].position.x(), -2.0 * kR - spread, 1e-3 * spread);
    EXPECT_NEAR(world.walls()[3].position.x(), 2.0 * kR + spread, 1e-3 * spread);
}

TEST(StaticFormulation, TheNonAssociatedRuleConvergesWhereTheServosGiveWay) {
    // The same with friction μ = 0.5 and dilation ν = 0.01 between the grains: the smooth
    // floor and walls let no torque onto a bottom disk, so the groove contacts carry no
    // friction and every step is the frictionless one on the step's geometry. The
    // complementarity problem has that answer and the method finds it.
    const double sigmaA = kSigma * 2.0 * kR;
    World world = pyramidUnderALid(0.5, 1e-7, SlidingRule::NonAssociated);
    double x = kR, z = std::sqrt(3.0) * kR, lid = 0.0;  // the right groove contact's branch
    for (int k = 0; k < 5; ++k) {
        const StepStats stats = world.step();
        EXPECT_LT(stats.solverResidual, 1e-6) << k;
        EXPECT_LT(stats.maxOverlap, 1e-6) << k;
        lid = 2.0 * sigmaA * z / x;
        x += z / x * 1e-5;
        z -= 1e-5;
    }
    // First order in the steps' 10 µm: the gap rows restore the contacts' second-order
    // overlap (10⁻⁸ m a step) one step late.
    EXPECT_NEAR(push(world.walls()[1]), lid, 1e-3 * sigmaA);
    EXPECT_NEAR(push(world.walls()[3]), sigmaA, 1e-4 * sigmaA);
    EXPECT_NEAR(world.particles().position[1].x(), x, 1e-2 * (x - kR));
}

TEST(StaticFormulation, AStalledNonAssociatedStepTakesTheAssociatedAnswerAndCountsIt) {
    // With rough walls the rules part ways; a fallback threshold below any residual makes
    // every step take the associated answer, 0 none.
    World associated = pyramidUnderALid(0.5, 1e-7, SlidingRule::Associated, true);
    World always = pyramidUnderALid(0.5, 1e-7, SlidingRule::NonAssociated, true, 1e-300);
    World never = pyramidUnderALid(0.5, 1e-7, SlidingRule::NonAssociated, true, 0.0);
    double apart = 0.0;
    for (int k = 0; k < 5; ++k) {
        associated.step();
        EXPECT_TRUE(always.step().fallback != nullptr) << k;
        EXPECT_FALSE(never.step().fallback != nullptr) << k;
        for (int i = 0; i < 3; ++i) {
            EXPECT_NEAR(
                (always.particles().position[i] - associated.particles().position[i]).norm(), 0.0,
                1e-12)
                << k << " " << i;
            apart = std::max(
                apart, (never.particles().position[i] - associated.particles().position[i]).norm());
        }
    }
    EXPECT_GT(apart, 1e-7);  // the rules differ here, so the comparison above can fail
}

TEST(StaticFormulation, RoughServoWallsTheAssociatedRuleHoldsApartKeepPushingWithSigmaA) {
    // Rough walls beside the bottom disks: the associated rule holds each wall contact apart
    // by μ|Δu_t| h while it carries σA (Eq. 22), beyond the thousandth of a radius that counts
    // as touching. The wall the grains pushed is still the step's unknown: every step σA.
    const double sigmaA = kSigma * 2.0 * kR;
    World world = pyramidUnderALid(0.5, 1e-7, SlidingRule::Associated, true);
    double widest = 0.0;
    for (int k = 0; k < 12; ++k) {
        const double gap = world.walls()[3].position.x() - world.particles().position[1].x() - kR;
        widest = std::max(widest, gap);
        const StepStats stats = world.step();
        EXPECT_LT(stats.solverResidual, 1e-4) << k;
        EXPECT_NEAR(push(world.walls()[2]), sigmaA, 1e-4 * sigmaA) << k;
        EXPECT_NEAR(push(world.walls()[3]), sigmaA, 1e-4 * sigmaA) << k;
    }
    EXPECT_GT(widest, 1e-3 * kR);  // some steps start with the walls that far off
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

/// One static step of a disk resting on another, `tilt` off the vertical, on a floor: the
/// upper disk rolls off unless it sits straight on top.
StepStats diskOnADisk(double tilt, double inertia, RunWarning* warning = nullptr) {
    StepSettings s = staticSettings();
    s.staticInertia = inertia;
    Scene scene = baseScene(s, 0.5);
    addDisk(scene, Vec3(0.0, 0.0, kR));
    addDisk(scene, Vec3(2.0 * kR * std::sin(tilt), 0.0, kR + 2.0 * kR * std::cos(tilt)));
    scene.walls.push_back(test::plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    World world = test::makeWorld(scene);
    const StepStats stats = world.step();
    for (const RunWarning& w : world.warnings())
        if (warning && w.kind == "static") *warning = w;
    return stats;
}

TEST(StaticFormulation, AGrainWithoutEquilibriumIsCountedAndWarnedOf) {
    // Straight on top, the stack carries its weight: nothing moves.
    const StepStats upright = diskOnADisk(0.0, 1e-4);
    EXPECT_EQ(upright.staticRunaways, 0);
    EXPECT_EQ(upright.staticRunawayDiameters, 0.0);
    // 10° off, the upper disk rolls off (no rolling resistance): the static problem has no
    // answer and the step moves it as ε M lets it, metres where detection reached 0.1 mm.
    RunWarning warning;
    const StepStats tilted = diskOnADisk(10.0 * std::numbers::pi / 180.0, 1e-4, &warning);
    EXPECT_GE(tilted.staticRunaways, 1);
    EXPECT_GT(tilted.staticRunawayDiameters, 10.0);
    EXPECT_EQ(warning.kind, "static");
    EXPECT_NE(warning.message.find("no answer"), std::string::npos) << warning.message;
    // Its displacement is the inertia's: ten times the share, a tenth of the way (the contacts
    // touch exactly, so the step's answer is linear in 1/ε).
    const StepStats heavier = diskOnADisk(10.0 * std::numbers::pi / 180.0, 1e-3);
    EXPECT_NEAR(tilted.staticRunawayDiameters / heavier.staticRunawayDiameters, 10.0, 1e-3);
}

TEST(StaticFormulation, TakesTheInteriorPointMethodOnly) {
    StepSettings s = staticSettings();
    s.method = "pgs";
    const auto e = validate(s);
    ASSERT_TRUE(e.has_value());
    EXPECT_NE(e->message.find("settings.solver.formulation"), std::string::npos);
}

}  // namespace
}  // namespace ndem
