// What the continuum measurements (wall pressure, axis pressure, coarse-grained fields) read
// from one step: contact forces and Love–Weber branch vectors, and the fill of a container.
#pragma once

#include "collide/contact_set.hpp"
#include "core/error.hpp"
#include "core/particles.hpp"
#include "core/state_archive.hpp"
#include "core/wall.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace ndem {

/// Force on body B of contact k during the last step (N): continuous and impact-stage normal
/// impulse plus friction, over h. The impact impulse belongs to the same step's momentum
/// balance (World::accumulateWallForces counts it too), so a strip or cell that left it out
/// would not balance the wall force on a step with an impact.
inline Vec3 contactForceOnB(const ContactSet& c, size_t k, double timeStep) {
    return ((c.normalImpulse[k] + c.impactImpulse[k]) * c.normal[k] + c.frictionImpulse[k]) /
           timeStep;
}

/// Branch vector of the Love–Weber stress Σ f ⊗ l / V: x_B − x_A for two particles, contact
/// point − x_A for a wall (the wall side has no centre inside the material). Taken from the
/// levers of detection, not from the moved positions, so it belongs to the same configuration
/// as the force. With f the force on B this is compression-positive: a repulsive contact has
/// f along l.
inline Vec3 contactBranch(const ContactSet& c, size_t k) {
    return (c.flags[k] & kWallContact) ? c.leverA[k] : Vec3(c.leverA[k] - c.leverB[k]);
}

/// Contact point of contact k (m), world frame.
inline Vec3 contactPoint(const ContactSet& c, size_t k, const ParticleStore& p) {
    return p.position[c.bodyA[k]] + c.leverA[k];
}

/// Mean diameter of the dynamic particles (m); 0 if there are none.
double meanDiameter(const ParticleStore& p);

/// The material most dynamic particles are made of (0 if there are none).
MaterialId dominantMaterial(const ParticleStore& p);

/// The container a silo measurement reads, in a cylinder's frame: local z the height above the
/// base along the axis, local x and y across it. In space a Cylinder wall. In the plane a bin:
/// two parallel side walls with horizontal normals facing each other, W = 2 `radius` apart,
/// the axis midway and pointing against gravity, local x across, the base at the lowest
/// grain's bottom between the walls (the floor, once grains rest on it), no height limit.
struct SiloFrame {
    bool plane = false;
    Vec3 base = Vec3::Zero();             ///< on the axis (m)
    Quat orientation = Quat::Identity();  ///< local → world
    double radius = 0.0;                  ///< R, or W/2 in the plane (m)
    double height = 0.0;                  ///< the cylinder's length; +∞ in the plane (m)

    Vec3 toLocal(const Vec3& x) const { return orientation.conjugate() * (x - base); }
    bool holds(const Vec3& local) const {
        return local.z() >= 0.0 && local.z() <= height &&
               std::hypot(local.x(), local.y()) <= radius;
    }
    /// A + P of Janssen's slice balance: the cross-section (m², per metre in the plane) and
    /// the wall length around it (m; the plane's two walls, 1 m each).
    double crossSection() const;
    double perimeter() const;
};

/// The walls a silo measurement names: a Cylinder `wall` in space; in the plane the side
/// `wall` and the wall `across` from it (both planes). The error, prefixed by `measurement`,
/// says why not.
struct SiloWalls {
    int wall = -1, across = -1;
};
Expected<SiloWalls> findSiloWalls(const std::vector<Wall>& walls, bool plane,
                                  const std::string& name, const std::string& across,
                                  const Vec3& gravity, const std::string& measurement);
/// The container now (the plane's base follows the grains).
SiloFrame siloFrame(const SiloWalls& silo, const std::vector<Wall>& walls, const ParticleStore& p,
                    const Vec3& gravity, bool plane);

/// The grains inside a silo: those whose centre lies within its radius and length.
struct CylinderFill {
    double height = 0.0;      ///< H (m) above the base along the axis: the height below which
                              ///< 99 % of the centres lie plus one mean radius
    double mass = 0.0;        ///< total mass of those grains (kg, per metre in the plane)
    double meanRadius = 0.0;  ///< (m)
    int count = 0;
};

CylinderFill measureCylinderFill(const ParticleStore& p, const SiloFrame& silo);

/// The fill of a silo averaged over the sampled steps: what the silo pressure
/// measurements compare their profiles with (fill height, bulk density, |g|).
struct CylinderFillAverage {
    double heightSum = 0.0, massSum = 0.0, gravitySum = 0.0;  ///< Σ over samples of H, mass, |g|
    double cylinderRadius = 0.0;  ///< R (m) of the container (W/2 in the plane)
    double crossSection = 0.0;    ///< its A (m², per metre in the plane)
    double perimeter = 0.0;       ///< its P (m)
    long samples = 0;

    void add(const ParticleStore& p, const SiloFrame& silo, double gravity) {
        const CylinderFill fill = measureCylinderFill(p, silo);
        heightSum += fill.height;
        massSum += fill.mass;
        gravitySum += gravity;
        cylinderRadius = silo.radius;
        crossSection = silo.crossSection();
        perimeter = silo.perimeter();
        ++samples;
    }
    void archive(StateArchive& a);
    double height() const { return heightSum / samples; }
    double gravity() const { return gravitySum / samples; }
    /// ρ_b = mass / (A H) (kg/m³), 0 for an empty container.
    double bulkDensity() const {
        const double volume = crossSection * height();
        return volume > 0.0 ? massSum / samples / volume : 0.0;
    }
};

}  // namespace ndem
