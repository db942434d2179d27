// The smooth DEM on the neighbour lists (dem/smooth_pairs.hpp): the springs survive every
// change of the lists, a restart and a change of mode, and the contacts it writes out are the
// forces that moved the grains.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>
#include <map>

namespace ndem {
namespace {

/// A bed of n grains with rolling resistance falling from a loose lattice and settling in
/// smooth DEM, reordered in storage every 7 steps.
World smoothBed(int n, double skin, int threads = 1) {
    StepSettings s;
    s.mode = StepMode::Smooth;
    s.timeStep = 1e-4;
    s.contactSkin = skin;
    s.reorderInterval = 7;
    s.threads = threads;
    Material grain = scenes::servinGrain();
    grain.rollingResistance = 0.1;
    return test::makeWorld(scenes::bed(n, 0.01, grain, s, 3));
}

TEST(SmoothPairs, TheSkinDoesNotChangeTheState) {
    // Without a skin every grain that moves escapes its lists (its pairs are found off the
    // lists, and the grid is searched again once many have); with a wide one the lists last.
    // Each pair's springs follow it through all of it, and the forces are summed in one order
    // whatever the lists were: the same bits.
    auto run = [](double skin) {
        World world = smoothBed(600, skin);
        for (int k = 0; k < 1500; ++k)
            world.step();
        EXPECT_GT(world.contacts().size(), 900u);
        return stateHash(world.particles());
    };
    const std::uint64_t none = run(0.0);
    EXPECT_EQ(none, run(0.5));
    EXPECT_EQ(none, run(3.0));
}

TEST(SmoothPairs, ARestingBedKeepsItsStorageOrderAndItsLists) {
    // Falling from the lattice the grains are sorted in space at the reorder steps; resting,
    // fewer than one in 64 out of cell order, they keep their places (and their lists).
    World world = smoothBed(600, 0.5);
    const std::vector<std::uint32_t> lattice = world.particles().id;
    for (int k = 0; k < 7; ++k)
        world.step();
    EXPECT_NE(world.particles().id, lattice) << "the falling lattice is sorted";
    for (int k = 0; k < 3000; ++k)
        world.step();
    const std::vector<std::uint32_t> resting = world.particles().id;
    double speed = 0.0;
    for (int k = 0; k < 70; ++k) {
        world.step();
        for (const Vec3& v : world.particles().velocity)
            speed += v.norm() / (70.0 * 600.0);
    }
    EXPECT_EQ(world.particles().id, resting) << "ten reorder steps at rest";
    EXPECT_LT(speed, 0.01) << "m/s, the mean: the bed rests";
}

TEST(SmoothPairs, WithoutTheSpringsTheStateWouldDiffer) {
    // The checks here can fail: the same restart with the saved springs zeroed leaves the
    // original's path within steps.
    World original = smoothBed(600, 0.5);
    for (int k = 0; k < 1500; ++k)
        original.step();
    const StateArchive saved = original.saveState();
    StateArchive::Reals reals = saved.reals();
    for (const char* name : {"tangentialSpring", "rollingSpring"})
        for (double& x : reals.at(std::string("contactHistory/") + name))
            x = 0.0;
    StateArchive state = StateArchive::loadingFrom(reals, saved.integers(), saved.texts());
    World restarted = smoothBed(600, 0.5);
    ASSERT_FALSE(restarted.loadState(state));
    for (int k = 0; k < 10; ++k) {
        original.step();
        restarted.step();
    }
    EXPECT_NE(stateHash(restarted.particles()), stateHash(original.particles()));
}

TEST(SmoothPairs, ARestartStepsOnBitForBit) {
    // Saved with loaded springs, loaded into a world built from the scene (new lists, every
    // spring taken from the saved history): both step on bit for bit.
    World original = smoothBed(600, 0.5);
    for (int k = 0; k < 1500; ++k)
        original.step();
    const StateArchive saved = original.saveState();
    World restarted = smoothBed(600, 0.5);
    StateArchive state = StateArchive::loadingFrom(saved.reals(), saved.integers(), saved.texts());
    ASSERT_FALSE(restarted.loadState(state));
    for (int k = 0; k < 200; ++k) {
        const StepStats a = original.step();
        const StepStats b = restarted.step();
        ASSERT_EQ(stateHash(restarted.particles()), stateHash(original.particles()))
            << "step " << k;
        ASSERT_EQ(b.contacts, a.contacts);
        ASSERT_EQ(b.meanOverlap, a.meanOverlap);
    }
}

TEST(SmoothPairs, TheThreadCountDoesNotChangeTheState) {
    auto run = [](int threads) {
        World world = smoothBed(2500, 0.5, threads);
        for (int k = 0; k < 300; ++k)
            world.step();
        return std::pair{stateHash(world.particles()), world.step().meanOverlap};
    };
    const auto one = run(1);
    EXPECT_EQ(one, run(2));
    EXPECT_EQ(one, run(3));
}

TEST(SmoothPairs, TheContactsWrittenOutAreTheForcesThatMovedTheGrains) {
    // Symplectic Euler: m Δv = h (m g + Σ f) and I Δω = h Σ (r × f + M) per grain, with the
    // contacts as contacts() writes them (impulses f h on B, levers from each centre).
    World world = smoothBed(600, 0.5);
    for (int k = 0; k < 1500; ++k)
        world.step();
    const ParticleStore before = world.particles();
    const double h = world.settings().timeStep;
    const Vec3 g = world.gravity();
    world.step();
    const ParticleStore& p = world.particles();
    const ContactSet& c = world.contacts();
    ASSERT_GT(c.size(), 900u);
    std::vector<Vec3> impulse(p.size(), Vec3::Zero()), angular(p.size(), Vec3::Zero());
    int walls = 0;
    for (size_t k = 0; k < c.size(); ++k) {
        const Vec3 j = c.normalImpulse[k] * c.normal[k] + c.frictionImpulse[k];
        impulse[c.bodyA[k]] -= j;
        angular[c.bodyA[k]] -= c.leverA[k].cross(j) + c.rollingImpulse[k];
        if (c.flags[k] & kWallContact) {
            ++walls;
            continue;
        }
        impulse[c.bodyB[k]] += j;
        angular[c.bodyB[k]] += c.leverB[k].cross(j) + c.rollingImpulse[k];
    }
    EXPECT_GT(walls, 50);
    const double weight = p.mass[0] * g.norm() * h;
    double largest = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        ASSERT_EQ(p.id[i], before.id[i]);
        const Vec3 expected = p.mass[i] * (p.velocity[i] - before.velocity[i]) - h * p.mass[i] * g;
        EXPECT_NEAR((impulse[i] - expected).norm(), 0.0, 1e-9 * weight) << "grain " << p.id[i];
        const Vec3 spin = (p.angularVelocity[i] - before.angularVelocity[i]) / p.invInertia[i];
        EXPECT_NEAR((angular[i] - spin).norm(), 0.0, 1e-9 * weight * p.radius[i])
            << "grain " << p.id[i];
        largest = std::max(largest, impulse[i].norm());
    }
    EXPECT_GT(largest, 3.0 * weight);  // the bed is loaded: the check is not of zeros

    // The walls' forces (what the wall-pressure measurements read) close the balance of the
    // whole bed: Σ F_wall h = h M g − Σ m Δv (the pairs cancel).
    Vec3 onWalls = Vec3::Zero(), balance = Vec3::Zero();
    double mass = 0.0;
    for (const Wall& w : world.walls())
        onWalls += w.force;
    for (size_t i = 0; i < p.size(); ++i) {
        balance += h * p.mass[i] * g - p.mass[i] * (p.velocity[i] - before.velocity[i]);
        mass += p.mass[i];
    }
    EXPECT_NEAR((h * onWalls - balance).norm(), 0.0, 1e-9 * h * mass * g.norm());
    EXPECT_NEAR(-onWalls.z(), mass * g.norm(), 0.2 * mass * g.norm());  // near rest
}

TEST(SmoothPairs, AChangeOfContactLawKeepsEveryWallSpring) {
    // The Hertz pass keeps its wall springs by key, the linear law's pass in a history: a
    // switch either way between steps hands them over (the last step's contacts come back
    // flagged as touching before, with the springs they left with).
    World world = smoothBed(600, 0.5);
    for (int k = 0; k < 1500; ++k)
        world.step();
    for (ContactLaw law : {ContactLaw::Linear, ContactLaw::Hertz}) {
        std::map<std::uint64_t, Vec3> left;
        const ContactSet& before = world.contacts();
        for (size_t k = 0; k < before.size(); ++k)
            if (before.flags[k] & kWallContact) left[before.key[k]] = before.tangentialSpring[k];
        StepSettings s = world.settings();
        s.contactLaw = law;
        ASSERT_FALSE(world.applySettings(s));
        world.step();
        const ContactSet& c = world.contacts();
        size_t walls = 0, kept = 0;
        for (size_t k = 0; k < c.size(); ++k) {
            if (!(c.flags[k] & kWallContact) || !left.count(c.key[k])) continue;
            ++walls;
            kept += (c.flags[k] & kWasTouching) != 0;
        }
        EXPECT_GT(walls, 50u);
        EXPECT_EQ(kept, walls) << "into the " << (law == ContactLaw::Hertz ? "Hertz" : "linear")
                               << " law";
    }
}

TEST(SmoothPairs, ANonsmoothStepAfterwardsFindsEverySpringAndImpulseInTheHistory) {
    // The app switches mode between steps: the history written out from the lists holds each
    // contact's impulses and springs under its key.
    World world = smoothBed(600, 0.5);
    for (int k = 0; k < 1500; ++k)
        world.step();
    const ContactSet& c = world.contacts();
    const ContactHistory& history = world.contactHistory();
    ASSERT_EQ(history.size(), c.size());
    int loaded = 0;
    for (size_t k = 0; k < c.size(); ++k) {
        const std::int32_t r = history.find(c.key[k]);
        ASSERT_GE(r, 0);
        EXPECT_EQ(history[r].normalImpulse, c.normalImpulse[k]);
        EXPECT_EQ(history[r].tangentialSpring, c.tangentialSpring[k]);
        EXPECT_EQ(history[r].rollingSpring, c.rollingSpring[k]);
        loaded += !c.tangentialSpring[k].isZero();
    }
    EXPECT_GT(loaded, 500);
    StepSettings s = world.settings();
    s.mode = StepMode::SemiSmooth;
    s.timeStep = 1e-3;
    s.warmStart = true;
    ASSERT_FALSE(world.applySettings(s));
    const StepStats stats = world.step();
    EXPECT_GT(stats.contacts, 900);
    int carried = 0;
    for (std::uint8_t f : world.contacts().flags)
        carried += (f & kWasTouching) != 0;
    EXPECT_GT(carried, 800);
}

}  // namespace
}  // namespace ndem
