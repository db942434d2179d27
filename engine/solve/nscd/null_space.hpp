// The null space of H = Jᵀ (the contact rows' generalised forces): the
// self-equilibrated impulse networks, which the Delassus operator W = J M⁻¹ Jᵀ cannot see and in
// which Gauss–Seidel on W wanders (Alart 2014 Sec. 3.1). Built as Alart 2014 Sec. 5.3 does:
//
//  - "floating" grains first: a grain with one contact or none carries no self-equilibrated
//    network, so it and its contact leave H (Sec. 5.3.2; repeated, so that a chain hanging off
//    the packing goes too), and unknowns that no row moves (a frictionless sphere's rotation,
//    a disk's out-of-plane motion) leave with them;
//  - then the sparse Cholesky factor of H Hᵀ = R₁ᵀR₁ (LDLᵀ, fill-reducing order), the first
//    factor of Le Borne's representation (Alart 2014 Eq. 21, leborne-2008). The solvers need N only
//    through Z = N Nᵀ for an orthonormal N, the projector onto the null space (‖Z‖ = 1, as the
//    paper normalises it), and that is Z = I − Hᵀ(HHᵀ)⁻¹H: two products with H and two triangular
//    solves with R₁, no L and U of H₁ᵀ − R₁ and no explicit basis. (With HHᵀ + δI, δ = 10⁻¹⁰
//    of unit columns, so that mechanisms left over cannot break it: null_space.cpp.)
//
// A basis may also be taken as the null space of W itself (FCLib files carry no H; W's null
// space is H's when M is positive definite and no row is compliant): there a Householder QR
// of W with numerical rank r, whose last columns of Q span it.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <memory>
#include <vector>

namespace ndem {

struct ContactProblem;

class NullSpace {
  public:
    NullSpace();
    ~NullSpace();
    NullSpace(NullSpace&&) noexcept;
    NullSpace& operator=(NullSpace&&) noexcept;

    /// From a step's contact problem in impulses (ContactProblem::physical's rows): its friction
    /// rows (rolling rows are not in Alart's H; Z is zero on them) against the movable bodies'
    /// unknowns, with floating grains removed first (unless asked not to: the rank of the whole
    /// Hᵀ, as Alart 2014 Sec. 5.3.2 reports it).
    static NullSpace ofContacts(const ContactProblem& p, bool removeFloating = true);
    /// The null space of a symmetric W (rows × rows), for problems that carry no H.
    static NullSpace ofOperator(const Eigen::SparseMatrix<double>& w);

    int rows() const { return m_rows; }          ///< n: contact rows
    int dimension() const { return m_nullity; }  ///< columns of N (n − rank over kept rows)
    int rank() const { return m_rank; }          ///< numerical rank of the reduced Hᵀ
    int keptRows() const { return static_cast<int>(m_kept.size()); }
    int keptUnknowns() const { return m_keptColumns; }          ///< columns of the reduced Hᵀ
    int floatingBodies() const { return m_floatingBodies; }     ///< grains with no contact
    int singleContactBodies() const { return m_singleBodies; }  ///< grains removed at one
    /// Non-zeros of the sparse representation (R₁; from W, the reflectors and R).
    long nonZeros() const { return m_nonZeros; }

    /// Z x = N Nᵀ x.
    Eigen::VectorXd project(const Eigen::VectorXd& x) const;
    /// Z's diagonal blocks over the given row ranges (first row, count ≤ 3), row-major 3×3.
    std::vector<std::array<double, 9>> diagonalBlocks(const std::vector<int>& first,
                                                      const std::vector<int>& count) const;
    /// Z as a dense rows × rows matrix (full storage, Alart 2014 Sec. 5's comparison).
    Eigen::MatrixXd projector() const;

  private:
    struct Factor;
    void factor(const Eigen::SparseMatrix<double>& reduced, bool fromH);
    void projectKept(Eigen::VectorXd& kept) const;
    Eigen::VectorXd gatherKept(const Eigen::VectorXd& x) const;
    std::unique_ptr<Factor> m_factor;
    std::vector<int> m_kept;  ///< the rows the reduced Hᵀ keeps
    int m_rows = 0, m_rank = 0, m_nullity = 0, m_keptColumns = 0;
    int m_floatingBodies = 0, m_singleBodies = 0;
    long m_nonZeros = 0;
};

}  // namespace ndem
