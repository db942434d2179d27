#include "solve/pgs/local_gauss_seidel.hpp"

#include "solve/rows/second_order_cone.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

LocalGaussSeidelResult solveLocalGaussSeidel(const LocalProblem& p, Eigen::VectorXd& r,
                                             const LocalGaussSeidelOptions& options) {
    LocalGaussSeidelResult result;
    if (r.size() != p.rows()) r = Eigen::VectorXd::Zero(p.rows());
    if (options.errorHistory) options.errorHistory->clear();
    Eigen::SparseMatrix<double> w = p.W;  // columns are rows too: W is symmetric
    w.makeCompressed();
    Eigen::VectorXd u = w * r + p.q;
    const Eigen::VectorXd diagonal = w.diagonal();
    // r_j += d, and u follows: u += W(:, j) d.
    auto move = [&](int j, double d) {
        if (d == 0.0) return;
        for (Eigen::SparseMatrix<double>::InnerIterator it(w, j); it; ++it)
            u[it.row()] += it.value() * d;
        r[j] += d;
    };
    for (int k = 0; k < options.maxIterations; ++k) {
        for (int c = 0; c < p.contacts(); ++c) {
            const int o = p.offset[static_cast<size_t>(c)];
            if (diagonal[o] > 0.0) move(o, std::max(0.0, r[o] - u[o] / diagonal[o]) - r[o]);
            const int d = p.dim[static_cast<size_t>(c)];
            if (d == 1) continue;
            const double limit = p.mu[static_cast<size_t>(c)] * r[o];
            double t[3] = {};
            for (int k = 1; k < d; ++k)
                t[k] = diagonal[o + k] > 0.0 ? r[o + k] - u[o + k] / diagonal[o + k] : 0.0;
            const double mag = cone::tangentNorm(d, t);
            const double f = mag > limit ? (mag > 0.0 ? limit / mag : 0.0) : 1.0;
            for (int k = 1; k < d; ++k)
                move(o + k, f * t[k] - r[o + k]);
        }
        result.iterations = k + 1;
        // At the sweep's own u: a product W r on top took longer than the sweep itself on the
        // collapse's steps. A stop is confirmed at u = W r + q, so that round-off in u cannot
        // end the sweeps early.
        result.error = coulombErrorAt(p, r, u);
        if (options.errorHistory) options.errorHistory->push_back(result.error);
        if (result.error <= options.tolerance) {
            result.error = coulombError(p, r);
            if (options.errorHistory) options.errorHistory->back() = result.error;
            if (result.error <= options.tolerance) {
                result.converged = true;
                break;
            }
        }
    }
    if (!result.converged) result.error = coulombError(p, r);
    return result;
}

}  // namespace ndem
