#include "solve/rows/contact_rows.hpp"

#include "core/parallel.hpp"
#include "solve/rows/contact_law.hpp"
#include "solve/rows/general_rows.hpp"

#include <cmath>

namespace ndem {

namespace {

/// Fraction of last step's Hertz linearisation overlap a contact keeps (see buildContinuousRows).
constexpr double kReachMemory = 0.5;

/// Row index of each contact while rows are built (one buffer per thread that builds rows).
std::vector<std::int32_t>& rowIndexScratch() {
    thread_local std::vector<std::int32_t> scratch;
    return scratch;
}

/// The body every wall contact uses as B: last entry of the solver body array, zero velocity
/// and zero inverse mass. The wall's own velocity enters through the row bias instead.
Index staticBodyIndex(std::span<const SolverBody> bodies) {
    return static_cast<Index>(bodies.size()) - 1;
}

/// Fills the frame, levers, wall-velocity biases and diagonal D_j of row `r` for contact i.
void initRow(SolverContact& r, const ContactSet& c, size_t i, std::span<const SolverBody> bodies,
             const BodyMap& map, double scale, double sigmaN, double sigmaT, double sigmaR,
             double friction, double rollingLimit) {
    const Index staticBody = staticBodyIndex(bodies);
    const bool wall = (c.flags[i] & kWallContact) != 0;
    r.a = map.of(c.bodyA[i]);
    r.b = wall ? map.ofWall(c.bodyB[i], staticBody) : map.of(c.bodyB[i]);
    r.contact = static_cast<std::uint32_t>(i);
    r.n = c.normal[i];
    tangentFrame(r.n, r.t1, r.t2);
    r.leverA = map.lever(c.bodyA[i], c.leverA[i]);
    r.leverB = wall ? Vec3::Zero().eval() : map.lever(c.bodyB[i], c.leverB[i]);
    const Vec3* directions[3] = {&r.n, &r.t1, &r.t2};
    const SolverBody& A = bodies[r.a];
    const SolverBody& B = bodies[r.b];
    const bool isotropicA = A.isotropic(), isotropicB = B.isotropic();
    auto responseOfA = [&](const Vec3& t) { return A.applyInvInertia(t, isotropicA); };
    auto responseOfB = [&](const Vec3& t) { return B.applyInvInertia(t, isotropicB); };
    // The Jacobians enter D_j; a sphere row does not keep them (see SolverContact).
    Vec3 angularA[3], angularB[3], responseA[3], responseB[3];
    for (int k = 0; k < 3; ++k) {
        angularA[k] = r.leverA.cross(*directions[k]);
        angularB[k] = r.leverB.cross(*directions[k]);
        responseA[k] = responseOfA(angularA[k]);
        responseB[k] = responseOfB(angularB[k]);
    }
    r.scale = scale;
    r.sigmaN = sigmaN;
    r.sigmaT = sigmaT;
    r.sigmaR = sigmaR;
    r.friction = friction;
    r.rollingLimit = rollingLimit;
    r.flags = rollingLimit > 0.0 ? kHasRolling : 0u;
    if (!(isotropicA && isotropicB &&
          sphereLevers(angularA[0], angularA[1], angularB[0], angularB[1]))) {
        for (int k = 0; k < 3; ++k) {
            r.angularA[k] = angularA[k];
            r.angularB[k] = angularB[k];
            r.responseA[k] = responseA[k];
            r.responseB[k] = responseB[k];
        }
        r.flags |= kHasJacobians;
    }
    for (double& l : r.lambda)
        l = 0.0;

    // The wall moves: its contact-point velocity is a constant of the step, so the kernel
    // sees B at rest and the rows aim for −(wall velocity) instead. A wall the solve moves
    // carries its linear velocity in its body; the rest (a belt) stays in the bias.
    Vec3 vw = wall ? c.wallVelocity[i] : Vec3::Zero().eval();
    if (wall && map.wallMoves(c.bodyB[i])) vw -= map.wallLinear[c.bodyB[i]];
    const Vec3 ww = wall ? c.wallAngularVelocity[i] : Vec3::Zero().eval();
    r.bias[0] = -scale * r.n.dot(vw);
    r.bias[1] = -r.t1.dot(vw);
    r.bias[2] = -r.t2.dot(vw);
    r.bias[3] = -r.t1.dot(ww);
    r.bias[4] = -r.t2.dot(ww);
    r.bias[5] = -r.n.dot(ww);

    auto linearRow = [&](int k) {
        return A.linearWeight(*directions[k]) + B.linearWeight(*directions[k]) +
               angularA[k].dot(responseA[k]) + angularB[k].dot(responseB[k]);
    };
    auto angularRow = [&](const Vec3& axis) {
        return axis.dot(responseOfA(axis)) + axis.dot(responseOfB(axis));
    };
    // A row whose bodies cannot move along it (e.g. rolling between a sphere with fixed
    // rotation and a wall) can apply nothing: it is switched off (invD = 0), not left to wind
    // its multiplier up against the regularisation alone.
    auto inverse = [](double mechanical, double sigma) {
        return mechanical > 1e-300 ? 1.0 / (mechanical + sigma) : 0.0;
    };
    r.invD[0] = inverse(scale * scale * linearRow(0), sigmaN);
    r.invD[1] = inverse(linearRow(1), sigmaT);
    r.invD[2] = inverse(linearRow(2), sigmaT);
    r.invD[3] = inverse(angularRow(r.t1), sigmaR);
    r.invD[4] = inverse(angularRow(r.t2), sigmaR);
    r.invD[5] = inverse(angularRow(r.n), sigmaR);
}

}  // namespace

Vec3 relativeContactVelocity(const ContactSet& c, size_t i, std::span<const SolverBody> bodies,
                             const BodyMap& map) {
    const SolverBody& A = bodies[map.of(c.bodyA[i])];
    const Vec3 va = A.v + A.w.cross(map.lever(c.bodyA[i], c.leverA[i]));
    if (c.flags[i] & kWallContact) {
        const Index w = c.bodyB[i];
        if (!map.wallMoves(w)) return c.wallVelocity[i] - va;
        return c.wallVelocity[i] - map.wallLinear[w] + bodies[map.wallBody[w]].v - va;
    }
    const SolverBody& B = bodies[map.of(c.bodyB[i])];
    return B.v + B.w.cross(map.lever(c.bodyB[i], c.leverB[i])) - va;
}

void buildContinuousRows(const ContactSet& c, const MaterialTable& materials,
                         const ContactHistory& history, std::span<const SolverBody> bodies,
                         const StepSettings& s, double accelerationScale,
                         std::vector<SolverContact>& rows, const BodyMap& map,
                         const std::function<void(SolverContact&)>& finish) {
    const double h = s.timeStep;
    const bool hard = s.mode == StepMode::Nonsmooth;
    const ContactLaw lawKind = hard ? ContactLaw::Linear : s.contactLaw;
    const double sigmaT = hard ? 0.0 : s.frictionCompliance / h;
    const double sigmaR = hard ? 0.0 : s.rollingCompliance / h;
    // The θ-method (krabbenhoft-2012 Sec. 2.1.1, 2.7): the constraints hold for the step's
    // displacement h(θ v + (1 − θ) v₀), so every row's velocity is J v + ((1 − θ)/θ) J v₀ and
    // the gap's term is divided by θ; at an impact that is Newton's law with e = (1 − θ)/θ.
    // The bodies hold v₀ here. The rows are the paper's, without SPOOK's relaxation: the gap
    // closes within the step. θ = 1 leaves the rows as they are.
    // The static formulation (Sec. 3.7) takes the same rows at θ = 1: its steps are large and
    // a gap may close exactly, never into an overlap.
    const bool thetaMethod = hard && (s.theta < 1.0 || s.formulation == Formulation::Static);
    const double restitution = thetaMethod ? (1.0 - s.theta) / s.theta : 0.0;
    auto thetaRestitution = [&](SolverContact& r, size_t i) {
        const Vec3 u = relativeContactVelocity(c, i, bodies, map);
        const SolverBody& A = bodies[map.of(c.bodyA[i])];
        const Vec3 w = (c.flags[i] & kWallContact) ? c.wallAngularVelocity[i] - A.w
                                                   : bodies[map.of(c.bodyB[i])].w - A.w;
        r.bias[0] -= restitution * r.scale * r.n.dot(u);
        r.bias[1] -= restitution * r.t1.dot(u);
        r.bias[2] -= restitution * r.t2.dot(u);
        r.bias[3] -= restitution * r.t1.dot(w);
        r.bias[4] -= restitution * r.t2.dot(w);
        r.bias[5] -= restitution * r.n.dot(w);
    };
    // One row per contact between two bodies (none inside an aggregate): the row index of
    // each contact first, then the rows side by side on every thread.
    std::vector<std::int32_t>& rowOf = rowIndexScratch();
    rowOf.resize(c.size());
    std::int32_t count = 0;
    for (size_t i = 0; i < c.size(); ++i)
        rowOf[i] = map.internal(c, i) ? -1 : count++;
    rows.resize(count);

    auto build = [&](size_t i, SolverContact& r) {
        const ContactMaterial& m = materials.pair(c.materialA[i], c.materialB[i]);
        const double rollingLimit = m.rollingResistance * 0.5 * c.effectiveDiameter[i];
        if (thetaMethod) {
            // The paper's gap constraint, touching or not: g₀ + h n·(θ v + (1 − θ) v₀) ≥ 0.
            initRow(r, c, i, bodies, map, 1.0, 0.0, sigmaT, sigmaR, m.friction, rollingLimit);
            r.bias[0] += c.overlap[i] / (h * s.theta);
            thetaRestitution(r, i);
            return;
        }
        if (!(c.flags[i] & kTouching)) {
            // A gap that the solve itself may close (bodies pushed together within the step):
            // a hard row lets it close and overlap by at most δ_ref·d, G_n v ≥ (δ − δ_ref d)/h.
            // It never binds as h → 0, so the smooth limit is untouched.
            initRow(r, c, i, bodies, map, 1.0, 0.0, sigmaT, sigmaR, m.friction, rollingLimit);
            r.bias[0] += (c.overlap[i] - s.referenceOverlap * c.diameter[i]) / h;
            return;
        }
        const NormalLaw law =
            normalLaw(m, lawKind, c.effectiveDiameter[i], c.diameter[i], s.referenceOverlap);
        const SpookNormal spook = spookNormal(law, h, s.stabilizationSteps, hard);
        const double separating = relativeContactVelocity(c, i, bodies, map).dot(c.normal[i]);
        // The overlap the Hertz row is linearised at (see hertzRow): what the contact closes
        // at its current approach speed within the step, and no less than half of last step's
        // linearisation overlap, so a loaded contact does not go slack when δ dips; at rest
        // this decays onto δ itself. A new or unloaded contact also counts what an |g|
        // acceleration closes in one step. Never beyond max(δ_ref·d, δ).
        double reach = h * std::max(0.0, -separating);
        const double lastScale = c.memory[i] >= 0 ? history[c.memory[i]].hertzScale : 0.0;
        if (lastScale > 0.0 && law.exponent > 1.0)
            reach = std::max(reach, kReachMemory * law.overlapOfScale(lastScale));
        else
            reach += accelerationScale * h * h;
        reach = std::min(reach, std::max(s.referenceOverlap * c.diameter[i], c.overlap[i]));
        const HertzRow hertz = hertzRow(law, std::max(c.overlap[i], 0.0), c.diameter[i], reach);
        initRow(r, c, i, bodies, map, hertz.scale, spook.sigma, sigmaT, sigmaR, m.friction,
                rollingLimit);
        r.bias[0] +=
            4.0 / h * spook.upsilon * hertz.deltaBar + spook.upsilon * hertz.scale * separating;
    };
    parallelFor(static_cast<int>(c.size()), resolveThreads(s.threads), [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            if (rowOf[i] < 0) continue;
            build(i, rows[rowOf[i]]);
            if (finish) finish(rows[rowOf[i]]);
        }
    });
}

void buildImpactRows(const ContactSet& c, const MaterialTable& materials,
                     std::span<const SolverBody> bodies, const ImpactRegion& region,
                     std::vector<SolverContact>& rows, const BodyMap& map, int threads) {
    // The row index of each contact first, then the rows side by side on every thread (as
    // the continuous rows): a grain landing on a bed solves thousands of rows around it.
    std::vector<std::int32_t>& rowOf = rowIndexScratch();
    rowOf.resize(c.size());
    std::int32_t count = 0;
    for (size_t i = 0; i < c.size(); ++i)
        rowOf[i] = region.contains(i) && !map.internal(c, i) ? count++ : -1;
    rows.clear();
    rows.resize(count);
    parallelFor(static_cast<int>(c.size()), threads, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            if (rowOf[i] < 0) continue;
            const bool impact = (c.flags[i] & kImpact) != 0;
            const ContactMaterial& m = materials.pair(c.materialA[i], c.materialB[i]);
            SolverContact& r = rows[rowOf[i]];
            initRow(r, c, i, bodies, map, 1.0, 0.0, 0.0, 0.0, m.friction,
                    m.rollingResistance * 0.5 * c.effectiveDiameter[i]);
            if (impact) {
                // Newton's law G_n v⁺ = −e G_n v⁻ for the impact; the rest keep G_n v⁺ ≥ 0.
                const double incoming = relativeContactVelocity(c, i, bodies, map).dot(r.n);
                r.bias[0] += -m.restitution * incoming;
            }
        }
    });
}

void storeContinuousImpulses(std::span<const SolverContact> rows, ContactSet& c, int threads) {
    parallelFor(static_cast<int>(rows.size()), threads, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverContact& r = rows[k];
            const size_t i = r.contact;
            c.normalImpulse[i] = r.scale * r.lambda[0];
            c.frictionImpulse[i] = r.lambda[1] * r.t1 + r.lambda[2] * r.t2;
            c.rollingImpulse[i] = r.lambda[3] * r.t1 + r.lambda[4] * r.t2 + r.lambda[5] * r.n;
            c.hertzScale[i] = r.scale;
        }
    });
}

void storeImpactImpulses(std::span<const SolverContact> rows, ContactSet& c, int threads) {
    parallelFor(static_cast<int>(rows.size()), threads, [&](int begin, int end) {
        for (int k = begin; k < end; ++k)
            c.impactImpulse[rows[k].contact] = rows[k].lambda[0];
    });
}

}  // namespace ndem
