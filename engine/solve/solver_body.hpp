// The velocity state the PGS sweeps read and write: one compact record per body.
#pragma once

#include "core/types.hpp"

namespace ndem {

/// 104 bytes: generalised velocity and inverse mass properties. The inverse inertia is a
/// symmetric world-frame tensor (xx, yy, zz, xy, xz, yz) so that rigid aggregates
/// (model reduction) use the same kernel as spheres, whose tensor is isotropic.
struct SolverBody {
    Vec3 v = Vec3::Zero();  ///< linear velocity (m/s)
    Vec3 w = Vec3::Zero();  ///< angular velocity (rad/s)
    double invMass = 0.0;   ///< 1/m (1/kg)
    double invInertia[6] = {0, 0, 0, 0, 0, 0};  ///< I⁻¹ (1/(kg m²)), symmetric

    Vec3 applyInvInertia(const Vec3& t) const {
        const double* k = invInertia;
        return Vec3(k[0] * t.x() + k[3] * t.y() + k[4] * t.z(),
                    k[3] * t.x() + k[1] * t.y() + k[5] * t.z(),
                    k[4] * t.x() + k[5] * t.y() + k[2] * t.z());
    }
    void setIsotropicInvInertia(double k) {
        invInertia[0] = invInertia[1] = invInertia[2] = k;
        invInertia[3] = invInertia[4] = invInertia[5] = 0.0;
    }
};

}  // namespace ndem
