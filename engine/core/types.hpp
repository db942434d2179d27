// Basic math and index types shared by every engine module.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>

namespace ndem {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// Storage index of a body inside its store. Stable ids are separate (ParticleStore::id).
using Index = std::int32_t;

/// An orthonormal tangent pair (t1, t2) completing the unit normal n to a right-handed frame
/// (n, t1, t2). Branch-free construction of Duff et al. 2017 ("Building an Orthonormal Basis,
/// Revisited"), which has no singular direction.
inline void tangentFrame(const Vec3& n, Vec3& t1, Vec3& t2) {
    const double sign = std::copysign(1.0, n.z());
    const double a = -1.0 / (sign + n.z());
    const double b = n.x() * n.y() * a;
    t1 = Vec3(1.0 + sign * n.x() * n.x() * a, sign * b, -sign * n.x());
    t2 = Vec3(b, sign + n.y() * n.y() * a, -n.y());
    // Make (n, t1, t2) right-handed so that n x t1 = t2 holds in every rotation formula.
    if (n.cross(t1).dot(t2) < 0.0) t2 = -t2;
}

/// Integrates an orientation by angular velocity w over h (first order, renormalised).
inline Quat integrateOrientation(const Quat& q, const Vec3& w, double h) {
    const Quat dq(0.0, 0.5 * h * w.x(), 0.5 * h * w.y(), 0.5 * h * w.z());
    Quat out = q;
    out.coeffs() += (dq * q).coeffs();
    out.normalize();
    return out;
}

}  // namespace ndem
