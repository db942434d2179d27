// The frictional contact problem in local form, the form FCLib exchanges and Siconos solves:
//
//   u = W r + q,   r_c ∈ K_c = {‖r_t‖ ≤ μ_c r_n},   û_c = u_c + μ_c ‖u_t‖ e_n ∈ K_c*,   r_c ⊥ û_c
//
// per contact c (rows normal, t1, t2 in space, normal and t in the plane; a contact of one row is
// frictionless). With the term
// μ‖u_t‖ this is Coulomb's law (De Saxcé's bipotential form); without it, the associated law
// of krabbenhoft-2012 Sec. 3.2, a convex cone program.
//
// A contact may carry rolling rows after its friction rows (the interior-point methods take
// them; FCLib has none): in space the relative angular velocity about t1, t2 and n, in the
// plane about the plane's normal, with the moments bounded by the rolling limit L_c times the
// normal reaction, ‖(m₁, m₂)‖ ≤ L_c r_n and |m_n| ≤ L_c r_n (wang-servin-berglund Eq. 28–32).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <string>
#include <vector>

namespace ndem {

struct LocalProblem {
    Eigen::SparseMatrix<double> W;  ///< Delassus operator, rows × rows (symmetric, PSD)
    Eigen::VectorXd q;              ///< free local velocity
    std::vector<int> dim;     ///< rows of each contact: 3 (space), 2 (plane) or 1 (normal only)
    std::vector<int> offset;  ///< first row of each contact
    std::vector<double> mu;   ///< friction coefficient of each contact
    /// Rolling rows of each contact after its dim[c] rows: 0, 1 (the plane) or 3 (space);
    /// empty: none anywhere.
    std::vector<int> rolling;
    std::vector<double> rollingLimit;  ///< L_c of each contact, in the normal row's units

    int rows() const { return static_cast<int>(q.size()); }
    int rollingRows(int c) const { return rolling.empty() ? 0 : rolling[static_cast<size_t>(c)]; }
    /// All rows of contact c: friction then rolling.
    int rowsOf(int c) const { return dim[static_cast<size_t>(c)] + rollingRows(c); }
    int contacts() const { return static_cast<int>(dim.size()); }
    /// Empty when well formed, else what is wrong (sizes, negative μ, rows of 4, rolling rows,
    /// which only the interior-point methods take).
    std::string check() const;
};

/// Siconos' error measure of a Coulomb solution (fc3d_compute_error): √Σ_c ‖r_c −
/// proj_{K_c}(r_c − û_c)‖², relative to ‖q‖ when ‖q‖ > 0, with u = W r + q.
/// With `dilation` (ν_c ≤ μ_c per contact, in the normal row's units) the law is the
/// non-associated rule of krabbenhoft-2012 Sec. 4.1, a sliding contact opening at ν‖u_t‖:
/// û = u + (μ − ν)‖u_t‖ e_n (ν = 0 Coulomb's law, ν = μ the associated rule).
double coulombError(const LocalProblem& p, const Eigen::VectorXd& r,
                    const std::vector<double>& dilation = {});

/// The same measure at the velocities u a solver keeps up to date itself (u = W r + q up to
/// its round-off), which spares the product with W.
double coulombErrorAt(const LocalProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                      const std::vector<double>& dilation = {});

}  // namespace ndem
