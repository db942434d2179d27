// Projected Gauss-Seidel over contact rows (servin-2014 App. B; warm-start seed Algorithm 1).
#pragma once

#include "core/settings.hpp"
#include "solve/solver_body.hpp"
#include "solve/solver_contact.hpp"

#include <span>
#include <vector>

namespace ndem {

struct PgsOptions {
    int iterations = 100;      ///< maximum sweeps N_it
    double tolerance = 0.0;    ///< stop when the mean residual drops below (m/s); 0 = never
    FrictionModel friction = FrictionModel::Cone;
    std::vector<double>* residualHistory = nullptr;  ///< if set: mean residual after each sweep
};

struct PgsResult {
    int iterations = 0;        ///< sweeps done
    double residual = 0.0;     ///< mean |Δλ_j| D_j over all rows of the last sweep (m/s)
    double maxResidual = 0.0;  ///< max |Δλ_j| D_j of the last sweep (m/s)
    double normalResidual = 0.0;  ///< mean over normal rows only (m/s)
};

/// Runs PGS sweeps over `rows` in order, updating multipliers and body velocities in place.
/// The residual of a row is the velocity error its last update removed, |Δλ_j| D_j: zero once
/// the row satisfies its complementarity condition.
PgsResult solvePgs(std::span<SolverContact> rows, std::span<SolverBody> bodies,
                   const PgsOptions& options);

/// v += M⁻¹ Gᵀ λ for the multipliers the rows hold (the warm-start velocity step, Eq. 8).
void applyRowImpulses(std::span<const SolverContact> rows, std::span<SolverBody> bodies);

}  // namespace ndem
