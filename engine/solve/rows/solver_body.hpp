// The velocity state the PGS sweeps read and write: one compact record per body.
#pragma once

#include "core/types.hpp"

#include <cstddef>

namespace ndem {

/// Generalised velocity and inverse mass properties of one body. The inverse inertia is a
/// symmetric world-frame tensor (xx, yy, zz, xy, xz, yz) so that rigid aggregates (model
/// reduction) use the same rows as spheres, whose tensor is isotropic. A body with an `axis`
/// slides along it and nothing else (a servo wall with a mass on its prismatic motor): its
/// inverse mass is (1/m) a aᵀ, and its rows are general rows.
///
/// 128 bytes, aligned to a cache line: the first 64 bytes (v, ω, 1/m, I⁻¹_xx) are all the
/// SIMD sphere kernel reads and writes (contact_block.hpp, kBodyStride), one line per body.
/// Rejected: a separate 64-byte velocity array for the kernel — two copies per solve and two
/// stores to keep consistent for the general rows, for no gain.
struct alignas(64) SolverBody {
    Vec3 v = Vec3::Zero();                      ///< linear velocity (m/s)
    Vec3 w = Vec3::Zero();                      ///< angular velocity (rad/s)
    double invMass = 0.0;                       ///< 1/m (1/kg)
    double invInertia[6] = {0, 0, 0, 0, 0, 0};  ///< I⁻¹ (1/(kg m²)), symmetric
    Vec3 axis = Vec3::Zero();  ///< unit: the only direction it moves in; zero: free

    bool prismatic() const { return axis.x() != 0.0 || axis.y() != 0.0 || axis.z() != 0.0; }
    /// Δv of an impulse p (N s): M⁻¹ p, along the axis only for a prismatic body.
    Vec3 linearResponse(const Vec3& p) const {
        return prismatic() ? Vec3(invMass * axis.dot(p) * axis) : Vec3(invMass * p);
    }
    /// dᵀ M⁻¹ d for a unit direction d: the body's share of a row's diagonal.
    double linearWeight(const Vec3& d) const {
        if (!prismatic()) return invMass;
        const double along = axis.dot(d);
        return invMass * along * along;
    }

    Vec3 applyInvInertia(const Vec3& t) const {
        const double* k = invInertia;
        return Vec3(k[0] * t.x() + k[3] * t.y() + k[4] * t.z(),
                    k[3] * t.x() + k[1] * t.y() + k[5] * t.z(),
                    k[4] * t.x() + k[5] * t.y() + k[2] * t.z());
    }
    /// The same product where the caller knows whether the body is isotropic (a sphere): then
    /// I⁻¹ is a number, and k t is what the tensor gives (its zero off-diagonal terms add
    /// nothing), at a fifth of the work.
    Vec3 applyInvInertia(const Vec3& t, bool isotropicBody) const {
        return isotropicBody ? Vec3(invInertia[0] * t) : applyInvInertia(t);
    }
    void setIsotropicInvInertia(double k) {
        invInertia[0] = invInertia[1] = invInertia[2] = k;
        invInertia[3] = invInertia[4] = invInertia[5] = 0.0;
    }
    /// A prismatic body is not: its rows must not go to the sphere kernel.
    bool isotropic() const {
        return !prismatic() && invInertia[0] == invInertia[1] && invInertia[0] == invInertia[2] &&
               invInertia[3] == 0.0 && invInertia[4] == 0.0 && invInertia[5] == 0.0;
    }
    /// Nothing the solver does can move it (walls' static body, kinematic particles).
    bool immovable() const { return invMass == 0.0 && isotropic() && invInertia[0] == 0.0; }
};
static_assert(sizeof(SolverBody) == 128 && alignof(SolverBody) == 64,
              "SolverBody: two cache lines, the hot one first");
static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 must be three packed doubles");

}  // namespace ndem
