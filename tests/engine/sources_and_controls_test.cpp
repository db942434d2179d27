// Emitters, sinks, scheduled wall removal and stress-controlled walls.
#include "bench_scenes.hpp"
#include "io/scene_file.hpp"
#include "test_util.hpp"

namespace ndem {
namespace {

Scene boxScene(double half, const StepSettings& s) {
    Scene scene = scenes::column(0, 0.01, scenes::servinGrain(), s);
    for (int k = 0; k < 4; ++k) {
        Wall w;
        w.name = "side" + std::to_string(k);
        const Vec3 inward = -Vec3(k == 0 ? 1 : k == 2 ? -1 : 0, k == 1 ? 1 : k == 3 ? -1 : 0, 0);
        w.position = -half * inward;
        w.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), inward);
        scene.walls.push_back(w);
    }
    return scene;
}

/// A plane lid at height `top` facing down that presses σ = 1 kPa over A = 1 cm² (σA = 0.1 N);
/// the caller picks its control law.
Wall servoLid(double top) {
    Wall lid;
    lid.name = "lid";
    lid.position = Vec3(0, 0, top);
    lid.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), -Vec3::UnitZ());
    lid.servo.active = true;
    lid.servo.direction = -Vec3::UnitZ();
    lid.servo.stress = 1000.0;
    lid.servo.area = 1e-4;
    return lid;
}

/// The servoLid with a mass of 50 g over a column of three spheres, solved by `method`.
World massLidOnColumn(std::string method, double top) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    s.method = method;
    Scene scene = scenes::column(3, 0.01, scenes::servinGrain(), s);
    Wall lid = servoLid(top);
    lid.servo.mass = 0.05;
    lid.servo.maxSpeed = 1.0;
    scene.walls.push_back(lid);
    return test::makeWorld(scene);
}

TEST(Emitter, EmitsAtItsRateWithoutPlacingOverlaps) {
    // A busy emitter (800/s into a 6 cm box, 200 grains fill 17 % of it) with no gravity:
    // grains stay where they are placed, so any overlap would be the emitter's.
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 30;
    s.gravity = Vec3::Zero();
    Scene scene = boxScene(0.05, s);
    EmitterSpec e;
    e.min = Vec3(-0.03, -0.03, 0.02);
    e.max = Vec3(0.03, 0.03, 0.08);
    e.rate = 800.0;
    e.radii.lo = 0.003;
    e.radii.hi = 0.004;
    scene.emitters.push_back(e);
    World world = test::makeWorld(scene);
    int emitted = 0, touching = 0;
    while (world.time() < 0.25 - 1e-9) {
        const StepStats st = world.step();
        emitted += st.emitted;
        touching += st.contacts;
    }
    EXPECT_EQ(emitted, 200);  // 800/s for 0.25 s
    EXPECT_EQ(world.particles().size(), 200u);
    EXPECT_EQ(world.emitters()[0].skipped, 0);
    EXPECT_EQ(touching, 0) << "a grain was placed overlapping another";
    for (const Vec3& x : world.particles().position) {
        EXPECT_TRUE((x.array() >= e.min.array() - 1e-12).all() &&
                    (x.array() <= e.max.array() + 1e-12).all());
    }
}

TEST(Emitter, PouredGrainsLandOnTheFloor) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 30;
    Scene scene = boxScene(0.05, s);
    EmitterSpec e;
    e.min = Vec3(-0.03, -0.03, 0.1);
    e.max = Vec3(0.03, 0.03, 0.12);
    e.rate = 400.0;
    e.radii.lo = e.radii.hi = 0.004;
    scene.emitters.push_back(e);
    World world = test::makeWorld(scene);
    test::runUntil(world, 1.5);
    EXPECT_EQ(world.particles().size(), 600u);
    double lowest = 1.0;
    for (const Vec3& x : world.particles().position)
        lowest = std::min(lowest, x.z());
    EXPECT_GT(lowest, 0.004 * 0.9);  // nothing went through the floor
    const StepStats st = world.step();
    EXPECT_LT(st.maxOverlap, 0.05);  // once poured and settled, overlaps are small
}

TEST(Sink, RemovesParticlesThatEnterIt) {
    StepSettings s;
    s.timeStep = 1e-3;
    Scene scene = scenes::column(3, 0.01, scenes::servinGrain(), s);
    scene.walls.clear();  // the column falls freely
    SinkSpec sink;
    sink.min = Vec3(-1, -1, -1);
    sink.max = Vec3(1, 1, -0.05);
    scene.sinks.push_back(sink);
    World world = test::makeWorld(scene);
    int removed = 0;
    while (world.time() < 0.2)
        removed += world.step().removed;
    // z = 0.005 falls below −0.05 after √(2·0.055/g) = 0.106 s; the top sphere (0.025) at 0.115 s.
    EXPECT_EQ(removed, 3);
    EXPECT_TRUE(world.particles().empty());
    EXPECT_EQ(world.particles().indexOfId()[2], -1);
}

TEST(Schedule, WallIsRemovedAtItsTime) {
    StepSettings s;
    s.timeStep = 1e-3;
    Scene scene = scenes::column(1, 0.01, scenes::servinGrain(), s);
    scene.walls[0].disableAt = 0.1;
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.1);
    EXPECT_NEAR(world.particles().position[0].z(), 0.005, 1e-4);  // resting
    test::runUntil(world, 0.3);
    EXPECT_FALSE(world.walls()[0].enabled);
    EXPECT_LT(world.particles().position[0].z(), -0.1);  // fell through
}

TEST(Schedule, AMovingWallStopsAtItsTime) {
    // 2 cm/s for 0.1 s, then still: 2 mm, and its velocity zero from then on.
    StepSettings s;
    s.timeStep = 1e-3;
    Scene scene = scenes::column(1, 0.01, scenes::servinGrain(), s);
    Wall side;
    side.name = "side";
    side.position = Vec3(0.05, 0, 0);
    side.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), -Vec3::UnitX());
    side.linearVelocity = Vec3(-0.02, 0, 0);
    side.stopAt = 0.1;
    scene.walls.push_back(side);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.3);
    EXPECT_NEAR(world.walls()[1].position.x(), 0.05 - 0.002, 1e-9);
    EXPECT_EQ(world.walls()[1].linearVelocity.norm(), 0.0);
}

TEST(Servo, LidSettlesWhereTheGrainsCarryTheTargetStress) {
    // A servo lid comes down on a column of three spheres and presses with σ = 1 kPa over
    // A = 1 cm²: it must stop where the column carries exactly σ A = 0.1 N.
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    Material grain = scenes::servinGrain();
    Scene scene = scenes::column(3, 0.01, grain, s);
    Wall lid = servoLid(0.034);
    lid.servo.gain = 0.05;
    lid.servo.maxSpeed = 0.01;
    scene.walls.push_back(lid);
    World world = test::makeWorld(scene);
    test::runUntil(world, 2.0);
    const Wall& w = world.walls().back();
    EXPECT_NEAR(-w.force.dot(lid.servo.direction), 0.1, 1e-3);
    EXPECT_LT(w.linearVelocity.norm(), 1e-6);
    // The floor carries the lid's push plus the weight of the three spheres.
    const double weight = 3 * world.particles().mass[0] * 9.81;
    EXPECT_NEAR(-world.walls()[0].force.z(), 0.1 + weight, 2e-3);
}

TEST(Servo, AWallWithMassIsPushedBySigmaAAndComesToRestWhereTheGrainsCarryIt) {
    // wang-servin-berglund's walls: bodies of mass m on which a motor pushes with σ A. In free
    // flight the lid accelerates at exactly σ A / m; on the column it must come to rest where
    // the column carries σ A, with no gain to tune.
    World world = massLidOnColumn("pgs", 0.034);
    const Wall lid = world.walls().back();
    const double accel = 1000.0 * 1e-4 / 0.05;  // 2 m/s²
    test::runUntil(world, 0.01);
    const double v1 = world.walls().back().linearVelocity.dot(lid.servo.direction);
    test::runUntil(world, 0.03);
    const double v2 = world.walls().back().linearVelocity.dot(lid.servo.direction);
    EXPECT_NEAR(v2 - v1, accel * 0.02, 1e-12);  // 4 mm of gap: still in flight
    EXPECT_GT(world.walls().back().position.z(), 0.03 + 1e-3);
    test::runUntil(world, 3.0);
    const Wall& w = world.walls().back();
    EXPECT_NEAR(-w.force.dot(lid.servo.direction), 0.1, 1e-3);
    EXPECT_LT(w.linearVelocity.norm(), 1e-4);
    const double weight = 3 * world.particles().mass[0] * 9.81;
    EXPECT_NEAR(-world.walls()[0].force.z(), 0.1 + weight, 2e-3);
}

/// A lid on a servo, moving down at v0, about to strike one free sphere of `grain` (no
/// gravity, no floor); the wall closes the gap within the first 5 ms step.
Scene lidStrikingASphere(const Material& grain, double v0) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    s.gravity = Vec3::Zero();
    Scene scene = scenes::column(1, 0.01, grain, s);
    scene.walls.clear();
    Wall lid = servoLid(0.01 + 0.5 * s.timeStep * v0);
    lid.servo.stress = 1e-9;  // σA h/m: 4·10⁻¹² v₀ a step
    lid.linearVelocity = v0 * lid.servo.direction;
    lid.servo.maxSpeed = 1.0;
    scene.walls.push_back(lid);
    return scene;
}

TEST(Servo, AWallWithMassTradesMomentumWithTheGrainsInsideTheSolve) {
    // The lid is a body of the step's solve: striking a free sphere (no gravity, no floor) it
    // obeys Newton's law with the sphere's restitution and conserves momentum to round-off,
    // as two grains would. A wall moved after the step would instead run h v₀ into the grain.
    Material grain = scenes::servinGrain();
    grain.restitution = 0.5;
    const double v0 = 0.1;
    const Scene scene = lidStrikingASphere(grain, v0);
    const Wall lid = scene.walls[0];
    World world = test::makeWorld(scene);
    const double m = world.particles().mass[0];
    world.walls()[0].servo.mass = m;  // as heavy as the sphere: an even trade
    world.step();
    const Vec3 d = lid.servo.direction;
    const double wall = world.walls()[0].linearVelocity.dot(d);
    const double sphere = world.particles().velocity[0].dot(d);
    const double motor = lid.servo.stress * lid.servo.area * scene.settings.timeStep;  // σA h
    EXPECT_NEAR(m * wall + m * sphere, m * v0 + motor, 1e-12 * m * v0);
    EXPECT_NEAR(sphere - wall, 0.5 * v0, 1e-3 * v0);  // v_g − v_w = e v₀
    EXPECT_NEAR(wall, 0.25 * v0, 1e-3 * v0);
    for (int k = 0; k < 20; ++k)
        world.step();
    const double later =
        world.walls()[0].linearVelocity.dot(d) + world.particles().velocity[0].dot(d);
    EXPECT_NEAR(m * later, m * v0 + 21 * motor, 1e-12 * m * v0);
    // Pushed along, never run into: the lid stays a radius above the centre, less 1 % of d.
    EXPECT_GT(world.walls()[0].position.z() - world.particles().position[0].z(), 0.005 - 1e-4);
}

TEST(Servo, AWallWithMassMovesOnlyAlongItsAxisAndTakesNoFrictionSideways) {
    // The lid strikes a sphere that also moves sideways at u. The lid is a body only along its
    // axis, so the friction that makes the sphere stick on it meets an infinite mass sideways:
    // the sphere leaves rolling on the lid with 5/7 of u, as on a fixed wall, and the lid never
    // moves off its axis.
    Material grain = scenes::servinGrain();
    grain.restitution = 0.5;
    grain.friction = 0.5;  // sticks: the 2/7 m u it needs is far below μ times the strike
    const double u = 0.01;
    World world = test::makeWorld(lidStrikingASphere(grain, 0.1));
    const double m = world.particles().mass[0], r = world.particles().radius[0];
    world.walls()[0].servo.mass = m;
    world.particles().velocity[0].x() = u;
    const Vec3 start = world.walls()[0].position;
    for (int k = 0; k < 5; ++k)
        world.step();
    const Wall& w = world.walls()[0];
    EXPECT_EQ(w.linearVelocity.x(), 0.0);
    EXPECT_EQ(w.linearVelocity.y(), 0.0);
    EXPECT_EQ(w.position.x(), start.x());
    EXPECT_EQ(w.position.y(), start.y());
    // Within 2 % of u: the contact lasts one step and leaves a little slip (measured: v 0.724 u,
    // ω r 0.707 u); the lid's mass felt sideways would put v 6 % of u higher, at 7/9 of u.
    const double sideways = world.particles().velocity[0].x();
    EXPECT_NEAR(sideways, 5.0 / 7.0 * u, 0.02 * u);
    EXPECT_NEAR(std::abs(world.particles().angularVelocity[0].y()) * r, 5.0 / 7.0 * u, 0.02 * u);
}

TEST(Servo, AWallWithMassIsABodyOfEverySolver) {
    // The explicit solvers take the wall from the assembled problem (its M⁻¹ = (1/m) a aᵀ):
    // each brings the lid to rest where the column carries σA, as the PGS does.
    for (std::string method : {"nncg", "apgd", "nlgs", "interior-point"}) {
        World world = massLidOnColumn(method, 0.0305);
        test::runUntil(world, 3.0);
        const Wall& w = world.walls().back();
        EXPECT_NEAR(-w.force.dot(w.servo.direction), 0.1, 1e-3) << method;
        EXPECT_LT(w.linearVelocity.norm(), 1e-4) << method;
    }
}

TEST(Servo, AGrainEmittedIntoTheSlotOfAWallsBodyIsAFreeGrain) {
    // The wall's solver body follows the particles'; a grain emitted later takes that slot
    // and must not inherit the wall's axis (it would slide along x only and never fall).
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 20;
    Scene scene = scenes::column(0, 0.01, scenes::servinGrain(), s);
    Wall side = servoLid(0.0);
    side.position = Vec3(-0.05, 0, 0);
    side.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
    side.servo.direction = Vec3::UnitX();
    side.servo.stress = 1e-9;
    side.servo.mass = 1.0;
    scene.walls.push_back(side);
    EmitterSpec e;
    e.min = e.max = Vec3(0, 0, 0.1);
    e.rate = 1.0 / s.timeStep;
    e.start = 0.05;
    e.maxCount = 1;
    e.radii.lo = e.radii.hi = 0.005;
    scene.emitters.push_back(e);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.1);
    ASSERT_EQ(world.particles().size(), 1u);
    EXPECT_LT(world.particles().velocity[0].z(), -0.3);  // falling for ~0.05 s at g
}

TEST(Servo, ARelaxedWallClosesItsForceErrorByItsContactsStiffness) {
    // Yade's rule: each step the lid moves by α (σA − R)/K with K its contacts' Hertz tangent
    // stiffness. With α = 0.3 it reaches σA on the column within a second, no gain to tune,
    // and with α = 1 on a single sphere (no compliance behind the contact) in a few steps.
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    auto lidOn = [&](int spheres, double relaxation, double top) {
        Scene scene = scenes::column(spheres, 0.01, scenes::servinGrain(), s);
        Wall lid = servoLid(top);
        lid.servo.relaxation = relaxation;
        lid.servo.maxSpeed = 0.01;
        scene.walls.push_back(lid);
        return test::makeWorld(scene);
    };
    // Three contacts and the floor's in series behind the lid's: the error falls by ~4 % a
    // step, monotonically (no overshoot to wait out).
    World column = lidOn(3, 0.3, 0.0305);
    test::runUntil(column, 1.0);
    const Wall& w = column.walls().back();
    EXPECT_GT(w.stiffness, 0.0);
    EXPECT_NEAR(-w.force.dot(w.servo.direction), 0.1, 1e-4);
    EXPECT_LT(w.linearVelocity.norm(), 1e-6);
    // The stiffness is the Hertz tangent k = 1.5 k_n √δ of the one lid contact.
    World one = lidOn(1, 1.0, 0.0101);
    test::runUntil(one, 0.3);
    const Wall& l = one.walls().back();
    EXPECT_NEAR(-l.force.dot(l.servo.direction), 0.1, 1e-4);
}

TEST(Servo, TheIntegralTermHoldsTheStressWhileTheFloorRises) {
    // The floor under the column rises at 1 mm/s, a prescribed strain rate. The proportional
    // rule alone lags: the lid carries more than σA by the push one step's rise adds, over α.
    // With the integral term the lid learns the floor's speed and σA is held.
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    auto run = [&](double integral) {
        Scene scene = scenes::column(3, 0.01, scenes::servinGrain(), s);
        scene.walls[0].linearVelocity = Vec3(0, 0, 1e-3);
        Wall lid = servoLid(0.0305);
        lid.servo.relaxation = 0.3;
        lid.servo.integral = integral;
        lid.servo.maxSpeed = 0.01;
        scene.walls.push_back(lid);
        World world = test::makeWorld(scene);
        test::runUntil(world, 1.5);
        return world;
    };
    const World p = run(0.0), pi = run(0.05);
    const Wall& lagging = p.walls().back();
    const Wall& held = pi.walls().back();
    EXPECT_GT(-lagging.force.dot(lagging.servo.direction), 0.105);
    EXPECT_NEAR(-held.force.dot(held.servo.direction), 0.1, 1e-3);
    EXPECT_NEAR(held.linearVelocity.z(), 1e-3, 1e-5);
    EXPECT_NEAR(held.learnedSpeed, -1e-3, 1e-5);  // along the lid's direction, down
}

TEST(SceneFile, ReadsEmittersSinksScheduleAndServo) {
    const char* text = R"({
      "walls": [ {"name": "floor", "type": "plane"},
                 {"name": "gate", "type": "plane", "normal": [1, 0, 0], "disableAt": 0.5,
                  "velocity": [0, 0, 1], "stopAt": 0.25},
                 {"name": "lid", "type": "plane", "normal": [0, 0, -1], "position": [0, 0, 1],
                  "servo": {"stress": 100, "area": 0.01, "gain": 0.001, "mass": 100}},
                 {"name": "lid2", "type": "plane", "servo": {"stress": 1, "area": 1, "relaxation": 0.25,
                  "integral": 0.05}} ],
      "emitters": [ {"region": {"min": [0, 0, 1], "max": [0.1, 0.1, 1.1]}, "rate": 1000,
                     "radiusRange": [0.004, 0.006], "velocity": [0, 0, -1], "stop": 2} ],
      "sinks": [ {"min": [-1, -1, -2], "max": [1, 1, -1]} ]
    })";
    auto scene = parseSceneText(text, "t.json");
    ASSERT_TRUE(scene.ok()) << scene.error().message;
    EXPECT_EQ(scene->walls[1].disableAt, 0.5);
    EXPECT_EQ(scene->walls[1].stopAt, 0.25);
    EXPECT_TRUE(scene->walls[2].servo.active);
    EXPECT_EQ(scene->walls[2].servo.direction, Vec3(0, 0, -1));
    EXPECT_EQ(scene->walls[2].servo.mass, 100.0);
    EXPECT_EQ(scene->walls[3].servo.relaxation, 0.25);
    EXPECT_EQ(scene->walls[3].servo.integral, 0.05);
    ASSERT_EQ(scene->emitters.size(), 1u);
    EXPECT_EQ(scene->emitters[0].rate, 1000.0);
    EXPECT_EQ(scene->emitters[0].radii.hi, 0.006);
    ASSERT_EQ(scene->sinks.size(), 1u);
    auto bad = parseSceneText(R"({"emitters": [{"region": {"min": [0,0,0], "max": [1,1,1]},
        "rate": -5, "radius": 0.01}]})",
                              "t.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "t.json: emitters.0.rate: must be > 0 (got -5)");
}

}  // namespace
}  // namespace ndem
