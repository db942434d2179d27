// The Euclidean Jordan algebra of the second-order cone Q = {x : x₀ ≥ ‖x₁‖} and of the
// non-negative half-line, as a primal–dual interior-point method needs it: the Jordan product
// and its inverse, Nesterov–Todd scaling and the longest step that stays in the cone
// (vandenberghe-cvxopt Sec. 4; the friction
// cones of krabbenhoft-2012 Sec. 3.8 after scaling by μ). Cones of dimension 1 (a frictionless
// contact), 2 (a contact in the plane: normal and one tangent) or 3 (in space).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem::cone {

/// ‖x₁‖, the norm of the tangential part (x₁ has dim − 1 entries).
inline double tangentNorm(int dim, const double* x) {
    return dim == 2 ? std::abs(x[1]) : std::hypot(x[1], x[2]);
}

/// x₀² − ‖x₁‖² (the cone's "determinant"; x² for dimension 1).
inline double det(int dim, const double* x) {
    if (dim == 1) return x[0] * x[0];
    const double r = tangentNorm(dim, x);
    return (x[0] - r) * (x[0] + r);  // without the cancellation of x₀² − r² near the boundary
}

/// How far x is inside the cone: x₀ − ‖x₁‖ (x for dimension 1); negative outside.
inline double depth(int dim, const double* x) {
    return dim == 1 ? x[0] : x[0] - tangentNorm(dim, x);
}

/// x₁ᵀ y₁.
inline double tangentDot(int dim, const double* x, const double* y) {
    double s = 0.0;
    for (int k = 1; k < dim; ++k)
        s += x[k] * y[k];
    return s;
}

/// x ∘ y: (xᵀy, x₀ y₁ + y₀ x₁); for dimension 1 the plain product.
inline void product(int dim, const double* x, const double* y, double* out) {
    if (dim == 1) {
        out[0] = x[0] * y[0];
        return;
    }
    const double x0 = x[0], y0 = y[0];
    out[0] = x0 * y0 + tangentDot(dim, x, y);
    for (int k = 1; k < dim; ++k)
        out[k] = x0 * y[k] + y0 * x[k];
}

/// u with x ∘ u = y (x in the interior of the cone).
inline void divide(int dim, const double* x, const double* y, double* u) {
    if (dim == 1) {
        u[0] = y[0] / x[0];
        return;
    }
    u[0] = (x[0] * y[0] - tangentDot(dim, x, y)) / det(dim, x);
    for (int k = 1; k < dim; ++k)
        u[k] = (y[k] - u[0] * x[k]) / x[0];
}

/// Largest α ≤ cap with x + α d in the cone (x strictly inside).
inline double maxStep(int dim, const double* x, const double* d, double cap) {
    if (dim == 1) return d[0] < 0.0 ? std::min(cap, -x[0] / d[0]) : cap;
    // (x₀ + α d₀)² − ‖x₁ + α d₁‖² = a α² + 2 b α + c, and x₀ + α d₀ ≥ 0.
    const double a = d[0] * d[0] - tangentDot(dim, d, d);
    const double b = x[0] * d[0] - tangentDot(dim, x, d);
    const double c = std::max(0.0, det(dim, x));
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

/// Gondzio's centrality correction of one cone's complementarity product p (gondzio-1996,
/// applied to the spectral values p₀ ± ‖p₁‖ of the Jordan algebra): the change that brings
/// each spectral value into [lo, hi], one far above moved down by at most hi (a single
/// outlier must not drag the step). Dimension 1: p itself.
inline void centralityCorrection(int dim, const double* p, double lo, double hi, double* out) {
    auto clip = [lo, hi](double l) {
        return l < lo ? lo - l : (l > hi ? std::max(hi - l, -hi) : 0.0);
    };
    if (dim == 1) {
        out[0] = clip(p[0]);
        return;
    }
    const double t = tangentNorm(dim, p);
    const double up = clip(p[0] + t), down = clip(p[0] - t);
    out[0] = 0.5 * (up + down);
    for (int k = 1; k < dim; ++k)
        out[k] = t > 0.0 ? 0.5 * (up - down) * p[k] / t : 0.0;
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
        const double sn = std::sqrt(det(dim, s)), zn = std::sqrt(det(dim, z));
        double sb[3] = {}, zb[3] = {};
        for (int k = 0; k < dim; ++k) {
            sb[k] = s[k] / sn;
            zb[k] = z[k] / zn;
        }
        const double gamma = std::sqrt(0.5 * (1.0 + sb[0] * zb[0] + tangentDot(dim, sb, zb)));
        r.w[0] = (sb[0] + zb[0]) / (2.0 * gamma);
        for (int k = 1; k < dim; ++k)
            r.w[k] = (sb[k] - zb[k]) / (2.0 * gamma);
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
        const double dot = sign * tangentDot(dim, w, x);
        const double k = (x[0] + dot / (1.0 + w[0]));
        out[0] = f * (w[0] * x[0] + dot);
        for (int i = 1; i < dim; ++i)
            out[i] = f * (x[i] + k * sign * w[i]);
    }

    /// R⁻² as a symmetric dim × dim matrix, row-major (dimension 1: out[0] = 1/η²).
    void inverseSquared(double* out) const {
        if (dim == 1) {
            out[0] = 1.0 / (eta * eta);
            return;
        }
        for (int j = 0; j < dim; ++j) {
            double e[3] = {0.0, 0.0, 0.0}, t[3], u[3];
            e[j] = 1.0;
            apply(e, t, true);
            apply(t, u, true);
            for (int i = 0; i < dim; ++i)
                out[dim * i + j] = u[i];
        }
    }
};

}  // namespace ndem::cone
