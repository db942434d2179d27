// Static and moving geometry the particles collide with: planes, boxes, the inside of a
// cylinder, and triangle meshes. Walls have prescribed motion (infinite mass).
#pragma once

#include "core/material.hpp"
#include "core/types.hpp"

#include <limits>
#include <string>

namespace ndem {

enum class WallShape : std::uint8_t {
    Plane,     ///< half-space; local +z is the free side
    Box,       ///< solid oriented box with half extents
    Cylinder,  ///< inside surface of a cylinder: local z axis, radius, from z = 0 to height
    Mesh,      ///< triangle mesh (two-sided), see TriangleMesh
};

/// Stress control of a wall (triaxial cell): each step the wall moves along `direction` (into
/// the material) at gain × (σ A − R), R the force the particles push it back with, so that it
/// settles where the particles carry the target stress σ over the area A. The wall stays
/// kinematic within a step. With a `mass` the wall is instead a body pushed by the force σA and
/// by the particles (wang-servin-berglund's walls of 100 kg on prismatic motors): in a nonsmooth
/// step a prismatic body of the solve, so its contacts' impulses and its motion are found
/// together and it cannot run into the grains within a step; in the smooth DEM its speed is
/// updated after each step from that step's force. With a `relaxation` it steps by the force
/// error over its contacts' stiffness (see the fields).
struct ServoControl {
    bool active = false;
    Vec3 direction = Vec3::Zero();  ///< unit, pointing into the sample (world)
    double stress = 0.0;            ///< σ target (Pa)
    double area = 0.0;              ///< A (m²) if no areaWalls are given
    /// A = |a−b| × |c−d| (distances along their normals); in the plane [a, b]: A = |a−b| × 1 m
    int areaWalls[4] = {-1, -1, -1, -1};
    double gain = 1e-3;  ///< (m/s)/N, without a mass
    double mass = 0.0;   ///< m (kg); > 0: driven by the force σA, not by the gain
    /// α in (0, 1]: each step the wall moves by α (σA − R)/K, K its contacts' stiffness, so the
    /// packing's own compliance sets the pace (Yade's TriaxialStressController); 0: the gain law
    double relaxation = 0.0;
    /// γ ≥ 0, with a relaxation: each step γ (σA − R)/(K h) is added to a speed the wall learns
    /// and keeps, the integral term that removes the lag under a prescribed strain rate
    double integral = 0.0;
    double maxSpeed = 0.1;  ///< |v| limit (m/s); a wall with a mass: after each step
    double constantFrom = std::numeric_limits<double>::infinity();  ///< from this time (s) the
                                                                    ///< wall moves at:
    double constantSpeed = 0.0;  ///< speed along `direction` (m/s), strain-controlled phase
};

/// A rigid, kinematic piece of geometry. Its pose moves by the prescribed velocities every step;
/// contacts never change them (walls have infinite mass).
struct Wall {
    std::string name;
    WallShape shape = WallShape::Plane;
    MaterialId material = 0;
    bool enabled = true;  ///< disabled walls collide with nothing (e.g. a removed side wall)
    double disableAt = std::numeric_limits<double>::infinity();  ///< removed at this time (s)
    double stopAt = std::numeric_limits<double>::infinity();  ///< stands still from this time (s)
    ServoControl servo;

    Vec3 position = Vec3::Zero();         ///< origin of the local frame (m)
    Quat orientation = Quat::Identity();  ///< local to world rotation
    Vec3 linearVelocity = Vec3::Zero();   ///< v (m/s) of the local origin
    Vec3 angularVelocity = Vec3::Zero();  ///< ω (rad/s) about the local origin, world frame
    Vec3 surfaceVelocity = Vec3::Zero();  ///< belt speed in the local frame (m/s); only its
                                          ///< tangential part acts at a contact

    Vec3 halfExtents = Vec3::Constant(0.5);  ///< Box half extents (m)
    double radius = 0.05;                    ///< Cylinder inner radius R (m)
    double height = 0.1;                     ///< Cylinder length along local z (m)
    int mesh = -1;                           ///< index of the TriangleMesh for Mesh walls

    Vec3 force = Vec3::Zero();   ///< total contact force on the wall during the last step (N)
    Vec3 torque = Vec3::Zero();  ///< total contact torque about `position`, last step (N m)
    /// Σ k (n·d)² over its touching contacts, k the normal law's tangent stiffness and d the
    /// servo's direction, last step (N/m); kept for servo walls with a relaxation only
    double stiffness = 0.0;
    double learnedSpeed = 0.0;  ///< the servo's integral term, along its direction (m/s)

    Vec3 toLocal(const Vec3& p) const { return orientation.conjugate() * (p - position); }
    Vec3 toWorld(const Vec3& p) const { return orientation * p + position; }

    /// Velocity of the wall material at world point p with contact normal n (m/s).
    Vec3 velocityAt(const Vec3& p, const Vec3& n) const {
        const Vec3 belt = orientation * surfaceVelocity;
        return linearVelocity + angularVelocity.cross(p - position) + belt - belt.dot(n) * n;
    }

    /// Advances the pose by the prescribed velocities over h (s).
    void move(double h) {
        position += h * linearVelocity;
        if (!angularVelocity.isZero())
            orientation = integrateOrientation(orientation, angularVelocity, h);
    }
};

}  // namespace ndem
