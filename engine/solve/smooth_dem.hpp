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
/// shared among `threads`; the sums are the same for any thread count.
///   normal:      f_n = k (δ^{2e_H−1} + c δ^{2e_H−2} δ̇), clamped ≥ 0
///   tangential:  f_t = proj_{μ f_n}(−k_t ξ − c k_t u_t), k_t = 8 G* √(R* δ) (Mindlin) or
///                (2/7) k for the linear law, ξ integrated from the slip velocity
///   rolling:     elastic–plastic spring M_r = proj_{μ_r R* f_n}(−k_t R*² θ_r)
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
