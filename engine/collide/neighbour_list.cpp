#include "collide/neighbour_list.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {
/// Steps of its own speed a grain's extension covers, beyond the skin. One, the least that
/// keeps the lists complete (e_i ≥ h|v_i|): in a dense falling cloud a list holds every grain
/// within 2(r + e), so its length grows as the cube of e, and three steps' worth made the
/// live silo's collapse filter several hundred listed partners per grain and step; with one,
/// a fast grain's lists last a step and the detection of its first 2 s costs a fifth less
/// (docs/PERFORMANCE.md). The contacts are the same whatever this is.
constexpr double kSpeedSteps = 1.0;
/// Escaped grains beyond which the grid is searched again.
constexpr size_t kMaxEscaped = 256;

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

bool NeighbourList::markEscaped(const ParticleStore& p, const std::vector<double>& speed,
                                const NeighbourParams& params) {
    const size_t n = p.size(), built = m_position.size();
    // Slots past the end (grains removed since the search) count as escaped for the lists
    // that still name them, but are no grains to pair.
    m_escaped.assign(std::max(n, built), 0);
    for (size_t i = n; i < built; ++i)
        m_escaped[i] = 1;
    m_escapedList.clear();
    // A relative allowance for the round-off of the distances the proof compares.
    constexpr double kSafety = 1.0 - 1e-9;
    for (size_t i = 0; i < n; ++i) {
        // A slot that holds another grain than at the search (a removal moved the last grain
        // into it, an emitter appended one) or a grain of another size escapes: its pairs are
        // found by the box query, the lists' entries for the slot are skipped.
        bool out = i >= built || p.id[i] != m_id[i] || p.radius[i] != m_radius[i];
        if (!out) {
            const double left = kSafety * m_extension[i] - params.timeStep * speed[i];
            out = left < 0.0 || (p.position[i] - m_position[i]).squaredNorm() > left * left;
        }
        if (out) {
            m_escaped[i] = 1;
            m_escapedList.push_back(static_cast<std::int32_t>(i));
        }
    }
    // Each escaped grain costs a box query per step and pairs with every other escaped one:
    // past a few, one search of the grid is cheaper. So is it once the escaped grains of all
    // steps since the search add up to the grains (a bed where rattlers escape one by one and
    // stay out would otherwise pay for them at every step).
    const size_t escaped = m_escapedList.size();
    m_escapedSteps += escaped;
    return escaped <= kMaxEscaped && 16 * escaped <= n + 64 && m_escapedSteps <= n;
}

void NeighbourList::update(const ParticleStore& p, const std::vector<double>& speed,
                           const NeighbourParams& params,
                           const std::function<void()>& beforeSearch) {
    if (!m_position.empty() && params.marginFraction == m_marginFraction &&
        markEscaped(p, speed, params)) {
        findEscapedPairs(p, speed, params);
        return;
    }
    if (beforeSearch) beforeSearch();
    build(p, speed, params);
    m_escaped.assign(p.size(), 0);
    m_escapedList.clear();
    m_extraPairs.clear();
    group(m_extraPairs, p.size(), m_extraStart, m_extraItems, m_cursor);
}

void NeighbourList::findEscapedPairs(const ParticleStore& p, const std::vector<double>& speed,
                                     const NeighbourParams& params) {
    const size_t n = p.size(), built = m_position.size();
    m_extraPairs.clear();
    if (m_escapedList.empty()) {
        // Nothing escaped (a resting bed, step after step): the lists of extra pairs stay
        // empty, and are only resized to the store.
        if (m_extraStart.size() != n + 1 || !m_extraItems.empty()) {
            m_extraStart.assign(n + 1, 0);
            m_extraItems.clear();
        }
        return;
    }
    double rMax = 0.0;
    for (double r : p.radius)
        rMax = std::max(rMax, r);
    const double m = params.marginFraction, h = params.timeStep;
    for (size_t a = 0; a < m_escapedList.size(); ++a) {
        const std::int32_t e = m_escapedList[a];
        // A grain j that has not escaped lies within e_j ≤ e_max of its place in the grid,
        // and h|v_j| ≤ e_j: a partner within reach of e sits in this box there.
        const double q = (1.0 + m) * p.radius[e] + rMax + h * speed[e] + 2.0 * m_extensionMax;
        const Vec3 ext = Vec3::Constant(q);
        m_grid.forEachInBox(p.position[e] - ext, p.position[e] + ext, [&](std::int32_t j) {
            if (static_cast<size_t>(j) < built && !m_escaped[j])
                m_extraPairs.emplace_back(std::min(e, j), std::max(e, j));
        });
        for (size_t b = a + 1; b < m_escapedList.size(); ++b) {
            const std::int32_t f = m_escapedList[b];
            // 1 % above the contact reach: the detection decides exactly.
            const double reach =
                1.01 * (p.radius[e] + p.radius[f] + m * std::min(p.radius[e], p.radius[f]) +
                        h * (speed[e] + speed[f]));
            if ((p.position[f] - p.position[e]).squaredNorm() < reach * reach)
                m_extraPairs.emplace_back(e, f);  // e < f: the list is ascending
        }
    }
    group(m_extraPairs, n, m_extraStart, m_extraItems, m_cursor);
}

void NeighbourList::group(const std::vector<std::pair<std::int32_t, std::int32_t>>& pairs, size_t n,
                          std::vector<std::int32_t>& start, std::vector<std::int32_t>& items,
                          std::vector<std::int32_t>& cursor, int threads) {
    start.assign(n + 1, 0);
    for (const auto& [lo, hi] : pairs)
        ++start[lo + 1];
    for (size_t i = 0; i < n; ++i)
        start[i + 1] += start[i];
    items.resize(pairs.size());
    cursor.assign(start.begin(), start.end() - 1);
    for (const auto& [lo, hi] : pairs)
        items[cursor[lo]++] = hi;
    // Each list ascending; most are empty or hold one (the escaped grains' lists).
    parallelChunks(static_cast<int>(n), 256,
                   parallel::threadsFor(static_cast<int>(n), 2000, threads),
                   [&](int begin, int end) {
                       for (int i = begin; i < end; ++i)
                           if (start[i + 1] - start[i] > 1)
                               std::sort(items.begin() + start[i], items.begin() + start[i + 1]);
                   });
}

void NeighbourList::build(const ParticleStore& p, const std::vector<double>& speed,
                          const NeighbourParams& params) {
    ++m_builds;
    m_escapedSteps = 0;
    const size_t n = p.size();
    m_position = p.position;
    m_radius = p.radius;
    m_id = p.id;
    m_marginFraction = params.marginFraction;
    m_extension.resize(n);
    double rMax = 0.0;
    for (size_t i = 0; i < n; ++i) {
        m_extension[i] =
            0.5 * params.skinFraction * p.radius[i] + kSpeedSteps * params.timeStep * speed[i];
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
    m_extensionMax = 0.0;
    for (double e : m_extension)
        m_extensionMax = std::max(m_extensionMax, e);
    m_grid.build(p.position, slowMax > 0.0 ? 2.0 * slowMax : std::max(allMax, 1e-300));

    auto consider = [&](std::int32_t i, std::int32_t j, auto& out) {
        const double reach = extendedReach(i, j);
        if ((p.position[j] - p.position[i]).squaredNorm() < reach * reach)
            out.emplace_back(std::min(i, j), std::max(i, j));
    };
    const int threads = parallel::threadsFor(static_cast<int>(n), 2000, params.threads);
    m_cellOf.resize(n);
    parallelFor(static_cast<int>(n), threads, [&](int begin, int end) {
        for (int i = begin; i < end; ++i)
            m_cellOf[i] = m_grid.cell(p.position[i]);
    });
    // Every grain on some thread, each thread into its own pair list and with its own box
    // stamps; group() sorts each grain's list, so the lists do not depend on the thread count
    // or the order the pairs come in.
    const size_t teams = std::max<size_t>(m_threadPairs.size(), threads);
    m_threadPairs.resize(teams);
    m_threadStamps.resize(teams);
    for (auto& pairs : m_threadPairs)
        pairs.clear();
    auto search = [&](int begin, int end, std::vector<std::pair<std::int32_t, std::int32_t>>& out,
                      BroadPhase::BoxStamps& stamps) {
        for (std::int32_t i = begin; i < end; ++i) {
            if (m_fast[i]) {
                const Vec3 ext = Vec3::Constant((1.0 + params.marginFraction) * p.radius[i] +
                                                m_extension[i] + allMax);
                m_grid.forEachInBox(p.position[i] - ext, p.position[i] + ext, stamps,
                                    [&](std::int32_t j) {
                                        // Two fast particles find each other twice: keep the
                                        // pair from the smaller.
                                        if (j != i && !(m_fast[j] && j < i)) consider(i, j, out);
                                    });
                continue;
            }
            // Half the shell: i's own cell (j > i) and the 13 cells after it; every slow pair
            // once. A bucket also holds the points of other cells that share its hash: only the
            // points of the cell visited count.
            const std::array<std::int64_t, 3>& c = m_cellOf[i];
            for (const auto& d : kForwardCells) {
                const std::array<std::int64_t, 3> visited{c[0] + d[0], c[1] + d[1], c[2] + d[2]};
                const bool own = d[0] == 0 && d[1] == 0 && d[2] == 0;
                m_grid.forEachInBucket(m_grid.bucketOfCell(visited), [&](std::int32_t j) {
                    if (m_cellOf[j] == visited && !m_fast[j] && (!own || j > i))
                        consider(i, j, out);
                });
            }
        }
    };
    if (threads <= 1) {
        search(0, static_cast<int>(n), m_threadPairs[0], m_threadStamps[0]);
    } else {
        // Chunks dealt round the team: the fast grains (a falling cloud, contiguous in
        // storage) cost a box query each and would load one thread.
        constexpr int kChunk = 128;
        parallel::team(threads, [&] {
            const int t = parallel::threadIndex(), teamSize = parallel::teamSize();
            for (int begin = t * kChunk; begin < static_cast<int>(n); begin += teamSize * kChunk)
                search(begin, std::min(begin + kChunk, static_cast<int>(n)), m_threadPairs[t],
                       m_threadStamps[t]);
        });
    }
    m_pairs.clear();
    for (const auto& pairs : m_threadPairs)
        m_pairs.insert(m_pairs.end(), pairs.begin(), pairs.end());

    group(m_pairs, n, m_start, m_items, m_cursor, params.threads);
}

}  // namespace ndem
