// Adaptive model reduction (servin-wang Sec. 3, Algorithm 1): particles that co-move
// merge into rigid aggregates after the continuous solve, and aggregates split before the
// impact stage where contacts report impacts or sliding, or where a split sensor reaches.
#pragma once

#include "collide/contact_set.hpp"
#include "core/material.hpp"
#include "core/particles.hpp"
#include "core/settings.hpp"
#include "core/split_sensor.hpp"
#include "core/wall.hpp"
#include "reduce/aggregate.hpp"
#include "reduce/trial_solve.hpp"
#include "solve/rows/body_map.hpp"
#include "solve/rows/solver_body.hpp"

#include <span>
#include <vector>

namespace ndem {

class ModelReduction {
  public:
    /// Slots; a slot without members is free for reuse.
    const std::vector<Aggregate>& aggregates() const { return m_aggregates; }
    int aggregateCount() const { return m_alive; }
    /// Saves or loads the aggregates and the body map (core/state_archive.hpp).
    void archive(StateArchive& a);
    int memberCount() const { return m_members; }
    /// h = 1 − Ñ_p / N_p, Ñ_p = free particles + aggregates (servin-wang's reduction level).
    double reductionLevel(size_t particles) const;

    /// Frees every member (reduction switched off). Velocities stay co-moved: nothing jumps.
    void dissolve(ParticleStore& p);
    /// After sinks removed particles: their aggregates re-form from the members left.
    void dropRemoved(ParticleStore& p, const std::vector<Wall>& walls);

    /// Split (Algorithm 1 line 6), before the impact stage: contact events (Eq. 29–31) freed
    /// with N_c-spl levels of their contact network, members out of balance in the trial
    /// solve (Eq. 32–36, when `trial` is given), and members inside a split sensor. The
    /// rest of each touched aggregate re-forms as its connected pieces. An aggregate riding
    /// on a wall that no longer holds it (see `wallHolds`) re-forms as dynamic pieces.
    /// Returns members freed.
    int split(ParticleStore& p, const ContactSet& c, const std::vector<Wall>& walls,
              std::span<const SplitSensor> sensors, const MaterialTable& materials,
              const Vec3& gravity, const StepSettings& s, const TrialSolution* trial = nullptr);

    /// Appends one solver body per aggregate before the static body (the last entry of
    /// `bodies`, which holds the particles then the static body on entry). Members' own
    /// entries become immovable: no row refers to them.
    void loadBodies(const ParticleStore& p, std::vector<SolverBody>& bodies);
    /// Which solver body carries each particle's contacts (valid after loadBodies).
    BodyMap map() const { return BodyMap{m_body, m_offset, {}, {}}; }
    /// The gyroscopic term ω ← ω − h I⁻¹ (ω × I ω) of each free aggregate (servin-wang's Ṁẋ).
    void applyGyroscopic(std::vector<SolverBody>& bodies, double h) const;
    /// Aggregate velocities from the solve; members co-move (Algorithm 1 line 12).
    void storeBodies(std::span<const SolverBody> bodies, ParticleStore& p,
                     const std::vector<Wall>& walls);

    /// Merge (line 13): the touching contact network is cut where Eq. 26–28 or the
    /// acceleration bounds fail, and around particles inside a split sensor (a sensor keeps
    /// its region resolved, or a resting member it frees would merge straight back); each
    /// remaining connected group of bodies becomes one aggregate (riding on a moving wall it
    /// rests on, if allowed). `startVelocity` and `startAngular` are the particle velocities
    /// at the start of the step. Returns the particles that were free and joined an aggregate.
    int merge(ParticleStore& p, const ContactSet& c, const std::vector<Wall>& walls,
              std::span<const SplitSensor> sensors, const MaterialTable& materials,
              const Vec3& gravity, std::span<const Vec3> startVelocity,
              std::span<const Vec3> startAngular, const StepSettings& s);

    /// x_{i+1}: each aggregate moves rigidly and places its members (Eq. 11–13).
    void integrate(ParticleStore& p, double h);

  private:
    int add(Aggregate a, ParticleStore& p);
    void kill(int slot, ParticleStore& p);
    /// Aggregates riding on a wall that no longer holds them (no member touches it, or the
    /// mean normal of their contacts with it leaves the friction cone about gravity) become
    /// dynamic; flags them in `touched` so that they re-form as their connected pieces.
    /// Returns whether any was released.
    bool releaseUnsupported(const ParticleStore& p, const ContactSet& c,
                            const std::vector<Wall>& walls, const MaterialTable& materials,
                            const Vec3& gravity, std::vector<char>& touched);
    /// Re-forms the unmarked members of every `touched` aggregate as their connected pieces;
    /// a piece rides on its aggregate's wall only while one of its contacts there holds it.
    void reformTouched(const std::vector<char>& touched, ParticleStore& p, const ContactSet& c,
                       const std::vector<Wall>& walls, const MaterialTable& materials,
                       const Vec3& gravity);

    std::vector<Aggregate> m_aggregates;
    std::vector<int> m_freeSlots;
    int m_alive = 0, m_members = 0;
    std::vector<Index> m_body;  ///< BodyMap arrays, per particle
    std::vector<Vec3> m_offset;
    std::vector<Index> m_bodyOfSlot;
    // Scratch, kept to avoid reallocation every step.
    std::vector<char> m_marked;
    std::vector<Index> m_parent;
};

}  // namespace ndem
