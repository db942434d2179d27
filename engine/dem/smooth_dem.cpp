#include "dem/smooth_dem.hpp"

#include "core/parallel.hpp"
#include "dem/smooth_contact.hpp"
#include "solve/rows/contact_law.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {

void computeSmoothForces(const ParticleStore& p, ContactSet& c, const ContactHistory& history,
                         const MaterialTable& materials, const StepSettings& s,
                         std::vector<Vec3>& force, std::vector<Vec3>& torque, int threads) {
    const double h = s.timeStep;
    // Each contact's force and torques on threads, then summed onto the particles in contact
    // order on one: the sums are the same, bit for bit, for any thread count.
    struct Push {
        Vec3 force, torqueA, torqueB;  ///< on B; on A (subtracted) and on B (added)
        bool active = false;
    };
    // The caller's buffer: a thread_local named inside the lambda would be each worker's own.
    thread_local std::vector<Push> buffer;
    std::vector<Push>& pushes = buffer;
    c.tangentialSpring.resize(c.size());
    c.rollingSpring.resize(c.size());
    // A few contacts (a test's pair over 10⁵ steps) stay on the calling thread.
    const int team = parallel::threadsFor(static_cast<int>(c.size()), 512, threads);
    // One thread adds each contact's push as it goes: the same sums in the same order as the
    // pass over the buffer below, without writing and reading the buffer.
    const bool direct = team <= 1;
    pushes.resize(direct ? 0 : c.size());
    auto deliver = [&](size_t i, const Push& push) {
        const Index a = c.bodyA[i];
        force[a] -= push.force;
        torque[a] -= push.torqueA;
        if (!(c.flags[i] & kWallContact)) {
            const Index b = c.bodyB[i];
            force[b] += push.force;
            torque[b] += push.torqueB;
        }
    };
    parallelFor(static_cast<int>(c.size()), team, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            if (!direct) pushes[i].active = false;
            c.normalImpulse[i] = 0.0;
            c.frictionImpulse[i].setZero();
            c.rollingImpulse[i].setZero();
            c.tangentialSpring[i].setZero();
            c.rollingSpring[i].setZero();
            const double delta = c.overlap[i];
            if (delta <= 0.0) continue;

            const Index a = c.bodyA[i];
            const bool wall = (c.flags[i] & kWallContact) != 0;
            const Index b = c.bodyB[i];
            const Vec3& n = c.normal[i];
            const Vec3 va = p.velocity[a] + p.angularVelocity[a].cross(c.leverA[i]);
            const Vec3 vb = wall ? c.wallVelocity[i]
                                 : Vec3(p.velocity[b] + p.angularVelocity[b].cross(c.leverB[i]));
            const Vec3 u = vb - va;  // velocity of B relative to A at the contact point

            const ContactMaterial& m = materials.pair(c.materialA[i], c.materialB[i]);
            Vec3 xi = Vec3::Zero(), theta = Vec3::Zero();
            if (c.memory[i] >= 0) {
                xi = history[c.memory[i]].tangentialSpring;
                theta = history[c.memory[i]].rollingSpring;
            }
            const Vec3 spin = m.rollingResistance > 0.0
                                  ? Vec3((wall ? c.wallAngularVelocity[i] : p.angularVelocity[b]) -
                                         p.angularVelocity[a])
                                  : Vec3::Zero();
            const SmoothPush sp =
                smoothContactForce(m, s.contactLaw, s.referenceOverlap, c.effectiveDiameter[i],
                                   c.diameter[i], n, delta, u, spin, h, xi, theta);
            const double fn = sp.normalForce;
            const Vec3& ft = sp.tangentialForce;
            const Vec3& moment = sp.moment;
            const Vec3 f = fn * n + ft;  // on B
            Push push;
            push.force = f;
            push.torqueA = c.leverA[i].cross(f) + moment;
            push.torqueB = wall ? Vec3::Zero().eval() : Vec3(c.leverB[i].cross(f) + moment);
            push.active = true;
            if (direct)
                deliver(i, push);
            else
                pushes[i] = push;
            c.normalImpulse[i] = fn * h;
            c.frictionImpulse[i] = ft * h;
            c.rollingImpulse[i] = moment * h;
            c.tangentialSpring[i] = xi;
            c.rollingSpring[i] = theta;
        }
    });
    for (size_t i = 0; i < pushes.size(); ++i)
        if (pushes[i].active) deliver(i, pushes[i]);
}

double smoothStabilityLimit(const ParticleStore& p, const MaterialTable& materials,
                            const std::vector<MaterialId>& wallMaterials, const StepSettings& s) {
    // Every material a particle may touch: those of the particles and of the walls.
    std::vector<bool> present(materials.materials().size(), false);
    for (MaterialId m : p.material)
        present[m] = true;
    for (MaterialId m : wallMaterials)
        present[m] = true;
    double limit = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < p.size(); ++i) {
        if (p.invMass[i] <= 0.0) continue;
        const double d = 2.0 * p.radius[i];
        double k = 0.0;
        for (size_t other = 0; other < present.size(); ++other) {
            if (!present[other]) continue;
            const ContactMaterial& m =
                materials.pair(p.material[i], static_cast<MaterialId>(other));
            // A wall (d* = d) is the stiffest partner of a given material.
            const NormalLaw law = normalLaw(m, s.contactLaw, d, d, s.referenceOverlap);
            k = std::max(k, law.tangentStiffness(s.referenceOverlap * d));
        }
        if (k > 0.0) limit = std::min(limit, std::sqrt(p.mass[i] / k));
    }
    return limit;
}

}  // namespace ndem
