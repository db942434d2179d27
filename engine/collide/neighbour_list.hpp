// Verlet neighbour lists with a skin (LAMMPS, LIGGGHTS): the pairs that can come within contact
// reach before any particle has used up its share of the skin, found once on a grid and
// filtered every step. A resting bed never searches its grid again.
#pragma once

#include "collide/broad_phase.hpp"
#include "core/particles.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ndem {

struct NeighbourParams {
    double marginFraction = 0.05;  ///< static detection margin, fraction of the smaller radius
    double timeStep = 0.0;         ///< h (s): a pair closing at u within h·u is within reach
    double skinFraction = 0.5;     ///< list reach beyond contact reach, fraction of the radius
};

/// Pair (i, j) is within contact reach when |x_j − x_i| < r_i + r_j + m·min(r_i, r_j) +
/// h(|v_i| + |v_j|). The lists hold every pair within that reach plus each particle's extension
/// e_i = skin·r_i/2 + 3h|v_i| (as built); they stay complete while every particle has
/// |x_i − x_i⁰| + h|v_i| ≤ e_i, since then an unlisted pair is still out of reach.
class NeighbourList {
public:
    /// Whether the lists still hold every pair within reach: false once a particle has moved
    /// and sped up by more than its extension, or the particles (count, ids, radii) or the
    /// margin changed.
    bool holds(const ParticleStore& p, const std::vector<double>& speed,
               const NeighbourParams& params) const;
    /// Searches the grid for every pair within the extended reach.
    void build(const ParticleStore& p, const std::vector<double>& speed, const NeighbourParams& params);

    /// The neighbours j > i of particle i (storage indices), ascending.
    std::span<const std::int32_t> of(size_t i) const {
        return {m_items.data() + m_start[i], m_items.data() + m_start[i + 1]};
    }
    size_t pairCount() const { return m_items.size(); }
    /// How many times the lists were built (a statistic and a test hook).
    long builds() const { return m_builds; }

private:
    double extendedReach(size_t i, size_t j) const;

    BroadPhase m_grid;
    std::vector<std::int32_t> m_start{0};  ///< CSR offsets by i
    std::vector<std::int32_t> m_items;     ///< j, ascending within each i
    std::vector<std::pair<std::int32_t, std::int32_t>> m_pairs;
    std::vector<std::uint8_t> m_fast;
    std::vector<std::int32_t> m_cursor;
    std::vector<std::array<std::int64_t, 3>> m_cellOf;  ///< each point's grid cell
    // What the lists were built for.
    std::vector<Vec3> m_position;
    std::vector<double> m_extension;
    std::vector<double> m_radius;
    std::vector<std::uint32_t> m_id;
    double m_marginFraction = -1.0;
    long m_builds = 0;
};

}  // namespace ndem
