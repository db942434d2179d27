// The continuous problem of a settled bed's next step, as World builds it: shared by the
// solver tests (PGS kernels, NNCG/APGD, interior point).
#pragma once

#include "bench_scenes.hpp"
#include "solve/rows/contact_rows.hpp"
#include "test_util.hpp"

#include <vector>

namespace ndem::test {

/// Rows and bodies of one solve.
struct SolverProblem {
    std::vector<SolverContact> rows;
    std::vector<SolverBody> bodies;
};

/// A bed of `particles` grains settled until `settle` s, warm start on; the rows of its next
/// step with gravity applied to the bodies' velocities.
inline SolverProblem settledBedProblem(double rollingResistance = 0.0, int particles = 400,
                                       unsigned seed = 3, double settle = 0.6) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 40;
    s.warmStart = true;
    Material grain = scenes::servinGrain();
    grain.rollingResistance = rollingResistance;
    World world = test::makeWorld(scenes::bed(particles, 0.01, grain, s, seed));
    test::runUntil(world, settle);
    SolverProblem p;
    const ParticleStore& ps = world.particles();
    p.bodies.resize(ps.size() + 1);
    for (size_t i = 0; i < ps.size(); ++i) {
        p.bodies[i].v = ps.velocity[i] + s.timeStep * s.gravity;
        p.bodies[i].w = ps.angularVelocity[i];
        p.bodies[i].invMass = ps.invMass[i];
        p.bodies[i].setIsotropicInvInertia(ps.invInertia[i]);
    }
    buildContinuousRows(world.contacts(), world.materials(), world.contactHistory(), p.bodies, s,
                        9.81, p.rows);
    return p;
}

}  // namespace ndem::test
