// Verlet neighbour lists with a skin (LAMMPS, LIGGGHTS): the pairs that can come within contact
// reach before any particle has used up its share of the skin, found once on a grid and
// filtered every step. A resting bed never searches its grid again.
#pragma once

#include "collide/broad_phase.hpp"
#include "core/particles.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace ndem {

struct NeighbourParams {
    double marginFraction = 0.05;  ///< static detection margin, fraction of the smaller radius
    double timeStep = 0.0;         ///< h (s): a pair closing at u within h·u is within reach
    double skinFraction = 0.5;     ///< list reach beyond contact reach, fraction of the radius
    int threads = 1;               ///< threads of a search (the lists are the same for any)
};

/// Pair (i, j) is within contact reach when |x_j − x_i| < r_i + r_j + m·min(r_i, r_j) +
/// h(|v_i| + |v_j|). The lists hold every pair within that reach plus each particle's extension
/// e_i = skin·r_i/2 + h|v_i| (as built); they stay complete for the pairs of grains that still
/// have |x_i − x_i⁰| + h|v_i| ≤ e_i, since such an unlisted pair is still out of reach.
/// A grain that has used up its extension, or was added since the search, "escapes" the lists:
/// while few have, their pairs are found each step by a box query on the grid of the last
/// search (every other grain is within e_max of its place there) and among themselves, so one
/// rattler or one emitted grain does not make every grain search again.
class NeighbourList {
  public:
    /// Readies the lists for a detection at these positions and speeds: keeps them and finds
    /// the escaped grains' pairs, or searches the grid again (the margin changed, or too many
    /// escaped). A slot whose grain changed since the search (removed and replaced by the
    /// last one, appended, resized) counts as escaped, so a sink removing a few grains per
    /// step does not make every grain search again. `beforeSearch`, if given, runs when the
    /// grid is to be searched again, while the old lists are still there to be read.
    void update(const ParticleStore& p, const std::vector<double>& speed,
                const NeighbourParams& params, const std::function<void()>& beforeSearch = {});

    /// The listed neighbours j > i of particle i (storage indices), ascending; a pair counts
    /// only while neither grain has escaped.
    std::span<const std::int32_t> of(size_t i) const {
        if (i + 1 >= m_start.size()) return {};
        return {m_items.data() + m_start[i], m_items.data() + m_start[i + 1]};
    }
    /// Where the list of i starts among all entries (an entry is a place in every list, so
    /// data kept beside the entries stays with its pair while the lists do).
    std::int32_t firstEntry(size_t i) const { return m_start[std::min(i, m_start.size() - 1)]; }
    size_t entries() const { return m_items.size(); }
    /// The id of the grain slot i held at the last search.
    std::uint32_t builtId(size_t i) const { return m_id[i]; }
    /// Whether slot i escaped its lists (or, past the end of the store, was removed).
    bool escaped(size_t i) const { return m_escaped[i] != 0; }
    /// escaped(i) for every slot, as bytes (0 or 1).
    const std::uint8_t* escapedFlags() const { return m_escaped.data(); }
    /// The candidate pairs of escaped grains whose smaller index is i: the partners j > i.
    std::span<const std::int32_t> escapedOf(size_t i) const {
        return {m_extraItems.data() + m_extraStart[i], m_extraItems.data() + m_extraStart[i + 1]};
    }
    /// The escaped grains of this step, ascending.
    std::span<const std::int32_t> escapedGrains() const { return m_escapedList; }
    /// Grains of the last search (the first ones in storage), where each was then, and how far
    /// it may move from there, h|v| included, before it escapes (m).
    size_t builtCount() const { return m_position.size(); }
    const Vec3& builtPosition(size_t i) const { return m_position[i]; }
    double extension(size_t i) const { return m_extension[i]; }
    /// How many times the grid was searched (a statistic and a test hook): a list of anything
    /// else found with the last search is valid while this stays the same.
    long builds() const { return m_builds; }

  private:
    double extendedReach(size_t i, size_t j) const;
    /// Marks the escaped grains; false if too many escaped for the lists to pay.
    bool markEscaped(const ParticleStore& p, const std::vector<double>& speed,
                     const NeighbourParams& params);
    void findEscapedPairs(const ParticleStore& p, const std::vector<double>& speed,
                          const NeighbourParams& params);
    void build(const ParticleStore& p, const std::vector<double>& speed,
               const NeighbourParams& params);
    /// CSR by the smaller index of `pairs` into start/items, each list ascending.
    static void group(const std::vector<std::pair<std::int32_t, std::int32_t>>& pairs, size_t n,
                      std::vector<std::int32_t>& start, std::vector<std::int32_t>& items,
                      std::vector<std::int32_t>& cursor, int threads = 1);

    BroadPhase m_grid;
    std::vector<std::int32_t> m_start{0};  ///< CSR offsets by i
    std::vector<std::int32_t> m_items;     ///< j, ascending within each i
    std::vector<std::pair<std::int32_t, std::int32_t>> m_pairs;
    std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> m_threadPairs;
    std::vector<BroadPhase::BoxStamps> m_threadStamps;
    std::vector<std::uint8_t> m_fast;
    std::vector<std::int32_t> m_cursor;
    std::vector<std::array<std::int64_t, 3>> m_cellOf;  ///< each point's grid cell
    std::vector<std::uint8_t> m_escaped;                ///< per grain, this step
    std::vector<std::int32_t> m_escapedList;
    std::vector<std::pair<std::int32_t, std::int32_t>> m_extraPairs;
    std::vector<std::int32_t> m_extraStart{0}, m_extraItems;
    double m_extensionMax = 0.0;
    // What the lists were built for.
    std::vector<Vec3> m_position;
    std::vector<double> m_extension;
    std::vector<double> m_radius;
    std::vector<std::uint32_t> m_id;
    double m_marginFraction = -1.0;
    long m_builds = 0;
    size_t m_escapedSteps = 0;  ///< escaped grains summed over the steps since the search
};

}  // namespace ndem
