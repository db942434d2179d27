// Divergence guards: after every step the state is checked for values that make the result
// garbage (a NaN or infinity: the run must stop) and for signs that it is going wrong (an
// overlap far beyond the contact law's range, energy growing with nothing to supply it,
// grains that left the walls): a warning, once per kind.
#pragma once

#include "core/state_archive.hpp"
#include "core/types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ndem {

class World;
struct StepStats;

/// A sign that a run is going wrong; given once per kind.
struct RunWarning {
    std::int64_t step = 0;
    double time = 0.0;  ///< simulated time after the step (s)
    std::string kind;   ///< "overlap", "energy", "escape", "static" or "phase"
    std::string message;
};

/// What the checks read from every grain after a step, gathered in one pass over the grains
/// (with the kinetic energy that the step's statistics report).
struct GrainSweep {
    double kinetic = 0.0;      ///< J
    double finiteSum = 0.0;    ///< of every coordinate: NaN or ±∞ where one is
    double potential = 0.0;    ///< −m g·x of the free grains (J)
    double scale = 0.0;        ///< lifting every free grain by its own diameter (J)
    double mass = 0.0;         ///< of the free grains (kg)
    bool drivenMoves = false;  ///< a grain without mass moves (driven: an energy source)
    /// The first grain two diameters behind a plane wall (its storage index, or −1), and how far.
    std::int64_t behind = -1;
    size_t behindPlane = 0;       ///< among the enabled plane walls, in order
    double behindBy = 0.0;        ///< m
    std::vector<size_t> outside;  ///< grains beyond the scene's extent
};

/// A non-finite value in the state: the run cannot go on.
struct Divergence {
    std::int64_t step = 0;
    double time = 0.0;
    std::uint32_t particle = 0;  ///< stable id
    std::string quantity;        ///< "position", "velocity", "angular velocity", "orientation"
    std::string message;
};

class StateGuard {
  public:
    /// Takes the scene's extent (grains, finite walls, emitters, sinks) at the start.
    void start(const World& world);
    /// The pass over the grains after a step that check() reads.
    GrainSweep sweep(const World& world) const;
    /// Checks the state after a step.
    void check(const World& world, const StepStats& stats, const GrainSweep& grains);

    const std::optional<Divergence>& divergence() const { return m_divergence; }
    const std::vector<RunWarning>& warnings() const { return m_warnings; }
    /// Grains piled into each other, found at detection: more touching contacts than any packing
    /// has (a mean coordination above 40), or so many pairs within the speculative reach (250
    /// a grain) that the grains must have been thrown metres in a step. The state came from a
    /// step that went wrong without going NaN (a solve far from converged); solving these
    /// contacts would take a Delassus operator over all of them, gigabytes. The run stops as
    /// on a NaN.
    bool crowded(const World& world, std::int64_t step, double time, size_t touching,
                 size_t speculative);
    /// A warning from elsewhere in the step (a settings phase the world could not take), given
    /// with the guard's own so that the CLI and the app show it.
    void note(std::int64_t step, double time, const char* kind, std::string message) {
        m_warnings.push_back(RunWarning{step, time, kind, std::move(message)});
    }
    /// Saves or loads what the checks carry from step to step, and the warnings given (a
    /// restarted run does not give them again). A diverged state is never saved.
    void archive(StateArchive& a);

  private:
    bool given(const char* kind) const;
    void warn(const StepStats& stats, const char* kind, std::string message);
    void checkFinite(const World& world, const StepStats& stats, const GrainSweep& grains);
    void report(const StepStats& stats, std::uint32_t particle, const char* quantity,
                const std::string& value);
    void checkOverlap(const World& world, const StepStats& stats);
    void checkEnergy(const World& world, const StepStats& stats, const GrainSweep& grains);
    void checkEscape(const World& world, const StepStats& stats, const GrainSweep& grains);
    void checkStatic(const StepStats& stats);  ///< StepStats::staticRunaways

    std::optional<Divergence> m_divergence;
    std::vector<RunWarning> m_warnings;
    Vec3 m_low = Vec3::Zero(), m_high = Vec3::Zero();  ///< the scene's extent, grown
    bool m_started = false;
    double m_energyFloor = 0.0;   ///< least mechanical energy since a source last acted (J)
    size_t m_particles = 0;       ///< grains at the last check
    std::vector<double> m_setup;  ///< gravity, wall poses, stiffnesses at the last check
};

}  // namespace ndem
