// The static formulation's non-associated problem in the plane as krabbenhoft-2012 solves it:
// the mixed force–displacement KKT system (Sec. 4.1, Eq. 44–46) with the bodies' velocities as
// unknowns beside the contact impulses, by the infeasible primal–dual interior-point method
// with Mehrotra's predictor–corrector (Sec. 4.2–4.3), its Newton system the saddle point of
// Eq. 55 with the bodies kept:
//
//   r_D = M (v − v*) − Jᵀ r          (the balance of each body; M the static step's scaled masses)
//   r_P = J v + Σ r − b + G κ         (the dilatant flow rule, as LcpInteriorPoint's)
//   r_F = Fᵀ r + s,   s ∘ κ = 0,   s, κ ≥ 0.
//
// Why not the contact-space form of LcpInteriorPoint: there v is v* + M⁻¹ Jᵀ r, the balance
// exact at every iterate, and in the static formulation M is scaled by ε (10⁻⁴), so where the
// iteration stalls (Sec. 4.5: for ν < μ it does) its impulse error becomes a velocity error
// 1/ε times larger — grains thrown 0.1–0.8 m/s in a test driven at 25 mm/s. Here the balance
// is one more residual: a stalled iterate leaves a force imbalance beside a small kinematic
// error, and the grains move with v, which satisfies the flow rule to the residual. The answer
// is the same where the iteration converges.
#pragma once

#include "solve/convex/interior_point.hpp"
#include "solve/convex/klu_lu.hpp"
#include "solve/convex/lcp_interior_point.hpp"
#include "solve/rows/contact_problem.hpp"

#include <Eigen/SparseCore>

#include <vector>

namespace ndem {

class StaticLcp {
  public:
    /// Solves `p` (contacts of one or two rows, no rolling rows) from a cold start: r the
    /// impulses (row units), v the velocities of the problem's unknowns (bodies and sliders).
    /// A contact of three rows or a rolling row: unconverged, r and v empty. Of the options,
    /// the finish (polishSteps, polishSweeps) is the contact form's and not used here, nor
    /// `threads` (KLU calls no BLAS); the
    /// tolerance is relative to the largest load for the balance and to the largest bias
    /// velocity for the flow rule.
    InteriorPointResult solve(const ContactProblem& p, Eigen::VectorXd& r, Eigen::VectorXd& v,
                              const LcpOptions& options);

  private:
    using Sparse = Eigen::SparseMatrix<double>;
    /// One solve's facets, units and iterates, and its steps (static_lcp.cpp).
    struct Program;
    /// The saddle point's pattern is the same through a solve: KLU's refactorisation, 1.75 times
    /// faster a step than UMFPACK on the biaxial sample (PERFORMANCE.md).
    KluLu m_lu;
};

}  // namespace ndem
