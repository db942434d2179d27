#include "solve/convex/newton_pattern.hpp"

#include <dlfcn.h>
#include <omp.h>

#include <algorithm>
#include <atomic>

namespace ndem {

bool NewtonPattern::build(const std::vector<int>& dim, const std::vector<int>& offset,
                          const Sparse& w) {
    std::vector<Eigen::Triplet<double>> blocks;
    for (size_t c = 0; c < dim.size(); ++c) {
        const int d = dim[c], o = offset[c];
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j)
                blocks.emplace_back(o + i, o + j, 0.0);
    }
    Sparse diagonal(w.rows(), w.cols());
    diagonal.setFromTriplets(blocks.begin(), blocks.end());
    m_k = w + diagonal;
    m_k.makeCompressed();
    m_base.assign(m_k.valuePtr(), m_k.valuePtr() + m_k.nonZeros());
    m_slot.clear();
    for (const auto& t : blocks) {
        const int* begin = m_k.innerIndexPtr() + m_k.outerIndexPtr()[t.col()];
        const int* end = m_k.innerIndexPtr() + m_k.outerIndexPtr()[t.col() + 1];
        m_slot.push_back(
            static_cast<int>(std::lower_bound(begin, end, t.row()) - m_k.innerIndexPtr()));
    }
    const int* outer = m_k.outerIndexPtr();
    const int* inner = m_k.innerIndexPtr();
    const bool same =
        std::equal(outer, outer + m_k.outerSize() + 1, m_lastOuter.begin(), m_lastOuter.end()) &&
        std::equal(inner, inner + m_k.nonZeros(), m_lastInner.begin(), m_lastInner.end());
    if (!same) {
        m_lastOuter.assign(outer, outer + m_k.outerSize() + 1);
        m_lastInner.assign(inner, inner + m_k.nonZeros());
    }
    return same;
}

void setBlasThreads(int threads) {
    using Setter = void (*)(int);
    static const Setter set =
        reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    static std::atomic<int> current{0};
    threads = std::max(1, threads);
    if (set && current.exchange(threads) != threads) set(threads);
}

SerialOpenMpRegions::SerialOpenMpRegions() : m_levels(omp_get_max_active_levels()) {
    omp_set_max_active_levels(0);
}

SerialOpenMpRegions::~SerialOpenMpRegions() {
    omp_set_max_active_levels(m_levels);
}

const NewtonPattern::Sparse& NewtonPattern::assemble(const std::vector<double>& blocks) {
    std::copy(m_base.begin(), m_base.end(), m_k.valuePtr());
    for (size_t i = 0; i < m_slot.size(); ++i)
        m_k.valuePtr()[m_slot[i]] += blocks[i];
    return m_k;
}

}  // namespace ndem
