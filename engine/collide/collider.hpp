// Contact detection: broad phase, exact sphere narrow phase, and walls.
#pragma once

#include "collide/contact_set.hpp"
#include "collide/neighbour_list.hpp"
#include "core/particles.hpp"
#include "core/settings.hpp"
#include "core/triangle_mesh.hpp"
#include "core/wall.hpp"

#include <array>
#include <functional>
#include <vector>

namespace ndem {

struct CollisionParams {
    double marginFraction = 0.05;  ///< static detection margin, fraction of the smaller radius
    double timeStep = 0.0;         ///< h (s); approaching pairs within h·u_approach are kept too
    double skinFraction = 0.5;     ///< neighbour-list skin, fraction of the radius
    int threads = 1;               ///< threads that filter the lists (the result is the same)
    SpeculativeReach reach = SpeculativeReach::Sum;  ///< closing speed of a speculative pair
    /// Only wall contacts that touch (δ ≥ −kTouchTolerance·d): the smooth DEM, where a gap
    /// carries no force and no spring, needs no speculative contacts (its pass over the lists,
    /// dem/smooth_pairs.hpp, tests its pairs itself).
    bool touchingOnly = false;
};

/// Finds every sphere–sphere and sphere–wall pair that touches, or is about to within one step
/// (speculative contacts keep their multipliers and let the impact stage act before overlap).
/// Sphere pairs come from Verlet neighbour lists, searched again only when a particle has used
/// up its share of the skin; they are listed by smaller storage index, then in the order of a
/// hashed grid walk (the order fixes the PGS sweep order, hence the trajectories), whatever the
/// skin. Wall contacts follow, wall by wall, in grain order.
class Collider {
  public:
    void detect(const ParticleStore& particles, const std::vector<Wall>& walls,
                const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                ContactSet& out);
    const NeighbourList& neighbours() const { return m_neighbours; }
    /// Grains tested against the walls in the last detection, all walls summed (a test hook).
    size_t wallTests() const { return m_wallTests; }

    /// What the pair filter and the contacts read of a grain, in one place (48 bytes): the
    /// filter reads every listed partner.
    struct Grain {
        Vec3 position;
        double radius = 0.0;
        double speed = 0.0;  ///< |v|
        std::uint32_t id = 0;
        MaterialId material = 0;
        bool free = false;  ///< has mass or inertia to move
    };

    /// The first half of detect() for a caller that walks the pairs itself (the smooth DEM's
    /// pass, dem/smooth_pairs.hpp): the grains read and the lists readied for this step.
    /// `beforeSearch` runs while the old lists are still there, if the grid is searched again.
    const NeighbourList& updateLists(const ParticleStore& particles, const CollisionParams& params,
                                     const std::function<void()>& beforeSearch = {});
    /// The grains as updateLists() or detect() last read them, by storage index.
    const std::vector<Grain>& grains() const { return m_grain; }
    /// Appends the wall contacts, wall by wall in grain order, after updateLists() or detect().
    void detectWalls(const ParticleStore& particles, const std::vector<Wall>& walls,
                     const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                     ContactSet& out);

  private:
    /// Whether spheres i and j (storage indices) can touch within the step.
    bool withinReach(const ParticleStore& p, const CollisionParams& params, Index i, Index j) const;
    /// Writes the contact of i and j as contact c.
    void emitPair(Index i, Index j, ContactSet& out, size_t c) const;
    /// The grains to test against wall w, ascending, or nullptr for all: a wall that does not
    /// move lists, with each neighbour search, the grains that can reach it before they escape
    /// their lists, and the escaped grains are added.
    const std::vector<Index>* wallGrains(const ParticleStore& p, const Wall& wall, size_t w,
                                         const CollisionParams& params);

    /// A still wall's candidate grains and what they were found for.
    struct WallCandidates {
        long builds = -1;  ///< the neighbour search they go with
        double timeStep = 0.0, marginFraction = 0.0;
        WallShape shape = WallShape::Plane;
        Vec3 position = Vec3::Zero();
        Quat orientation = Quat::Identity();
        Vec3 halfExtents = Vec3::Zero();
        double radius = 0.0, height = 0.0;
        Vec3 surfaceVelocity = Vec3::Zero();
        std::vector<Index> grains;
        bool sameWall(const Wall& wall, const CollisionParams& params, long builds) const;
    };

    NeighbourList m_neighbours;
    std::vector<double> m_speed;
    std::vector<Grain> m_grain;
    std::vector<std::vector<std::pair<Index, Index>>> m_accepted;  ///< per thread
    std::vector<std::array<std::int64_t, 3>> m_cell;  ///< cell of each particle in the order grid
    std::vector<std::uint32_t> m_bucket;              ///< and its bucket
    std::vector<WallCandidates> m_wallCandidates;     ///< per wall
    std::vector<Index> m_wallGrains;                  ///< candidates and escaped grains
    size_t m_wallTests = 0;
};

/// Closest point to p on triangle (a, b, c) (Ericson, Real-Time Collision Detection 5.1.5).
Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace ndem
