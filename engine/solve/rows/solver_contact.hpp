// One contact's constraint rows in the form the PGS sweep consumes.
#pragma once

#include "core/types.hpp"

#include <cstddef>
#include <cstdint>

namespace ndem {

enum SolverContactFlag : std::uint32_t {
    kHasRolling = 1u << 0,    ///< rolling and twisting rows are active (μ_r > 0)
    kHasJacobians = 1u << 1,  ///< angularA/B and responseA/B are filled (see below)
};

/// Row order inside a contact: normal, friction t1, friction t2, rolling t1, rolling t2,
/// twisting n. Each row j solves
///   r_j = bias_j − s_j G_j v − Σ_j λ_j,   λ_j ← proj(λ_j + r_j / D_j)
/// where s_j = scale for the normal row (Hertz, servin-2014 Eq. 29) and 1 otherwise.
///
/// 584 bytes: a hot part of 328 bytes that every row has, then the angular Jacobians
/// (lever × direction) and their images under each body's inverse inertia, which the general
/// rows sweep (computed once per step, so a general sweep does no cross or inertia products).
/// A sphere row — isotropic bodies, levers along n: the bulk of every granular scene — leaves
/// them out (kHasJacobians clear): the SIMD blocks need only n, t1 and the levers, and the
/// 256 bytes per contact it does not write were a third of the row building's time. The
/// general path fills them where it takes such a row (fillJacobians).
struct SolverContact {
    std::int32_t a = 0, b = 0;              ///< solver body indices (b may be the static body)
    std::uint32_t contact = 0;              ///< index into the ContactSet
    std::uint32_t flags = 0;                ///< SolverContactFlag
    Vec3 n, t1, t2;                         ///< contact frame, n from a to b
    Vec3 leverA, leverB;                    ///< contact point − centre of mass of a and of b (m)
    double lambda[6] = {0, 0, 0, 0, 0, 0};  ///< multipliers in row units (impulse, N s / N m s)
    double invD[6] = {0, 0, 0, 0, 0, 0};  ///< 1/D_j, D_j = s² G_j M⁻¹ G_jᵀ + Σ_j (0 = row off)
    double bias[6] = {0, 0, 0, 0, 0, 0};  ///< q_j including the wall's velocity (m/s, rad/s)
    double sigmaN = 0.0;                  ///< Σ_n, SPOOK regularisation of the normal row
    double sigmaT = 0.0;                  ///< Σ_t = γ_t / h
    double sigmaR = 0.0;                  ///< Σ_r = γ_r / h
    double scale = 1.0;                   ///< s = e_H δ^{e_H−1}: normal force = s λ_n / h
    double friction = 0.0;                ///< μ: |λ_t| ≤ μ s λ_n
    double rollingLimit = 0.0;            ///< μ_r R* (m): |λ_r| ≤ μ_r R* s λ_n
    // Only with kHasJacobians:
    Vec3 angularA[3];   ///< r_a × n, r_a × t1, r_a × t2 (m)
    Vec3 angularB[3];   ///< r_b × n, r_b × t1, r_b × t2 (m)
    Vec3 responseA[3];  ///< I_a⁻¹ angularA[k]: Δω_a per unit impulse (1/(kg m))
    Vec3 responseB[3];  ///< I_b⁻¹ angularB[k]
};
static_assert(offsetof(SolverContact, angularA) == 328, "SolverContact: 328 hot bytes first");

}  // namespace ndem
