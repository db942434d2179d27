// Uniform-grid broad phase: O(N) build by counting sort into hashed cells, and a pair walk
// over the 27 neighbouring cells. Hashing makes the grid unbounded (particles may fly far)
// without a dense cell array.
#pragma once

#include "core/types.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ndem {

class BroadPhase {
public:
    /// Sorts the points into cells of edge `cellSize` (m). Reuses its buffers.
    void build(const std::vector<Vec3>& positions, double cellSize);

    /// Calls f(i, j) once for every pair i < j whose cells are neighbours (and for a few
    /// more that share a hash bucket; the narrow phase rejects those by distance).
    template <class F>
    void forEachCandidatePair(const std::vector<Vec3>& positions, F&& f) const;

    /// Morton (z-order) key of the cell holding p, used to reorder particles for locality.
    std::uint64_t spatialKey(const Vec3& p) const;

    double cellSize() const { return m_cell; }

private:
    struct CellCoord {
        std::int64_t x, y, z;
    };
    CellCoord cellOf(const Vec3& p) const {
        return {static_cast<std::int64_t>(std::floor(p.x() * m_invCell)),
                static_cast<std::int64_t>(std::floor(p.y() * m_invCell)),
                static_cast<std::int64_t>(std::floor(p.z() * m_invCell))};
    }
    std::uint32_t bucketOf(std::int64_t x, std::int64_t y, std::int64_t z) const {
        const std::uint64_t h = static_cast<std::uint64_t>(x) * 73856093ull ^
                                static_cast<std::uint64_t>(y) * 19349663ull ^
                                static_cast<std::uint64_t>(z) * 83492791ull;
        return static_cast<std::uint32_t>((h ^ (h >> 29)) & m_mask);
    }

    double m_cell = 1.0, m_invCell = 1.0;
    std::uint32_t m_mask = 0;
    std::vector<std::uint32_t> m_bucketOfPoint;
    std::vector<std::int32_t> m_start;  ///< CSR offsets per bucket
    std::vector<std::int32_t> m_items;  ///< point indices grouped by bucket
    std::vector<std::int32_t> m_cursor;
};

template <class F>
void BroadPhase::forEachCandidatePair(const std::vector<Vec3>& positions, F&& f) const {
    const std::int32_t n = static_cast<std::int32_t>(positions.size());
    std::array<std::uint32_t, 27> seen{};
    for (std::int32_t i = 0; i < n; ++i) {
        const CellCoord c = cellOf(positions[i]);
        int seenCount = 0;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const std::uint32_t b = bucketOf(c.x + dx, c.y + dy, c.z + dz);
                    // Two neighbour cells can hash to one bucket: visit each bucket once.
                    bool duplicate = false;
                    for (int s = 0; s < seenCount; ++s) duplicate |= (seen[s] == b);
                    if (duplicate) continue;
                    seen[seenCount++] = b;
                    for (std::int32_t k = m_start[b]; k < m_start[b + 1]; ++k) {
                        const std::int32_t j = m_items[k];
                        if (j > i) f(i, j);
                    }
                }
    }
}

}  // namespace ndem
