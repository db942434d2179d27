// Nonlinear Gauss–Seidel on the Delassus operator (the NLGS of Alart 2014 Alg. 2, the solver of
// Moreau–Jean's NSCD scheme, Alg. 1): contact after contact, the contact's reaction is the
// exact answer of its local problem
//
//   u_α = W_αα r_α + w_α,   w_α = q_α + Σ_{β<α} W_αβ r_β^k + Σ_{β>α} W_αβ r_β^{k−1},
//
// under Signorini's condition 0 ≤ u_n ⊥ r_n ≥ 0 and Coulomb's law (sticking: u_t = 0 with
// ‖r_t‖ ≤ μ r_n; sliding: r_t = −μ r_n u_t/‖u_t‖): in the plane by enumerating separation,
// sticking and the two sliding directions on the 2×2 block, in space by Gauss–Seidel on the
// block's normal and tangential parts until it stops changing. Rolling rows are projected onto
// ‖r_r‖ ≤ L r_n after them. This differs from the projected Gauss–Seidel of the PGS methods,
// which updates row by row with the diagonal only; the fixed point is the same.
//
// Started from r as given: zeros (Alart's "without memory") or the last step's impulses
// ("with memory"). It stops when Alart's Eq. 10 error ‖W r^k − v^k + q‖ / ‖q‖ — how far the
// local velocities v^k each contact saw in the sweep lie from those of the sweep's answer —
// is below the tolerance (the paper: 10⁻³).
#pragma once

#include "solve/local_problem.hpp"

#include <vector>

namespace ndem {

struct NlgsOptions {
    int maxIterations = 150;  ///< sweeps (the paper caps them at 150 in Sec. 2.3)
    double tolerance = 1e-3;  ///< Eq. 10's relative error
    /// Stop on Siconos' error measure (coulombError, FCLib's) instead of Eq. 10's.
    bool coulombStop = false;
    std::vector<double>* errorHistory = nullptr;  ///< if set: the error after each sweep
};

struct NlgsResult {
    int iterations = 0;
    double error = 0.0;  ///< Eq. 10 (or coulombError with coulombStop) after the last sweep
    bool converged = false;
};

NlgsResult solveNlgs(const LocalProblem& p, Eigen::VectorXd& r, const NlgsOptions& options);

}  // namespace ndem
