// The frictional contact problem in the plane with a dilation ν ≤ μ, the non-associated sliding
// rule of krabbenhoft-2012 Sec. 4.1, as a linear complementarity problem, solved by the paper's
// infeasible primal–dual interior-point method with Mehrotra's predictor–corrector (Sec. 4.2–4.4).
//
// Per contact (rows normal n and tangent t of LocalProblem), the cone |r_t| ≤ μ r_n is the two
// facets f± = ±r_t − μ r_n ≤ 0, and the velocity follows the dilatant flow rule
//
//   u = W r + q = −G κ:   u_n = ν (κ₊ + κ₋) + κ₀,   u_t = κ₋ − κ₊,   κ ≥ 0,
//
// (the paper's Eq. 45–46) with s = −Fᵀ r ≥ 0 the facets' slacks and s ∘ κ = 0. A sliding contact
// thus opens at ν|u_t|; ν = μ is the associated rule (F = G, the cone program of
// InteriorPointSolver), ν = 0 Coulomb's law. The third facet f₀ = −r_n ≤ 0 with u_n's own
// multiplier κ₀ is the paper's p ≥ 0, which it adds for ν = 0 only; we keep it always, because
// without it a separating contact's κ₊ + κ₋ = u_n / ν grows as 1/ν and spoils the
// Newton system's conditioning. It changes no solution: u_n ≥ ν|u_t| at r = 0 either way.
//
// A rolling row (rolling resistance, the moment about the plane's normal) adds the facets
// ±m − L r_n ≤ 0 with the flow u_n = (ν/μ) L (κ₊ + κ₋): the sliding's share of the associated
// opening.
//
// The Newton system, reduced to the contacts' unknowns (Eq. 55–57 with the bodies eliminated
// by W), is W + G S⁻¹ K Fᵀ: W plus a block per contact, unsymmetric where ν < μ, so it is
// factored by UMFPACK's sparse LU, its analysis kept while the contacts' structure stays the same.
// The paper finds, and so do we, that the iteration can stall for ν < μ (Sec. 4.5); the best
// iterate is then the answer, and its residual says how far it is.
#pragma once

#include "solve/convex/interior_point.hpp"
#include "solve/convex/newton_pattern.hpp"
#include "solve/rows/local_problem.hpp"

#include <Eigen/UmfPackSupport>

#include <vector>

namespace ndem {

struct LcpOptions {
    int maxIterations = 50;  ///< Newton steps (the paper's Fig. 9: 50)
    /// ν of each contact in the problem's units (a normal row scaled by s takes ν s), at most
    /// its μ; empty: 0 at every contact, Coulomb's law.
    std::vector<double> dilation;
    /// Stop when every residual, relative to the largest free velocity, is below; 0 = 10⁻¹⁰.
    /// The paper's TOL, Eq. 52, is 10⁻⁶.
    double tolerance = 0.0;
    std::vector<double>* residualHistory = nullptr;  ///< if set: the residual after each step (m/s)
    /// Threads UMFPACK's dense kernels (BLAS) may use; more than one changes the last bits of
    /// the answer with the count (the engine's steps keep one: results the same on any count).
    int threads = 1;
    /// Where the iteration stalls short of the tolerance, the law is finished from its best
    /// iterate (solve/nscd/coulomb_finish.hpp) with at most this many semismooth Newton steps a
    /// stage and `polishSweeps` Gauss–Seidel sweeps, and that answer kept if it leaves a
    /// smaller residual; 0: the paper's method alone.
    int polishSteps = 30;
    int polishSweeps = 10000;
};

class LcpInteriorPoint {
  public:
    /// Solves `p`, whose contacts have one row (frictionless) or two (the plane) and at most one
    /// rolling row, from a cold start; r is the answer. A contact of three rows is a
    /// programming error: the result is then unconverged and r zero.
    InteriorPointResult solve(const LocalProblem& p, Eigen::VectorXd& r, const LcpOptions& options);

  private:
    using Sparse = Eigen::SparseMatrix<double>;
    /// One solve's rows, facets, units and iterates, and its steps (lcp_interior_point.cpp).
    struct Program;
    NewtonPattern m_pattern;
    bool m_analysed = false;
    /// UMFPACK (SuiteSparse): 2.5 times faster than Eigen's SparseLU on the column collapse's
    /// Newton systems (7 474 rows: 0.022 s against 0.056 s a factorisation).
    Eigen::UmfPackLU<Sparse> m_lu;
};

}  // namespace ndem
