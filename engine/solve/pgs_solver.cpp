#include "solve/pgs_solver.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

struct ResidualSum {
    double all = 0.0, normal = 0.0, max = 0.0;
    int rows = 0, normalRows = 0;
    void add(double dl, double invD) {
        const double r = std::abs(dl) / invD;
        all += r;
        max = std::max(max, r);
        ++rows;
    }
};

/// Applies impulses d[k] along the contact's normal/t1/t2 rows (already scaled), to body a
/// negatively and to body b positively, through the precomputed angular responses.
inline void applyRows(SolverBody& A, SolverBody& B, const SolverContact& c, double d0, double d1,
                      double d2) {
    const Vec3 p = d0 * c.n + d1 * c.t1 + d2 * c.t2;
    A.v -= A.invMass * p;
    B.v += B.invMass * p;
    A.w -= d0 * c.responseA[0] + d1 * c.responseA[1] + d2 * c.responseA[2];
    B.w += d0 * c.responseB[0] + d1 * c.responseB[1] + d2 * c.responseB[2];
}

/// Relative velocity of row k (normal 0, t1 1, t2 2) without the Hertz scale.
inline double rowVelocity(const SolverBody& A, const SolverBody& B, const SolverContact& c,
                          const Vec3& direction, int k) {
    return direction.dot(B.v - A.v) + c.angularB[k].dot(B.w) - c.angularA[k].dot(A.w);
}

/// One sweep over all rows. kCone: disc projection of friction and rolling, else box clamp.
/// kMeasure: accumulate residuals (costs a division per row, so only when asked for).
template <bool kCone, bool kMeasure>
void sweep(std::span<SolverContact> rows, SolverBody* bodies, ResidualSum& res) {
    for (SolverContact& c : rows) {
        SolverBody& A = bodies[c.a];
        SolverBody& B = bodies[c.b];

        // Normal row (SPOOK, servin-2014 Eq. 29): r = q − s G_n v − Σ_n λ_n, λ_n ≥ 0.
        {
            const double u = rowVelocity(A, B, c, c.n, 0);
            const double r = c.bias[0] - c.scale * u - c.sigmaN * c.lambda[0];
            const double l = std::max(0.0, c.lambda[0] + r * c.invD[0]);
            const double dl = l - c.lambda[0];
            c.lambda[0] = l;
            applyRows(A, B, c, c.scale * dl, 0.0, 0.0);
            if constexpr (kMeasure) {
                if (c.invD[0] > 0.0) {
                    res.add(dl, c.invD[0]);
                    res.normal += std::abs(dl) / c.invD[0];
                    ++res.normalRows;
                }
            }
        }

        // Friction rows: bound μ |f_n| h = μ s λ_n (the Hertz-scaled normal, App. B last note).
        const double normalBound = c.scale * c.lambda[0];
        {
            const double u1 = rowVelocity(A, B, c, c.t1, 1);
            const double u2 = rowVelocity(A, B, c, c.t2, 2);
            double l1 = c.lambda[1] + (c.bias[1] - u1 - c.sigmaT * c.lambda[1]) * c.invD[1];
            double l2 = c.lambda[2] + (c.bias[2] - u2 - c.sigmaT * c.lambda[2]) * c.invD[2];
            const double limit = c.friction * normalBound;
            if constexpr (kCone) {
                const double mag2 = l1 * l1 + l2 * l2;
                if (mag2 > limit * limit) {
                    const double f = limit / std::sqrt(mag2);
                    l1 *= f;
                    l2 *= f;
                }
            } else {
                l1 = std::clamp(l1, -limit, limit);
                l2 = std::clamp(l2, -limit, limit);
            }
            const double d1 = l1 - c.lambda[1], d2 = l2 - c.lambda[2];
            c.lambda[1] = l1;
            c.lambda[2] = l2;
            applyRows(A, B, c, 0.0, d1, d2);
            if constexpr (kMeasure) {
                if (c.invD[1] > 0.0) res.add(d1, c.invD[1]);
                if (c.invD[2] > 0.0) res.add(d2, c.invD[2]);
            }
        }

        // Rolling and twisting rows (warm-start seed Eq. 28–32): relative angular velocity
        // about t1, t2 and n, bound μ_r R* s λ_n.
        if (c.flags & kHasRolling) {
            const Vec3 dw = B.w - A.w;
            const double limit = c.rollingLimit * normalBound;
            double l[3];
            const Vec3* axis[3] = {&c.t1, &c.t2, &c.n};
            for (int k = 0; k < 3; ++k)
                l[k] = c.lambda[3 + k] +
                       (c.bias[3 + k] - axis[k]->dot(dw) - c.sigmaR * c.lambda[3 + k]) *
                           c.invD[3 + k];
            if constexpr (kCone) {
                const double mag2 = l[0] * l[0] + l[1] * l[1];
                if (mag2 > limit * limit) {
                    const double f = limit / std::sqrt(mag2);
                    l[0] *= f;
                    l[1] *= f;
                }
            } else {
                l[0] = std::clamp(l[0], -limit, limit);
                l[1] = std::clamp(l[1], -limit, limit);
            }
            l[2] = std::clamp(l[2], -limit, limit);
            double d[3];
            for (int k = 0; k < 3; ++k) {
                d[k] = l[k] - c.lambda[3 + k];
                c.lambda[3 + k] = l[k];
            }
            const Vec3 L = d[0] * c.t1 + d[1] * c.t2 + d[2] * c.n;
            A.w -= A.applyInvInertia(L);
            B.w += B.applyInvInertia(L);
            if constexpr (kMeasure) {
                for (int k = 0; k < 3; ++k)
                    if (c.invD[3 + k] > 0.0) res.add(d[k], c.invD[3 + k]);
            }
        }
    }
}

template <bool kCone>
PgsResult run(std::span<SolverContact> rows, std::span<SolverBody> bodies, const PgsOptions& o) {
    PgsResult result;
    const bool measureEvery = o.tolerance > 0.0 || o.residualHistory != nullptr;
    if (o.residualHistory) o.residualHistory->clear();
    for (int k = 0; k < o.iterations; ++k) {
        const bool last = (k + 1 == o.iterations);
        ResidualSum res;
        if (measureEvery || last)
            sweep<kCone, true>(rows, bodies.data(), res);
        else
            sweep<kCone, false>(rows, bodies.data(), res);
        result.iterations = k + 1;
        if (measureEvery || last) {
            result.residual = res.rows ? res.all / res.rows : 0.0;
            result.maxResidual = res.max;
            result.normalResidual = res.normalRows ? res.normal / res.normalRows : 0.0;
            if (o.residualHistory) o.residualHistory->push_back(result.residual);
            if (o.tolerance > 0.0 && result.residual < o.tolerance) break;
        }
    }
    return result;
}

}  // namespace

PgsResult solvePgs(std::span<SolverContact> rows, std::span<SolverBody> bodies,
                   const PgsOptions& options) {
    if (rows.empty()) {
        if (options.residualHistory) options.residualHistory->clear();  // no stale curve
        return PgsResult{};
    }
    return options.friction == FrictionModel::Cone ? run<true>(rows, bodies, options)
                                                   : run<false>(rows, bodies, options);
}

void applyRowImpulses(std::span<const SolverContact> rows, std::span<SolverBody> bodies) {
    for (const SolverContact& c : rows) {
        SolverBody& A = bodies[c.a];
        SolverBody& B = bodies[c.b];
        applyRows(A, B, c, c.scale * c.lambda[0], c.lambda[1], c.lambda[2]);
        if (c.flags & kHasRolling) {
            const Vec3 L = c.lambda[3] * c.t1 + c.lambda[4] * c.t2 + c.lambda[5] * c.n;
            A.w -= A.applyInvInertia(L);
            B.w += B.applyInvInertia(L);
        }
    }
}

}  // namespace ndem
