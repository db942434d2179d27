// The most accurate answer of Coulomb's law in local form the engine gives, for references
// (the solver race's exact answer, `ndem fclib solve --solver newton`), in three stages, each
// taking over where the one before stalls:
//
//  1. the interior point: in space the fixed point of cone programs (acary-2011), in the plane
//     the complementarity problem (krabbenhoft-2012 Sec. 4.1 with ν = 0) — the contacts'
//     states, and the impulses to 10⁻³–10⁻⁴, in a few dozen Newton steps whatever the size;
//  2. Gauss–Seidel sweeps on W, which settle the sliding contacts' directions where the fixed
//     point cycles;
//  3. the semismooth Newton method on the Alart–Curnier function (alart-curnier-1991),
//     quadratic once those states are right.
//
// On a filling silo's step (6 195 contacts) the stages alone stop at 9·10⁻⁴ (the fixed point
// cycling), 7·10⁻⁴ (Siconos' NSGS after 10⁵ sweeps), 0.14 (Siconos' NSN-AC from a cold
// start); in turn they reach 10⁻¹³ (docs/PERFORMANCE.md, "An exact answer of Coulomb's law").
#pragma once

#include "solve/rows/local_problem.hpp"

namespace ndem {

struct CoulombReferenceOptions {
    double tolerance = 1e-8;  ///< coulombError to reach
    int newtonSteps = 300;    ///< the interior point's, over all its programs
    int sweeps = 20000;       ///< Gauss–Seidel's at most
    int alartCurnierSteps = 100;
    /// Newton steps of the interior point and Alart–Curnier together, at most (0: no cap).
    int totalNewtonSteps = 0;
    int threads = 1;  ///< the interior point's
};

struct CoulombReferenceResult {
    int interiorPointSteps = 0;
    int sweeps = 0;
    int alartCurnierSteps = 0;
    double error = 0.0;  ///< coulombError of the answer
    bool converged = false;
};

/// From a cold start; r is the answer. With rolling rows only the interior point takes part
/// (the other two have none), and its answer stands.
CoulombReferenceResult solveCoulombReference(const LocalProblem& p, Eigen::VectorXd& r,
                                             const CoulombReferenceOptions& options);

}  // namespace ndem
