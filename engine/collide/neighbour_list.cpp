#include "collide/neighbour_list.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {
constexpr double kSpeedSteps = 3.0;

/// The cell itself and the 13 neighbours that follow it in (z, y, x) order.
constexpr std::array<std::array<int, 3>, 14> kForwardCells{{{0, 0, 0},
                                                            {1, 0, 0},
                                                            {-1, 1, 0},
                                                            {0, 1, 0},
                                                            {1, 1, 0},
                                                            {-1, -1, 1},
                                                            {0, -1, 1},
                                                            {1, -1, 1},
                                                            {-1, 0, 1},
                                                            {0, 0, 1},
                                                            {1, 0, 1},
                                                            {-1, 1, 1},
                                                            {0, 1, 1},
                                                            {1, 1, 1}}};
}  // namespace

double NeighbourList::extendedReach(size_t i, size_t j) const {
    return m_radius[i] + m_radius[j] + m_marginFraction * std::min(m_radius[i], m_radius[j]) +
           m_extension[i] + m_extension[j];
}

bool NeighbourList::holds(const ParticleStore& p, const std::vector<double>& speed,
                          const NeighbourParams& params) const {
    const size_t n = p.size();
    if (n != m_position.size() || params.marginFraction != m_marginFraction || p.id != m_id ||
        p.radius != m_radius)
        return false;
    // A relative allowance for the round-off of the distances the proof compares.
    constexpr double kSafety = 1.0 - 1e-9;
    for (size_t i = 0; i < n; ++i) {
        const double left = kSafety * m_extension[i] - params.timeStep * speed[i];
        if (left < 0.0 || (p.position[i] - m_position[i]).squaredNorm() > left * left) return false;
    }
    return true;
}

void NeighbourList::build(const ParticleStore& p, const std::vector<double>& speed,
                          const NeighbourParams& params) {
    ++m_builds;
    const size_t n = p.size();
    m_position = p.position;
    m_radius = p.radius;
    m_id = p.id;
    m_marginFraction = params.marginFraction;
    m_extension.resize(n);
    double rMax = 0.0;
    for (size_t i = 0; i < n; ++i) {
        // A grain flying at constant speed keeps its lists for a few steps, not one.
        m_extension[i] = 0.5 * params.skinFraction * p.radius[i] + kSpeedSteps * params.timeStep * speed[i];
        rMax = std::max(rMax, p.radius[i]);
    }
    // Pair (i, j) is listed within extendedReach(i, j) <= e_i + e_j. Slow particles (closing
    // at most a quarter radius per step) pair on a grid of cells 2 e wide; the few fast ones
    // search a box as wide as their own reach, so that one grain falling fast does not make
    // every resting grain test thousands of neighbours.
    const double cut = (1.0 + params.marginFraction + 0.5 * params.skinFraction + 0.25) * rMax;
    double slowMax = 0.0, allMax = 0.0;
    m_fast.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        const double e = (1.0 + params.marginFraction) * p.radius[i] + m_extension[i];
        m_fast[i] = e > cut;
        if (!m_fast[i]) slowMax = std::max(slowMax, e);
        allMax = std::max(allMax, e);
    }
    m_grid.build(p.position, slowMax > 0.0 ? 2.0 * slowMax : std::max(allMax, 1e-300));

    m_pairs.clear();
    auto consider = [&](std::int32_t i, std::int32_t j) {
        const double reach = extendedReach(i, j);
        if ((p.position[j] - p.position[i]).squaredNorm() < reach * reach)
            m_pairs.emplace_back(std::min(i, j), std::max(i, j));
    };
    m_cellOf.resize(n);
    for (size_t i = 0; i < n; ++i) m_cellOf[i] = m_grid.cell(p.position[i]);
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(n); ++i) {
        if (m_fast[i]) {
            const Vec3 ext = Vec3::Constant((1.0 + params.marginFraction) * p.radius[i] +
                                            m_extension[i] + allMax);
            m_grid.forEachInBox(p.position[i] - ext, p.position[i] + ext, [&](std::int32_t j) {
                // Two fast particles find each other twice: keep the pair from the smaller.
                if (j != i && !(m_fast[j] && j < i)) consider(i, j);
            });
            continue;
        }
        // Half the shell: i's own cell (j > i) and the 13 cells after it; every slow pair once.
        // A bucket also holds the points of other cells that share its hash: only the points
        // of the cell visited count.
        const std::array<std::int64_t, 3>& c = m_cellOf[i];
        for (const auto& d : kForwardCells) {
            const std::array<std::int64_t, 3> visited{c[0] + d[0], c[1] + d[1], c[2] + d[2]};
            const bool own = d[0] == 0 && d[1] == 0 && d[2] == 0;
            m_grid.forEachInBucket(m_grid.bucketOfCell(visited), [&](std::int32_t j) {
                if (m_cellOf[j] == visited && !m_fast[j] && (!own || j > i)) consider(i, j);
            });
        }
    }

    // CSR by the smaller index, each list ascending: the contact order is the storage order of
    // the pairs, whatever the grid or the moment of the build.
    m_start.assign(n + 1, 0);
    for (const auto& [lo, hi] : m_pairs) ++m_start[lo + 1];
    for (size_t i = 0; i < n; ++i) m_start[i + 1] += m_start[i];
    m_items.resize(m_pairs.size());
    std::vector<std::int32_t>& cursor = m_cursor;
    cursor.assign(m_start.begin(), m_start.end() - 1);
    for (const auto& [lo, hi] : m_pairs) m_items[cursor[lo]++] = hi;
    for (size_t i = 0; i < n; ++i) std::sort(m_items.begin() + m_start[i], m_items.begin() + m_start[i + 1]);
}

}  // namespace ndem
