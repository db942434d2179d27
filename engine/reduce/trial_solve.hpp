// The background trial solve of the trial-split method (servin-wang Sec. 3.2.2):
// a few PGS sweeps of the fully resolved continuous problem, every member a free grain.
#pragma once

#include "collide/contact_set.hpp"
#include "core/material.hpp"
#include "core/particles.hpp"
#include "core/settings.hpp"
#include "solve/pgs/pgs_solver.hpp"
#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"

#include <vector>

namespace ndem {

struct TrialSolution {
    std::vector<SolverBody> bodies;  ///< per particle, then the static body: v after the trial
    std::vector<Vec3> force;         ///< Σ contact force on each particle (N)
    std::vector<Vec3> torque;        ///< Σ contact torque about each particle's centre (N m)
    std::vector<SolverContact> rows;
    Vec3 gravity = Vec3::Zero();  ///< the external acceleration of the trial (m/s²)
    PgsSolver solver;             ///< its buffers, kept between steps
};

/// Builds the continuous rows of every contact with the particles' current (co-moved)
/// velocities, adds gravity, warm starts from the contact history (β of the settings) and
/// runs N_it^tr sweeps. The impulses of contacts inside aggregates are written to `c`: the
/// reduced solve has no rows there, so the trial is what resolves their force network.
void runTrialSolve(const ParticleStore& p, ContactSet& c, const ContactHistory& history,
                   const MaterialTable& materials, const StepSettings& s, const Vec3& gravity,
                   TrialSolution& out);

}  // namespace ndem
