// The sparse LU of a run of matrices with one pattern — the Newton systems of an interior point —
// by KLU (SuiteSparse, libsuitesparse-dev): its left-looking LU finds the pivot order at the
// first factorisation, and the later ones reuse it (klu_refactor) without the pivot search and
// the symbolic work that took most of UMFPACK's time on these small-fronted systems
// (PERFORMANCE.md, "KLU's refactorisation"). A refactorised LU whose solve leaves a backward error
// above kBackwardError is factored again with pivoting and the solve repeated, so a pivot order
// that has gone bad with the values costs one factorisation, never a wrong direction.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <klu.h>

namespace ndem {

class KluLu {
  public:
    using Matrix = Eigen::SparseMatrix<double>;  // column-major: KLU's compressed columns

    /// A diagonal pivot is taken down to this share of its column. At KLU's default, 10⁻³, the
    /// static saddle point's contact rows (diagonal Σ + G D Fᵀ, often smaller) were pivoted
    /// off the diagonal, 3.5 times the time on the biaxial steps; a small pivot c of a contact
    /// row adds Jᵀ J / c to the masses' block, a positive penalty, and the backward-error check
    /// below guards the rest.
    static constexpr double kPivotTolerance = 1e-6;
    static constexpr double kBackwardError = 1e-10;

    KluLu();
    ~KluLu();
    KluLu(const KluLu&) = delete;
    KluLu& operator=(const KluLu&) = delete;

    /// Orders `a`'s pattern (AMD); the next factor() pivots afresh. `a` compressed.
    bool analyze(const Matrix& a);
    /// Factors `a` (compressed, its pattern analyze()'s), with the last pivot order where there
    /// is one. `a` must stay alive and unchanged while solve() is used.
    bool factor(const Matrix& a);
    /// x with a x = b; false if no answer could be had.
    bool solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);

    int factorizations() const { return m_factorizations; }      ///< with pivoting
    int refactorizations() const { return m_refactorizations; }  ///< in the last pivot order

  private:
    void releaseNumeric();
    bool factorAfresh();
    double backwardError(const Eigen::VectorXd& b, const Eigen::VectorXd& x) const;

    klu_common m_common;
    klu_symbolic* m_symbolic = nullptr;
    klu_numeric* m_numeric = nullptr;
    const Matrix* m_matrix = nullptr;
    double m_largest = 0.0;  ///< the factored matrix's largest |entry|
    bool m_refactored = false;
    int m_factorizations = 0, m_refactorizations = 0;
};

}  // namespace ndem
