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

/// While one lives, OpenMP regions that this thread opens run on it alone (OpenMP 5's
/// max-active-levels is the thread's own). CHOLMOD's supernodal factorisation (Debian's
/// SuiteSparse 5.12) opens a team of four for each supernode's copy loops whatever the run's
/// thread count asks; on two cores the team's wake-ups took a fifth of a 5 000-disk static step
/// (docs/PERFORMANCE.md). Its dense work is OpenBLAS's, which setBlasThreads sizes.
class SerialOpenMpRegions {
  public:
    SerialOpenMpRegions();
    ~SerialOpenMpRegions();
    SerialOpenMpRegions(const SerialOpenMpRegions&) = delete;
    SerialOpenMpRegions& operator=(const SerialOpenMpRegions&) = delete;

  private:
    int m_levels;
};

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
