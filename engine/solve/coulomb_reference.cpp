#include "solve/coulomb_reference.hpp"

#include "solve/alart_curnier_newton.hpp"
#include "solve/interior_point.hpp"
#include "solve/lcp_interior_point.hpp"
#include "solve/local_gauss_seidel.hpp"

#include <algorithm>

namespace ndem {

CoulombReferenceResult solveCoulombReference(const LocalProblem& p, Eigen::VectorXd& r,
                                             const CoulombReferenceOptions& options) {
    CoulombReferenceResult result;
    r = Eigen::VectorXd::Zero(p.rows());
    if (std::all_of(p.dim.begin(), p.dim.end(), [](int d) { return d <= 2; })) {
        LcpInteriorPoint solver;
        LcpOptions lcp;
        lcp.maxIterations = options.newtonSteps;
        lcp.threads = options.threads;
        result.interiorPointSteps = solver.solve(p, r, lcp).iterations;
    } else {
        InteriorPointSolver solver;
        InteriorPointOptions ip;
        ip.associated = false;
        ip.maxIterations = options.newtonSteps;
        ip.threads = options.threads;
        result.interiorPointSteps = solver.solve(p, r, ip).iterations;
    }
    result.error = coulombError(p, r);
    if (result.error > options.tolerance && p.rolling.empty()) {
        LocalGaussSeidelOptions sweeps;
        sweeps.tolerance = options.tolerance;
        sweeps.maxIterations = options.sweeps;
        const LocalGaussSeidelResult gs = solveLocalGaussSeidel(p, r, sweeps);
        result.sweeps = gs.iterations;
        result.error = gs.error;
    }
    if (result.error > options.tolerance && p.rolling.empty()) {
        AlartCurnierOptions newton;
        newton.tolerance = options.tolerance;
        newton.maxIterations = options.alartCurnierSteps;
        const AlartCurnierResult ac = solveAlartCurnierNewton(p, r, newton);
        result.alartCurnierSteps = ac.iterations;
        result.error = ac.error;
    }
    result.converged = result.error <= options.tolerance;
    return result;
}

}  // namespace ndem
