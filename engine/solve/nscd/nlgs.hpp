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

#include "solve/rows/local_problem.hpp"
#include "solve/rows/sweep_observer.hpp"

#include <array>
#include <functional>
#include <memory>
#include <vector>

namespace ndem {

/// A regularising term ωZ of W̃ = W + ωZ that the sweep takes by Jacobi, never stored
/// (Alart 2014 Alg. 7, NLGS-Jac): its product and its diagonal blocks, one per contact.
struct NlgsJacobiTerm {
    std::function<Eigen::VectorXd(const Eigen::VectorXd&)> times;  ///< x ↦ ω Z x
    std::vector<std::array<double, 9>> diagonal;                   ///< ω Z_αα, row-major 3×3
};

struct NlgsOptions {
    int maxIterations = 150;  ///< sweeps (the paper caps them at 150 in Sec. 2.3)
    double tolerance = 1e-3;  ///< Eq. 10's relative error
    /// Stop on Siconos' error measure (coulombError, FCLib's) instead of Eq. 10's.
    bool coulombStop = false;
    std::vector<double>* errorHistory = nullptr;  ///< if set: the error after each sweep
    const NlgsJacobiTerm* jacobi = nullptr;       ///< W̃ = p.W + ωZ with ωZ by Jacobi
    const SweepObserver* observe = nullptr;       ///< after each sweep, with r; true stops
};

struct NlgsResult {
    int iterations = 0;
    double error = 0.0;  ///< Eq. 10 (or coulombError with coulombStop) after the last sweep
    bool converged = false;
};

/// The sweeps one at a time, for methods that change the right-hand side between them
/// (Alart 2014 Alg. 3). Keeps p and jacobi by reference.
class NlgsSweeper {
  public:
    NlgsSweeper(const LocalProblem& p, const NlgsJacobiTerm* jacobi = nullptr);
    ~NlgsSweeper();
    /// The right-hand side q (u = W̃ r + q) and the velocities r gives.
    void start(const Eigen::VectorXd& r, const Eigen::VectorXd& q);
    /// One sweep over the contacts; returns Eq. 10's error over `scale` (1 if 0).
    double sweep(Eigen::VectorXd& r, double scale);

  private:
    struct Blocks;
    const LocalProblem& m_p;
    Eigen::SparseMatrix<double> m_w;
    const NlgsJacobiTerm* m_jacobi;
    std::unique_ptr<Blocks> m_blocks;
    Eigen::VectorXd m_u, m_seen, m_z;
};

NlgsResult solveNlgs(const LocalProblem& p, Eigen::VectorXd& r, const NlgsOptions& options);

}  // namespace ndem
