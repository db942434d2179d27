// Projected Gauss–Seidel on the local form u = W r + q (the nonlinear Gauss–Seidel of
// Moreau–Jean contact dynamics on the Delassus operator): contact after contact, the normal
// reaction projected onto r_n ≥ 0, then the tangential one onto the disc μ r_n — the same rows
// and projections as the sweep over the bodies, the same fixed point (Coulomb's law). Used
// where a problem comes as W (FCLib files).
#pragma once

#include "solve/rows/local_problem.hpp"

#include <vector>

namespace ndem {

struct LocalGaussSeidelOptions {
    int maxIterations = 1000;  ///< sweeps
    double tolerance = 1e-8;   ///< stop at coulombError ≤ tolerance (checked every sweep)
    std::vector<double>* errorHistory = nullptr;  ///< if set: the error after each sweep
};

struct LocalGaussSeidelResult {
    int iterations = 0;
    double error = 0.0;  ///< coulombError at the end
    bool converged = false;
};

/// Sweeps from r as given (zeros: a cold start).
LocalGaussSeidelResult solveLocalGaussSeidel(const LocalProblem& p, Eigen::VectorXd& r,
                                             const LocalGaussSeidelOptions& options);

}  // namespace ndem
