#include "reduce/trial_solve.hpp"

#include "core/parallel.hpp"

#include "solve/pgs/pgs_solver.hpp"
#include "solve/pgs/warm_start.hpp"
#include "solve/rows/contact_rows.hpp"

namespace ndem {

void runTrialSolve(const ParticleStore& p, ContactSet& c, const ContactHistory& history,
                   const MaterialTable& materials, const StepSettings& s, const Vec3& gravity,
                   TrialSolution& out) {
    const size_t n = p.size();
    out.gravity = gravity;
    out.bodies.assign(n + 1, SolverBody{});
    for (size_t i = 0; i < n; ++i) {
        SolverBody& b = out.bodies[i];
        b.v = p.velocity[i];
        b.w = p.angularVelocity[i];
        b.invMass = p.invMass[i];
        b.setIsotropicInvInertia(p.invInertia[i]);
    }
    buildContinuousRows(c, materials, history, out.bodies, s, gravity.norm(), out.rows);
    const Vec3 gh = s.timeStep * gravity;
    for (size_t i = 0; i < n; ++i)
        if (out.bodies[i].invMass > 0.0) out.bodies[i].v += gh;
    StepSettings warm = s;
    warm.warmStart = true;
    warm.warmStartMethod = WarmStartMethod::History;
    warmStartRows(out.rows, c, history, materials, warm, out.bodies);
    out.solver.solve(out.rows, out.bodies,
                     pgsOptions(s, resolveThreads(s.threads), s.reduction.trialIterations));

    out.force.assign(n, Vec3::Zero());
    out.torque.assign(n, Vec3::Zero());
    const double invH = 1.0 / s.timeStep;
    for (const SolverContact& r : out.rows) {
        const size_t i = r.contact;
        const Vec3 f =
            invH * (r.scale * r.lambda[0] * r.n + r.lambda[1] * r.t1 + r.lambda[2] * r.t2);
        const Vec3 roll = invH * (r.lambda[3] * r.t1 + r.lambda[4] * r.t2 + r.lambda[5] * r.n);
        const Index a = c.bodyA[i];
        out.force[a] -= f;
        out.torque[a] -= c.leverA[i].cross(f) + roll;
        if (c.flags[i] & kWallContact) continue;
        const Index b = c.bodyB[i];
        out.force[b] += f;
        out.torque[b] += c.leverB[i].cross(f) + roll;
    }
    storeContinuousImpulses(out.rows, c);
}

}  // namespace ndem
