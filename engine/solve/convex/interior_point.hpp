// Primal–dual interior-point method for the step's contact problem as a convex cone program
// (krabbenhoft-2012 Sec. 3.6–3.8 and 4.2–4.4): the associated frictional problem
//
//   minimise ½ rᵀ W r + qᵀ r   over r_c ∈ K_c (friction cones),
//
// whose optimality conditions are LocalProblem's without the term μ‖u_t‖. Infeasible start,
// Nesterov–Todd scaling of each cone, Mehrotra's predictor–corrector. Each iteration factors one
// sparse system, the Delassus operator plus the cones' scaling blocks, W + R⁻² (the paper's
// reduced Newton system, Eq. 55–57, eliminated to the contacts' unknowns), by a sparse LDLᵀ
// whose symbolic analysis is done once per program, and kept for the next program while the
// contacts' structure stays the same (a resting packing, step after step). Rejected: the bodies'
// system M + Jᵀ(Σ + R⁻²)⁻¹J, smaller, but its Woodbury back-substitution cancels catastrophically
// once contacts are active (R⁻² → 0). Rolling resistance adds cones on the same normal reaction
// (LocalProblem's rolling rows): the program's cone entries are then s = G x, G copying each
// contact's normal row into each of its cones, and the Newton matrix W + Gᵀ R⁻² G keeps one
// block per contact. The iteration count hardly grows with the problem, where
// Gauss–Seidel's sweeps grow with the height of a packing (servin-2014 Eq. 41).
//
// A non-associated rule with dilation ν < μ (krabbenhoft-2012 Sec. 4.1; ν = 0 is Coulomb's law
// as FCLib and Siconos pose it) is solved as the fixed point of such programs, each with the
// normal velocity shifted by (μ − ν)‖u_t‖ of the last answer, and (1 − ν/μ) of the rolling
// opening L(‖ω_r‖ + |ω_n|) (De Saxcé's bipotential;
// acary-2011): the associated rule then lets a sliding contact open at ν‖u_t‖. In the plane,
// LcpInteriorPoint solves that rule directly, as the paper does.
#pragma once

#include "solve/convex/newton_pattern.hpp"
#include "solve/rows/local_problem.hpp"

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCholesky>

#include <vector>

namespace ndem {

struct InteriorPointOptions {
    int maxIterations = 50;  ///< Newton steps, summed over the Coulomb fixed point's programs
    /// Associated sliding (the cone program); false: the non-associated rule with dilation
    /// `dilation` by the fixed point.
    bool associated = true;
    /// ν of each contact in the problem's units (a normal row scaled by s takes ν s), at most
    /// its μ; empty: 0 at every contact, Coulomb's law.
    std::vector<double> dilation;
    /// Stop when the optimality residual and the complementarity, as velocities (m/s), are
    /// below; 0 = 10⁻¹⁰ of the largest free velocity. A program that stalls short of it (round-off)
    /// ends at its best iterate, unconverged.
    double tolerance = 0.0;
    std::vector<double>* residualHistory = nullptr;  ///< if set: the residual after each step
    /// Threads CHOLMOD's dense kernels (BLAS) may use. The engine's steps keep one: more change
    /// the answer's last bits with the count, and on two cores they bought no speed the noise
    /// shows (docs/PERFORMANCE.md); one also keeps runs side by side from spinning.
    int threads = 1;
};

struct InteriorPointResult {
    int iterations = 0;  ///< Newton steps in all
    int programs = 0;    ///< cone programs solved (1 for the associated law)
    bool converged = false;
    /// Whether the Newton matrix's symbolic analysis came from the previous program (the
    /// same contact structure): the last program's.
    bool reusedAnalysis = false;
    /// The optimality residual relative to the largest free velocity (krabbenhoft-2012 Eq. 52's
    /// measure, which Fig. 9 plots); for the fixed point of programs at least the last move of
    /// its shift on the same scale, so that a fixed point cut short does not pass for converged.
    double relative = 0.0;
    double residual = 0.0;         ///< ‖W r + q − û‖∞ of the last program (m/s)
    double complementarity = 0.0;  ///< rᵀû / Σ r_n of the last program (m/s)
    int polishSteps = 0;           ///< the LCP's semismooth Newton steps after a stall (LcpOptions)
    int polishSweeps = 0;          ///< and its Gauss–Seidel sweeps
};

class InteriorPointSolver {
  public:
    /// Solves `p` from a cold start; r (rows of p) is the answer.
    InteriorPointResult solve(const LocalProblem& p, Eigen::VectorXd& r,
                              const InteriorPointOptions& options);

  private:
    using Sparse = Eigen::SparseMatrix<double>;
    /// One cone program's rows, cones, units and iterates, and its steps
    /// (interior_point_program.cpp).
    struct Program;
    /// One cone program over the cones' rows of p (a frictionless contact: its normal row),
    /// q's normal rows shifted by `shift`; at most `budget` Newton steps.
    InteriorPointResult solveProgram(const LocalProblem& p, const Eigen::VectorXd& shift,
                                     int budget, const InteriorPointOptions& options,
                                     Eigen::VectorXd& r);
    /// The Newton matrix's structure; false when the last program's analysis was reused.
    bool buildPattern(const std::vector<int>& dim, const std::vector<int>& offset, const Sparse& w);
    bool factor(const std::vector<double>& blocks);  ///< false: the factorisation failed

    /// The Newton system's factorisation: Eigen's simplicial LDLᵀ for small programs, CHOLMOD's
    /// supernodal LLᵀ (SuiteSparse) from kCholmodRows rows, where its dense blocks pay:
    /// 23 581 contacts of the live silo, 20 steps: 25.1 s against 10.1 s; 2 047 contacts:
    /// 0.095 s against 0.142 s (docs/PERFORMANCE.md).
    static constexpr int kCholmodRows = 12000;
    /// The least ρ of the start's system (Ŵ + ρ I) x = −q, Ŵ's mean diagonal being one.
    static constexpr double kStartRegularisationFloor = 0.999e-6;
    /// Centrality correctors a Newton step (gondzio-1996): each one more solve with the factor
    /// held. On the biaxial test's static steps (krabbenhoft-2012 Sec. 5.2) two cut the Newton
    /// steps to 10⁻¹⁰ by a quarter (26 000 disks 47 → 36, 1 000 disks 28 → 21) and the time by
    /// 10–15 %; a third and fourth gain one step each and cost more than they save there.
    static constexpr int kCorrectors = 2;
    /// The step a corrector aims at from the reach α it improves: min(1, 1.5 α + 0.1).
    static constexpr double kAspiration = 1.5;
    static constexpr double kAspirationFloor = 0.1;
    /// A corrected direction is kept when it reaches this share of the way to the aim.
    static constexpr double kAcceptance = 0.1;
    /// The band the correctors keep each cone's complementarity in: [0.1, 10] × σμ.
    static constexpr double kBand = 0.1;
    /// Past programs the Coulomb fixed point mixes (Anderson): on the race's bed at rest
    /// (solver-race test) 16 programs to 10⁻¹⁰ where the plain iteration, contracting by 0.48 a
    /// program, had not arrived after 23. Where the plain iteration cycles (a filling silo's
    /// step, 2·10⁻² a program) it does not help either.
    static constexpr int kAndersonMemory = 3;
    bool m_cholmod = false;
    Eigen::CholmodSupernodalLLT<Sparse> m_supernodal;
    Eigen::VectorXd solveNewton(const Eigen::VectorXd& rhs);

    NewtonPattern m_pattern;  ///< Ŵ + R⁻²
    bool m_analysed = false;  ///< a symbolic analysis is held
    Eigen::SimplicialLDLT<Sparse> m_ldlt;
};

}  // namespace ndem
