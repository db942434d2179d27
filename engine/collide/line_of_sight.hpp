// Potential contacts in line of sight: a pair of grains not yet touching whose line of centres
// runs through a third grain cannot meet within the step unless that grain moves out of the
// way, and then it meets that grain first. krabbenhoft-2012 Sec. 2.8 takes the potential
// contacts as the edges of a Delaunay triangulation of the centres, which never has such pairs.
// Kept, they matter at the interior-point method's large steps: a speed-based reach pairs each
// grain in a flow with grains diameters away, and every such pair's friction cone binds their
// relative sliding to (gap/h + u_n)/μ, a friction between grains that never touch.
#pragma once

#include "collide/contact_set.hpp"
#include "core/particles.hpp"

namespace ndem {

/// Removes from `contacts` every speculative contact between two grains whose segment of
/// centres passes through a third grain detected against either of them, and keeps doing so
/// over the step of length `timeStep` at the grains' velocities (its centre, between the two,
/// stays within its radius of the line). Touching contacts and wall contacts stay; the rest
/// keep their order. Call before the contact history is matched. Returns the number removed.
int dropHiddenPairs(const ParticleStore& particles, double timeStep, ContactSet& contacts);

}  // namespace ndem
