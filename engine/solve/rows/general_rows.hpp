// The rows the SIMD blocks do not take — contacts of rigid aggregates (any lever, any inertia)
// and those no colour could hold — swept one after the other with their full Jacobians.
#pragma once

#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"

#include <array>
#include <span>

namespace ndem {

/// Sums over rows of one pass (the block kernels keep the same per block, BlockResidual).
struct RowSums {
    double all = 0.0, normal = 0.0, max = 0.0;  ///< residual |Δλ_j| D_j: sum, normal rows, max
    double squares = 0.0;  ///< NNCG: Σ (D_j Δλ_j)². APGD: ‖γ' − y‖²_D
    double inner = 0.0;    ///< APGD: gᵀ(γ' − γ_k)
    double sigma = 0.0;    ///< APGD: Σ_j (γ' − y)_j²
};

/// Whether the block kernel's reduced rows are exact for `r`: both bodies isotropic and both
/// levers along n (r × n = 0 up to round-off), as for spheres.
bool sphereRow(const SolverContact& r, std::span<const SolverBody> bodies);
/// The same test from the levers' products with n and t1, where the caller has them.
bool sphereRow(const SolverBody& A, const SolverBody& B, const Vec3& leverACrossN,
               const Vec3& leverACrossT1, const Vec3& leverBCrossN, const Vec3& leverBCrossT1);
/// Its lever half, for a caller that has checked the bodies already.
bool sphereLevers(const Vec3& leverACrossN, const Vec3& leverACrossT1, const Vec3& leverBCrossN,
                  const Vec3& leverBCrossT1);

/// Fills the angular Jacobians and responses of a row built without them (kHasJacobians),
/// from its levers and the bodies' inverse inertia: the expressions the row builder uses.
void fillJacobians(SolverContact& r, std::span<const SolverBody> bodies);

/// One PGS sweep over `rows` in order (servin-2014 App. B): cone or box friction; `measure`
/// adds the residuals to `sums`. The rows must have their Jacobians (kHasJacobians).
void sweepGeneralRows(std::span<SolverContact> rows, SolverBody* bodies, bool cone, bool measure,
                      RowSums& sums);

/// v += M⁻¹ Jᵀ d for one row's impulses d (normal in row units, times the Hertz scale).
void applyGeneralImpulse(const SolverContact& row, const std::array<double, 6>& d,
                         SolverBody* bodies);

/// v += M⁻¹ Gᵀ λ for the multipliers the rows hold (the warm-start velocity step, Eq. 8).
void applyRowImpulses(std::span<const SolverContact> rows, std::span<SolverBody> bodies);

/// APGD's projected gradient step of the general rows (see BlockSweep::next): from the
/// multipliers the rows hold, γ' = Π(y + step (z − y)) into `next`; bodies read only.
void gradientGeneralRows(std::span<const SolverContact> rows, const SolverBody* bodies, bool cone,
                         double step, std::span<const std::array<double, 6>> previous,
                         std::span<std::array<double, 6>> next, RowSums& sums);

}  // namespace ndem
