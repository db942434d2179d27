#include "collide/collider.hpp"

#include "core/parallel.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ndem {

namespace {

bool hasFreedom(const ParticleStore& p, Index i) {
    return p.invMass[i] > 0.0 || p.invInertia[i] > 0.0;
}

/// The grid walk's place of bucket b around a cell (`around`: its 27 buckets in walk order,
/// one more slot of padding): the first place whose bucket is b, or 26 when none of the first
/// 26 is. Four places per compare, as every listed pair of every step asks for it.
int firstPlace(const std::array<std::uint32_t, 28>& around, std::uint32_t b) {
#if defined(__SSE2__)
    const __m128i key = _mm_set1_epi32(static_cast<int>(b));
    unsigned found = 0;
    for (int k = 0; k < 7; ++k) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(around.data() + 4 * k));
        found |= static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, key))))
                 << (4 * k);
    }
    found &= (1u << 26) - 1;
    return found ? std::countr_zero(found) : 26;
#else
    int place = 0;
    while (place < 26 && around[place] != b)
        ++place;
    return place;
#endif
}

}  // namespace

// Inline: these run for every listed pair of every step.
inline bool Collider::withinReach(const ParticleStore& p, const CollisionParams& params, Index i,
                                  Index j) const {
    const Grain& a = m_grain[i];
    const Grain& b = m_grain[j];
    // Pairs that move, even side by side, can be driven together during the solve (a
    // compression wave in a falling pack): keep them as speculative contacts.
    const double dist2 = (b.position - a.position).squaredNorm();
    // Largest: one grain may stop (on the floor, on a resting neighbour) while the other
    // goes on, or both keep their relative motion; grains falling side by side keep their gap.
    // Relative: the pair's own closing speed only (a dense flow at large steps).
    double closing = a.speed + b.speed;
    if (params.reach != SpeculativeReach::Sum) {
        closing = (p.velocity[j] - p.velocity[i]).norm();
        if (params.reach == SpeculativeReach::Largest)
            closing = std::max({closing, a.speed, b.speed});
    }
    const double reach = a.radius + b.radius +
                         params.marginFraction * std::min(a.radius, b.radius) +
                         params.timeStep * closing;
    // Without branches (&, not &&): the caller counts what this returns.
    return (a.free | b.free) & (dist2 < reach * reach) & (dist2 > 0.0);
}

inline void Collider::emitPair(Index i, Index j, ContactSet& out, size_t c) const {
    // Body A is the particle with the smaller stable id so that the key, the normal's sense
    // and the remembered impulses agree from step to step whatever the storage order.
    const Grain* gi = &m_grain[i];
    const Grain* gj = &m_grain[j];
    const Vec3 d = gj->position - gi->position;
    const double dist = std::sqrt(d.squaredNorm());
    Index a = i, b = j;
    Vec3 nrm = d / dist;
    if (gj->id < gi->id) {
        std::swap(a, b);
        nrm = -nrm;
    }
    const double overlap = gi->radius + gj->radius - dist;
    const Grain& ga = m_grain[a];
    const Grain& gb = m_grain[b];
    const Vec3 point = ga.position + (ga.radius - 0.5 * overlap) * nrm;
    const double da = 2.0 * ga.radius, db = 2.0 * gb.radius;
    const double meanDiameter = 0.5 * (da + db);
    out.set(c, a, b, nrm, point - ga.position, point - gb.position, overlap, meanDiameter,
            da * db / (da + db), ga.material, gb.material, particlePairKey(ga.id, gb.id),
            overlap >= -kTouchTolerance * meanDiameter ? kTouching : 0);
}

const NeighbourList& Collider::updateLists(const ParticleStore& p, const CollisionParams& params,
                                           const std::function<void()>& beforeSearch) {
    const int n = static_cast<int>(p.size());
    const int threads = n < kMinParallelItems ? 1 : std::max(1, params.threads);
    m_speed.resize(n);
    m_grain.resize(n);
    parallelFor(n, threads, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            m_speed[i] = p.velocity[i].norm();
            m_grain[i] = {p.position[i], p.radius[i],   m_speed[i],
                          p.id[i],       p.material[i], hasFreedom(p, i)};
        }
    });
    const NeighbourParams list{params.marginFraction, params.timeStep, params.skinFraction,
                               threads};
    m_neighbours.update(p, m_speed, list, beforeSearch);
    return m_neighbours;
}

void Collider::detect(const ParticleStore& p, const std::vector<Wall>& walls,
                      const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                      ContactSet& out) {
    out.clear();
    const int n = static_cast<int>(p.size());
    const int threads = n < kMinParallelItems ? 1 : std::max(1, params.threads);
    updateLists(p, params);

    // The pairs of i are listed in the order of the hashed grid walk this detection replaced,
    // on cells as wide as the fastest pair's reach: by the first place among the 27 cells
    // around i's (BroadPhase::bucketsAround) whose bucket is j's bucket, then by j. It is the
    // PGS sweep order, so keeping it keeps every trajectory of the grid walk, bit for bit.
    double rMax = 0.0, vMax = 0.0;
    for (int i = 0; i < n; ++i) {
        rMax = std::max(rMax, p.radius[i]);
        vMax = std::max(vMax, m_speed[i]);
    }
    const double invCell =
        1.0 / (2.0 * rMax * (1.0 + params.marginFraction) + 2.0 * vMax * params.timeStep);
    const std::uint32_t mask = BroadPhase::maskFor(n);
    m_cell.resize(n);
    m_bucket.resize(n);
    parallelFor(n, threads, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            m_cell[i] = BroadPhase::cellAt(p.position[i], invCell);
            m_bucket[i] = BroadPhase::hashCell(m_cell[i][0], m_cell[i][1], m_cell[i][2], mask);
        }
    });

    // Each thread filters a contiguous range of the lists; the contacts are written in range
    // order, so the set is the same for any thread count.
    m_accepted.resize(threads);
    for (auto& a : m_accepted)
        a.clear();
    parallel::team(threads, [&] {
        const int t = parallel::threadIndex(), team = parallel::teamSize();
        const auto [begin, end] = parallel::share(0, n, t, team);
        std::vector<std::pair<Index, Index>>& mine = m_accepted[t];
        // (place << 32 | j): sorting the keys sorts by place, then by j.
        std::vector<std::uint64_t> ranked;
        std::array<std::uint32_t, 28> around{};
        std::array<std::int64_t, 3> aroundCell{};
        bool aroundValid = false;
        for (Index i = begin; i < end; ++i) {
            // Every partner is written and counted only if kept: a kept-or-not branch per
            // listed pair would be mispredicted about every third time.
            const std::span<const std::int32_t> listed = m_neighbours.of(i);
            const std::span<const std::int32_t> extra = m_neighbours.escapedOf(i);
            if (ranked.size() < listed.size() + extra.size())
                ranked.resize(2 * (listed.size() + extra.size()));
            size_t count = 0;
            if (!m_neighbours.escaped(i))
                for (std::int32_t j : listed) {
                    ranked[count] = static_cast<std::uint64_t>(j);
                    count += static_cast<size_t>(!m_neighbours.escaped(j)) &
                             static_cast<size_t>(withinReach(p, params, i, j));
                }
            for (std::int32_t j : extra) {
                ranked[count] = static_cast<std::uint64_t>(j);
                count += withinReach(p, params, i, j);
            }
            if (count > 1) {
                // Neighbours in storage (z-order) often share a cell: hash its 27 once.
                const auto& c = m_cell[i];
                if (!aroundValid || c != aroundCell) {
                    const std::array<std::uint32_t, 27> buckets =
                        BroadPhase::bucketsAround(c, mask);
                    std::copy(buckets.begin(), buckets.end(), around.begin());
                    aroundCell = c;
                    aroundValid = true;
                }
                for (size_t k = 0; k < count; ++k)
                    ranked[k] |= static_cast<std::uint64_t>(firstPlace(around, m_bucket[ranked[k]]))
                                 << 32;
                std::sort(ranked.begin(), ranked.begin() + count);
            }
            for (size_t k = 0; k < count; ++k)
                mine.emplace_back(i, static_cast<Index>(ranked[k] & 0xFFFFFFFFu));
        }
        parallel::barrier();
        size_t first = 0, total = 0;
        for (int u = 0; u < team; ++u) {
            if (u == t) first = total;
            total += m_accepted[u].size();
        }
        if (t == 0) out.resize(total);
        parallel::barrier();
        for (const auto& [i, j] : mine)
            emitPair(i, j, out, first++);
    });
    detectWalls(p, walls, meshes, params, out);
}

Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = ab.dot(ap), d2 = ac.dot(ap);
    if (d1 <= 0.0 && d2 <= 0.0) return a;
    const Vec3 bp = p - b;
    const double d3 = ab.dot(bp), d4 = ac.dot(bp);
    if (d3 >= 0.0 && d4 <= d3) return b;
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
    const Vec3 cp = p - c;
    const double d5 = ab.dot(cp), d6 = ac.dot(cp);
    if (d6 >= 0.0 && d5 <= d6) return c;
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
        return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
    const double denom = 1.0 / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

void Collider::detectWalls(const ParticleStore& p, const std::vector<Wall>& walls,
                           const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                           ContactSet& out) {
    m_wallCandidates.resize(walls.size());
    m_wallTests = 0;
    for (size_t w = 0; w < walls.size(); ++w) {
        const Wall& wall = walls[w];
        if (!wall.enabled) continue;
        const std::uint32_t wallIndex = static_cast<std::uint32_t>(w);
        // What does not depend on the particle, once per wall (the same expressions as per
        // particle, so the same bits).
        const double wallLinearSpeed = wall.linearVelocity.norm();
        const double wallSpin = wall.angularVelocity.norm();
        const double wallSurfaceSpeed = wall.surfaceVelocity.norm();
        const Vec3 up = wall.orientation * Vec3::UnitZ();
        auto test = [&](Index i) {
            ++m_wallTests;
            if (!hasFreedom(p, i)) return;
            const double r = p.radius[i];
            const Vec3& x = p.position[i];
            const double staticMargin = params.marginFraction * r;

            // Emits a contact given the outward wall normal (towards the particle, world frame)
            // and the signed distance from the wall surface to the sphere centre.
            auto emit = [&](const Vec3& outward, double distance, std::uint32_t feature) {
                const Vec3 nrm = -outward;  // from the particle (A) into the wall (B)
                const double overlap = r - distance;
                const Vec3 point = x + (r - 0.5 * overlap) * nrm;
                const Vec3 wallVelocity = wall.velocityAt(point, nrm);
                const double travel = params.timeStep * (m_speed[i] + wallVelocity.norm());
                if (overlap <
                    (params.touchingOnly ? -kTouchTolerance * 2.0 * r : -staticMargin - travel))
                    return;
                const double d = 2.0 * r;
                const size_t c = out.add(
                    i, static_cast<Index>(w), nrm, point - x, point - wall.position, overlap, d, d,
                    p.material[i], wall.material, wallKey(p.id[i], wallIndex, feature),
                    kWallContact | (overlap >= -kTouchTolerance * d ? kTouching : 0));
                out.wallVelocity[c] = wallVelocity;
                out.wallAngularVelocity[c] = wall.angularVelocity;
            };
            const double wallSpeed =
                wallLinearSpeed + (wallSpin > 0.0 ? wallSpin * (x - wall.position).norm() : 0.0) +
                wallSurfaceSpeed;
            const double reach = r + staticMargin + params.timeStep * (m_speed[i] + wallSpeed);

            switch (wall.shape) {
                case WallShape::Plane: {
                    const double distance = (x - wall.position).dot(up);
                    if (distance < reach) emit(up, distance, 0);
                    break;
                }
                case WallShape::Box: {
                    const Vec3 local = wall.toLocal(x);
                    const Vec3& he = wall.halfExtents;
                    const Vec3 q = local.cwiseMax(-he).cwiseMin(he);
                    const Vec3 d = local - q;
                    const double dist = d.norm();
                    if (dist > 0.0) {
                        if (dist < reach) emit(wall.orientation * (d / dist), dist, 0);
                    } else {
                        // Centre inside the box: leave through the nearest face.
                        const Vec3 depth = he - local.cwiseAbs();
                        int axis = 0;
                        depth.minCoeff(&axis);
                        Vec3 outwardLocal = Vec3::Zero();
                        outwardLocal[axis] = local[axis] >= 0.0 ? 1.0 : -1.0;
                        emit(wall.orientation * outwardLocal, -depth[axis], 0);
                    }
                    break;
                }
                case WallShape::Cylinder: {
                    const Vec3 local = wall.toLocal(x);
                    if (local.z() < 0.0 || local.z() > wall.height) break;
                    const double rho = std::hypot(local.x(), local.y());
                    if (rho <= 0.0) break;
                    const double distance = wall.radius - rho;  // centre to the inside surface
                    if (distance < reach) {
                        const Vec3 radial(local.x() / rho, local.y() / rho, 0.0);
                        emit(wall.orientation * (-radial), distance, 0);
                    }
                    break;
                }
                case WallShape::Mesh: {
                    if (wall.mesh < 0 || wall.mesh >= static_cast<int>(meshes.size())) break;
                    const TriangleMesh& mesh = meshes[wall.mesh];
                    const Vec3 local = wall.toLocal(x);
                    const Vec3 ext = Vec3::Constant(reach);
                    const size_t first = out.size();
                    mesh.forEachCandidate(local - ext, local + ext, [&](int t) {
                        const auto& tri = mesh.triangles[t];
                        const Vec3 q =
                            closestPointOnTriangle(local, mesh.vertices[tri[0]],
                                                   mesh.vertices[tri[1]], mesh.vertices[tri[2]]);
                        const Vec3 d = local - q;
                        const double dist = d.norm();
                        if (dist >= reach) return;
                        // Neighbouring triangles sharing an edge or vertex report the same
                        // closest point: keep one contact per point.
                        const Vec3 world = wall.toWorld(q);
                        for (size_t c = first; c < out.size(); ++c) {
                            const Vec3 surface = x + (r - out.overlap[c]) * out.normal[c];
                            if ((surface - world).squaredNorm() < 1e-12 * r * r) return;
                        }
                        Vec3 outwardLocal;
                        if (dist > 1e-12 * r) {
                            outwardLocal = d / dist;
                        } else {
                            const Vec3& a = mesh.vertices[tri[0]];
                            outwardLocal = (mesh.vertices[tri[1]] - a)
                                               .cross(mesh.vertices[tri[2]] - a)
                                               .normalized();
                        }
                        emit(wall.orientation * outwardLocal, dist, static_cast<std::uint32_t>(t));
                    });
                    break;
                }
            }
        };
        // Grains in ascending order, as a test of every grain would emit them.
        if (const std::vector<Index>* grains = wallGrains(p, wall, w, params)) {
            for (Index i : *grains)
                test(i);
        } else {
            for (size_t k = 0; k < p.size(); ++k)
                test(static_cast<Index>(k));
        }
    }
}

namespace {

/// Signed distance from a sphere centre to a wall's surface, on the side the grains are:
/// 1-Lipschitz in x, so a grain that moves by s changes it by at most s. Cylinders: +∞ beyond
/// `slack` past either end (the detection skips grains beyond the ends).
double wallDistance(const Wall& wall, const Vec3& x, double slack) {
    switch (wall.shape) {
        case WallShape::Plane:
            return (x - wall.position).dot(wall.orientation * Vec3::UnitZ());
        case WallShape::Box: {
            const Vec3 local = wall.toLocal(x);
            const Vec3 d = local - local.cwiseMax(-wall.halfExtents).cwiseMin(wall.halfExtents);
            const double dist = d.norm();
            return dist > 0.0 ? dist : -(wall.halfExtents - local.cwiseAbs()).minCoeff();
        }
        case WallShape::Cylinder: {
            const Vec3 local = wall.toLocal(x);
            if (local.z() < -slack || local.z() > wall.height + slack)
                return std::numeric_limits<double>::infinity();
            return wall.radius - std::hypot(local.x(), local.y());
        }
        case WallShape::Mesh:
            break;
    }
    return -std::numeric_limits<double>::infinity();
}

}  // namespace

bool Collider::WallCandidates::sameWall(const Wall& wall, const CollisionParams& params,
                                        long builds) const {
    return this->builds == builds && timeStep == params.timeStep &&
           marginFraction == params.marginFraction && shape == wall.shape &&
           position == wall.position && orientation.coeffs() == wall.orientation.coeffs() &&
           halfExtents == wall.halfExtents && radius == wall.radius && height == wall.height &&
           surfaceVelocity == wall.surfaceVelocity;
}

const std::vector<Index>* Collider::wallGrains(const ParticleStore& p, const Wall& wall, size_t w,
                                               const CollisionParams& params) {
    // Only a wall that does not move keeps its candidates; meshes have their own grid.
    if (wall.shape == WallShape::Mesh || !wall.linearVelocity.isZero() ||
        !wall.angularVelocity.isZero())
        return nullptr;
    WallCandidates& c = m_wallCandidates[w];
    if (!c.sameWall(wall, params, m_neighbours.builds())) {
        // A grain of the last search that is to reach the wall before it escapes its lists
        // was, at the search, within its contact reach plus its extension e_k of the wall (it
        // moves by less than e_k minus h|v|, the speed part of its reach).
        c.builds = m_neighbours.builds();
        c.timeStep = params.timeStep;
        c.marginFraction = params.marginFraction;
        c.shape = wall.shape;
        c.position = wall.position;
        c.orientation = wall.orientation;
        c.halfExtents = wall.halfExtents;
        c.radius = wall.radius;
        c.height = wall.height;
        c.surfaceVelocity = wall.surfaceVelocity;
        c.grains.clear();
        const double wallSpeed = wall.surfaceVelocity.norm();
        for (size_t k = 0; k < m_neighbours.builtCount(); ++k) {
            const double e = m_neighbours.extension(k);
            const double r = p.radius[k];
            // 10⁻⁹ above the bound: the round-off of the distances compared.
            const double reach =
                (1.0 + 1e-9) * (r + params.marginFraction * r + params.timeStep * wallSpeed + e);
            if (wallDistance(wall, m_neighbours.builtPosition(k), e) < reach)
                c.grains.push_back(static_cast<Index>(k));
        }
    }
    // The escaped grains (and those added since the search) are tested whatever they were;
    // slots past the end of the store (grains removed since) are not.
    const std::span<const std::int32_t> escaped = m_neighbours.escapedGrains();
    const bool shrunk = m_neighbours.builtCount() > p.size();
    if (escaped.empty() && !shrunk) return &c.grains;
    const auto present =
        std::lower_bound(c.grains.begin(), c.grains.end(), static_cast<Index>(p.size()));
    m_wallGrains.clear();
    std::set_union(c.grains.begin(), present, escaped.begin(), escaped.end(),
                   std::back_inserter(m_wallGrains));
    return &m_wallGrains;
}

}  // namespace ndem
