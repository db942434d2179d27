// Builds the PGS rows of the impact stage and the continuous stage from the contact set, and
// writes the solved impulses back.
#pragma once

#include "collide/contact_set.hpp"
#include "core/material.hpp"
#include "core/settings.hpp"
#include "solve/rows/body_map.hpp"
#include "solve/rows/impact_region.hpp"
#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"

#include <functional>
#include <span>
#include <vector>

namespace ndem {

/// Relative velocity of B with respect to A at contact i, G v without the Hertz scale (m/s).
Vec3 relativeContactVelocity(const ContactSet& c, size_t i, std::span<const SolverBody> bodies,
                             const BodyMap& map = {});

/// Rows of the continuous stage (SPOOK), one per detected contact (none inside an aggregate),
/// in contact order, built on settings.threads threads. Velocities in `bodies` are
/// v⁺ after the impact stage: they enter q_n = (4/h) Υ δ̄ + Υ Ḡ_n v⁺. accelerationScale
/// (m/s², usually |g|) sizes the overlap a contact can build within one step (see hertzRow).
/// `finish`, if set, is called on each row as soon as it is built, on the thread that built
/// it (the warm start from the history: one pass over the rows instead of two).
void buildContinuousRows(const ContactSet& c, const MaterialTable& materials,
                         const ContactHistory& history, std::span<const SolverBody> bodies,
                         const StepSettings& s, double accelerationScale,
                         std::vector<SolverContact>& rows, const BodyMap& map = {},
                         const std::function<void(SolverContact&)>& finish = {});

/// Rows of the impact stage (servin-2014 App. A): hard rows with target G_n v⁺ = −e G_n v⁻
/// for contacts flagged kImpact and G_n v⁺ ≥ 0 for the other touching contacts of `region`.
void buildImpactRows(const ContactSet& c, const MaterialTable& materials,
                     std::span<const SolverBody> bodies, const ImpactRegion& region,
                     std::vector<SolverContact>& rows, const BodyMap& map = {}, int threads = 1);

/// Writes λ of the continuous rows back as physical impulses on body B.
void storeContinuousImpulses(std::span<const SolverContact> rows, ContactSet& c, int threads = 1);
/// Writes the normal impulse of the impact rows back.
void storeImpactImpulses(std::span<const SolverContact> rows, ContactSet& c, int threads = 1);

/// Solver body index of contact i's body B: a particle, or the static body for walls.
inline Index solverBodyB(const ContactSet& c, size_t i, Index staticBody) {
    return (c.flags[i] & kWallContact) ? staticBody : c.bodyB[i];
}

}  // namespace ndem
