#include "solve/rows/local_problem.hpp"

#include "solve/rows/second_order_cone.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {

std::string LocalProblem::check() const {
    const size_t n = dim.size();
    if (offset.size() != n || mu.size() != n) return "per-contact arrays of different lengths";
    if (!rolling.empty()) return "rolling rows are not part of a friction-contact problem";
    if (W.rows() != rows() || W.cols() != rows()) return "W is not rows × rows";
    int next = 0;
    for (size_t c = 0; c < n; ++c) {
        if (dim[c] < 1 || dim[c] > 3) return "contact " + std::to_string(c) + ": 1, 2 or 3 rows";
        if (offset[c] != next) return "contact " + std::to_string(c) + ": rows out of order";
        if (!(mu[c] >= 0.0) || !std::isfinite(mu[c]))
            return "contact " + std::to_string(c) + ": friction coefficient must be >= 0";
        next += dim[c];
    }
    if (next != rows()) return "the contacts' rows do not add up to q's length";
    for (Eigen::Index i = 0; i < q.size(); ++i)
        if (!std::isfinite(q[i])) return "q is not finite";
    return {};
}

double coulombError(const LocalProblem& p, const Eigen::VectorXd& r,
                    const std::vector<double>& dilation) {
    return coulombErrorAt(p, r, p.W * r + p.q, dilation);
}

double coulombErrorAt(const LocalProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                      const std::vector<double>& dilation) {
    double sum = 0.0;
    for (int c = 0; c < p.contacts(); ++c) {
        const int o = p.offset[static_cast<size_t>(c)];
        if (p.dim[static_cast<size_t>(c)] == 1) {
            const double d = r[o] - std::max(0.0, r[o] - u[o]);
            sum += d * d;
            continue;
        }
        const int d = p.dim[static_cast<size_t>(c)];
        const double mu = p.mu[static_cast<size_t>(c)];
        const double nu = dilation.empty() ? 0.0 : std::min(dilation[static_cast<size_t>(c)], mu);
        const double ut = cone::tangentNorm(d, u.data() + o);
        // x = r − û, projected onto K = {‖x_t‖ ≤ μ x_n}.
        double x[3] = {r[o] - (u[o] + (mu - nu) * ut), 0.0, 0.0};
        for (int k = 1; k < d; ++k)
            x[k] = r[o + k] - u[o + k];
        const double xt = cone::tangentNorm(d, x);
        double proj[3] = {0.0, 0.0, 0.0};
        if (xt <= mu * x[0]) {
            std::copy(x, x + 3, proj);
        } else if (mu * xt > -x[0]) {  // else inside the polar cone: the projection is 0
            const double n = (x[0] + mu * xt) / (1.0 + mu * mu);
            proj[0] = n;
            const double f = xt > 0.0 ? mu * n / xt : 0.0;
            for (int k = 1; k < d; ++k)
                proj[k] = f * x[k];
        }
        for (int k = 0; k < d; ++k) {
            const double e = r[o + k] - proj[k];
            sum += e * e;
        }
    }
    const double norm = p.q.norm();
    const double error = std::sqrt(sum);
    return norm > std::numeric_limits<double>::epsilon() ? error / norm : error;
}

}  // namespace ndem
