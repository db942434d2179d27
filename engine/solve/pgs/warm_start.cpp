#include "solve/pgs/warm_start.hpp"

#include "core/parallel.hpp"
#include "solve/pgs/pgs_solver.hpp"
#include "solve/rows/contact_law.hpp"
#include "solve/rows/contact_rows.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

/// −(h/γ) u: the regularised dissipative row's multiplier for slip u (Eq. 10–11). With γ = 0
/// the row is rigid and any slip saturates the bound, which the projection then applies.
double dissipativeEstimate(double slip, double h, double compliance) {
    if (compliance > 0.0) return -h * slip / compliance;
    return slip == 0.0 ? 0.0 : -std::copysign(1e300, slip);
}

void project(SolverContact& r, FrictionModel model) {
    r.lambda[0] = std::max(r.lambda[0], 0.0);
    const double bound = r.scale * r.lambda[0];
    auto disc = [&](double& x, double& y, double limit) {
        if (model == FrictionModel::Box) {
            x = std::clamp(x, -limit, limit);
            y = std::clamp(y, -limit, limit);
            return;
        }
        const double m2 = x * x + y * y;
        if (m2 > limit * limit) {
            const double f = limit / std::sqrt(m2);
            x *= f;
            y *= f;
        }
    };
    disc(r.lambda[1], r.lambda[2], r.friction * bound);
    disc(r.lambda[3], r.lambda[4], r.rollingLimit * bound);
    const double twist = r.rollingLimit * bound;
    r.lambda[5] = std::clamp(r.lambda[5], -twist, twist);
}

}  // namespace

void warmStartRow(SolverContact& r, const ContactSet& c, const ContactHistory& history,
                  const MaterialTable& materials, const StepSettings& s,
                  std::span<const SolverBody> bodies, const BodyMap& map) {
    const double beta = s.warmStartBeta;
    const double h = s.timeStep;
    const bool hard = s.mode == StepMode::Nonsmooth;
    for (double& l : r.lambda)
        l = 0.0;
    const size_t i = r.contact;
    if (s.warmStartMethod == WarmStartMethod::History) {
        if (c.memory[i] < 0) return;  // zeros: nothing to project
        const ContactMemory& m = history[c.memory[i]];
        if (s.warmStartNormal) r.lambda[0] = beta * m.normalImpulse / r.scale;
        if (s.warmStartFriction) {
            r.lambda[1] = beta * r.t1.dot(m.frictionImpulse);
            r.lambda[2] = beta * r.t2.dot(m.frictionImpulse);
        }
        if (s.warmStartRolling && (r.flags & kHasRolling)) {
            r.lambda[3] = beta * r.t1.dot(m.rollingImpulse);
            r.lambda[4] = beta * r.t2.dot(m.rollingImpulse);
            r.lambda[5] = beta * r.n.dot(m.rollingImpulse);
        }
    } else {
        const ContactMaterial& mat = materials.pair(c.materialA[i], c.materialB[i]);
        const NormalLaw law = normalLaw(mat, hard ? ContactLaw::Linear : s.contactLaw,
                                        c.effectiveDiameter[i], c.diameter[i], s.referenceOverlap);
        // The contact force of the law at the current overlap, f = k δ^{2e_H−1}, as the
        // row's multiplier λ = h f / s. (wang-servin-berglund Eq. 9 writes e_H h k δ^{e_H},
        // which is this with s = e_H δ^{e_H−1} up to a factor e_H²; the form here starts a
        // resting contact exactly at its solution.)
        if (s.warmStartNormal && !hard)
            r.lambda[0] = h * law.stiffness * law.forcePower(std::max(c.overlap[i], 0.0)) / r.scale;
        const Vec3 u = relativeContactVelocity(c, i, bodies, map);
        if (s.warmStartFriction) {
            r.lambda[1] = dissipativeEstimate(r.t1.dot(u), h, hard ? 0.0 : s.frictionCompliance);
            r.lambda[2] = dissipativeEstimate(r.t2.dot(u), h, hard ? 0.0 : s.frictionCompliance);
        }
        if (s.warmStartRolling && (r.flags & kHasRolling)) {
            const Vec3 wa = bodies[r.a].w;
            const Vec3 wb = (c.flags[i] & kWallContact) ? c.wallAngularVelocity[i] : bodies[r.b].w;
            const double gr = hard ? 0.0 : s.rollingCompliance;
            r.lambda[3] = dissipativeEstimate(r.t1.dot(wb - wa), h, gr);
            r.lambda[4] = dissipativeEstimate(r.t2.dot(wb - wa), h, gr);
            r.lambda[5] = dissipativeEstimate(r.n.dot(wb - wa), h, gr);
        }
    }
    project(r, s.solverBlocks.get<PgsSettings>().friction);
}

bool warmStartReadsVelocities(const StepSettings& s) {
    return s.warmStartMethod != WarmStartMethod::History;
}

void warmStartRows(std::span<SolverContact> rows, const ContactSet& c,
                   const ContactHistory& history, const MaterialTable& materials,
                   const StepSettings& s, std::span<SolverBody> bodies, const BodyMap& map) {
    parallelFor(static_cast<int>(rows.size()), resolveThreads(s.threads), [&](int begin, int end) {
        for (int k = begin; k < end; ++k)
            warmStartRow(rows[k], c, history, materials, s, bodies, map);
    });
    if (s.warmStartVelocity) applyRowImpulses(rows, bodies);
}

}  // namespace ndem
