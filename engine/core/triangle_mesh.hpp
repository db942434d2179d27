// A triangle mesh in its wall's local frame, with a uniform grid for triangle lookup.
#pragma once

#include "core/types.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace ndem {

class TriangleMesh {
  public:
    std::vector<Vec3> vertices;                 ///< local frame (m)
    std::vector<std::array<int, 3>> triangles;  ///< vertex indices, counter-clockwise

    /// Builds the lookup grid; call after the geometry is final. cellSize in m (0 = automatic).
    void buildGrid(double cellSize = 0.0);

    /// Calls f(triangleIndex) once for each triangle whose cell overlaps the local box
    /// [lo, hi]; a per-triangle stamp avoids duplicates without allocation (not thread-safe).
    template <class F>
    void forEachCandidate(const Vec3& lo, const Vec3& hi, F&& f) const;

    Vec3 lowerBound() const { return m_lo; }
    Vec3 upperBound() const { return m_hi; }

  private:
    Vec3 m_lo = Vec3::Zero(), m_hi = Vec3::Zero();
    double m_cell = 1.0;
    std::array<int, 3> m_dims{1, 1, 1};
    std::vector<int> m_cellStart;           ///< CSR offsets, size cells + 1
    std::vector<int> m_cellItems;           ///< triangle indices
    mutable std::vector<unsigned> m_visit;  ///< last query stamp per triangle
    mutable unsigned m_stamp = 0;
};

template <class F>
void TriangleMesh::forEachCandidate(const Vec3& lo, const Vec3& hi, F&& f) const {
    if ((hi.array() < m_lo.array()).any() || (lo.array() > m_hi.array()).any()) return;
    std::array<int, 3> a, b;
    for (int k = 0; k < 3; ++k) {
        a[k] = std::clamp(static_cast<int>((lo[k] - m_lo[k]) / m_cell), 0, m_dims[k] - 1);
        b[k] = std::clamp(static_cast<int>((hi[k] - m_lo[k]) / m_cell), 0, m_dims[k] - 1);
    }
    ++m_stamp;
    for (int z = a[2]; z <= b[2]; ++z)
        for (int y = a[1]; y <= b[1]; ++y)
            for (int x = a[0]; x <= b[0]; ++x) {
                const int c = (z * m_dims[1] + y) * m_dims[0] + x;
                for (int i = m_cellStart[c]; i < m_cellStart[c + 1]; ++i) {
                    const int t = m_cellItems[i];
                    if (m_visit[t] == m_stamp) continue;
                    m_visit[t] = m_stamp;
                    f(t);
                }
            }
}

}  // namespace ndem
