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
    /// detect() again after velocities changed within the step (the impact stage), with the
    /// same particles in the same storage order: only the pairs of particles whose speed or
    /// position changed are searched again. The result is identical to detect()'s.
    void redetect(const ParticleStore& particles, const std::vector<Wall>& walls,
                  const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                  ContactSet& out);

private:
    /// Sphere–sphere contacts, in the order a single grid of cells wide enough for the fastest
    /// pair would list them (the order fixes the PGS sweep order, hence the trajectories), but
    /// found on a grid sized for the slow majority: one grain falling fast must not make every
    /// resting grain test thousands of neighbours.
    void detectPairs(const ParticleStore& particles, const CollisionParams& params, ContactSet& out);
    /// Pairs with a fast particle, listed under their smaller index (CSR in m_fastStart).
    void findFastPairs(const ParticleStore& particles, double pairReach, double vMax,
                       const CollisionParams& params);
    void detectWalls(const ParticleStore& particles, const std::vector<Wall>& walls,
                     const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                     ContactSet& out);
    /// Whether spheres i and j (storage indices) can touch within the step.
    bool withinReach(const ParticleStore& p, const CollisionParams& params, Index i, Index j) const;
    /// Adds the contact of i and j unless their gap exceeds margin and travel; says whether.
    bool emitPair(const ParticleStore& p, const CollisionParams& params, Index i, Index j,
                  ContactSet& out) const;
    /// Emits m_accepted (pairs of i) in order and remembers them for redetect().
    void emitAccepted(const ParticleStore& p, const CollisionParams& params, Index i, ContactSet& out);
    /// The pairs, for redetect(), of the particles whose speed or position changed since
    /// detect(): (smaller index, rank, larger index), sorted.
    void findChangedPairs(const ParticleStore& p, const CollisionParams& params);

    BroadPhase m_broad;   ///< the grid that fixes the order of the contacts
    BroadPhase m_near;    ///< the grid sized for slow pairs
    std::vector<double> m_speed;
    std::vector<std::uint8_t> m_fast;
    std::vector<std::pair<std::int32_t, std::int32_t>> m_fastPairs;
    std::vector<std::int32_t> m_fastStart, m_fastItems, m_fastCursor;
    std::vector<std::pair<int, std::int32_t>> m_accepted;  ///< (bucket rank, j) of one particle
    // What the last detection saw and emitted, for redetect().
    double m_vMax = 0.0;
    std::vector<Vec3> m_position;
    std::vector<double> m_newSpeed;
    std::vector<std::uint8_t> m_changed;
    std::vector<std::int32_t> m_emitStart, m_nextEmitStart;
    std::vector<std::pair<int, std::int32_t>> m_emitted, m_nextEmitted;  ///< CSR (rank, j) by i
    struct ChangedPair {
        std::int32_t i;
        int rank;
        std::int32_t j;
        auto operator<=>(const ChangedPair&) const = default;
    };
    std::vector<ChangedPair> m_changedPairs;
};

/// Closest point to p on triangle (a, b, c) (Ericson, Real-Time Collision Detection 5.1.5).
Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace ndem
