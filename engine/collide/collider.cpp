#include "collide/collider.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

bool hasFreedom(const ParticleStore& p, Index i) {
    return p.invMass[i] > 0.0 || p.invInertia[i] > 0.0;
}

}  // namespace

void Collider::detect(const ParticleStore& p, const std::vector<Wall>& walls,
                      const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                      ContactSet& out) {
    out.clear();
    m_emitStart.assign(1, 0);
    m_emitted.clear();
    if (p.size() > 0) detectPairs(p, params, out);
    detectWalls(p, walls, meshes, params, out);
}

bool Collider::withinReach(const ParticleStore& p, const CollisionParams& params, Index i,
                           Index j) const {
    if (!hasFreedom(p, i) && !hasFreedom(p, j)) return false;
    // Pairs that move, even side by side, can be driven together during the solve (a
    // compression wave in a falling pack): keep them as speculative contacts.
    const double dist2 = (p.position[j] - p.position[i]).squaredNorm();
    const double reach = p.radius[i] + p.radius[j] +
                         params.marginFraction * std::min(p.radius[i], p.radius[j]) +
                         params.timeStep * (m_speed[i] + m_speed[j]);
    return dist2 < reach * reach && dist2 > 0.0;
}

bool Collider::emitPair(const ParticleStore& p, const CollisionParams& params, Index i, Index j,
                        ContactSet& out) const {
    // Body A is the particle with the smaller stable id so that the key, the normal's sense
    // and the remembered impulses agree from step to step whatever the storage order.
    const Vec3 d = p.position[j] - p.position[i];
    const double dist = std::sqrt(d.squaredNorm());
    Index a = i, b = j;
    Vec3 nrm = d / dist;
    if (p.id[j] < p.id[i]) {
        std::swap(a, b);
        nrm = -nrm;
    }
    const double overlap = p.radius[i] + p.radius[j] - dist;
    const double staticMargin = params.marginFraction * std::min(p.radius[i], p.radius[j]);
    const double travel = params.timeStep * (m_speed[i] + m_speed[j]);
    if (overlap < -staticMargin - travel) return false;
    const Vec3 point = p.position[a] + (p.radius[a] - 0.5 * overlap) * nrm;
    const double da = 2.0 * p.radius[a], db = 2.0 * p.radius[b];
    const double meanDiameter = 0.5 * (da + db);
    out.add(a, b, nrm, point - p.position[a], point - p.position[b], overlap, meanDiameter,
            da * db / (da + db), p.material[a], p.material[b], particlePairKey(p.id[a], p.id[b]),
            overlap >= -kTouchTolerance * meanDiameter ? kTouching : 0);
    return true;
}

void Collider::emitAccepted(const ParticleStore& p, const CollisionParams& params, Index i,
                            ContactSet& out) {
    std::sort(m_accepted.begin(), m_accepted.end());
    for (const auto& [rank, j] : m_accepted)
        if (emitPair(p, params, i, j, out)) m_nextEmitted.emplace_back(rank, j);
    m_nextEmitStart.push_back(static_cast<std::int32_t>(m_nextEmitted.size()));
}

namespace {

int rankIn(const std::array<std::uint32_t, 27>& order, int count, std::uint32_t bucket) {
    int rank = 0;
    while (rank < count && order[rank] != bucket) ++rank;
    return rank;
}

}  // namespace

void Collider::detectPairs(const ParticleStore& p, const CollisionParams& params, ContactSet& out) {
    const size_t n = p.size();
    double rMax = 0.0, vMax = 0.0;
    m_speed.resize(n);
    for (size_t i = 0; i < n; ++i) {
        rMax = std::max(rMax, p.radius[i]);
        m_speed[i] = p.velocity[i].norm();
        vMax = std::max(vMax, m_speed[i]);
    }
    m_vMax = vMax;
    m_position = p.position;
    // A cell of the ordering grid holds any pair that can touch within the step: both
    // diameters, margin and the distance two particles at vMax can close in h.
    const double pairReach = 2.0 * rMax * (1.0 + params.marginFraction);
    m_broad.build(p.position, pairReach + 2.0 * vMax * params.timeStep);

    // Slow particles (closing at most a quarter radius per step) pair on a grid sized for them;
    // the few fast ones search a box as wide as their own reach.
    const double vCut = params.timeStep > 0.0 ? 0.25 * rMax / params.timeStep : vMax;
    const bool anyFast = vMax > vCut;
    m_fast.assign(n, 0);
    if (anyFast) {
        for (size_t i = 0; i < n; ++i) m_fast[i] = m_speed[i] > vCut;
        m_near.build(p.position, pairReach + 2.0 * vCut * params.timeStep);
        findFastPairs(p, pairReach, vMax, params);
    }
    const BroadPhase& near = anyFast ? m_near : m_broad;

    m_nextEmitStart.assign(1, 0);
    m_nextEmitted.clear();
    std::array<std::uint32_t, 27> order{}, around{};
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(n); ++i) {
        const int orderCount = m_broad.neighbourBuckets(p.position[i], order);
        m_accepted.clear();
        auto consider = [&](std::int32_t j) {
            if (withinReach(p, params, i, j))
                m_accepted.emplace_back(rankIn(order, orderCount, m_broad.bucketOfPoint(j)), j);
        };
        if (!m_fast[i]) {
            const int count = anyFast ? near.neighbourBuckets(p.position[i], around) : orderCount;
            const std::array<std::uint32_t, 27>& buckets = anyFast ? around : order;
            for (int s = 0; s < count; ++s)
                near.forEachInBucket(buckets[s], [&](std::int32_t j) {
                    if (j > i && !m_fast[j]) consider(j);
                });
        }
        if (anyFast)
            for (std::int32_t k = m_fastStart[i]; k < m_fastStart[i + 1]; ++k) consider(m_fastItems[k]);
        emitAccepted(p, params, i, out);
    }
    m_emitStart.swap(m_nextEmitStart);
    m_emitted.swap(m_nextEmitted);
}

void Collider::redetect(const ParticleStore& p, const std::vector<Wall>& walls,
                        const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                        ContactSet& out) {
    const size_t n = p.size();
    if (n == 0 || n != m_speed.size() || m_emitStart.size() != n + 1) {
        detect(p, walls, meshes, params, out);
        return;
    }
    double vMax = 0.0;
    m_newSpeed.resize(n);
    for (size_t i = 0; i < n; ++i) {
        m_newSpeed[i] = p.velocity[i].norm();
        vMax = std::max(vMax, m_newSpeed[i]);
    }
    // A new top speed changes the ordering grid's cells, hence the order of every contact.
    if (vMax != m_vMax) {
        detect(p, walls, meshes, params, out);
        return;
    }
    // Re-formed aggregates place their members again, which may move them by an ulp: such a
    // member counts as changed, and the grid takes its cell again.
    bool moved = false;
    m_changed.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const bool at = p.position[i] == m_position[i];
        moved |= !at;
        m_changed[i] = !at || m_newSpeed[i] != m_speed[i];
    }
    if (moved) {
        m_position = p.position;
        m_broad.build(p.position, m_broad.cellSize());
    }
    m_speed.swap(m_newSpeed);
    findChangedPairs(p, params);

    // Every pair of unchanged particles keeps its verdict and its place; the changed pairs are
    // merged in by (rank, j) under their smaller index.
    out.clear();
    m_nextEmitStart.assign(1, 0);
    m_nextEmitted.clear();
    size_t next = 0;
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(n); ++i) {
        m_accepted.clear();
        if (!m_changed[i])
            for (std::int32_t k = m_emitStart[i]; k < m_emitStart[i + 1]; ++k)
                if (!m_changed[m_emitted[k].second]) m_accepted.push_back(m_emitted[k]);
        for (; next < m_changedPairs.size() && m_changedPairs[next].i == i; ++next)
            m_accepted.emplace_back(m_changedPairs[next].rank, m_changedPairs[next].j);
        emitAccepted(p, params, i, out);
    }
    m_emitStart.swap(m_nextEmitStart);
    m_emitted.swap(m_nextEmitted);
    detectWalls(p, walls, meshes, params, out);
}

void Collider::findChangedPairs(const ParticleStore& p, const CollisionParams& params) {
    // The ordering grid's cells still hold every pair within reach (the top speed is the same).
    m_changedPairs.clear();
    std::array<std::uint32_t, 27> buckets{}, order{};
    const std::int32_t n = static_cast<std::int32_t>(p.size());
    for (std::int32_t c = 0; c < n; ++c) {
        if (!m_changed[c]) continue;
        const int count = m_broad.neighbourBuckets(p.position[c], buckets);
        for (int s = 0; s < count; ++s)
            m_broad.forEachInBucket(buckets[s], [&](std::int32_t j) {
                // Two changed particles find each other twice: keep the pair from the smaller.
                if (j == c || (m_changed[j] && j < c)) return;
                const std::int32_t lo = std::min(c, j), hi = std::max(c, j);
                if (!withinReach(p, params, lo, hi)) return;
                const std::uint32_t bucket = m_broad.bucketOfPoint(hi);
                const int rank = lo == c ? rankIn(buckets, count, bucket)
                                         : rankIn(order, m_broad.neighbourBuckets(p.position[lo], order), bucket);
                m_changedPairs.push_back({lo, rank, hi});
            });
    }
    std::sort(m_changedPairs.begin(), m_changedPairs.end());
}

void Collider::findFastPairs(const ParticleStore& p, double pairReach, double vMax,
                             const CollisionParams& params) {
    const size_t n = p.size();
    m_fastPairs.clear();
    for (std::int32_t f = 0; f < static_cast<std::int32_t>(n); ++f) {
        if (!m_fast[f]) continue;
        const double reach = pairReach + params.timeStep * (m_speed[f] + vMax);
        const Vec3 ext = Vec3::Constant(reach);
        m_near.forEachInBox(p.position[f] - ext, p.position[f] + ext, [&](std::int32_t j) {
            // Two fast particles find each other twice: keep the pair from the smaller index.
            if (j == f || (m_fast[j] && j < f)) return;
            if ((p.position[j] - p.position[f]).squaredNorm() >= reach * reach) return;
            m_fastPairs.emplace_back(std::min(f, j), std::max(f, j));
        });
    }
    m_fastStart.assign(n + 1, 0);
    for (const auto& [lo, hi] : m_fastPairs) ++m_fastStart[lo + 1];
    for (size_t i = 0; i < n; ++i) m_fastStart[i + 1] += m_fastStart[i];
    m_fastItems.resize(m_fastPairs.size());
    m_fastCursor.assign(m_fastStart.begin(), m_fastStart.end() - 1);
    for (const auto& [lo, hi] : m_fastPairs) m_fastItems[m_fastCursor[lo]++] = hi;
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
    for (size_t w = 0; w < walls.size(); ++w) {
        const Wall& wall = walls[w];
        if (!wall.enabled) continue;
        const std::uint32_t wallIndex = static_cast<std::uint32_t>(w);
        for (size_t k = 0; k < p.size(); ++k) {
            const Index i = static_cast<Index>(k);
            if (!hasFreedom(p, i)) continue;
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
                const double travel =
                    params.timeStep * (p.velocity[i].norm() + wallVelocity.norm());
                if (overlap < -staticMargin - travel) return;
                const double d = 2.0 * r;
                const size_t c = out.add(i, static_cast<Index>(w), nrm, point - x,
                                         point - wall.position, overlap, d, d, p.material[i],
                                         wall.material, wallKey(p.id[i], wallIndex, feature),
                                         kWallContact |
                                             (overlap >= -kTouchTolerance * d ? kTouching : 0));
                out.wallVelocity[c] = wallVelocity;
                out.wallAngularVelocity[c] = wall.angularVelocity;
            };
            const double wallSpeed = wall.linearVelocity.norm() +
                                     wall.angularVelocity.norm() * (x - wall.position).norm() +
                                     wall.surfaceVelocity.norm();
            const double reach =
                r + staticMargin + params.timeStep * (p.velocity[i].norm() + wallSpeed);

            switch (wall.shape) {
                case WallShape::Plane: {
                    const Vec3 up = wall.orientation * Vec3::UnitZ();
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
                        const Vec3 q = closestPointOnTriangle(local, mesh.vertices[tri[0]],
                                                              mesh.vertices[tri[1]],
                                                              mesh.vertices[tri[2]]);
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
        }
    }
}

}  // namespace ndem
