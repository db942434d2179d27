// Coulomb's law in local form (u = W r + q) solved by the semismooth Newton method on the
// Alart–Curnier function (alart-curnier-1991), the method of Siconos' fc3d NSN-AC solver:
//
//   φ_n = r_n − [r_n − ρ_n u_n]₊,   φ_t = r_t − proj_{‖·‖ ≤ μ [r_n − ρ_n u_n]₊}(r_t − ρ_t u_t),
//
// whose zeros are exactly Coulomb's law (the same law as LocalProblem's De Saxcé form). φ is
// piecewise smooth; a Newton step takes the derivative of the projection's active piece,
// J = I − D + D ρ W with D the projection's block-diagonal derivative, and solves J d = −φ by
// UMFPACK's sparse LU. Unlike Gauss–Seidel and the fixed point of cone programs it converges
// quadratically once the contacts' states (open, sticking, sliding) are right, also where many
// contacts slide — the steps where those creep or cycle. It is a local method: from a cold
// start on a large problem it may wander, so it is meant to finish from a good start.
//
// Where W is singular (more contact rows than the bodies' freedoms: a wedged packing), the rows
// of sticking contacts in J are singular too; the step is regularised as (J + λ I) d = −φ with
// λ shrinking with the error (a Levenberg–Marquardt-like step that keeps the fast local
// convergence), and globalised by a backtracking line search on ½‖φ‖², non-monotone over the
// last few steps, since a semismooth merit function may need to rise briefly.
#pragma once

#include "solve/rows/local_problem.hpp"

#include <vector>

namespace ndem {

struct AlartCurnierOptions {
    int maxIterations = 50;                       ///< Newton steps
    double tolerance = 1e-8;                      ///< stop at coulombError ≤ tolerance
    std::vector<double>* errorHistory = nullptr;  ///< if set: coulombError after each step
    /// ν of each contact (at most its μ), the non-associated rule of krabbenhoft-2012 Sec. 4.1:
    /// a sliding contact opens at ν‖u_t‖ (the law sees u_n − ν‖u_t‖); empty: Coulomb's law.
    std::vector<double> dilation;
};

struct AlartCurnierResult {
    int iterations = 0;  ///< Newton steps taken
    double error = 0.0;  ///< coulombError at the end
    bool converged = false;
};

/// Newton steps from r as given (zeros: a cold start); r is the answer. A problem with rolling
/// rows is outside Coulomb's friction-contact problem: r is then left as it is, unconverged.
AlartCurnierResult solveAlartCurnierNewton(const LocalProblem& p, Eigen::VectorXd& r,
                                           const AlartCurnierOptions& options);

}  // namespace ndem
