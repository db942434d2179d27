// One step's frictional contact problem in explicit form, assembled once from the rows the
// PGS sweeps, for solvers that need the matrices (the interior-point method, exports):
//
//   v = v* + M⁻¹ Jᵀ λ,   y = J v + Σ λ − b,   λ_c ∈ K_c,   y_c ∈ K_c*,   λ_cᵀ y_c = 0,
//
// per contact c the rows normal, t1, t2 of SolverContact (normal and t1 in the plane: a 2D
// scene's t2 is the plane's normal, where nothing moves; the normal row Hertz-scaled, its
// impulse in row units), K_c = {‖λ_t‖ ≤ μ' λ_n} with μ' = μ s, K_c* = {y_n ≥ μ' ‖y_t‖}: the
// associated sliding rule of krabbenhoft-2012 Sec. 3.2 (a sliding contact separates at μ'‖y_t‖,
// the dilation the paper shows vanishes with the time step). A frictionless contact keeps
// its normal row only. v* is the velocity the bodies would take without these contacts.
// With ProblemForm::rolling, a contact with rolling resistance keeps its rolling rows after
// those (three in space, the one about the plane's normal in the plane; LocalProblem).
#pragma once

#include "solve/rows/local_problem.hpp"
#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <span>
#include <vector>

namespace ndem {

/// A wall that moves along one direction as an unknown of the problem: a servo wall of the
/// static formulation (krabbenhoft-2012 Sec. 5.2: the platen's displacement is the multiplier
/// of its force), with a mass and the velocity it would take without its contacts.
struct Slider {
    Vec3 direction = Vec3::UnitZ();  ///< unit, world
    double invMass = 0.0;            ///< 1/m (1/kg)
    double freeVelocity = 0.0;       ///< v* along direction (m/s)
};

/// Which rows of each contact the problem keeps.
struct ProblemForm {
    int dimension = 3;              ///< 2: contacts in the x–z plane keep normal and t1 only
    bool tangentialAlways = false;  ///< keep the tangential rows without friction (FCLib)
    bool rolling = false;           ///< keep the rolling rows (the interior-point methods)
};

struct ContactProblem {
    using Sparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

    /// Unknowns: six per body that can move (v then ω), in this order of solver bodies.
    std::vector<int> movableBody;  ///< solver body index of each movable body
    std::vector<int> unknownOf;    ///< per solver body: its movable index, or −1
    Sparse M;                      ///< mass matrix, 6×6 blocks (kg, kg m²)
    Sparse invM;                   ///< its inverse
    Eigen::VectorXd vFree;         ///< v* (m/s, rad/s)

    /// Contacts: the row each came from, its cone's dimension (1, 2 or 3) and first row.
    std::vector<int> contactRow;
    std::vector<int> bodyA, bodyB;  ///< movable index of the contact's bodies, or −1
    std::vector<int> dim;
    std::vector<int> offset;
    std::vector<double> mu;            ///< μ' = μ s (0 for a frictionless contact)
    std::vector<double> scale;         ///< the normal row's Hertz scale s (r_n = s λ_n)
    std::vector<int> rolling;          ///< rolling rows after the contact's dim rows (0, 1 or 3)
    std::vector<double> rollingLimit;  ///< L = μ_r R* s: ‖λ_r‖ ≤ L λ_n in row units
    Sparse J;                          ///< rows × 6·bodies
    Eigen::VectorXd sigma;             ///< Σ per row (regularisation, m/(N s))
    Eigen::VectorXd b;                 ///< b per row (bias: gap and wall velocity, m/s)
    Eigen::VectorXd invD;              ///< the PGS row's 1/D, for its residual measure

    int rows() const { return static_cast<int>(b.size()); }
    int contacts() const { return static_cast<int>(dim.size()); }
    int rowsOf(int c) const {
        return dim[static_cast<size_t>(c)] + rolling[static_cast<size_t>(c)];
    }

    /// From the rows of one solve and the bodies they act on. The bodies' velocities may
    /// already hold the rows' warm-start impulses: they are taken out of v*.
    static ContactProblem fromRows(std::span<const SolverContact> rows,
                                   std::span<const SolverBody> bodies, ProblemForm form = {});

    /// Appends one unknown per slider after the bodies' six: contact c (of this problem)
    /// with contactSlider[c] = k ≥ 0 has its B side (a wall) moving with slider k; its rows
    /// must have been built with the wall at rest.
    void appendSliders(std::span<const SolverContact> rows, std::span<const Slider> sliders,
                       std::span<const int> contactSlider);
    int sliders() const {
        return static_cast<int>(vFree.size()) - 6 * static_cast<int>(movableBody.size());
    }

    /// v* + M⁻¹ Jᵀ λ.
    Eigen::VectorXd velocities(const Eigen::VectorXd& lambda) const;
    /// y = J v + Σ λ − b for the velocities v that λ gives.
    Eigen::VectorXd constraintVelocity(const Eigen::VectorXd& lambda) const;
    /// The local (Delassus) form: W = J M⁻¹ Jᵀ + Σ and q = J v* − b, so that y = W λ + q.
    Sparse delassus() const;
    Eigen::VectorXd freeConstraintVelocity() const;
    /// The local form in row units (cones ‖λ_t‖ ≤ μ' λ_n), as the solvers take it.
    LocalProblem local() const;
    /// The local form in impulses and velocities (r = S λ, u = S⁻¹ y, S = diag(s, 1, 1) per
    /// contact, cones with the material's μ), as FCLib files carry it; frictionless contacts
    /// keep their tangential rows only with ProblemForm::tangentialAlways.
    LocalProblem physical() const;

    /// The rows' multipliers in this problem's order (the warm start's, when it is on).
    Eigen::VectorXd gather(std::span<const SolverContact> rows) const;
    /// Writes λ into the rows and v into the bodies.
    void store(const Eigen::VectorXd& lambda, std::span<SolverContact> rows,
               std::span<SolverBody> bodies) const;
    /// Writes λ into the rows and the given velocities of the unknowns into the bodies (a
    /// solver that keeps them as unknowns of their own: StaticLcp).
    void store(const Eigen::VectorXd& lambda, const Eigen::VectorXd& v,
               std::span<SolverContact> rows, std::span<SolverBody> bodies) const;
};

/// The residual one projected Gauss–Seidel update of each row would remove, |Δλ_j| D_j, at λ
/// and its velocities, rows taken one by one without applying (so the same measure as
/// PgsResult::residual for any solver's answer).
struct ProblemResidual {
    double mean = 0.0, max = 0.0, normal = 0.0;
};
ProblemResidual pgsResidual(const ContactProblem& p, const Eigen::VectorXd& lambda);

}  // namespace ndem
