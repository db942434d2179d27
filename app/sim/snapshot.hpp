// What the GUI draws and plots: a copy of the world taken by the sim thread between steps.
#pragma once

#include "core/step_stats.hpp"
#include "sim/live_wall_pressure.hpp"
#include "world/world.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace ndem::app {

/// Everything the GUI reads of one published state. Arrays are float and flat (xyz triples)
/// so they upload to vertex buffers as they are; the GUI never touches the World itself.
/// The vectors live in the triple buffer's slots and are refilled in place, so they allocate
/// only while the particle or contact count grows.
inline constexpr std::uint32_t kWallEdge = 0x80000000u;

struct Snapshot {
    std::uint64_t sequence = 0;  ///< 1 for the first published snapshot, +1 per publish
    double time = 0.0;           ///< simulated time (s)
    std::int64_t stepCount = 0;  ///< steps taken since the scene was loaded
    StepStats stats;             ///< of the last step (zero before the first one)
    /// Every step taken since the previous publish, oldest first (the plots over time see
    /// all of them, whatever the steps per frame).
    std::vector<StepStats> recentSteps;
    WallPressureProfile wallPressure;   ///< live Janssen plot; empty without a cylinder wall
    std::uint64_t worldGeneration = 0;  ///< +1 each time a new world is loaded (reset, open)
    StepSettings settings;              ///< what the world steps with (the panels show these)
    std::vector<Material> materials;
    std::vector<Wall> walls;           ///< poses, velocities and forces of the walls (few; copied)
    Vec3 gravity = Vec3::Zero();       ///< acting in the next step (m/s²)
    long emitted = 0;                  ///< particles emitted since the start
    long removed = 0;                  ///< particles removed by sinks since the start
    std::vector<SplitSensor> sensors;  ///< model reduction's split sensors (few; copied)
    std::vector<RunWarning> warnings;  ///< the divergence guards' warnings so far (few)
    std::optional<Divergence> divergence;  ///< set: the state went non-finite, stepping stopped

    // Per particle, in the world's storage order (which changes when it reorders; use `id`
    // to follow one particle).
    std::vector<float> position;              ///< x, xyz per particle (m)
    std::vector<float> radius;                ///< r (m)
    std::vector<float> velocity;              ///< v, xyz per particle (m/s)
    std::vector<std::uint32_t> contactCount;  ///< touching contacts, walls included
    std::vector<std::uint32_t> id;            ///< stable particle id
    std::vector<std::int32_t> aggregate;      ///< rigid aggregate slot, -1 free (model reduction)
    /// Mean stress of the particle, tr(σ)/3 = Σ_c f_n |l_c| / (3 V) over its contacts (Pa):
    /// the Love–Weber average, what the "pressure" colour mode shows.
    std::vector<float> pressure;

    // Contact force edges: touching contacts whose normal force exceeds the threshold. A wall
    // contact ends at the contact point on the wall.
    double forceThreshold = 0.0;      ///< f_n threshold the edges were selected with (N)
    std::vector<float> contactEnds;   ///< xyz of end A then xyz of end B, per edge (m)
    std::vector<float> contactForce;  ///< f_n, normal force incl. the impact stage (N)
    /// Per edge: particle index of end A, then the particle index of end B or kWallEdge | wall.
    std::vector<std::uint32_t> contactBodies;
    float maxContactForce = 0.0f;  ///< largest f_n over all touching contacts (N)

    /// Mean residual after each PGS sweep of the last step (m/s); empty unless the world
    /// records it (World::setRecordResidualHistory, off by default because it costs a
    /// residual evaluation per sweep).
    std::vector<double> residualPerIteration;

    size_t particleCount() const { return radius.size(); }
    size_t edgeCount() const { return contactForce.size(); }
};

/// Copies the world's current state into `out`, reusing its buffers. `stats` is the last
/// step's (the World does not keep it). Edges are touching contacts with f_n > forceThreshold.
void fillSnapshot(const World& world, const StepStats& stats, double forceThreshold, Snapshot& out);

}  // namespace ndem::app
