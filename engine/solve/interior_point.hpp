// Primal–dual interior-point method for the step's contact problem as a convex cone program
// (krabbenhoft-2012 Sec. 3.6–3.8 and 4.2–4.4): the associated frictional problem
//
//   minimise ½ rᵀ W r + qᵀ r   over r_c ∈ K_c (friction cones),
//
// whose optimality conditions are LocalProblem's without the term μ‖u_t‖. Infeasible start,
// Nesterov–Todd scaling of each cone, Mehrotra's predictor–corrector. Each iteration factors one
// sparse system, the Delassus operator plus the cones' scaling blocks, W + R⁻² (the paper's
// reduced Newton system, Eq. 55–57, eliminated to the contacts' unknowns), by a sparse LDLᵀ
// whose symbolic analysis is done once per program. Rejected: the bodies' system
// M + Jᵀ(Σ + R⁻²)⁻¹J, smaller, but its Woodbury back-substitution cancels catastrophically once
// contacts are active (R⁻² → 0). The iteration count hardly grows with the problem, where
// Gauss–Seidel's sweeps grow with the height of a packing (servin-2014 Eq. 41).
//
// Coulomb's law (the non-associated rule, as FCLib and Siconos pose it) is solved as the fixed
// point of such programs, each with the normal velocity shifted by μ‖u_t‖ of the last answer
// (De Saxcé's bipotential; acary-2011).
#pragma once

#include "solve/local_problem.hpp"

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCholesky>

#include <vector>

namespace ndem {

struct InteriorPointOptions {
    int maxIterations = 50;  ///< Newton steps, summed over the Coulomb fixed point's programs
    bool coulomb = false;    ///< Coulomb's law (fixed point) instead of the associated law
    /// Stop when the optimality residual and the complementarity, as velocities (m/s), are
    /// below; 0 = 10⁻¹⁰ of the largest free velocity. A program that stalls short of it (round-off)
    /// ends at its best iterate, unconverged.
    double tolerance = 0.0;
    std::vector<double>* residualHistory = nullptr;  ///< if set: the residual after each step
    /// Threads CHOLMOD's dense kernels (BLAS) may use: the step's, so that runs side by side
    /// do not each start a BLAS thread per core and spin against each other.
    int threads = 1;
};

struct InteriorPointResult {
    int iterations = 0;  ///< Newton steps in all
    int programs = 0;    ///< cone programs solved (1 for the associated law)
    bool converged = false;
    double residual = 0.0;         ///< ‖W r + q − û‖∞ of the last program (m/s)
    double complementarity = 0.0;  ///< rᵀû / Σ r_n of the last program (m/s)
};

class InteriorPointSolver {
  public:
    /// Solves `p` from a cold start; r (rows of p) is the answer.
    InteriorPointResult solve(const LocalProblem& p, Eigen::VectorXd& r,
                              const InteriorPointOptions& options);

  private:
    using Sparse = Eigen::SparseMatrix<double>;
    /// One cone program over the cones' rows of p (a frictionless contact: its normal row),
    /// q's normal rows shifted by `shift`; at most `budget` Newton steps.
    InteriorPointResult solveProgram(const LocalProblem& p, const Eigen::VectorXd& shift,
                                     int budget, const InteriorPointOptions& options,
                                     Eigen::VectorXd& r);
    void buildPattern(const std::vector<int>& dim, const std::vector<int>& offset, const Sparse& w);
    bool factor(const std::vector<double>& blocks);  ///< false: the factorisation failed

    /// The Newton system's factorisation: Eigen's simplicial LDLᵀ for small programs, CHOLMOD's
    /// supernodal LLᵀ (SuiteSparse) from kCholmodRows rows, where its dense blocks pay:
    /// 23 581 contacts of the live silo, 20 steps: 25.1 s against 10.1 s; 2 047 contacts:
    /// 0.095 s against 0.142 s (docs/PERFORMANCE.md).
    static constexpr int kCholmodRows = 12000;
    bool m_cholmod = false;
    Eigen::CholmodSupernodalLLT<Sparse> m_supernodal;
    Eigen::VectorXd solveNewton(const Eigen::VectorXd& rhs);

    Sparse m_k;                  ///< Ŵ + R⁻², fixed pattern
    std::vector<double> m_base;  ///< Ŵ's values in m_k's pattern
    std::vector<int> m_slot;     ///< value index of each cone block entry, row-major
    Eigen::SimplicialLDLT<Sparse> m_ldlt;
};

}  // namespace ndem
