// Primal–dual interior-point method for the step's contact problem as a convex cone program
// (krabbenhoft-2012 Sec. 3.6–3.8 and 4.2–4.4): the associated frictional problem
//
//   minimise ½ λᵀ W λ + qᵀ λ   over λ_c ∈ K_c (friction cones),   W = J M⁻¹ Jᵀ + Σ,
//
// whose optimality conditions are ContactProblem's. Infeasible start, Nesterov–Todd scaling of
// each cone, Mehrotra's predictor–corrector. Each iteration factors one sparse system, the
// Delassus operator plus the cones' scaling blocks, W + R⁻² (the paper's reduced Newton system,
// Eq. 55–57, eliminated to the contacts' unknowns), by a sparse LDLᵀ whose symbolic analysis is
// done once per solve. Rejected: the bodies' system M + Jᵀ(Σ + R⁻²)⁻¹J, smaller, but its
// Woodbury back-substitution cancels catastrophically once contacts are active (R⁻² → 0). Its
// iteration count hardly grows with the problem, where Gauss–Seidel's sweeps grow with the height
// of a packing (servin-2014 Eq. 41).
#pragma once

#include "solve/contact_problem.hpp"

#include <Eigen/SparseCholesky>

#include <vector>

namespace ndem {

struct InteriorPointOptions {
    int maxIterations = 50;
    /// Stop when the optimality residual and the complementarity, as velocities (m/s), are
    /// below; 0 = 10⁻¹² of the largest free constraint velocity.
    double tolerance = 0.0;
    std::vector<double>* residualHistory = nullptr;  ///< if set: the residual after each iteration
};

struct InteriorPointResult {
    int iterations = 0;
    bool converged = false;
    double residual = 0.0;         ///< ‖W λ + q − y‖∞ at the end (m/s)
    double complementarity = 0.0;  ///< λᵀy / Σ λ_n at the end (m/s)
};

class InteriorPointSolver {
  public:
    /// Solves `p` from a cold start; λ (rows of p) is the answer.
    InteriorPointResult solve(const ContactProblem& p, Eigen::VectorXd& lambda,
                              const InteriorPointOptions& options);

  private:
    using Sparse = Eigen::SparseMatrix<double>;
    void buildPattern(const ContactProblem& p, const Sparse& w);
    bool factor(const std::vector<double>& blocks);  ///< false: the factorisation failed

    Sparse m_k;                  ///< Ŵ + R⁻², fixed pattern
    std::vector<double> m_base;  ///< Ŵ's values in m_k's pattern
    std::vector<int> m_slot;     ///< value index of each contact block entry, row-major
    Eigen::SimplicialLDLT<Sparse> m_ldlt;
};

}  // namespace ndem
