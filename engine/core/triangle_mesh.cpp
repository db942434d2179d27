#include "core/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

void TriangleMesh::buildGrid(double cellSize) {
    m_lo = Vec3::Constant(1e300);
    m_hi = Vec3::Constant(-1e300);
    for (const Vec3& v : vertices) {
        m_lo = m_lo.cwiseMin(v);
        m_hi = m_hi.cwiseMax(v);
    }
    if (vertices.empty()) m_lo = m_hi = Vec3::Zero();
    if (cellSize <= 0.0) {
        // Mean triangle extent keeps a handful of triangles per cell.
        double sum = 0.0;
        for (const auto& t : triangles) {
            Vec3 lo = vertices[t[0]].cwiseMin(vertices[t[1]]).cwiseMin(vertices[t[2]]);
            Vec3 hi = vertices[t[0]].cwiseMax(vertices[t[1]]).cwiseMax(vertices[t[2]]);
            sum += (hi - lo).maxCoeff();
        }
        cellSize = triangles.empty() ? 1.0 : std::max(sum / triangles.size(), 1e-6);
    }
    m_cell = cellSize;
    for (int k = 0; k < 3; ++k)
        m_dims[k] = std::clamp(static_cast<int>(std::ceil((m_hi[k] - m_lo[k]) / m_cell)), 1, 512);
    const size_t cells = static_cast<size_t>(m_dims[0]) * m_dims[1] * m_dims[2];
    std::vector<std::vector<int>> lists(cells);
    for (size_t t = 0; t < triangles.size(); ++t) {
        const auto& tri = triangles[t];
        Vec3 lo = vertices[tri[0]].cwiseMin(vertices[tri[1]]).cwiseMin(vertices[tri[2]]);
        Vec3 hi = vertices[tri[0]].cwiseMax(vertices[tri[1]]).cwiseMax(vertices[tri[2]]);
        std::array<int, 3> a, b;
        for (int k = 0; k < 3; ++k) {
            a[k] = std::clamp(static_cast<int>((lo[k] - m_lo[k]) / m_cell), 0, m_dims[k] - 1);
            b[k] = std::clamp(static_cast<int>((hi[k] - m_lo[k]) / m_cell), 0, m_dims[k] - 1);
        }
        for (int z = a[2]; z <= b[2]; ++z)
            for (int y = a[1]; y <= b[1]; ++y)
                for (int x = a[0]; x <= b[0]; ++x)
                    lists[(z * m_dims[1] + y) * m_dims[0] + x].push_back(static_cast<int>(t));
    }
    m_cellStart.assign(cells + 1, 0);
    m_cellItems.clear();
    for (size_t c = 0; c < cells; ++c) {
        m_cellItems.insert(m_cellItems.end(), lists[c].begin(), lists[c].end());
        m_cellStart[c + 1] = static_cast<int>(m_cellItems.size());
    }
    m_visit.assign(triangles.size(), 0u);
    m_stamp = 0;
}

}  // namespace ndem
