// Explicit Hertz–Mindlin DEM (servin-2014 Eq. 11–12): contact forces from overlaps and
// spring histories, integrated with symplectic Euler at a small time step.
#pragma once

#include "collide/contact_set.hpp"
#include "core/material.hpp"
#include "core/particles.hpp"
#include "core/settings.hpp"

#include <vector>

namespace ndem {

/// Computes the force and torque every contact puts on the particles (accumulated into
/// `force` and `torque`, which the caller zeroes), updates the spring elongations carried in
/// `contacts` from `history`, and stores force × h as the contact impulses. The contacts are
/// shared among `threads`; the sums are the same for any thread count. The law of each
/// contact is smoothContactForce (dem/smooth_contact.hpp). Smooth DEM without model
/// reduction takes its pairs straight from the neighbour lists instead (dem/smooth_pairs.hpp).
void computeSmoothForces(const ParticleStore& particles, ContactSet& contacts,
                         const ContactHistory& history, const MaterialTable& materials,
                         const StepSettings& settings, std::vector<Vec3>& force,
                         std::vector<Vec3>& torque, int threads = 1);

/// Largest stable smooth-DEM step √(m/k) over the particles, with k the contact stiffness
/// linearised at the reference overlap for every material a particle can touch (s).
double smoothStabilityLimit(const ParticleStore& particles, const MaterialTable& materials,
                            const std::vector<MaterialId>& wallMaterials,
                            const StepSettings& settings);

}  // namespace ndem
