// For fixed λ the model is linear in p_sat, so p_sat has a closed form and the squared residual
// becomes a function of λ alone. That function can have flat stretches (λ far below the
// smallest depth, or far above the largest), where Newton on λ stalls; a log grid brackets the
// minimum robustly and golden section then refines it.
#include "measure/janssen_fit.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

struct Profile {
    std::vector<double> depth, pressure;
};

/// Best p_sat for this λ and the sum of squared residuals it leaves.
struct Trial {
    double pSat = 0.0, squares = 0.0;
};

Trial trial(const Profile& p, double lambda) {
    // u = 1 − exp(−D/λ) through expm1: for λ ≫ D it is D/λ, which 1 − exp loses to round-off.
    double pu = 0.0, uu = 0.0, pp = 0.0;
    for (size_t i = 0; i < p.depth.size(); ++i) {
        const double u = -std::expm1(-p.depth[i] / lambda);
        pu += p.pressure[i] * u;
        uu += u * u;
        pp += p.pressure[i] * p.pressure[i];
    }
    Trial t;
    t.pSat = uu > 0.0 ? pu / uu : 0.0;
    // Σ (p − P u)² expanded, one pass per trial; clamped at 0 against cancellation.
    t.squares = std::max(0.0, pp - t.pSat * pu);
    return t;
}

}  // namespace

JanssenFit fitJanssen(const std::vector<double>& depth, const std::vector<double>& pressure) {
    Profile p;
    const size_t n = std::min(depth.size(), pressure.size());
    for (size_t i = 0; i < n; ++i)
        if (depth[i] > 0.0 && std::isfinite(depth[i]) && std::isfinite(pressure[i])) {
            p.depth.push_back(depth[i]);
            p.pressure.push_back(pressure[i]);
        }
    if (p.depth.empty()) return {};
    const auto [lo, hi] = std::minmax_element(p.depth.begin(), p.depth.end());

    // Below λ = D_min/100 every u is 1 to 1e-43 and above 1e4 D_max the curve is a straight
    // line to 1e-4: the grid spans everything the data can tell apart.
    const double logMin = std::log(1e-2 * *lo), logMax = std::log(1e4 * *hi);
    const int points = 240;
    const double stepLog = (logMax - logMin) / (points - 1);
    int best = 0;
    double bestSquares = trial(p, std::exp(logMin)).squares;
    for (int k = 1; k < points; ++k) {
        const double s = trial(p, std::exp(logMin + k * stepLog)).squares;
        if (s < bestSquares) {
            bestSquares = s;
            best = k;
        }
    }

    // Golden section on log λ between the grid neighbours of the best point.
    double a = logMin + std::max(0, best - 1) * stepLog;
    double b = logMin + std::min(points - 1, best + 1) * stepLog;
    const double invPhi = 0.5 * (std::sqrt(5.0) - 1.0);
    double c = b - invPhi * (b - a), d = a + invPhi * (b - a);
    double fc = trial(p, std::exp(c)).squares, fd = trial(p, std::exp(d)).squares;
    while (b - a > 1e-10) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - invPhi * (b - a);
            fc = trial(p, std::exp(c)).squares;
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + invPhi * (b - a);
            fd = trial(p, std::exp(d)).squares;
        }
    }
    double lambda = std::exp(0.5 * (a + b));
    Trial t = trial(p, lambda);
    // The refinement may not beat the grid point when the minimum sits at a grid end.
    const double gridLambda = std::exp(logMin + best * stepLog);
    if (bestSquares < t.squares) {
        lambda = gridLambda;
        t = trial(p, lambda);
    }
    // The reported residual is summed directly: the expanded form cancels for a close fit.
    double squares = 0.0;
    for (size_t i = 0; i < p.depth.size(); ++i) {
        const double r = p.pressure[i] + t.pSat * std::expm1(-p.depth[i] / lambda);
        squares += r * r;
    }
    return {t.pSat, lambda, std::sqrt(squares / p.depth.size())};
}

}  // namespace ndem
