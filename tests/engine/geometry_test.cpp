// Static and moving geometry: boxes, a belt (surface velocity), the inside of a cylinder, a
// rotating drum with a saw-tooth lining, kinematic walls and particles.
#include "bench_scenes.hpp"
#include "core/geometry_builders.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {
namespace {

constexpr double kG = 9.81;

Scene oneSphere(const Vec3& position, const Material& m, const StepSettings& s) {
    Scene scene;
    scene.settings = s;
    scene.materials = {m};
    ParticleSpec p;
    p.radius = 0.005;
    p.position = position;
    scene.particles.push_back(p);
    return scene;
}

StepSettings fine() {
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 50;
    return s;
}

TEST(Geometry, SphereRestsOnABoxTopWithHertzOverlap) {
    Material grain = scenes::servinGrain();
    Scene scene = oneSphere(Vec3(0.0, 0.0, 0.1 + 0.005), grain, fine());
    Wall box;
    box.shape = WallShape::Box;
    box.halfExtents = Vec3(0.05, 0.05, 0.05);
    box.position = Vec3(0.0, 0.0, 0.05);
    scene.walls.push_back(box);
    World world = test::makeWorld(scene);
    test::runUntil(world, 1.0);
    const auto& p = world.particles();
    // Sphere on a flat (wall) face: d* = d, f = m g.
    const double kn = grain.youngsModulus / (1 - 0.09) * std::sqrt(2 * 0.01) / 3.0;
    const double overlap = std::pow(p.mass[0] * kG / kn, 2.0 / 3.0);
    EXPECT_NEAR(p.position[0].z(), 0.1 + 0.005 - overlap, 1e-3 * overlap);
    EXPECT_NEAR(world.walls()[0].force.z(), -p.mass[0] * kG, 1e-6 * p.mass[0] * kG);
}

TEST(Geometry, BeltCarriesASphereAtItsSurfaceSpeed) {
    // A non-rolling sphere dropped on a belt moving at 0.3 m/s: friction accelerates it at
    // μ g until it moves with the belt.
    Material grain = scenes::servinGrain();
    grain.friction = 0.5;
    Scene scene = oneSphere(Vec3(0.0, 0.0, 0.005), grain, fine());
    scene.particles[0].flags = kFixedRotation;
    Wall belt;
    belt.shape = WallShape::Box;
    belt.halfExtents = Vec3(1.0, 0.1, 0.01);
    belt.position = Vec3(0.0, 0.0, -0.01);
    belt.surfaceVelocity = Vec3(0.3, 0.0, 0.0);
    scene.walls.push_back(belt);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.02);
    const double v1 = world.particles().velocity[0].x();
    test::runUntil(world, 0.04);
    const double v2 = world.particles().velocity[0].x();
    EXPECT_NEAR((v2 - v1) / 0.02, 0.5 * kG, 0.02 * 0.5 * kG);  // sliding phase
    test::runUntil(world, 0.5);
    EXPECT_NEAR(world.particles().velocity[0].x(), 0.3, 1e-6);  // carried
    EXPECT_NEAR(world.walls()[0].position.x(), 0.0, 1e-12);     // the belt itself stays put
}

TEST(Geometry, CylinderKeepsSpheresInsideAndCarriesThemWhenItTurns) {
    // A sphere resting on the inside of a horizontal cylinder turning at Ω: with enough
    // friction and no rolling it is carried along (until gravity wins past atan μ).
    Material grain = scenes::servinGrain();
    grain.friction = 0.5;
    StepSettings s = fine();
    DrumSpec drum;
    drum.diameter = 0.2;
    drum.length = 0.05;
    drum.speed = 0.5;
    drum.axis = Vec3::UnitY();
    Scene scene = oneSphere(Vec3(0.0, 0.0, -0.1 + 0.005), grain, s);
    scene.particles[0].flags = kFixedRotation;
    buildDrum(drum, scene.walls, scene.meshes);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.2);
    // The wall surface moves at Ω R = 0.05 m/s and the sphere cannot turn, so stuck to the
    // wall its centre moves at the surface speed.
    const Vec3 v = world.particles().velocity[0];
    EXPECT_NEAR(v.norm(), 0.5 * 0.1, 1e-4);
    // Rotation about +y takes the lowest point towards −x.
    EXPECT_LT(world.particles().position[0].x(), -1e-3);
    // Still inside and in contact with the shell.
    const Vec3 x = world.particles().position[0];
    EXPECT_NEAR(std::hypot(x.x(), x.z()), 0.1 - 0.005, 1e-4);
}

TEST(Geometry, DrumTeethCoverTheCircumferenceAndLiftMaterial) {
    // servin-2014 Sec. 4.2.2: 64 teeth of height 1.2 d, attack angle 50 degrees.
    DrumSpec drum;
    drum.diameter = 0.8;
    drum.length = 0.08;
    drum.teeth = 64;
    drum.toothHeight = 0.012;
    std::vector<Wall> walls;
    std::vector<TriangleMesh> meshes;
    buildDrum(drum, walls, meshes);
    ASSERT_EQ(walls.size(), 4u);  // shell, two caps, teeth
    ASSERT_EQ(meshes.size(), 1u);
    EXPECT_EQ(meshes[0].triangles.size(), 64u * 4u);
    double innermost = 1.0;
    for (const Vec3& v : meshes[0].vertices)
        innermost = std::min(innermost, std::hypot(v.x(), v.y()));
    EXPECT_NEAR(innermost, 0.4 - 0.012, 1e-12);
    // Each tooth's steep face rises at the attack angle: tan 50° = height / (arc run).
    const Vec3& apex = meshes[0].vertices[2];
    const Vec3& base = meshes[0].vertices[4];
    const double run =
        std::abs(std::atan2(base.y(), base.x()) - std::atan2(apex.y(), apex.x())) * 0.4;
    EXPECT_NEAR(std::atan(0.012 / run) * 180.0 / std::numbers::pi, 50.0, 0.5);
}

TEST(Geometry, ToothedDrumLiftsASphereHigherThanASmoothOne) {
    // Without friction a smooth drum cannot lift anything; the teeth do.
    Material grain = scenes::servinGrain();
    grain.friction = 0.0;
    auto heightAfter = [&](int teeth) {
        DrumSpec drum;
        drum.diameter = 0.2;
        drum.length = 0.02;
        drum.speed = 1.0;
        drum.teeth = teeth;
        drum.toothHeight = 0.012;
        Scene scene = oneSphere(Vec3(0.0, 0.0, -0.1 + 0.015), grain, fine());
        buildDrum(drum, scene.walls, scene.meshes);
        World world = test::makeWorld(scene);
        test::runUntil(world, 0.3);  // dropped in, settled into the lining
        double maxZ = -1.0;
        while (world.time() < 1.5) {
            world.step();
            maxZ = std::max(maxZ, world.particles().position[0].z());
        }
        return maxZ;
    };
    const double smooth = heightAfter(0), toothed = heightAfter(24);
    EXPECT_LT(smooth, -0.09);
    EXPECT_GT(toothed, -0.05);
}

TEST(Geometry, KinematicWallPushesASphereAtItsOwnSpeed) {
    Material grain = scenes::servinGrain();
    StepSettings s = fine();
    s.gravity = Vec3::Zero();
    Scene scene = oneSphere(Vec3(0.02, 0.0, 0.0), grain, s);
    Wall pusher;
    pusher.shape = WallShape::Plane;
    pusher.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
    pusher.linearVelocity = Vec3(0.2, 0.0, 0.0);
    scene.walls.push_back(pusher);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.3);
    EXPECT_NEAR(world.walls()[0].position.x(), 0.06, 1e-12);
    // e = 0: after the impact the sphere rides on the wall at 0.2 m/s.
    EXPECT_NEAR(world.particles().velocity[0].x(), 0.2, 1e-6);
    // The impact acts before the overlap: the sphere keeps the gap it had when the wall
    // reached it within one step, at most 0.2 m/s · h.
    const double gap = world.particles().position[0].x() - world.walls()[0].position.x() - 0.005;
    EXPECT_GE(gap, -1e-6);
    EXPECT_LE(gap, 0.2 * 1e-3 + 1e-9);
}

TEST(Geometry, KinematicParticleMovesAsPrescribedAndPushesOthers) {
    Material grain = scenes::servinGrain();
    StepSettings s = fine();
    s.gravity = Vec3::Zero();
    Scene scene = oneSphere(Vec3(0.0, 0.0, 0.0), grain, s);
    ParticleSpec driver;
    driver.radius = 0.005;
    driver.position = Vec3(-0.02, 0.0, 0.0);
    driver.velocity = Vec3(0.1, 0.0, 0.0);
    driver.flags = kKinematic;
    scene.particles.push_back(driver);
    World world = test::makeWorld(scene);
    test::runUntil(world, 0.5);
    const auto& p = world.particles();
    const Index d = p.indexOfId()[1], f = p.indexOfId()[0];
    EXPECT_NEAR(p.position[d].x(), -0.02 + 0.05, 1e-12);
    EXPECT_EQ(p.velocity[d], Vec3(0.1, 0.0, 0.0));
    EXPECT_NEAR(p.velocity[f].x(), 0.1, 1e-6);  // pushed along, e = 0
}

TEST(Geometry, MeshTrianglesActAsOneSurface) {
    // A sphere sliding across a floor made of two triangles keeps one contact and one speed
    // when it crosses their shared edge (no double contact, no bump).
    Material grain = scenes::servinGrain();
    grain.friction = 0.0;
    Scene scene = oneSphere(Vec3(-0.05, -0.05, 0.005), grain, fine());
    scene.particles[0].velocity = Vec3(0.5, 0.5, 0.0);
    TriangleMesh floor;
    floor.vertices = {Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)};
    floor.triangles = {{0, 1, 2}, {0, 2, 3}};  // shared edge along the diagonal x = y
    scene.meshes.push_back(floor);
    Wall w;
    w.shape = WallShape::Mesh;
    w.mesh = 0;
    scene.walls.push_back(w);
    World world = test::makeWorld(scene);
    int maxContacts = 0;
    while (world.time() < 0.2)
        maxContacts = std::max(maxContacts, world.step().contacts);
    EXPECT_EQ(maxContacts, 1);
    EXPECT_NEAR(world.particles().velocity[0].x(), 0.5, 1e-6);
    EXPECT_NEAR(world.particles().velocity[0].z(), 0.0, 1e-4);
}

}  // namespace
}  // namespace ndem
