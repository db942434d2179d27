#include "solve/convex/klu_lu.hpp"

namespace ndem {

KluLu::KluLu() {
    klu_defaults(&m_common);
    m_common.tol = kPivotTolerance;
    m_common.btf = 0;  // no block triangular form: these systems are one strong component
}

KluLu::~KluLu() {
    releaseNumeric();
    if (m_symbolic) klu_free_symbolic(&m_symbolic, &m_common);
}

void KluLu::releaseNumeric() {
    if (m_numeric) klu_free_numeric(&m_numeric, &m_common);
    m_numeric = nullptr;
}

bool KluLu::analyze(const Matrix& a) {
    releaseNumeric();
    if (m_symbolic) klu_free_symbolic(&m_symbolic, &m_common);
    m_matrix = nullptr;
    if (a.rows() != a.cols() || !a.isCompressed()) return false;
    // KLU's arguments are not const, nor written.
    m_symbolic = klu_analyze(static_cast<int>(a.rows()), const_cast<int*>(a.outerIndexPtr()),
                             const_cast<int*>(a.innerIndexPtr()), &m_common);
    return m_symbolic != nullptr;
}

bool KluLu::factorAfresh() {
    releaseNumeric();
    m_numeric = klu_factor(const_cast<int*>(m_matrix->outerIndexPtr()),
                           const_cast<int*>(m_matrix->innerIndexPtr()),
                           const_cast<double*>(m_matrix->valuePtr()), m_symbolic, &m_common);
    m_refactored = false;
    ++m_factorizations;
    return m_numeric != nullptr;
}

bool KluLu::factor(const Matrix& a) {
    if (!m_symbolic || !a.isCompressed()) return false;
    m_matrix = &a;
    m_largest = a.nonZeros() > 0 ? Eigen::Map<const Eigen::VectorXd>(a.valuePtr(), a.nonZeros())
                                       .lpNorm<Eigen::Infinity>()
                                 : 0.0;
    if (m_numeric &&
        klu_refactor(const_cast<int*>(a.outerIndexPtr()), const_cast<int*>(a.innerIndexPtr()),
                     const_cast<double*>(a.valuePtr()), m_symbolic, m_numeric, &m_common)) {
        m_refactored = true;
        ++m_refactorizations;
        return true;
    }
    return factorAfresh();
}

double KluLu::backwardError(const Eigen::VectorXd& b, const Eigen::VectorXd& x) const {
    const double scale = m_largest * x.lpNorm<Eigen::Infinity>() + b.lpNorm<Eigen::Infinity>();
    return scale > 0.0 ? ((*m_matrix) * x - b).lpNorm<Eigen::Infinity>() / scale : 0.0;
}

bool KluLu::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
    if (!m_numeric || !m_matrix) return false;
    for (;;) {
        x = b;
        if (!klu_solve(m_symbolic, m_numeric, static_cast<int>(x.size()), 1, x.data(), &m_common))
            return false;
        const double error = x.allFinite() ? backwardError(b, x) : 1.0;
        if (error <= kBackwardError) return true;
        if (!m_refactored) return x.allFinite();  // pivoted: as good as this LU gets
        if (!factorAfresh()) return false;
    }
}

}  // namespace ndem
