// Rigid aggregates (servin-wang Sec. 2.4): a set of particles that co-move as one
// rigid body. Members keep their spheres for collision but carry no forces of their own.
#pragma once

#include "core/particles.hpp"
#include "core/types.hpp"
#include "core/wall.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ndem {

struct Aggregate {
    double mass = 0.0;                    ///< m_A, Eq. 6 (kg)
    Vec3 position = Vec3::Zero();         ///< x_A, centre of mass, Eq. 7 (m)
    Quat orientation = Quat::Identity();  ///< body to world; the identity when formed
    Vec3 velocity = Vec3::Zero();         ///< v_A, Eq. 8 (m/s)
    Vec3 angularVelocity = Vec3::Zero();  ///< ω_A, Eq. 10 (rad/s)
    Mat3 inertia = Mat3::Zero();          ///< I_A about x_A in the body frame, Eq. 9 (kg m²)
    Mat3 invInertia = Mat3::Zero();       ///< I_A⁻¹ in the body frame
    int wall = -1;                        ///< rides with this moving wall (kinematic), or -1
    Vec3 wallNormal = Vec3::UnitZ();      ///< normal of a contact with that wall (belt speed
                                          ///< acts along the surface only)
    std::vector<std::uint32_t> members;   ///< particle ids
    std::vector<Vec3> offsets;            ///< member centres in the body frame (m)
    std::vector<Quat> memberOrientation;  ///< member orientations relative to the body

    bool alive() const { return !members.empty(); }
    bool kinematic() const { return wall >= 0; }
    /// I_A⁻¹ in the world frame.
    Mat3 worldInvInertia() const {
        const Mat3 r = orientation.toRotationMatrix();
        return r * invInertia * r.transpose();
    }
    Mat3 worldInertia() const {
        const Mat3 r = orientation.toRotationMatrix();
        return r * inertia * r.transpose();
    }
    /// Velocity of the body's material at world point x (Eq. 12) (m/s).
    Vec3 velocityAt(const Vec3& x) const { return velocity + angularVelocity.cross(x - position); }
    /// For a kinematic aggregate: takes the rigid motion of its wall.
    void followWall(const Wall& w) {
        velocity = w.velocityAt(position, wallNormal);
        angularVelocity = w.angularVelocity;
    }
};

/// Forms an aggregate from particles (storage indices) by Eq. 6–10, with one addition: each
/// member's own rotational inertia (2/5 m r², and its spin in the angular momentum) enters
/// I_A and ω_A, so that merging conserves angular momentum exactly and a pair of spheres
/// has a regular inertia tensor. servin-wang Eq. 9–10 treat members as point masses.
Aggregate formAggregate(std::span<const Index> members, const ParticleStore& p);

/// Places the members by the aggregate's pose and gives them its velocity field
/// (Eq. 11–13).
void coMove(const Aggregate& a, ParticleStore& p);

}  // namespace ndem
