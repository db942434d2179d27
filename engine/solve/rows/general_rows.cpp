#include "solve/rows/general_rows.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

void addResidual(RowSums& s, double dl, double invD) {
    const double r = std::abs(dl) / invD;
    s.all += r;
    s.max = std::max(s.max, r);
}

/// Applies impulses d[k] along the contact's normal/t1/t2 rows (already scaled), to body a
/// negatively and to body b positively, through the angular responses of each body.
inline void applyRows(SolverBody& A, SolverBody& B, const SolverContact& c, const Vec3* responseA,
                      const Vec3* responseB, double d0, double d1, double d2) {
    const Vec3 p = d0 * c.n + d1 * c.t1 + d2 * c.t2;
    A.v -= A.linearResponse(p);
    B.v += B.linearResponse(p);
    A.w -= d0 * responseA[0] + d1 * responseA[1] + d2 * responseA[2];
    B.w += d0 * responseB[0] + d1 * responseB[1] + d2 * responseB[2];
}

inline void applyRows(SolverBody& A, SolverBody& B, const SolverContact& c, double d0, double d1,
                      double d2) {
    applyRows(A, B, c, c.responseA, c.responseB, d0, d1, d2);
}

/// Relative velocity of row k (normal 0, t1 1, t2 2) without the Hertz scale.
inline double rowVelocity(const SolverBody& A, const SolverBody& B, const SolverContact& c,
                          const Vec3& direction, int k) {
    return direction.dot(B.v - A.v) + c.angularB[k].dot(B.w) - c.angularA[k].dot(A.w);
}

/// One sweep over general rows. kCone: disc projection of friction and rolling, else box clamp.
/// kMeasure: accumulate residuals (costs a division per row, so only when asked for).
template <bool kCone, bool kMeasure>
void sweepGeneral(std::span<SolverContact> rows, SolverBody* bodies, RowSums& res) {
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
                    addResidual(res, dl, c.invD[0]);
                    res.normal += std::abs(dl) / c.invD[0];
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
                if (c.invD[1] > 0.0) addResidual(res, d1, c.invD[1]);
                if (c.invD[2] > 0.0) addResidual(res, d2, c.invD[2]);
            }
        }

        // Rolling and twisting rows (Wang, Servin & Berglund Eq. 28–32): relative angular velocity
        // about t1, t2 and n, bound μ_r R* s λ_n.
        if (c.flags & kHasRolling) {
            const Vec3 dw = B.w - A.w;
            const double limit = c.rollingLimit * normalBound;
            double l[3];
            const Vec3* axis[3] = {&c.t1, &c.t2, &c.n};
            for (int k = 0; k < 3; ++k)
                l[k] =
                    c.lambda[3 + k] +
                    (c.bias[3 + k] - axis[k]->dot(dw) - c.sigmaR * c.lambda[3 + k]) * c.invD[3 + k];
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
                    if (c.invD[3 + k] > 0.0) addResidual(res, d[k], c.invD[3 + k]);
            }
        }
    }
}

/// Projects a pair onto the disc (cone) or box of radius `limit`.
void projectPair(double& x, double& y, double limit, bool cone) {
    if (cone) {
        const double m2 = x * x + y * y;
        if (m2 > limit * limit) {
            const double f = limit / std::sqrt(m2);
            x *= f;
            y *= f;
        }
    } else {
        x = std::clamp(x, -limit, limit);
        y = std::clamp(y, -limit, limit);
    }
}

}  // namespace

void sweepGeneralRows(std::span<SolverContact> rows, SolverBody* bodies, bool cone, bool measure,
                      RowSums& sums) {
    if (cone)
        measure ? sweepGeneral<true, true>(rows, bodies, sums)
                : sweepGeneral<true, false>(rows, bodies, sums);
    else
        measure ? sweepGeneral<false, true>(rows, bodies, sums)
                : sweepGeneral<false, false>(rows, bodies, sums);
}

bool sphereLevers(const Vec3& leverACrossN, const Vec3& leverACrossT1, const Vec3& leverBCrossN,
                  const Vec3& leverBCrossT1) {
    constexpr double kParallel = 1e-18;  // |r × n|² ≤ 10⁻¹⁸ |r|² (round-off of r ∥ n)
    return leverACrossN.squaredNorm() <= kParallel * leverACrossT1.squaredNorm() &&
           leverBCrossN.squaredNorm() <= kParallel * leverBCrossT1.squaredNorm();
}

bool sphereRow(const SolverBody& A, const SolverBody& B, const Vec3& leverACrossN,
               const Vec3& leverACrossT1, const Vec3& leverBCrossN, const Vec3& leverBCrossT1) {
    return A.isotropic() && B.isotropic() &&
           sphereLevers(leverACrossN, leverACrossT1, leverBCrossN, leverBCrossT1);
}

bool sphereRow(const SolverContact& r, std::span<const SolverBody> bodies) {
    return sphereRow(bodies[r.a], bodies[r.b], r.leverA.cross(r.n), r.leverA.cross(r.t1),
                     r.leverB.cross(r.n), r.leverB.cross(r.t1));
}

void fillJacobians(SolverContact& r, std::span<const SolverBody> bodies) {
    const Vec3* directions[3] = {&r.n, &r.t1, &r.t2};
    for (int k = 0; k < 3; ++k) {
        r.angularA[k] = r.leverA.cross(*directions[k]);
        r.angularB[k] = r.leverB.cross(*directions[k]);
        r.responseA[k] = bodies[r.a].applyInvInertia(r.angularA[k]);
        r.responseB[k] = bodies[r.b].applyInvInertia(r.angularB[k]);
    }
    r.flags |= kHasJacobians;
}

void applyGeneralImpulse(const SolverContact& c, const std::array<double, 6>& d,
                         SolverBody* bodies) {
    SolverBody& A = bodies[c.a];
    SolverBody& B = bodies[c.b];
    if (c.flags & kHasJacobians) {
        applyRows(A, B, c, c.scale * d[0], d[1], d[2]);
    } else {
        // A row without Jacobians is a sphere row: its bodies are isotropic.
        const Vec3* directions[3] = {&c.n, &c.t1, &c.t2};
        const bool isotropicA = A.isotropic(), isotropicB = B.isotropic();
        Vec3 responseA[3], responseB[3];
        for (int k = 0; k < 3; ++k) {
            responseA[k] = A.applyInvInertia(c.leverA.cross(*directions[k]), isotropicA);
            responseB[k] = B.applyInvInertia(c.leverB.cross(*directions[k]), isotropicB);
        }
        applyRows(A, B, c, responseA, responseB, c.scale * d[0], d[1], d[2]);
    }
    if (c.flags & kHasRolling) {
        const Vec3 L = d[3] * c.t1 + d[4] * c.t2 + d[5] * c.n;
        A.w -= A.applyInvInertia(L);
        B.w += B.applyInvInertia(L);
    }
}

void gradientGeneralRows(std::span<const SolverContact> rows, const SolverBody* bodies, bool cone,
                         double step, std::span<const std::array<double, 6>> previous,
                         std::span<std::array<double, 6>> next, RowSums& sums) {
    for (size_t g = 0; g < rows.size(); ++g) {
        const SolverContact& c = rows[g];
        const SolverBody& A = bodies[c.a];
        const SolverBody& B = bodies[c.b];
        const double* y = c.lambda;
        // z: each row's full PGS value at the common velocities; γ' = y + step (z − y).
        double z[6], out[6];
        const double sigma[6] = {c.sigmaN, c.sigmaT, c.sigmaT, c.sigmaR, c.sigmaR, c.sigmaR};
        z[0] = y[0] +
               (c.bias[0] - c.scale * rowVelocity(A, B, c, c.n, 0) - c.sigmaN * y[0]) * c.invD[0];
        z[1] = y[1] + (c.bias[1] - rowVelocity(A, B, c, c.t1, 1) - c.sigmaT * y[1]) * c.invD[1];
        z[2] = y[2] + (c.bias[2] - rowVelocity(A, B, c, c.t2, 2) - c.sigmaT * y[2]) * c.invD[2];
        const Vec3 dw = B.w - A.w;
        const Vec3* axis[3] = {&c.t1, &c.t2, &c.n};
        for (int k = 0; k < 3; ++k)
            z[3 + k] =
                y[3 + k] + (c.bias[3 + k] - axis[k]->dot(dw) - c.sigmaR * y[3 + k]) * c.invD[3 + k];
        for (int j = 0; j < 6; ++j)
            out[j] = y[j] + step * (z[j] - y[j]);
        out[0] = std::max(0.0, out[0]);
        projectPair(out[1], out[2], c.friction * c.scale * out[0], cone);
        const bool rolling = (c.flags & kHasRolling) != 0;
        if (rolling) {
            const double limit = c.rollingLimit * c.scale * out[0];
            projectPair(out[3], out[4], limit, cone);
            out[5] = std::clamp(out[5], -limit, limit);
        }
        for (int j = 0; j < (rolling ? 6 : 3); ++j) {
            next[g][j] = out[j];
            if (!(c.invD[j] > 0.0)) continue;
            const double weight = 1.0 / c.invD[j], d = out[j] - y[j];
            const double r = std::abs(d) * weight / step;
            sums.all += r;
            if (j == 0) sums.normal += r;
            sums.max = std::max(sums.max, r);
            sums.squares += weight * d * d;
            sums.inner += weight * (y[j] - z[j]) * (out[j] - previous[g][j]);
            sums.sigma += sigma[j] * d * d;
        }
        for (int j = rolling ? 6 : 3; j < 6; ++j)
            next[g][j] = y[j];
    }
}

void applyRowImpulses(std::span<const SolverContact> rows, std::span<SolverBody> bodies) {
    for (const SolverContact& c : rows)
        applyGeneralImpulse(
            c, {c.lambda[0], c.lambda[1], c.lambda[2], c.lambda[3], c.lambda[4], c.lambda[5]},
            bodies.data());
}

}  // namespace ndem
