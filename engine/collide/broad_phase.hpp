// Uniform-grid broad phase: O(N) build by counting sort into hashed cells, walked over the 27
// neighbouring cells of a point or the cells of a box. Hashing makes the grid unbounded (particles
// may fly far) without a dense cell array.
#pragma once

#include "core/types.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ndem {

class BroadPhase {
  public:
    /// Sorts the points into cells of edge `cellSize` (m). Reuses its buffers.
    void build(const std::vector<Vec3>& positions, double cellSize);

    /// The buckets of the 27 cells around p, each once, in the order the pair walk visits
    /// them; returns how many.
    int neighbourBuckets(const Vec3& p, std::array<std::uint32_t, 27>& out) const;
    /// The points of one bucket, ascending.
    template <class F>
    void forEachInBucket(std::uint32_t bucket, F&& f) const {
        for (std::int32_t k = m_start[bucket]; k < m_start[bucket + 1]; ++k)
            f(m_items[k]);
    }

    /// Which buckets a box query has visited: one per thread that queries at once.
    struct BoxStamps {
        std::vector<std::uint32_t> stamp;  ///< per bucket, the query that last visited it
        std::uint32_t query = 0;
    };
    /// Calls f(j) once for every point in the cells that overlap the box [lo, hi] (and for a
    /// few more that share their buckets).
    template <class F>
    void forEachInBox(const Vec3& lo, const Vec3& hi, F&& f) {
        forEachInBox(lo, hi, m_stamps, f);
    }
    /// The same with the caller's stamps: threads may query at once, each with its own.
    template <class F>
    void forEachInBox(const Vec3& lo, const Vec3& hi, BoxStamps& stamps, F&& f) const;

    /// Morton (z-order) key of the cell holding p, used to reorder particles for locality.
    std::uint64_t spatialKey(const Vec3& p) const;

    /// The integer coordinates of the cell holding p, and the bucket of a cell.
    std::array<std::int64_t, 3> cell(const Vec3& p) const { return cellAt(p, m_invCell); }
    std::uint32_t bucketOfCell(const std::array<std::int64_t, 3>& c) const {
        return hashCell(c[0], c[1], c[2], m_mask);
    }

    /// The cell holding p in a grid of cells 1/invCell wide.
    static std::array<std::int64_t, 3> cellAt(const Vec3& p, double invCell) {
        return {static_cast<std::int64_t>(std::floor(p.x() * invCell)),
                static_cast<std::int64_t>(std::floor(p.y() * invCell)),
                static_cast<std::int64_t>(std::floor(p.z() * invCell))};
    }
    /// The bucket of cell (x, y, z) in a grid of mask + 1 buckets.
    static std::uint32_t hashCell(std::int64_t x, std::int64_t y, std::int64_t z,
                                  std::uint32_t mask) {
        const std::uint64_t h = static_cast<std::uint64_t>(x) * 73856093ull ^
                                static_cast<std::uint64_t>(y) * 19349663ull ^
                                static_cast<std::uint64_t>(z) * 83492791ull;
        return static_cast<std::uint32_t>((h ^ (h >> 29)) & mask);
    }
    /// The buckets of the 27 cells around c in walk order (z, then y, then x, from below),
    /// repeats included.
    static std::array<std::uint32_t, 27> bucketsAround(const std::array<std::int64_t, 3>& c,
                                                       std::uint32_t mask) {
        std::array<std::uint32_t, 27> out{};
        int k = 0;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    out[k++] = hashCell(c[0] + dx, c[1] + dy, c[2] + dz, mask);
        return out;
    }
    /// The bucket mask build() uses for n points: about two buckets per point keeps chains
    /// short; a power of two makes the hash a mask.
    static std::uint32_t maskFor(size_t n) {
        return std::bit_ceil(static_cast<std::uint32_t>(std::max<size_t>(2 * n, 64))) - 1;
    }

  private:
    std::uint32_t bucketOf(const Vec3& p) const { return bucketOfCell(cell(p)); }

    double m_invCell = 1.0;
    std::uint32_t m_mask = 0;
    std::vector<std::uint32_t> m_bucketOfPoint;
    std::vector<std::int32_t> m_start;  ///< CSR offsets per bucket
    std::vector<std::int32_t> m_items;  ///< point indices grouped by bucket
    std::vector<std::int32_t> m_cursor;
    BoxStamps m_stamps;  ///< of forEachInBox without stamps of its own
};

template <class F>
void BroadPhase::forEachInBox(const Vec3& lo, const Vec3& hi, BoxStamps& stamps, F&& f) const {
    const std::array<std::int64_t, 3> a = cell(lo), b = cell(hi);
    const double cells =
        double(b[0] - a[0] + 1) * double(b[1] - a[1] + 1) * double(b[2] - a[2] + 1);
    // A box wider than the grid has buckets: every point is a candidate anyway.
    if (cells >= double(m_mask) + 1.0) {
        for (std::int32_t j : m_items)
            f(j);
        return;
    }
    std::vector<std::uint32_t>& stamp = stamps.stamp;
    if (stamp.size() != m_mask + size_t{1}) {
        stamp.assign(m_mask + size_t{1}, 0);
        stamps.query = 0;
    }
    if (++stamps.query == 0) {  // the stamps wrapped: forget them all once
        std::fill(stamp.begin(), stamp.end(), 0);
        stamps.query = 1;
    }
    for (std::int64_t z = a[2]; z <= b[2]; ++z)
        for (std::int64_t y = a[1]; y <= b[1]; ++y)
            for (std::int64_t x = a[0]; x <= b[0]; ++x) {
                const std::uint32_t bucket = hashCell(x, y, z, m_mask);
                if (stamp[bucket] == stamps.query) continue;
                stamp[bucket] = stamps.query;
                forEachInBucket(bucket, f);
            }
}

}  // namespace ndem
