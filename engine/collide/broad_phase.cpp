#include "collide/broad_phase.hpp"

#include <algorithm>
#include <bit>

namespace ndem {

void BroadPhase::build(const std::vector<Vec3>& positions, double cellSize) {
    m_invCell = 1.0 / cellSize;
    const size_t n = positions.size();
    m_mask = maskFor(n);
    const std::uint32_t buckets = m_mask + 1;
    m_start.assign(buckets + 1, 0);
    m_bucketOfPoint.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const std::uint32_t b = bucketOf(positions[i]);
        m_bucketOfPoint[i] = b;
        ++m_start[b + 1];
    }
    for (size_t b = 1; b < m_start.size(); ++b)
        m_start[b] += m_start[b - 1];
    m_items.resize(n);
    // Fill from the back so each bucket lists its points in ascending index order.
    m_cursor.assign(m_start.begin() + 1, m_start.end());
    for (size_t i = n; i-- > 0;)
        m_items[--m_cursor[m_bucketOfPoint[i]]] = static_cast<std::int32_t>(i);
}

int BroadPhase::neighbourBuckets(const Vec3& p, std::array<std::uint32_t, 27>& out) const {
    const std::array<std::uint32_t, 27> around = bucketsAround(cell(p), m_mask);
    int count = 0;
    for (std::uint32_t b : around) {
        // Two neighbour cells can hash to one bucket: list each bucket once.
        bool duplicate = false;
        for (int s = 0; s < count; ++s)
            duplicate |= (out[s] == b);
        if (!duplicate) out[count++] = b;
    }
    return count;
}

std::uint64_t BroadPhase::spatialKey(const Vec3& p) const {
    // Interleave 21 bits per axis (cells offset to be non-negative around the origin).
    auto spread = [](std::uint64_t v) {
        v &= 0x1fffff;
        v = (v | v << 32) & 0x1f00000000ffffull;
        v = (v | v << 16) & 0x1f0000ff0000ffull;
        v = (v | v << 8) & 0x100f00f00f00f00full;
        v = (v | v << 4) & 0x10c30c30c30c30c3ull;
        v = (v | v << 2) & 0x1249249249249249ull;
        return v;
    };
    const std::array<std::int64_t, 3> c = cell(p);
    const std::int64_t offset = 1 << 20;
    return spread(static_cast<std::uint64_t>(c[0] + offset)) |
           spread(static_cast<std::uint64_t>(c[1] + offset)) << 1 |
           spread(static_cast<std::uint64_t>(c[2] + offset)) << 2;
}

}  // namespace ndem
