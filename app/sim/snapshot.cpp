#include "sim/snapshot.hpp"

#include <algorithm>

namespace ndem::app {

namespace {

void putVec3(const Vec3& v, float* out) {
    out[0] = static_cast<float>(v.x());
    out[1] = static_cast<float>(v.y());
    out[2] = static_cast<float>(v.z());
}

void pushVec3(const Vec3& v, std::vector<float>& out) {
    out.push_back(static_cast<float>(v.x()));
    out.push_back(static_cast<float>(v.y()));
    out.push_back(static_cast<float>(v.z()));
}

}  // namespace

void fillSnapshot(const World& world, const StepStats& stats, double forceThreshold,
                  Snapshot& out) {
    out.time = world.time();
    out.stepCount = world.stepCount();
    out.stats = stats;
    out.settings = world.settings();
    out.materials = world.materials().materials();
    out.walls = world.walls();
    out.gravity = world.gravity();
    out.emitted = world.emittedCount();
    out.removed = world.removedCount();
    out.sensors = world.sensors();
    out.warnings = world.warnings();
    out.divergence = world.divergence();

    // Particles: resize, never clear-and-push, so the copy is one pass over each array.
    const ParticleStore& p = world.particles();
    const size_t n = p.size();
    out.position.resize(3 * n);
    out.velocity.resize(3 * n);
    out.radius.resize(n);
    out.id.resize(n);
    out.aggregate.assign(p.aggregate.begin(), p.aggregate.end());
    out.contactCount.assign(n, 0u);
    out.pressure.assign(n, 0.0f);
    for (size_t i = 0; i < n; ++i) {
        putVec3(p.position[i], &out.position[3 * i]);
        putVec3(p.velocity[i], &out.velocity[3 * i]);
        out.radius[i] = static_cast<float>(p.radius[i]);
        out.id[i] = p.id[i];
    }

    // Contacts: f_n counts the impact stage too, as the force-network measurement does, so
    // what the viewport shows matches the report. The edge count varies from step to step;
    // clear() keeps the capacity.
    const ContactSet& c = world.contacts();
    const double invH = 1.0 / world.settings().timeStep;
    out.forceThreshold = forceThreshold;
    out.contactEnds.clear();
    out.contactForce.clear();
    out.contactBodies.clear();
    double maxForce = 0.0;
    const double loaded = loadThreshold(c);
    for (size_t k = 0; k < c.size(); ++k) {
        if (!inNetwork(c, k, loaded)) continue;
        const Index a = c.bodyA[k];
        const bool wall = (c.flags[k] & kWallContact) != 0;
        // A command may have removed particles since the contacts were found; their indices
        // are then stale until the next step and must not be followed out of range.
        if (static_cast<size_t>(a) >= n || (!wall && static_cast<size_t>(c.bodyB[k]) >= n))
            continue;
        ++out.contactCount[static_cast<size_t>(a)];
        if (!wall) ++out.contactCount[static_cast<size_t>(c.bodyB[k])];

        const double force = (c.normalImpulse[k] + c.impactImpulse[k]) * invH;
        maxForce = std::max(maxForce, force);
        out.pressure[static_cast<size_t>(a)] += static_cast<float>(force * c.leverA[k].norm());
        if (!wall)
            out.pressure[static_cast<size_t>(c.bodyB[k])] +=
                static_cast<float>(force * c.leverB[k].norm());
        if (!(force > forceThreshold)) continue;
        pushVec3(p.position[a], out.contactEnds);
        pushVec3(wall ? Vec3(p.position[a] + c.leverA[k]) : p.position[c.bodyB[k]],
                 out.contactEnds);
        out.contactForce.push_back(static_cast<float>(force));
        out.contactBodies.push_back(static_cast<std::uint32_t>(a));
        out.contactBodies.push_back(wall ? kWallEdge | static_cast<std::uint32_t>(c.bodyB[k])
                                         : static_cast<std::uint32_t>(c.bodyB[k]));
    }
    out.maxContactForce = static_cast<float>(maxForce);
    // Σ f l / (3 V) with V = 4/3 π r³.
    constexpr double kPi = 3.14159265358979323846;
    for (size_t i = 0; i < n; ++i) {
        const double r = p.radius[i];
        out.pressure[i] = static_cast<float>(out.pressure[i] / (4.0 * kPi * r * r * r));
    }

    const std::vector<double>& residual = world.residualHistory();
    out.residualPerIteration.assign(residual.begin(), residual.end());
}

}  // namespace ndem::app
