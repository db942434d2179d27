// The projected Gauss–Seidel family on a local problem u = W r + q (FCLib's form, no bodies):
// the same iterations the rows' methods run, with W's diagonal as the rows' D — plain sweeps
// contact after contact (solve/pgs/local_gauss_seidel.hpp), NNCG's momentum on them
// (silcowitz-2010) and Jacobi-preconditioned APGD (mazhar-2015) — stopped at Siconos' error.
#pragma once

#include "solve/pgs/pgs_solver.hpp"
#include "solve/rows/local_problem.hpp"

#include <Eigen/Core>

#include <vector>

namespace ndem {

struct LocalPgsOptions {
    PgsVariant variant = PgsVariant::Plain;
    int maxIterations = 1000;  ///< sweeps, or APGD's accepted steps
    double tolerance = 1e-8;   ///< stop at coulombError ≤ tolerance (0: the whole budget)
    bool cone = true;          ///< false: the friction box (solver.friction box)
    std::vector<double>* errorHistory = nullptr;  ///< if set: the error after each iteration
};

struct LocalPgsResult {
    int iterations = 0;
    double error = 0.0;  ///< coulombError at the end
    bool converged = false;
};

/// Iterates from r as given (zeros: a cold start); r is the answer.
LocalPgsResult solveLocalPgs(const LocalProblem& p, Eigen::VectorXd& r,
                             const LocalPgsOptions& options);

}  // namespace ndem
