// Contacts exchange equal and opposite impulses at one point: linear and angular momentum are
// conserved to round-off in free space. A resting bed gains no energy.
#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <cmath>

namespace ndem {
namespace {

struct Momenta {
    Vec3 linear = Vec3::Zero();
    Vec3 angular = Vec3::Zero();  ///< about the origin
};

Momenta momenta(const ParticleStore& p) {
    Momenta m;
    for (size_t i = 0; i < p.size(); ++i) {
        const Vec3 momentum = p.mass[i] * p.velocity[i];
        m.linear += momentum;
        m.angular += p.position[i].cross(momentum) +
                     (0.4 * p.mass[i] * p.radius[i] * p.radius[i]) * p.angularVelocity[i];
    }
    return m;
}

/// 27 spheres on a 3×3×3 lattice with random velocities and spins, colliding in free space.
Scene cloud(StepMode mode, double h) {
    Material grain = scenes::servinGrain();
    grain.rollingResistance = 0.2;
    grain.restitution = 0.5;
    grain.damping = 1e-4;
    StepSettings s;
    s.mode = mode;
    s.timeStep = h;
    s.gravity = Vec3::Zero();
    s.iterations = 30;
    Scene scene;
    scene.settings = s;
    scene.materials = {grain};
    scenes::Random random(7);
    for (int i = 0; i < 27; ++i) {
        ParticleSpec p;
        p.radius = 0.005 * random.uniform(0.8, 1.2);
        p.position = 0.0105 * Vec3(i % 3, (i / 3) % 3, i / 9);
        p.velocity = Vec3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
        p.angularVelocity =
            50.0 * Vec3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
        scene.particles.push_back(p);
    }
    return scene;
}

void expectConserved(StepMode mode, double h, double duration) {
    World world = test::makeWorld(cloud(mode, h));
    const Momenta before = momenta(world.particles());
    int contacts = 0;
    while (world.time() < duration)
        contacts += world.step().contacts;
    const Momenta after = momenta(world.particles());
    ASSERT_GT(contacts, 20) << "the spheres must actually collide";
    const double scaleP = 1e-3 * 27;      // ~ m · 1 m/s per sphere
    const double scaleL = scaleP * 0.05;  // ~ lever of the cloud
    EXPECT_LT((after.linear - before.linear).norm(), 1e-12 * scaleP);
    EXPECT_LT((after.angular - before.angular).norm(), 1e-12 * scaleL);
}

TEST(Conservation, SemiSmoothContactsConserveMomentumInFreeSpace) {
    expectConserved(StepMode::SemiSmooth, 1e-3, 0.05);
}

TEST(Conservation, NonsmoothContactsConserveMomentumInFreeSpace) {
    expectConserved(StepMode::Nonsmooth, 1e-3, 0.05);
}

TEST(Conservation, SmoothDemConservesMomentumInFreeSpace) {
    expectConserved(StepMode::Smooth, 2e-6, 0.01);
}

double totalEnergy(const ParticleStore& p, double g) {
    double e = 0.0;
    for (size_t i = 0; i < p.size(); ++i)
        e += p.mass[i] * (0.5 * p.velocity[i].squaredNorm() + g * p.position[i].z()) +
             0.2 * p.mass[i] * p.radius[i] * p.radius[i] * p.angularVelocity[i].squaredNorm();
    return e;
}

TEST(Conservation, RestingBedGainsNoEnergyOver10Seconds) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 100;
    s.warmStart = true;
    World world = test::makeWorld(scenes::bed(400, 0.01, scenes::servinGrain(), s));
    test::runUntil(world, 2.0);  // settle
    const double g = 9.81;
    const double start = totalEnergy(world.particles(), g);
    double meanZ0 = 0.0;
    for (const Vec3& x : world.particles().position)
        meanZ0 += x.z() / world.particles().size();
    double maxEnergy = start;
    while (world.time() < 12.0) {
        world.step();
        maxEnergy = std::max(maxEnergy, totalEnergy(world.particles(), g));
    }
    double meanZ = 0.0;
    for (const Vec3& x : world.particles().position)
        meanZ += x.z() / world.particles().size();
    // Energy unit: one grain lifted by one diameter, m g d ≈ 1.3e-4 J. The bed may still creep
    // (PGS truncation lets it compact slowly, releasing potential energy), never gain.
    const double unit = 2500.0 * M_PI / 6.0 * 1e-6 * g * 0.01;
    EXPECT_LE(maxEnergy - start, 1e-9 * unit) << "the bed gained energy";
    EXPECT_LT(totalEnergy(world.particles(), g), start);
    EXPECT_NEAR(meanZ, meanZ0, 0.1 * 0.01) << "the bed did not stay a resting bed";
}

}  // namespace
}  // namespace ndem
