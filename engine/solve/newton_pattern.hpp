// The interior-point methods' Newton matrix: the Delassus operator plus one full block per
// contact (the barrier's, which fills it even where W has zeros). Its structure is fixed for a
// program; each iteration refills the values through the slots. Whether the structure equals
// the last program's is kept, so that a solver reuses its symbolic analysis across steps whose
// contacts have not changed.
#pragma once

#include <Eigen/SparseCore>

#include <vector>

namespace ndem {

/// Sets OpenBLAS's thread count where OpenBLAS is the BLAS that CHOLMOD and UMFPACK call
/// (Debian's default alternative; with another BLAS there is nothing to set): the step's, so
/// that runs side by side do not each start a BLAS thread per core and spin against each other.
void setBlasThreads(int threads);

class NewtonPattern {
  public:
    using Sparse = Eigen::SparseMatrix<double>;

    /// W's structure plus a dim[c] × dim[c] block at offset[c]; true when the structure is the
    /// one of the last call (the symbolic analysis of the last program holds).
    bool build(const std::vector<int>& dim, const std::vector<int>& offset, const Sparse& w);
    /// The matrix W + blocks; `blocks` holds each contact's block row-major, in contact order.
    const Sparse& assemble(const std::vector<double>& blocks);
    const Sparse& matrix() const { return m_k; }

  private:
    Sparse m_k;
    std::vector<double> m_base;  ///< W's values in m_k's structure
    std::vector<int> m_slot;     ///< value index of each block entry
    std::vector<int> m_lastOuter, m_lastInner;
};

}  // namespace ndem
