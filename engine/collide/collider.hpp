// Contact detection: broad phase, exact sphere narrow phase, and walls.
#pragma once

#include "collide/broad_phase.hpp"
#include "collide/contact_set.hpp"
#include "core/particles.hpp"
#include "core/triangle_mesh.hpp"
#include "core/wall.hpp"

#include <vector>

namespace ndem {

struct CollisionParams {
    double marginFraction = 0.05;  ///< static detection margin, fraction of the smaller radius
    double timeStep = 0.0;         ///< h (s); approaching pairs within h·u_approach are kept too
};

/// Finds every sphere–sphere and sphere–wall pair that touches, or is about to within one step
/// (speculative contacts keep their multipliers and let the impact stage act before overlap).
class Collider {
public:
    void detect(const ParticleStore& particles, const std::vector<Wall>& walls,
                const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                ContactSet& out);

    const BroadPhase& broadPhase() const { return m_broad; }
    /// Edge of the broad-phase cells chosen at the last detect() (m).
    double cellSize() const { return m_broad.cellSize(); }

private:
    void detectWalls(const ParticleStore& particles, const std::vector<Wall>& walls,
                     const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                     ContactSet& out);
    BroadPhase m_broad;
};

/// Closest point to p on triangle (a, b, c) (Ericson, Real-Time Collision Detection 5.1.5).
Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace ndem
