#include "solve/nscd/coulomb_finish.hpp"

#include "solve/nscd/alart_curnier_newton.hpp"
#include "solve/pgs/local_gauss_seidel.hpp"

#include <algorithm>

namespace ndem {

CoulombFinishResult finishCoulomb(const LocalProblem& p, Eigen::VectorXd& r,
                                  const CoulombFinishOptions& options) {
    CoulombFinishResult result;
    if (r.size() != p.rows()) r = Eigen::VectorXd::Zero(p.rows());
    const std::vector<double>& nu = options.dilation;
    result.error = coulombError(p, r, nu);
    if (result.error <= options.tolerance || !p.rolling.empty()) {
        result.converged = result.error <= options.tolerance;
        return result;
    }
    auto newton = [&](Eigen::VectorXd& x, const std::vector<double>& dilation, int steps) {
        AlartCurnierOptions o;
        o.tolerance = options.tolerance;
        o.maxIterations = steps;
        o.dilation = dilation;
        result.newtonSteps += solveAlartCurnierNewton(p, x, o).iterations;
    };
    auto keep = [&](const Eigen::VectorXd& x) {
        const double e = coulombError(p, x, nu);
        if (e < result.error) {
            result.error = e;
            r = x;
        }
        return result.error <= options.tolerance;
    };
    const bool dilated = std::any_of(nu.begin(), nu.end(), [](double v) { return v > 0.0; });
    const Eigen::VectorXd start = r;
    if (dilated) {
        // A few steps only: from a stalled iterate they converge at once or wander.
        Eigen::VectorXd x = start;
        newton(x, nu, std::max(1, options.newtonSteps / 3));
        if ((result.converged = keep(x))) return result;
    }
    Eigen::VectorXd x = start;
    LocalGaussSeidelOptions sweeps;
    sweeps.tolerance = options.sweepTolerance > 0.0 ? options.sweepTolerance : options.tolerance;
    sweeps.maxIterations = options.sweeps;
    result.sweeps = solveLocalGaussSeidel(p, x, sweeps).iterations;
    newton(x, {}, options.newtonSteps);
    if (dilated) newton(x, nu, options.newtonSteps);
    result.converged = keep(x);
    return result;
}

}  // namespace ndem
