// Finishing an answer of Coulomb's law — or of the non-associated rule with a dilation ν
// (krabbenhoft-2012 Sec. 4.1) — where a method stalled short of it:
//
//  1. under a dilation, the semismooth Newton method on the dilated law from the answer as it is;
//  2. where that does not converge (and always for Coulomb's law): Gauss–Seidel sweeps on W,
//     which settle the sliding contacts' directions, then Newton steps on Coulomb's law
//     (alart-curnier-1991), quadratic once the contacts' states are right;
//  3. under a dilation, Newton steps on the dilated law from Coulomb's answer: ν is small
//     (the paper's 0.01 against μ = 0.5), so Coulomb's answer lies near the dilated one, where
//     the answer the interior point stalled at, or a cold start, may lie far from both.
//
// On a collapsing column's steps the complementarity problem's interior point stalls at
// 10⁻⁴–10⁻⁵ and the Newton method on the dilated law from there wanders; from Coulomb's answer
// it takes 4–7 steps to round-off (docs/PERFORMANCE.md). The best answer by
// coulombError(p, r, dilation) is kept.
#pragma once

#include "solve/rows/local_problem.hpp"

#include <vector>

namespace ndem {

struct CoulombFinishOptions {
    double tolerance = 1e-8;       ///< coulombError (with the dilation) to reach
    double sweepTolerance = 0.0;   ///< where Gauss–Seidel hands over; 0: `tolerance`
    int sweeps = 20000;            ///< Gauss–Seidel's at most
    int newtonSteps = 100;         ///< each Newton stage's at most
    std::vector<double> dilation;  ///< ν per contact (AlartCurnierOptions); empty: Coulomb's law
};

struct CoulombFinishResult {
    int sweeps = 0;
    int newtonSteps = 0;  ///< over all stages
    double error = 0.0;   ///< coulombError (with the dilation) of the answer
    bool converged = false;
};

/// r: the answer to start from and the best found. A problem with rolling rows is left alone.
CoulombFinishResult finishCoulomb(const LocalProblem& p, Eigen::VectorXd& r,
                                  const CoulombFinishOptions& options);

}  // namespace ndem
