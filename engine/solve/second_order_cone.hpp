// The Euclidean Jordan algebra of the second-order cone Q = {x : x₀ ≥ ‖x₁‖} and of the
// non-negative half-line, as a primal–dual interior-point method needs it: the Jordan product
// and its inverse, Nesterov–Todd scaling and the longest step that stays in the cone
// (vandenberghe-cvxopt Sec. 4; the friction
// cones of krabbenhoft-2012 Sec. 3.8 after scaling by μ). Cones of dimension 1 or 3.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem::cone {

/// x₀² − ‖x₁‖² (the cone's "determinant"; x² for dimension 1).
inline double det(int dim, const double* x) {
    if (dim == 1) return x[0] * x[0];
    const double r = std::sqrt(x[1] * x[1] + x[2] * x[2]);
    return (x[0] - r) * (x[0] + r);  // without the cancellation of x₀² − r² near the boundary
}

/// How far x is inside the cone: x₀ − ‖x₁‖ (x for dimension 1); negative outside.
inline double depth(int dim, const double* x) {
    return dim == 1 ? x[0] : x[0] - std::sqrt(x[1] * x[1] + x[2] * x[2]);
}

/// x ∘ y: (xᵀy, x₀ y₁ + y₀ x₁); for dimension 1 the plain product.
inline void product(int dim, const double* x, const double* y, double* out) {
    if (dim == 1) {
        out[0] = x[0] * y[0];
        return;
    }
    const double x0 = x[0], y0 = y[0];
    out[0] = x0 * y0 + x[1] * y[1] + x[2] * y[2];
    out[1] = x0 * y[1] + y0 * x[1];
    out[2] = x0 * y[2] + y0 * x[2];
}

/// u with x ∘ u = y (x in the interior of the cone).
inline void divide(int dim, const double* x, const double* y, double* u) {
    if (dim == 1) {
        u[0] = y[0] / x[0];
        return;
    }
    u[0] = (x[0] * y[0] - x[1] * y[1] - x[2] * y[2]) / det(3, x);
    u[1] = (y[1] - u[0] * x[1]) / x[0];
    u[2] = (y[2] - u[0] * x[2]) / x[0];
}

/// Largest α ≤ cap with x + α d in the cone (x strictly inside).
inline double maxStep(int dim, const double* x, const double* d, double cap) {
    if (dim == 1) return d[0] < 0.0 ? std::min(cap, -x[0] / d[0]) : cap;
    // (x₀ + α d₀)² − ‖x₁ + α d₁‖² = a α² + 2 b α + c, and x₀ + α d₀ ≥ 0.
    const double a = d[0] * d[0] - d[1] * d[1] - d[2] * d[2];
    const double b = x[0] * d[0] - x[1] * d[1] - x[2] * d[2];
    const double c = std::max(0.0, det(3, x));
    double alpha = cap;
    if (d[0] < 0.0) alpha = std::min(alpha, -x[0] / d[0]);
    // Smallest positive root of a α² + 2 b α + c (c ≥ 0): where the boundary is crossed.
    const double disc = b * b - a * c;
    if (a < 0.0) {
        // Opens downwards: one positive root.
        const double root = (-b - std::sqrt(std::max(0.0, disc))) / a;
        if (root > 0.0) alpha = std::min(alpha, root);
    } else if (b < 0.0 && disc >= 0.0) {
        // Opens upwards and decreasing at 0: the first root, computed without cancellation.
        const double root = c / (-b + std::sqrt(disc));
        alpha = std::min(alpha, root);
    }
    return alpha;
}

/// Nesterov–Todd scaling of one cone: the symmetric R with R z = R⁻¹ s = ℓ (s, z strictly
/// inside). Stored as η and the unit hyperbolic point w̄ (w̄₀² − ‖w̄₁‖² = 1); dimension 1:
/// R = √(s/z).
struct Scaling {
    int dim = 3;
    double eta = 1.0;
    double w[3] = {1.0, 0.0, 0.0};

    static Scaling of(int dim, const double* s, const double* z) {
        Scaling r;
        r.dim = dim;
        if (dim == 1) {
            r.eta = std::sqrt(s[0] / z[0]);
            return r;
        }
        const double sn = std::sqrt(det(3, s)), zn = std::sqrt(det(3, z));
        const double sb[3] = {s[0] / sn, s[1] / sn, s[2] / sn};
        const double zb[3] = {z[0] / zn, z[1] / zn, z[2] / zn};
        const double gamma = std::sqrt(0.5 * (1.0 + sb[0] * zb[0] + sb[1] * zb[1] + sb[2] * zb[2]));
        r.w[0] = (sb[0] + zb[0]) / (2.0 * gamma);
        r.w[1] = (sb[1] - zb[1]) / (2.0 * gamma);
        r.w[2] = (sb[2] - zb[2]) / (2.0 * gamma);
        r.eta = std::sqrt(sn / zn);
        return r;
    }

    /// out = R x (inverse: R⁻¹ x, the same form with w̄₁ negated and 1/η).
    void apply(const double* x, double* out, bool inverse = false) const {
        if (dim == 1) {
            out[0] = inverse ? x[0] / eta : eta * x[0];
            return;
        }
        const double sign = inverse ? -1.0 : 1.0;
        const double f = inverse ? 1.0 / eta : eta;
        const double w1 = sign * w[1], w2 = sign * w[2];
        const double dot = w1 * x[1] + w2 * x[2];
        const double k = (x[0] + dot / (1.0 + w[0]));
        out[0] = f * (w[0] * x[0] + dot);
        out[1] = f * (x[1] + k * w1);
        out[2] = f * (x[2] + k * w2);
    }

    /// R⁻² as a symmetric 3×3 matrix, row-major (dimension 1: out[0] = 1/η²).
    void inverseSquared(double* out) const {
        if (dim == 1) {
            out[0] = 1.0 / (eta * eta);
            return;
        }
        for (int j = 0; j < 3; ++j) {
            double e[3] = {0.0, 0.0, 0.0}, t[3], u[3];
            e[j] = 1.0;
            apply(e, t, true);
            apply(t, u, true);
            for (int i = 0; i < 3; ++i)
                out[3 * i + j] = u[i];
        }
    }
};

}  // namespace ndem::cone
