// The PGS sweep over blocks of eight sphere contacts, written once over a SIMD operations type
// (simd/ops_*.hpp) and compiled once per instruction set. Include only from the
// pgs_kernel_<isa>.cpp files: everything here is a template over the operations type, so no
// function compiled for one instruction set can be picked by the linker for another.
#pragma once

#include "solve/pgs/contact_block.hpp"

#include <type_traits>

namespace ndem::simd {

/// Sweeps lanes [lane, lane + S::kWidth) of one block: normal row, friction pair and (if
/// kRolling) the rolling/twisting rows, each as in the general kernel (pgs_solver.cpp), for
/// the sphere case. Body fields: 0–2 v, 3–5 ω, 6 1/m, 7 1/I.
/// NNCG's lazy momentum of one row (see BlockSweep::direction): λ + β p, and p ← β p + last.
template <class S>
inline typename S::D momentum(typename S::D lambda, double* direction, const double* last,
                              typename S::D beta) {
    const typename S::D alpha = beta * S::load(direction);
    S::store(direction, alpha + S::load(last));
    return lambda + alpha;
}

/// The bodies of lanes [lane, lane + kWidth) of a block: an index ≥ 0 is a body the lane may
/// write, −(index + 1) one it only reads (store() leaves those alone; the gradient kernel
/// never stores).
template <class S>
struct LaneBodies {
    using T = typename S::T;
    T* a[S::kWidth];
    T* b[S::kWidth];
    bool writeA[S::kWidth], writeB[S::kWidth];
    template <class Block>
    LaneBodies(const Block& c, int lane, const T* bodies) {
        for (int l = 0; l < S::kWidth; ++l) {
            const int ia = c.bodyA[lane + l], ib = c.bodyB[lane + l];
            writeA[l] = ia >= 0;
            writeB[l] = ib >= 0;
            a[l] = const_cast<T*>(bodies) + S::kBodyStride * (ia >= 0 ? ia : -ia - 1);
            b[l] = const_cast<T*>(bodies) + S::kBodyStride * (ib >= 0 ? ib : -ib - 1);
        }
    }
    template <class D>
    void store(const D A[8], const D B[8]) const {
        S::storeBodies(a, writeA, A);
        S::storeBodies(b, writeB, B);
    }
};

/// The sweep's steps below are inlined whatever the compiler's heuristics: the sweep's
/// floating-point operations stay one expression stream, contracted (FMA) as one function's,
/// so the answer is the same bit for bit as the sweep written in one piece.
#define NDEM_SWEEP_STEP inline __attribute__((always_inline))

/// A lane group's contact frame: n, t1 and t2 = n × t1.
template <class S>
struct LaneFrame {
    typename S::D nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z;
};

/// Normal row (servin-2014 Eq. 29): u = n·(v_B − v_A), no angular part for spheres. Returns the
/// new normal multiplier; `dn` gets its change.
template <class S, bool kMomentum, class Block>
NDEM_SWEEP_STEP typename S::D sweepNormal(Block& c, int lane, typename S::D A[8],
                                          typename S::D B[8], const LaneFrame<S>& f,
                                          BlockVector* dir, BlockVector* last, typename S::D beta,
                                          typename S::D& dn) {
    using D = typename S::D;
    (void)beta;
    const D un = S::mulAdd(f.nx, B[0] - A[0], S::mulAdd(f.ny, B[1] - A[1], f.nz * (B[2] - A[2])));
    D lambda0 = S::load(c.normal + lane);
    if constexpr (kMomentum)
        lambda0 = momentum<S>(lambda0, dir->row[0] + lane, last->row[0] + lane, beta);
    const D target0 =
        S::mulAdd(S::load(c.normalKeep + lane), lambda0, S::load(c.normalTarget + lane));
    const D normal = S::max(S::zero(), S::mulSub(S::load(c.normalGain + lane), un, target0));
    S::store(c.normal + lane, normal);
    dn = normal - lambda0;
    if constexpr (kMomentum) S::store(last->row[0] + lane, dn);
    const D p = dn * S::load(c.scale + lane);
    const D pa = A[6] * p, pb = B[6] * p;
    A[0] = S::mulSub(pa, f.nx, A[0]);
    A[1] = S::mulSub(pa, f.ny, A[1]);
    A[2] = S::mulSub(pa, f.nz, A[2]);
    B[0] = S::mulAdd(pb, f.nx, B[0]);
    B[1] = S::mulAdd(pb, f.ny, B[1]);
    B[2] = S::mulAdd(pb, f.nz, B[2]);
    return normal;
}

/// Friction pair: u1 = t1·Δv + t2·q, u2 = t2·Δv − t1·q with q = r_B ω_B − r_A ω_A; the disc
/// (cone) or box of radius μ s λ_n (the Hertz-scaled normal, App. B last note). `d1`, `d2`
/// get the multipliers' changes.
template <class S, bool kCone, bool kMomentum, class Block>
NDEM_SWEEP_STEP void sweepFriction(Block& c, int lane, typename S::D A[8], typename S::D B[8],
                                   const LaneFrame<S>& f, typename S::D normal, BlockVector* dir,
                                   BlockVector* last, typename S::D beta, typename S::D& d1,
                                   typename S::D& d2) {
    using D = typename S::D;
    (void)beta;
    const D ra = S::load(c.leverA + lane), rb = S::load(c.leverB + lane);
    const D dvx = B[0] - A[0], dvy = B[1] - A[1], dvz = B[2] - A[2];
    const D qx = rb * B[3] - ra * A[3], qy = rb * B[4] - ra * A[4], qz = rb * B[5] - ra * A[5];
    const D u1 = S::mulAdd(
        f.t1x, dvx,
        S::mulAdd(f.t1y, dvy,
                  S::mulAdd(f.t1z, dvz, S::mulAdd(f.t2x, qx, S::mulAdd(f.t2y, qy, f.t2z * qz)))));
    const D u2 = S::mulAdd(
        f.t2x, dvx,
        S::mulAdd(
            f.t2y, dvy,
            S::mulAdd(f.t2z, dvz, S::mulSub(f.t1x, qx, S::mulSub(f.t1y, qy, -(f.t1z * qz))))));
    const D keep = S::load(c.frictionKeep + lane), gain = S::load(c.frictionGain + lane);
    D lambda1 = S::load(c.tangent1 + lane), lambda2 = S::load(c.tangent2 + lane);
    if constexpr (kMomentum) {
        lambda1 = momentum<S>(lambda1, dir->row[1] + lane, last->row[1] + lane, beta);
        lambda2 = momentum<S>(lambda2, dir->row[2] + lane, last->row[2] + lane, beta);
    }
    D l1 = S::mulSub(gain, u1, S::mulAdd(keep, lambda1, S::load(c.frictionTarget1 + lane)));
    D l2 = S::mulSub(gain, u2, S::mulAdd(keep, lambda2, S::load(c.frictionTarget2 + lane)));
    const D limit = S::load(c.frictionLimit + lane) * normal;
    if constexpr (kCone) {
        const D m2 = S::mulAdd(l1, l1, l2 * l2);
        const D scale = S::selectGreater(m2, limit * limit, limit / S::sqrt(m2), S::splat(1.0));
        l1 = l1 * scale;
        l2 = l2 * scale;
    } else {
        l1 = S::max(S::min(l1, limit), S::zero() - limit);
        l2 = S::max(S::min(l2, limit), S::zero() - limit);
    }
    S::store(c.tangent1 + lane, l1);
    S::store(c.tangent2 + lane, l2);
    d1 = l1 - lambda1;
    d2 = l2 - lambda2;
    if constexpr (kMomentum) {
        S::store(last->row[1] + lane, d1);
        S::store(last->row[2] + lane, d2);
    }
    const D px = S::mulAdd(d1, f.t1x, d2 * f.t2x), py = S::mulAdd(d1, f.t1y, d2 * f.t2y),
            pz = S::mulAdd(d1, f.t1z, d2 * f.t2z);
    A[0] = S::mulSub(A[6], px, A[0]);
    A[1] = S::mulSub(A[6], py, A[1]);
    A[2] = S::mulSub(A[6], pz, A[2]);
    B[0] = S::mulAdd(B[6], px, B[0]);
    B[1] = S::mulAdd(B[6], py, B[1]);
    B[2] = S::mulAdd(B[6], pz, B[2]);
    // Δω_A = −(1/I_A) r_A (d1 t2 − d2 t1), Δω_B = +(1/I_B) r_B (d1 t2 − d2 t1).
    const D mx = S::mulSub(d2, f.t1x, d1 * f.t2x), my = S::mulSub(d2, f.t1y, d1 * f.t2y),
            mz = S::mulSub(d2, f.t1z, d1 * f.t2z);
    const D ka = A[7] * ra, kb = B[7] * rb;
    A[3] = S::mulSub(ka, mx, A[3]);
    A[4] = S::mulSub(ka, my, A[4]);
    A[5] = S::mulSub(ka, mz, A[5]);
    B[3] = S::mulAdd(kb, mx, B[3]);
    B[4] = S::mulAdd(kb, my, B[4]);
    B[5] = S::mulAdd(kb, mz, B[5]);
}

/// Rolling (t1, t2) and twisting (n) rows on ω_B − ω_A, bound μ_r R* s λ_n, and (kMeasure)
/// their residuals.
template <class S, bool kCone, bool kMeasure, bool kMomentum, class Block>
NDEM_SWEEP_STEP void sweepRolling(typename Block::Rolling* roll, int lane, typename S::D A[8],
                                  typename S::D B[8], const LaneFrame<S>& f, typename S::D normal,
                                  BlockResidual* res, BlockVector* dir, BlockVector* last,
                                  typename S::D beta) {
    using D = typename S::D;
    (void)beta;
    (void)res;
    const D wx = B[3] - A[3], wy = B[4] - A[4], wz = B[5] - A[5];
    const D w1 = S::mulAdd(f.t1x, wx, S::mulAdd(f.t1y, wy, f.t1z * wz));
    const D w2 = S::mulAdd(f.t2x, wx, S::mulAdd(f.t2y, wy, f.t2z * wz));
    const D wn = S::mulAdd(f.nx, wx, S::mulAdd(f.ny, wy, f.nz * wz));
    const D rk = S::load(roll->keep + lane), rg = S::load(roll->gain + lane);
    D old1 = S::load(roll->impulse[0] + lane), old2 = S::load(roll->impulse[1] + lane),
      old3 = S::load(roll->impulse[2] + lane);
    if constexpr (kMomentum) {
        old1 = momentum<S>(old1, dir->row[3] + lane, last->row[3] + lane, beta);
        old2 = momentum<S>(old2, dir->row[4] + lane, last->row[4] + lane, beta);
        old3 = momentum<S>(old3, dir->row[5] + lane, last->row[5] + lane, beta);
    }
    D r1 = S::mulSub(rg, w1, S::mulAdd(rk, old1, S::load(roll->target[0] + lane)));
    D r2 = S::mulSub(rg, w2, S::mulAdd(rk, old2, S::load(roll->target[1] + lane)));
    D r3 = S::mulSub(rg, wn, S::mulAdd(rk, old3, S::load(roll->target[2] + lane)));
    const D rl = S::load(roll->limit + lane) * normal;
    if constexpr (kCone) {
        const D m2 = S::mulAdd(r1, r1, r2 * r2);
        const D scale = S::selectGreater(m2, rl * rl, rl / S::sqrt(m2), S::splat(1.0));
        r1 = r1 * scale;
        r2 = r2 * scale;
    } else {
        r1 = S::max(S::min(r1, rl), S::zero() - rl);
        r2 = S::max(S::min(r2, rl), S::zero() - rl);
    }
    r3 = S::max(S::min(r3, rl), S::zero() - rl);
    S::store(roll->impulse[0] + lane, r1);
    S::store(roll->impulse[1] + lane, r2);
    S::store(roll->impulse[2] + lane, r3);
    const D e1 = r1 - old1, e2 = r2 - old2, e3 = r3 - old3;
    if constexpr (kMomentum) {
        S::store(last->row[3] + lane, e1);
        S::store(last->row[4] + lane, e2);
        S::store(last->row[5] + lane, e3);
    }
    const D Lx = S::mulAdd(e1, f.t1x, S::mulAdd(e2, f.t2x, e3 * f.nx));
    const D Ly = S::mulAdd(e1, f.t1y, S::mulAdd(e2, f.t2y, e3 * f.ny));
    const D Lz = S::mulAdd(e1, f.t1z, S::mulAdd(e2, f.t2z, e3 * f.nz));
    A[3] = S::mulSub(A[7], Lx, A[3]);
    A[4] = S::mulSub(A[7], Ly, A[4]);
    A[5] = S::mulSub(A[7], Lz, A[5]);
    B[3] = S::mulAdd(B[7], Lx, B[3]);
    B[4] = S::mulAdd(B[7], Ly, B[4]);
    B[5] = S::mulAdd(B[7], Lz, B[5]);
    if constexpr (kMeasure) {
        const D dr = S::load(roll->d + lane);
        const D a1 = S::abs(e1) * dr, a2 = S::abs(e2) * dr, a3 = S::abs(e3) * dr;
        res->all += S::sum(a1 + (a2 + a3));
        const double m = S::maxLane(S::max(a1, S::max(a2, a3)));
        res->max = res->max > m ? res->max : m;
        if constexpr (kMomentum)
            res->squares += S::sum(S::mulAdd(a1, a1, S::mulAdd(a2, a2, a3 * a3)));
    }
}

template <class S, bool kCone, bool kMeasure, bool kRolling, bool kMomentum, class Block>
inline void sweepLanes(Block& c, typename Block::Rolling* roll, int lane, typename S::T* bodies,
                       BlockResidual* res, BlockVector* dir, BlockVector* last, double betaValue) {
    using D = typename S::D;
    const D beta = S::splat(betaValue);
    const LaneBodies<S> lanes(c, lane, bodies);
    D A[8], B[8];
    S::loadBodies(lanes.a, A);
    S::loadBodies(lanes.b, B);

    LaneFrame<S> f;
    f.nx = S::load(c.nx + lane);
    f.ny = S::load(c.ny + lane);
    f.nz = S::load(c.nz + lane);
    D dn, d1, d2;
    const D normal = sweepNormal<S, kMomentum>(c, lane, A, B, f, dir, last, beta, dn);
    f.t1x = S::load(c.t1x + lane);
    f.t1y = S::load(c.t1y + lane);
    f.t1z = S::load(c.t1z + lane);
    f.t2x = f.ny * f.t1z - f.nz * f.t1y;
    f.t2y = f.nz * f.t1x - f.nx * f.t1z;
    f.t2z = f.nx * f.t1y - f.ny * f.t1x;
    sweepFriction<S, kCone, kMomentum>(c, lane, A, B, f, normal, dir, last, beta, d1, d2);
    if constexpr (kMeasure) {
        const D rn = S::abs(dn) * S::load(c.normalD + lane);
        const D dt = S::load(c.frictionD + lane);
        const D r1 = S::abs(d1) * dt, r2 = S::abs(d2) * dt;
        res->all += S::sum(rn + (r1 + r2));
        res->normal += S::sum(rn);
        const double m = S::maxLane(S::max(rn, S::max(r1, r2)));
        res->max = res->max > m ? res->max : m;
        if constexpr (kMomentum)
            res->squares += S::sum(S::mulAdd(rn, rn, S::mulAdd(r1, r1, r2 * r2)));
    }
    if constexpr (kRolling)
        sweepRolling<S, kCone, kMeasure, kMomentum, Block>(roll, lane, A, B, f, normal, res, dir,
                                                           last, beta);
    lanes.store(A, B);
}

/// v_A −= M_A⁻¹ J_Aᵀ Δλ, v_B += M_B⁻¹ J_Bᵀ Δλ for lanes [lane, lane + S::kWidth): the rows'
/// impulse directions as in sweepLanes, without solving anything.
template <class S, bool kRolling>
inline void applyLanes(const ContactBlock& c, const BlockVector& d, int lane, double* bodies) {
    using D = typename S::D;
    const LaneBodies<S> lanes(c, lane, bodies);
    D A[8], B[8];
    S::loadBodies(lanes.a, A);
    S::loadBodies(lanes.b, B);
    const D nx = S::load(c.nx + lane), ny = S::load(c.ny + lane), nz = S::load(c.nz + lane);
    const D t1x = S::load(c.t1x + lane), t1y = S::load(c.t1y + lane), t1z = S::load(c.t1z + lane);
    const D t2x = ny * t1z - nz * t1y, t2y = nz * t1x - nx * t1z, t2z = nx * t1y - ny * t1x;
    const D dn = S::load(d.row[0] + lane) * S::load(c.scale + lane);
    const D d1 = S::load(d.row[1] + lane), d2 = S::load(d.row[2] + lane);
    const D px = S::mulAdd(dn, nx, S::mulAdd(d1, t1x, d2 * t2x));
    const D py = S::mulAdd(dn, ny, S::mulAdd(d1, t1y, d2 * t2y));
    const D pz = S::mulAdd(dn, nz, S::mulAdd(d1, t1z, d2 * t2z));
    A[0] = S::mulSub(A[6], px, A[0]);
    A[1] = S::mulSub(A[6], py, A[1]);
    A[2] = S::mulSub(A[6], pz, A[2]);
    B[0] = S::mulAdd(B[6], px, B[0]);
    B[1] = S::mulAdd(B[6], py, B[1]);
    B[2] = S::mulAdd(B[6], pz, B[2]);
    D mx = S::mulSub(d2, t1x, d1 * t2x), my = S::mulSub(d2, t1y, d1 * t2y),
      mz = S::mulSub(d2, t1z, d1 * t2z);
    const D ka = A[7] * S::load(c.leverA + lane), kb = B[7] * S::load(c.leverB + lane);
    A[3] = S::mulSub(ka, mx, A[3]);
    A[4] = S::mulSub(ka, my, A[4]);
    A[5] = S::mulSub(ka, mz, A[5]);
    B[3] = S::mulAdd(kb, mx, B[3]);
    B[4] = S::mulAdd(kb, my, B[4]);
    B[5] = S::mulAdd(kb, mz, B[5]);
    if constexpr (kRolling) {
        const D e1 = S::load(d.row[3] + lane), e2 = S::load(d.row[4] + lane),
                e3 = S::load(d.row[5] + lane);
        const D Lx = S::mulAdd(e1, t1x, S::mulAdd(e2, t2x, e3 * nx));
        const D Ly = S::mulAdd(e1, t1y, S::mulAdd(e2, t2y, e3 * ny));
        const D Lz = S::mulAdd(e1, t1z, S::mulAdd(e2, t2z, e3 * nz));
        A[3] = S::mulSub(A[7], Lx, A[3]);
        A[4] = S::mulSub(A[7], Ly, A[4]);
        A[5] = S::mulSub(A[7], Lz, A[5]);
        B[3] = S::mulAdd(B[7], Lx, B[3]);
        B[4] = S::mulAdd(B[7], Ly, B[4]);
        B[5] = S::mulAdd(B[7], Lz, B[5]);
    }
    lanes.store(A, B);
}

/// APGD's step for lanes [lane, lane + S::kWidth): z = the full Jacobi value of each row at y
/// (its PGS update before projection, all rows at the same velocities), γ' = Π(y + t (z − y))
/// with the PGS projections, and the sums of BlockResidual. D⁻¹ g = y − z.
template <class S, bool kCone, bool kRolling>
inline void gradientLanes(const ContactBlock& c, const RollingBlock* roll, int lane,
                          const double* bodies, const BlockSweep& s, int k, BlockResidual* res) {
    using D = typename S::D;
    const LaneBodies<S> lanes(c, lane, bodies);
    D A[8], B[8];
    S::loadBodies(lanes.a, A);
    S::loadBodies(lanes.b, B);
    const D t = S::splat(s.step), one = S::splat(1.0);
    const BlockVector& prev = s.previous[k];
    BlockVector& next = s.next[k];
    BlockVector& delta = s.delta[k];
    D all = S::zero(), normalSum = S::zero(), squares = S::zero(), inner = S::zero(),
      sigma = S::zero(), worst = S::zero();
    // One row: its candidate, and its terms of the sums; D = weight, keep = 1 − Σ/D.
    auto account = [&](D y, D z, D candidate, D weight, D keep, int row) {
        const D d = candidate - y;
        const D r = S::abs(d) * weight;
        all = all + r;
        worst = S::max(worst, r);
        squares = S::mulAdd(d * d, weight, squares);
        inner = S::mulAdd((y - z) * weight, candidate - S::load(prev.row[row] + lane), inner);
        sigma = S::mulAdd((one - keep) * weight, d * d, sigma);
        S::store(next.row[row] + lane, candidate);
        S::store(delta.row[row] + lane, d);
        return r;
    };

    const D nx = S::load(c.nx + lane), ny = S::load(c.ny + lane), nz = S::load(c.nz + lane);
    const D dvx = B[0] - A[0], dvy = B[1] - A[1], dvz = B[2] - A[2];
    const D un = S::mulAdd(nx, dvx, S::mulAdd(ny, dvy, nz * dvz));
    const D y0 = S::load(c.normal + lane), keep0 = S::load(c.normalKeep + lane);
    const D z0 = S::mulSub(S::load(c.normalGain + lane), un,
                           S::mulAdd(keep0, y0, S::load(c.normalTarget + lane)));
    const D normal = S::max(S::zero(), S::mulAdd(t, z0 - y0, y0));
    normalSum = account(y0, z0, normal, S::load(c.normalD + lane), keep0, 0);

    const D t1x = S::load(c.t1x + lane), t1y = S::load(c.t1y + lane), t1z = S::load(c.t1z + lane);
    const D t2x = ny * t1z - nz * t1y, t2y = nz * t1x - nx * t1z, t2z = nx * t1y - ny * t1x;
    const D ra = S::load(c.leverA + lane), rb = S::load(c.leverB + lane);
    const D qx = rb * B[3] - ra * A[3], qy = rb * B[4] - ra * A[4], qz = rb * B[5] - ra * A[5];
    const D u1 = S::mulAdd(
        t1x, dvx,
        S::mulAdd(t1y, dvy, S::mulAdd(t1z, dvz, S::mulAdd(t2x, qx, S::mulAdd(t2y, qy, t2z * qz)))));
    const D u2 = S::mulAdd(
        t2x, dvx,
        S::mulAdd(t2y, dvy,
                  S::mulAdd(t2z, dvz, S::mulSub(t1x, qx, S::mulSub(t1y, qy, -(t1z * qz))))));
    const D keepT = S::load(c.frictionKeep + lane), gain = S::load(c.frictionGain + lane);
    const D y1 = S::load(c.tangent1 + lane), y2 = S::load(c.tangent2 + lane);
    const D z1 = S::mulSub(gain, u1, S::mulAdd(keepT, y1, S::load(c.frictionTarget1 + lane)));
    const D z2 = S::mulSub(gain, u2, S::mulAdd(keepT, y2, S::load(c.frictionTarget2 + lane)));
    D l1 = S::mulAdd(t, z1 - y1, y1), l2 = S::mulAdd(t, z2 - y2, y2);
    const D limit = S::load(c.frictionLimit + lane) * normal;
    if constexpr (kCone) {
        const D m2 = S::mulAdd(l1, l1, l2 * l2);
        const D f = S::selectGreater(m2, limit * limit, limit / S::sqrt(m2), one);
        l1 = l1 * f;
        l2 = l2 * f;
    } else {
        l1 = S::max(S::min(l1, limit), S::zero() - limit);
        l2 = S::max(S::min(l2, limit), S::zero() - limit);
    }
    const D dt = S::load(c.frictionD + lane);
    account(y1, z1, l1, dt, keepT, 1);
    account(y2, z2, l2, dt, keepT, 2);

    if constexpr (kRolling) {
        const D wx = B[3] - A[3], wy = B[4] - A[4], wz = B[5] - A[5];
        const D w[3] = {S::mulAdd(t1x, wx, S::mulAdd(t1y, wy, t1z * wz)),
                        S::mulAdd(t2x, wx, S::mulAdd(t2y, wy, t2z * wz)),
                        S::mulAdd(nx, wx, S::mulAdd(ny, wy, nz * wz))};
        const D rk = S::load(roll->keep + lane), rg = S::load(roll->gain + lane);
        D y[3], z[3], r[3];
        for (int j = 0; j < 3; ++j) {
            y[j] = S::load(roll->impulse[j] + lane);
            z[j] = S::mulSub(rg, w[j], S::mulAdd(rk, y[j], S::load(roll->target[j] + lane)));
            r[j] = S::mulAdd(t, z[j] - y[j], y[j]);
        }
        const D rl = S::load(roll->limit + lane) * normal;
        if constexpr (kCone) {
            const D m2 = S::mulAdd(r[0], r[0], r[1] * r[1]);
            const D f = S::selectGreater(m2, rl * rl, rl / S::sqrt(m2), one);
            r[0] = r[0] * f;
            r[1] = r[1] * f;
        } else {
            r[0] = S::max(S::min(r[0], rl), S::zero() - rl);
            r[1] = S::max(S::min(r[1], rl), S::zero() - rl);
        }
        r[2] = S::max(S::min(r[2], rl), S::zero() - rl);
        const D dr = S::load(roll->d + lane);
        for (int j = 0; j < 3; ++j)
            account(y[j], z[j], r[j], dr, rk, 3 + j);
    }
    const double scale = 1.0 / s.step;
    res->all += scale * S::sum(all);
    res->normal += scale * S::sum(normalSum);
    const double m = scale * S::maxLane(worst);
    res->max = res->max > m ? res->max : m;
    res->squares += S::sum(squares);
    res->inner += S::sum(inner);
    res->sigma += S::sum(sigma);
}

template <class S, bool kCone>
void gradientBlocks(const BlockSweep& s) {
    for (int k = s.begin; k < s.end; ++k) {
        BlockResidual* res = s.residual + k;
        *res = BlockResidual{};
        const bool rolling = s.rolling && s.hasRolling[k];
        for (int lane = 0; lane < kBlockLanes; lane += S::kWidth) {
            if (rolling)
                gradientLanes<S, kCone, true>(s.blocks[k], s.rolling + k, lane, s.bodies, s, k,
                                              res);
            else
                gradientLanes<S, kCone, false>(s.blocks[k], nullptr, lane, s.bodies, s, k, res);
        }
    }
}

template <class S>
void applyBlocks(const BlockSweep& s) {
    for (int k = s.begin; k < s.end; ++k) {
        const bool rolling = s.rolling && s.hasRolling[k];
        for (int lane = 0; lane < kBlockLanes; lane += S::kWidth) {
            if (rolling)
                applyLanes<S, true>(s.blocks[k], s.impulse[k], lane, s.bodies);
            else
                applyLanes<S, false>(s.blocks[k], s.impulse[k], lane, s.bodies);
        }
    }
}

/// Sweeps blocks [s.begin, s.end) of a BlockSweep (doubles) or a FloatBlockSweep (floats).
template <class S, bool kCone, bool kMeasure, bool kMomentum, class Sweep>
void sweepRange(const Sweep& s) {
    using Block = std::remove_pointer_t<decltype(s.blocks)>;
    for (int k = s.begin; k < s.end; ++k) {
        Block& c = s.blocks[k];
        // The bodies of the next block are scattered in memory: ask for them one block ahead.
        if (k + 1 < s.end) {
            const Block& next = s.blocks[k + 1];
            for (int l = 0; l < Block::kLanes; ++l) {
                const int a = next.bodyA[l], b = next.bodyB[l];
                __builtin_prefetch(s.bodies + S::kBodyStride * (a >= 0 ? a : -a - 1), 1);
                __builtin_prefetch(s.bodies + S::kBodyStride * (b >= 0 ? b : -b - 1), 1);
            }
        }
        BlockResidual* res = kMeasure ? s.residual + k : nullptr;
        if constexpr (kMeasure) *res = BlockResidual{};
        const bool rolling = s.rolling && s.hasRolling[k];
        BlockVector* dir = nullptr;
        BlockVector* last = nullptr;
        double beta = 0.0;
        if constexpr (kMomentum) {
            dir = s.direction + k;
            last = s.last + k;
            beta = s.beta;
        }
        for (int lane = 0; lane < Block::kLanes; lane += S::kWidth) {
            if (rolling)
                sweepLanes<S, kCone, kMeasure, true, kMomentum>(c, s.rolling + k, lane, s.bodies,
                                                                res, dir, last, beta);
            else
                sweepLanes<S, kCone, kMeasure, false, kMomentum>(c, nullptr, lane, s.bodies, res,
                                                                 dir, last, beta);
        }
    }
}

/// Plain PGS over float blocks: measured (tolerance, last sweep) or not.
template <class S, bool kCone>
void sweepFloatBlocks(const FloatBlockSweep& s) {
    if (s.residual)
        sweepRange<S, kCone, true, false>(s);
    else
        sweepRange<S, kCone, false, false>(s);
}

template <class S, bool kCone>
void sweepBlocks(const BlockSweep& s) {
    if (s.direction)
        sweepRange<S, kCone, true, true>(s);
    else if (s.residual)
        sweepRange<S, kCone, true, false>(s);
    else
        sweepRange<S, kCone, false, false>(s);
}

}  // namespace ndem::simd
