// Adaptive model reduction (servin-wang Sec. 2.4 and 3): aggregates conserve what
// they must, a resting bed merges, an impact splits only its neighbourhood, and a split
// sensor frees exactly the members it overlaps.
#include "bench_scenes.hpp"
#include "io/scene_file.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>
#include <set>

namespace ndem {
namespace {

struct Momenta {
    double mass = 0.0;
    Vec3 linear = Vec3::Zero();
    Vec3 angular = Vec3::Zero();  ///< about the origin, spins included
};

Momenta momenta(const ParticleStore& p) {
    Momenta m;
    for (size_t i = 0; i < p.size(); ++i) {
        m.mass += p.mass[i];
        m.linear += p.mass[i] * p.velocity[i];
        m.angular += p.mass[i] * p.position[i].cross(p.velocity[i]) +
                     (1.0 / p.invInertia[i]) * p.angularVelocity[i];
    }
    return m;
}

void expectSameMomenta(const Momenta& a, const Momenta& b, double scaleLinear,
                       double scaleAngular) {
    EXPECT_NEAR(a.mass, b.mass, 1e-14 * a.mass);
    EXPECT_LT((a.linear - b.linear).norm(), 1e-12 * scaleLinear) << "linear momentum";
    EXPECT_LT((a.angular - b.angular).norm(), 1e-12 * scaleAngular) << "angular momentum";
}

StepSettings reducedSettings() {
    StepSettings s;
    s.timeStep = 0.005;
    s.iterations = 100;
    s.reduction.enabled = true;
    return s;
}

TEST(Aggregate, FormingConservesMassMomentumAndAngularMomentumAndCoMovingKeepsThem) {
    ParticleStore p;
    Random random(3);
    for (int i = 0; i < 20; ++i) {
        ParticleSpec s;
        s.radius = random.uniform(0.004, 0.006);
        for (int k = 0; k < 3; ++k) {
            s.position[k] = random.uniform(-0.03, 0.03);
            s.velocity[k] = random.uniform(-1.0, 1.0);
            s.angularVelocity[k] = random.uniform(-50.0, 50.0);
        }
        p.add(s, 2500.0);
    }
    const Momenta before = momenta(p);
    std::vector<Index> all(p.size());
    for (size_t i = 0; i < p.size(); ++i)
        all[i] = static_cast<Index>(i);
    const Aggregate a = formAggregate(all, p);
    // Eq. 6–8 and the aggregate's own momenta.
    EXPECT_NEAR(a.mass, before.mass, 1e-15);
    EXPECT_LT((a.mass * a.velocity - before.linear).norm(), 1e-13);
    const Vec3 aggregateL =
        a.mass * a.position.cross(a.velocity) + a.worldInertia() * a.angularVelocity;
    EXPECT_LT((aggregateL - before.angular).norm(), 1e-12 * before.angular.norm());
    // Eq. 11–13: the members take the rigid velocity field with the same totals.
    coMove(a, p);
    expectSameMomenta(before, momenta(p), before.linear.norm(), before.angular.norm());
    for (size_t i = 1; i < p.size(); ++i)
        EXPECT_EQ(p.angularVelocity[i], p.angularVelocity[0]);
}

/// A 3 × 3 × 3 cube of touching spheres moving and spinning as one rigid body in free space
/// (its inertia is isotropic, so the free rotation is exact).
Scene spinningCube() {
    Scene s;
    s.name = "cube";
    s.materials = {scenes::servinGrain()};
    s.settings = reducedSettings();
    s.settings.gravity = Vec3::Zero();
    const double d = 0.01;
    const Vec3 v(0.2, -0.1, 0.05), w(0.0, 0.0, 0.4);
    for (int i = 0; i < 27; ++i) {
        ParticleSpec p;
        p.radius = 0.5 * d;
        p.position = d * Vec3(i % 3 - 1, (i / 3) % 3 - 1, i / 9 - 1);
        p.velocity = v + w.cross(p.position);
        p.angularVelocity = w;
        s.particles.push_back(p);
    }
    return s;
}

TEST(ModelReduction, RigidlyMovingClusterMergesAndMergeSplitAndFlightConserveMomenta) {
    World world = test::makeWorld(spinningCube());
    const Momenta start = momenta(world.particles());
    const double scaleL = start.linear.norm(), scaleA = start.angular.norm();
    StepStats st = world.step();
    EXPECT_EQ(st.aggregates, 1);
    EXPECT_EQ(st.members, 27);
    EXPECT_NEAR(st.reductionLevel, 1.0 - 1.0 / 27.0, 1e-12);
    expectSameMomenta(start, momenta(world.particles()), scaleL, scaleA);
    for (int k = 0; k < 50; ++k)
        world.step();
    expectSameMomenta(start, momenta(world.particles()), scaleL, scaleA);
    // The cube is still a cube: members kept their offsets through 51 rigid steps.
    const auto& p = world.particles();
    for (size_t i = 1; i < p.size(); ++i) {
        const double gap = (p.position[i] - p.position[0]).norm();
        const double lattice = 0.01 * std::sqrt(std::round((gap / 0.01) * (gap / 0.01)));
        EXPECT_NEAR(gap, lattice, 1e-12);
    }

    // A sensor over one face frees those 9 members; the other 18 stay one aggregate.
    SplitSensor sensor;
    sensor.position = world.reduction().aggregates()[0].position + Vec3(0.01, 0.0, 0.0);
    sensor.halfExtents = Vec3(0.002, 0.05, 0.05);
    world.sensors().push_back(sensor);
    const Momenta beforeSplit = momenta(world.particles());
    st = world.step();
    EXPECT_EQ(st.split, 9);
    EXPECT_EQ(st.members, 18);
    EXPECT_EQ(st.aggregates, 1);
    expectSameMomenta(beforeSplit, momenta(world.particles()), scaleL, scaleA);
}

/// A bed of spheres settled on the floor without reduction, then reduced.
World settledBed(int n) {
    StepSettings s = reducedSettings();
    s.reduction.enabled = false;
    s.timeStep = 0.01;
    World world = test::makeWorld(scenes::bed(n, 0.01, scenes::servinGrain(), s));
    test::runUntil(world, 3.0);
    s.reduction.enabled = true;
    EXPECT_FALSE(world.applySettings(s).has_value());
    return world;
}

TEST(ModelReduction, RestingBedMergesAboveNinetyPercentAndStaysAtRest) {
    World world = settledBed(400);
    StepStats st;
    // The last rattlers come to rest and merge within the first steps.
    for (int k = 0; k < 20; ++k)
        st = world.step();
    const std::vector<Vec3> before = world.particles().position;
    const std::vector<std::uint32_t> ids = world.particles().id;
    const std::vector<std::int32_t> memberBefore = world.particles().aggregate;
    for (int k = 0; k < 100; ++k)
        st = world.step();
    EXPECT_GT(st.reductionLevel, 0.9)
        << st.aggregates << " aggregates, " << st.members << " members";
    // The merged bed: the particles that were members at the start and still are. A free
    // rattler may keep rolling on it: the grains have no rolling resistance, and one rolling
    // faster than the merge bound (0.5 rad/s) on the rigid surface never stops (seen with
    // some packings).
    double moved = 0.0, kinetic = 0.0;
    int members = 0;
    const auto& p = world.particles();
    for (size_t i = 0; i < before.size(); ++i) {
        const Index k = p.indexOfId()[ids[i]];
        if (p.aggregate[k] < 0 || memberBefore[i] < 0) continue;
        ++members;
        moved = std::max(moved, (p.position[k] - before[i]).norm());
        kinetic += 0.5 * p.mass[k] * p.velocity[k].squaredNorm();
    }
    EXPECT_GT(members, 360);
    // The rigid bed only settles onto its elastic floor contacts (~20 µm here).
    EXPECT_LT(moved, 1e-4) << "a merged bed must stay where it rested, within 1 % of d (m)";
    EXPECT_LT(kinetic, 1e-9);
}

TEST(ModelReduction, AnImpactSplitsItsNeighbourhoodToDepthTwoAndTheRestStaysMerged) {
    World world = settledBed(400);
    for (int k = 0; k < 20; ++k)
        world.step();
    const int membersBefore = world.reduction().memberCount();
    ASSERT_GT(membersBefore, 360);
    // A grain dropped onto the middle of the bed at 1 m/s.
    auto& p = world.particles();
    double top = 0.0;
    for (size_t i = 0; i < p.size(); ++i)
        top = std::max(top, p.position[i].z() + p.radius[i]);
    ParticleSpec drop;
    drop.radius = 0.005;
    drop.position = Vec3(0.0, 0.0, top + 0.0055);
    drop.velocity = Vec3(0.0, 0.0, -1.0);
    world.addParticle(drop);
    int split = 0;
    for (int k = 0; k < 3 && split == 0; ++k) {
        const StepStats st = world.step();
        split = st.split;
        EXPECT_EQ(st.impacts > 0, split > 0);
    }
    ASSERT_GT(split, 0) << "the impact did not split the bed";
    // Depth 2: the grains hit and their contact neighbours, not the bed.
    EXPECT_LE(split, 30);
    EXPECT_GT(world.reduction().memberCount(), membersBefore - 40);
    for (size_t i = 0; i < p.size(); ++i)
        if (p.aggregate[i] < 0 && p.position[i].z() > top - 0.03) {
            EXPECT_LT(std::hypot(p.position[i].x(), p.position[i].y()), 0.035)
                << "a grain far from the impact was freed";
        }
}

TEST(ModelReduction, SensorMovedThroughAMergedBedFreesExactlyTheMembersItOverlaps) {
    World world = settledBed(400);
    for (int k = 0; k < 20; ++k)
        world.step();
    SplitSensor sensor;
    sensor.shape = SensorShape::Cylinder;
    sensor.radius = 0.02;
    sensor.height = 0.2;
    sensor.position = Vec3(-0.05, 0.0, 0.0);
    sensor.velocity = Vec3(0.5, 0.0, 0.0);  // 2.5 mm per step across the bed
    world.sensors().push_back(sensor);
    const auto& p = world.particles();
    for (int k = 0; k < 40; ++k) {
        std::set<std::uint32_t> inside;
        const SplitSensor& s = world.sensors()[0];
        for (size_t i = 0; i < p.size(); ++i)
            if (s.overlaps(p.position[i], p.radius[i])) inside.insert(p.id[i]);
        world.step();
        // After the step (the sensor has moved on by h v): what it overlapped is free, and
        // nothing else was freed that has not merged back.
        for (size_t i = 0; i < p.size(); ++i) {
            if (inside.count(p.id[i])) {
                EXPECT_EQ(p.aggregate[i], -1) << "step " << k;
            }
        }
    }
    // Behind the sensor the bed merges again.
    world.sensors()[0].enabled = false;
    StepStats st;
    for (int k = 0; k < 20; ++k)
        st = world.step();
    EXPECT_GT(st.reductionLevel, 0.9);
}

/// x of the mass centre of the grains (the bed's side wall 0 faces −x... see scenes::bed).
double meanX(const ParticleStore& p) {
    double sum = 0.0;
    for (const Vec3& x : p.position)
        sum += x.x();
    return sum / static_cast<double>(p.size());
}

TEST(ModelReduction,
     TrialSplitLetsAMergedBlockCollapseWhenItsSideWallGoesAndContactSplitAloneDoesNot) {
    for (const bool trial : {false, true}) {
        World world = settledBed(400);
        for (int k = 0; k < 20; ++k)
            world.step();
        StepSettings s = world.settings();
        s.reduction.trialSplit = trial;
        ASSERT_FALSE(world.applySettings(s).has_value());
        StepStats st;
        for (int k = 0; k < 10; ++k)
            st = world.step();
        EXPECT_GT(st.reductionLevel, 0.9)
            << "a resting block is in force balance (trial " << trial << ")";
        const double before = meanX(world.particles());
        world.walls()[1].enabled = false;  // "side0", the wall at +x
        for (int k = 0; k < 50; ++k)
            st = world.step();
        const double moved = meanX(world.particles()) - before;
        if (trial) {
            EXPECT_GT(moved, 0.005) << "the block must flow out through the open side";
            EXPECT_LT(st.reductionLevel, 0.7);
        } else {
            EXPECT_LT(std::abs(moved), 1e-4) << "with contact split alone the block stands rigid";
        }
    }
}

/// Four grains at rest on a belt moving at 0.1 m/s along x (the belt is the plane z = 0).
World beltLayer(const StepSettings& settings) {
    Scene s;
    s.name = "belt";
    s.materials = {scenes::servinGrain()};
    s.settings = settings;
    Wall belt;
    belt.name = "belt";
    belt.surfaceVelocity = Vec3(0.1, 0.0, 0.0);
    s.walls.push_back(belt);
    for (int i = 0; i < 4; ++i) {
        ParticleSpec p;
        p.radius = 0.005;
        p.position = Vec3(0.01 * (i % 2), 0.01 * (i / 2), 0.005);
        p.velocity = belt.surfaceVelocity;
        s.particles.push_back(p);
    }
    return test::makeWorld(s);
}

int ridingAggregates(const World& world) {
    int n = 0;
    for (const Aggregate& a : world.reduction().aggregates())
        n += a.alive() && a.kinematic();
    return n;
}

TEST(ModelReduction, GrainsAtRestOnABeltRideWithItAndFallWhenTheBeltGoes) {
    World world = beltLayer(reducedSettings());
    StepStats st;
    for (int k = 0; k < 20; ++k)
        st = world.step();
    ASSERT_EQ(st.aggregates, 1);
    EXPECT_EQ(ridingAggregates(world), 1) << "the layer rides on the belt as a kinematic aggregate";
    const auto& p = world.particles();
    for (size_t i = 0; i < p.size(); ++i)
        EXPECT_NEAR((p.velocity[i] - Vec3(0.1, 0, 0)).norm(), 0.0, 1e-12);
    world.walls()[0].enabled = false;
    for (int k = 0; k < 10; ++k)
        world.step();
    for (size_t i = 0; i < p.size(); ++i)
        EXPECT_LT(p.velocity[i].z(), -0.3) << "the grains must fall";
}

TEST(ModelReduction, MaterialRidesOnAWallOnlyWhileGravityPressesItOnInsideTheFrictionCone) {
    // Tilting gravity tilts the belt: at 20° (tan 20° = 0.36 < μ = 0.7) the layer still rides;
    // at 60° the belt could not hold it and it must go on as a dynamic body that slides off,
    // not stay glued to the belt (a drum would otherwise carry material over its top).
    for (const double tilt : {20.0, 60.0}) {
        World world = beltLayer(reducedSettings());
        for (int k = 0; k < 20; ++k)
            world.step();
        ASSERT_EQ(ridingAggregates(world), 1);
        StepSettings tilted = world.settings();
        const double a = tilt * std::numbers::pi / 180.0;
        tilted.gravity = 9.81 * Vec3(0.0, std::sin(a), -std::cos(a));
        ASSERT_FALSE(world.applySettings(tilted).has_value());
        for (int k = 0; k < 20; ++k)
            world.step();
        const auto& p = world.particles();
        double vy = 0.0;
        for (size_t i = 0; i < p.size(); ++i)
            vy += p.velocity[i].y() / p.size();
        if (tilt < 45.0) {
            EXPECT_EQ(ridingAggregates(world), 1) << tilt << "°: the belt holds the layer";
            EXPECT_NEAR(vy, 0.0, 1e-12);
        } else {
            EXPECT_EQ(ridingAggregates(world), 0) << tilt << "°: the belt cannot hold the layer";
            // Sliding down the tilted belt under g (sin a − μ cos a) for 0.1 s, at least half.
            EXPECT_GT(vy, 0.5 * 0.1 * 9.81 * (std::sin(a) - 0.7 * std::cos(a))) << tilt << "°";
        }
    }
}

TEST(ModelReduction, NothingMergesBeforeTheStartTimeAndTheBedMergesAfterIt) {
    StepSettings settings = reducedSettings();
    settings.reduction.from = 0.1;
    World world = beltLayer(settings);
    StepStats st;
    while (world.time() < 0.1 - 1e-9) {
        st = world.step();
        ASSERT_EQ(st.aggregates, 0) << "t = " << st.time;
        ASSERT_FALSE(st.reductionEnabled);
    }
    for (int k = 0; k < 5; ++k)
        st = world.step();
    EXPECT_TRUE(st.reductionEnabled);
    EXPECT_EQ(st.aggregates, 1);
}

TEST(ModelReduction, SensorsLoadFromSceneFilesAndBadOnesAreNamed) {
    const std::string ok = R"({"materials": [{"name": "g", "density": 2500}],
        "sensors": [{"type": "sphere", "position": [0, 0, 0.1], "radius": 0.02},
                    {"type": "box", "halfExtents": [0.1, 0.02, 0.05], "velocity": [0.1, 0, 0]}],
        "settings": {"reduction": {"enabled": true, "split": {"depth": 3}}}})";
    auto scene = parseSceneText(ok, "test");
    ASSERT_TRUE(scene) << scene.error().message;
    ASSERT_EQ(scene->sensors.size(), 2u);
    EXPECT_EQ(scene->sensors[0].shape, SensorShape::Sphere);
    EXPECT_EQ(scene->settings.reduction.splitDepth, 3);
    EXPECT_TRUE(scene->settings.reduction.enabled);
    const auto bad = parseSceneText(R"({"sensors": [{"type": "cone"}]})", "test");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("sensors.0.type"), std::string::npos) << bad.error().message;
    StepSettings smooth;
    smooth.mode = StepMode::Smooth;
    smooth.reduction.enabled = true;
    const auto e = validate(smooth);
    ASSERT_TRUE(e.has_value());
    EXPECT_NE(e->message.find("reduction.enabled"), std::string::npos);
}

}  // namespace
}  // namespace ndem
