// What the continuum measurements (wall pressure, axis pressure, coarse-grained fields) read
// from one step: contact forces and Love–Weber branch vectors, and the fill of a container.
#pragma once

#include "collide/contact_set.hpp"
#include "core/error.hpp"
#include "core/particles.hpp"
#include "core/state_archive.hpp"
#include "core/wall.hpp"

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

/// The grains inside a Cylinder wall: those whose centre lies within its radius and length.
struct CylinderFill {
    double height = 0.0;      ///< H (m) above the base along the axis: the height below which
                              ///< 99 % of the centres lie plus one mean radius
    double mass = 0.0;        ///< total mass of those grains (kg)
    double meanRadius = 0.0;  ///< (m)
    int count = 0;
    /// Bulk density ρ_b = mass / (π R² H) (kg/m³), 0 for an empty container.
    double bulkDensity(double radius) const;
};

CylinderFill measureCylinderFill(const ParticleStore& p, const Wall& cylinder);

/// The fill of a cylinder averaged over the sampled steps: what the silo pressure
/// measurements compare their profiles with (fill height, bulk density, |g|).
struct CylinderFillAverage {
    double heightSum = 0.0, massSum = 0.0, gravitySum = 0.0;  ///< Σ over samples of H, mass, |g|
    double cylinderRadius = 0.0;                              ///< R (m) of the container
    long samples = 0;

    void add(const ParticleStore& p, const Wall& cylinder, double gravity) {
        const CylinderFill fill = measureCylinderFill(p, cylinder);
        heightSum += fill.height;
        massSum += fill.mass;
        gravitySum += gravity;
        cylinderRadius = cylinder.radius;
        ++samples;
    }
    void archive(StateArchive& a);
    double height() const { return heightSum / samples; }
    double gravity() const { return gravitySum / samples; }
    double bulkDensity() const {
        return CylinderFill{height(), massSum / samples, 0.0, 0}.bulkDensity(cylinderRadius);
    }
};

/// Index of the Cylinder wall called `name`; the error, prefixed by `measurement`, says why not.
Expected<int> findCylinderWall(const std::vector<Wall>& walls, const std::string& name,
                               const std::string& measurement);

}  // namespace ndem
