#include "solve/local_gauss_seidel.hpp"

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
            if (p.dim[static_cast<size_t>(c)] != 3) continue;
            const double limit = p.mu[static_cast<size_t>(c)] * r[o];
            double t1 = diagonal[o + 1] > 0.0 ? r[o + 1] - u[o + 1] / diagonal[o + 1] : 0.0;
            double t2 = diagonal[o + 2] > 0.0 ? r[o + 2] - u[o + 2] / diagonal[o + 2] : 0.0;
            const double mag = std::hypot(t1, t2);
            if (mag > limit) {
                const double f = mag > 0.0 ? limit / mag : 0.0;
                t1 *= f;
                t2 *= f;
            }
            move(o + 1, t1 - r[o + 1]);
            move(o + 2, t2 - r[o + 2]);
        }
        result.iterations = k + 1;
        result.error = coulombError(p, r);
        if (options.errorHistory) options.errorHistory->push_back(result.error);
        if (result.error <= options.tolerance) {
            result.converged = true;
            break;
        }
    }
    if (options.maxIterations <= 0) result.error = coulombError(p, r);
    return result;
}

}  // namespace ndem
