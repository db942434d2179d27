#include "solve/convex/coulomb_reference.hpp"

#include "solve/convex/interior_point.hpp"
#include "solve/convex/lcp_interior_point.hpp"
#include "solve/nscd/coulomb_finish.hpp"

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
        lcp.polishSteps = 0;  // the stages below are the polish
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
        CoulombFinishOptions finish;
        finish.tolerance = options.tolerance;
        finish.sweeps = options.sweeps;
        finish.newtonSteps = options.alartCurnierSteps;
        if (options.totalNewtonSteps > 0)
            finish.newtonSteps = std::clamp(options.totalNewtonSteps - result.interiorPointSteps, 0,
                                            finish.newtonSteps);
        const CoulombFinishResult f = finishCoulomb(p, r, finish);
        result.sweeps = f.sweeps;
        result.alartCurnierSteps = f.newtonSteps;
        result.error = f.error;
    }
    result.converged = result.error <= options.tolerance;
    return result;
}

}  // namespace ndem
