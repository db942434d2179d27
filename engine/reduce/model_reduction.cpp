#include "reduce/model_reduction.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

/// Relative velocity of B with respect to A at contact i from the particles' own velocities;
/// members carry their aggregate's velocity field, so this is the rigid-body value too.
Vec3 contactVelocity(const ParticleStore& p, const ContactSet& c, size_t i) {
    const Index a = c.bodyA[i];
    const Vec3 va = p.velocity[a] + p.angularVelocity[a].cross(c.leverA[i]);
    if (c.flags[i] & kWallContact) return c.wallVelocity[i] - va;
    const Index b = c.bodyB[i];
    return p.velocity[b] + p.angularVelocity[b].cross(c.leverB[i]) - va;
}

Vec3 relativeSpin(const ParticleStore& p, const ContactSet& c, size_t i) {
    const Vec3 wb =
        (c.flags[i] & kWallContact) ? c.wallAngularVelocity[i] : p.angularVelocity[c.bodyB[i]];
    return wb - p.angularVelocity[c.bodyA[i]];
}

/// Largest component of w in the contact frame: servin-wang tests G_r v component-wise.
double largestComponent(const Vec3& w, const Vec3& n) {
    Vec3 t1, t2;
    tangentFrame(n, t1, t2);
    return std::max({std::abs(w.dot(n)), std::abs(w.dot(t1)), std::abs(w.dot(t2))});
}

/// Gravity presses a grain onto a wall (normal `n` from the grain into the wall) inside the
/// friction cone of the pair: only then can material ride on a moving wall as if glued. A
/// belt passes; the rising side of a drum past the friction angle does not, so material is not
/// carried over the top as a kinematic body (it goes on as a dynamic one the solver holds or
/// lets go). Without gravity nothing pulls material off a wall.
bool wallHolds(const Vec3& n, const Vec3& gravity, double friction) {
    if (gravity.isZero()) return true;
    const double pressing = gravity.dot(n);
    return pressing > 0.0 && (gravity - pressing * n).norm() <= friction * pressing;
}

bool contactHolds(const ContactSet& c, size_t i, const MaterialTable& materials,
                  const Vec3& gravity) {
    return wallHolds(c.normal[i], gravity, materials.pair(c.materialA[i], c.materialB[i]).friction);
}

bool wallMoves(const Wall& w) {
    return !w.linearVelocity.isZero() || !w.angularVelocity.isZero() || !w.surfaceVelocity.isZero();
}

Index find(std::vector<Index>& parent, Index i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

void unite(std::vector<Index>& parent, Index a, Index b) {
    a = find(parent, a);
    b = find(parent, b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

/// Trial split tests (Eq. 32–36) on the trial solution: members whose contact forces do not
/// balance their weight, and (optionally) members at contacts moving too fast in the trial.
template <class Mark>
void markOutOfBalance(const ParticleStore& p, const ContactSet& c, const TrialSolution& trial,
                      const StepSettings& s, Mark&& mark) {
    const StepSettings::Reduction& r = s.reduction;
    for (size_t i = 0; i < p.size(); ++i) {
        if (p.aggregate[i] < 0) continue;
        const Vec3 external = p.mass[i] * trial.gravity;
        const Vec3& contact = trial.force[i];
        const double scale = external.norm() + contact.norm();
        const bool forceOut = r.trialForce > 0.0 && scale > 0.0 &&
                              (external + contact).norm() >= r.trialForce * scale;
        // No external torque acts on a sphere, so Eq. 36 reads |τ_c| / |τ_c|: any contact
        // torque fails a bound below 1 (hence servin-wang's ξ_τ = ∞).
        const double torque = trial.torque[i].norm();
        const bool torqueOut =
            r.trialTorque > 0.0 && torque > 0.0 && torque >= r.trialTorque * torque;
        if (forceOut || torqueOut) mark(static_cast<Index>(i));
    }
    if (!r.trialVelocity) return;
    for (size_t i = 0; i < c.size(); ++i) {
        const Index a = c.bodyA[i];
        const bool wall = (c.flags[i] & kWallContact) != 0;
        const Index b = wall ? -1 : c.bodyB[i];
        if (p.aggregate[a] < 0 && (b < 0 || p.aggregate[b] < 0)) continue;
        const SolverBody& A = trial.bodies[a];
        const Vec3 va = A.v + A.w.cross(c.leverA[i]);
        const Vec3 u = wall
                           ? (c.wallVelocity[i] - va).eval()
                           : (trial.bodies[b].v + trial.bodies[b].w.cross(c.leverB[i]) - va).eval();
        const Vec3 spin = (wall ? c.wallAngularVelocity[i] : trial.bodies[b].w) - A.w;
        const double un = u.dot(c.normal[i]);
        bool out = r.trialNormalIncident > 0.0 && un < -r.trialNormalIncident;
        out |= r.trialNormalSeparating > 0.0 && un > r.trialNormalSeparating;
        out |= r.trialTangential > 0.0 && (u - un * c.normal[i]).norm() > r.trialTangential;
        out |= r.trialRolling > 0.0 && largestComponent(spin, c.normal[i]) > r.trialRolling;
        if (!out) continue;
        mark(a);
        if (b >= 0) mark(b);
    }
}

}  // namespace

double ModelReduction::reductionLevel(size_t particles) const {
    if (particles == 0) return 0.0;
    const double reduced = static_cast<double>(particles) - m_members + m_alive;
    return 1.0 - reduced / static_cast<double>(particles);
}

int ModelReduction::add(Aggregate a, ParticleStore& p) {
    int slot;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        slot = static_cast<int>(m_aggregates.size());
        m_aggregates.emplace_back();
    }
    const std::vector<Index>& index = p.indexOfId();
    for (std::uint32_t id : a.members)
        p.aggregate[index[id]] = slot;
    m_members += static_cast<int>(a.members.size());
    ++m_alive;
    m_aggregates[slot] = std::move(a);
    return slot;
}

void ModelReduction::archive(StateArchive& a) {
    std::int64_t slots = static_cast<std::int64_t>(m_aggregates.size());
    a.field("slots", slots);
    if (a.loading()) {
        if (slots < 0 || slots > (1 << 30)) a.fail("aggregate slots out of range");
        if (!a.ok()) return;
        m_aggregates.assign(static_cast<size_t>(slots), Aggregate{});
    }
    for (size_t k = 0; k < m_aggregates.size(); ++k) {
        Aggregate& g = m_aggregates[k];
        const auto scope = a.scope("aggregate" + std::to_string(k));
        a.field("mass", g.mass);
        a.field("position", g.position);
        a.field("orientation", g.orientation);
        a.field("velocity", g.velocity);
        a.field("angularVelocity", g.angularVelocity);
        a.field("inertia", g.inertia);
        a.field("invInertia", g.invInertia);
        a.field("wall", g.wall);
        a.field("wallNormal", g.wallNormal);
        a.field("members", g.members);
        a.field("offsets", g.offsets);
        a.field("memberOrientation", g.memberOrientation);
    }
    a.field("freeSlots", m_freeSlots);
    a.field("alive", m_alive);
    a.field("members", m_members);
    a.field("body", m_body);
    a.field("offset", m_offset);
    a.field("bodyOfSlot", m_bodyOfSlot);
}

void ModelReduction::kill(int slot, ParticleStore& p) {
    Aggregate& a = m_aggregates[slot];
    if (!a.alive()) return;
    const std::vector<Index>& index = p.indexOfId();
    for (std::uint32_t id : a.members)
        if (index[id] >= 0 && p.aggregate[index[id]] == slot) p.aggregate[index[id]] = -1;
    m_members -= static_cast<int>(a.members.size());
    --m_alive;
    a = Aggregate{};
    m_freeSlots.push_back(slot);
}

void ModelReduction::dissolve(ParticleStore& p) {
    for (size_t k = 0; k < m_aggregates.size(); ++k)
        kill(static_cast<int>(k), p);
    m_aggregates.clear();
    m_freeSlots.clear();
}

void ModelReduction::dropRemoved(ParticleStore& p, const std::vector<Wall>& walls) {
    const std::vector<Index>& index = p.indexOfId();
    for (size_t k = 0; k < m_aggregates.size(); ++k) {
        Aggregate& a = m_aggregates[k];
        if (!a.alive()) continue;
        const bool lost = std::any_of(a.members.begin(), a.members.end(),
                                      [&](std::uint32_t id) { return index[id] < 0; });
        if (!lost) continue;
        std::vector<Index> left;
        for (std::uint32_t id : a.members)
            if (index[id] >= 0) left.push_back(index[id]);
        // The removed members' share leaves with them; the rest stays one rigid body.
        m_members -= static_cast<int>(a.members.size() - left.size());
        a.members.clear();
        for (Index i : left)
            a.members.push_back(p.id[i]);
        const int wall = a.wall;
        const Vec3 normal = a.wallNormal;
        kill(static_cast<int>(k), p);
        if (left.size() >= 2 || (wall >= 0 && !left.empty())) {
            Aggregate b = formAggregate(left, p);
            b.wall = wall;
            b.wallNormal = normal;
            if (wall >= 0) b.followWall(walls[wall]);
            add(std::move(b), p);
        }
    }
}

int ModelReduction::split(ParticleStore& p, const ContactSet& c, const std::vector<Wall>& walls,
                          std::span<const SplitSensor> sensors, const MaterialTable& materials,
                          const Vec3& gravity, const StepSettings& s, const TrialSolution* trial) {
    if (m_alive == 0) return 0;
    const StepSettings::Reduction& r = s.reduction;
    const size_t n = p.size();
    std::vector<char> touched(m_aggregates.size(), 0);
    const bool released = releaseUnsupported(p, c, walls, materials, gravity, touched);
    m_marked.assign(n, 0);
    std::vector<Index> frontier;
    auto mark = [&](Index i) {
        if (p.aggregate[i] >= 0 && !m_marked[i]) {
            m_marked[i] = 1;
            frontier.push_back(i);
        }
    };
    if (r.contactSplit) {
        const double h = s.timeStep;
        for (size_t i = 0; i < c.size(); ++i) {
            const Index a = c.bodyA[i];
            const bool wall = (c.flags[i] & kWallContact) != 0;
            const Index b = wall ? -1 : c.bodyB[i];
            const int ga = p.aggregate[a], gb = b >= 0 ? p.aggregate[b] : -1;
            if (ga < 0 && gb < 0) continue;
            if (!wall && ga == gb) continue;  // inside one rigid body
            const Vec3 u = contactVelocity(p, c, i);
            const double un = u.dot(c.normal[i]);
            const bool touching = (c.flags[i] & kTouching) != 0;
            // A gap that closes within the step is an impact about to happen.
            if (!touching && c.overlap[i] - h * un <= 0.0) continue;
            bool event = r.splitNormalIncident > 0.0 && un < -r.splitNormalIncident;
            event |= touching && r.splitNormalSeparating > 0.0 && un > r.splitNormalSeparating;
            event |= r.splitTangential > 0.0 && (u - un * c.normal[i]).norm() > r.splitTangential;
            event |= r.splitRolling > 0.0 &&
                     largestComponent(relativeSpin(p, c, i), c.normal[i]) > r.splitRolling;
            if (!event) continue;
            mark(a);
            if (b >= 0) mark(b);
        }
        // N_c-spl levels: the triggered members are level 1, their contact neighbours 2, ...
        if (!frontier.empty() && r.splitDepth > 1) {
            std::vector<std::vector<Index>> neighbours(n);
            for (size_t i = 0; i < c.size(); ++i) {
                if (!(c.flags[i] & kTouching) || (c.flags[i] & kWallContact)) continue;
                neighbours[c.bodyA[i]].push_back(c.bodyB[i]);
                neighbours[c.bodyB[i]].push_back(c.bodyA[i]);
            }
            for (int level = 1; level < r.splitDepth && !frontier.empty(); ++level) {
                std::vector<Index> current;
                current.swap(frontier);
                for (Index i : current)
                    for (Index j : neighbours[i])
                        mark(j);
            }
        }
    }
    if (trial) markOutOfBalance(p, c, *trial, s, mark);
    if (r.sensorSplit)
        for (const SplitSensor& sensor : sensors) {
            if (!sensor.enabled) continue;
            for (size_t i = 0; i < n; ++i)
                if (p.aggregate[i] >= 0 && sensor.overlaps(p.position[i], p.radius[i]))
                    mark(static_cast<Index>(i));
        }

    int freed = 0;
    for (size_t i = 0; i < n; ++i)
        if (m_marked[i]) {
            touched[p.aggregate[i]] = 1;
            ++freed;
        }
    if (released || freed > 0) reformTouched(touched, p, c, walls, materials, gravity);
    return freed;
}

void ModelReduction::reformTouched(const std::vector<char>& touched, ParticleStore& p,
                                   const ContactSet& c, const std::vector<Wall>& walls,
                                   const MaterialTable& materials, const Vec3& gravity) {
    // The unmarked members of each touched aggregate stay rigid in connected pieces: cut the
    // network at the freed members and form one aggregate per piece (Sec. 3.2).
    const size_t n = p.size();
    m_parent.resize(n);
    for (size_t i = 0; i < n; ++i)
        m_parent[i] = static_cast<Index>(i);
    std::vector<int> wallOf(n, -1);
    for (size_t i = 0; i < c.size(); ++i) {
        if (!(c.flags[i] & kTouching)) continue;
        const Index a = c.bodyA[i];
        const int g = p.aggregate[a];
        if (g < 0 || !touched[g] || m_marked[a]) continue;
        if (c.flags[i] & kWallContact) {
            const int ridden = m_aggregates[g].wall;
            if (static_cast<int>(c.bodyB[i]) == ridden && contactHolds(c, i, materials, gravity))
                wallOf[a] = ridden;
            continue;
        }
        const Index b = c.bodyB[i];
        if (p.aggregate[b] == g && !m_marked[b]) unite(m_parent, a, b);
    }
    // Only the aggregates there were: the pieces formed below take freed slots or new ones
    // past the end, which `touched` does not cover.
    for (size_t k = 0; k < touched.size(); ++k) {
        if (!touched[k]) continue;
        const Aggregate& old = m_aggregates[k];
        const Vec3 wallNormal = old.wallNormal;
        // Pieces by root, in member order.
        std::vector<std::pair<Index, Index>> byRoot;  // (root, member)
        const std::vector<Index>& index = p.indexOfId();
        for (std::uint32_t id : old.members) {
            const Index i = index[id];
            if (!m_marked[i]) byRoot.push_back({find(m_parent, i), i});
        }
        std::sort(byRoot.begin(), byRoot.end());
        kill(static_cast<int>(k), p);
        for (size_t first = 0; first < byRoot.size();) {
            size_t last = first;
            std::vector<Index> piece;
            int wall = -1;
            while (last < byRoot.size() && byRoot[last].first == byRoot[first].first) {
                piece.push_back(byRoot[last].second);
                wall = std::max(wall, wallOf[byRoot[last].second]);
                ++last;
            }
            first = last;
            if (piece.size() < 2 && wall < 0) continue;  // a single particle is simply free
            Aggregate a = formAggregate(piece, p);
            a.wall = wall;
            a.wallNormal = wallNormal;
            if (wall >= 0) a.followWall(walls[wall]);
            add(std::move(a), p);
        }
    }
}

bool ModelReduction::releaseUnsupported(const ParticleStore& p, const ContactSet& c,
                                        const std::vector<Wall>& walls,
                                        const MaterialTable& materials, const Vec3& gravity,
                                        std::vector<char>& touched) {
    // An aggregate rides on its wall only while the wall holds it: material carried past the
    // end of a belt, on a wall switched off, or turned by a drum beyond the friction angle must
    // go on as a dynamic body (in its connected pieces: the wall no longer joins them).
    std::vector<Vec3> normal(m_aggregates.size(), Vec3::Zero());
    std::vector<double> friction(m_aggregates.size(), 0.0);
    std::vector<int> count(m_aggregates.size(), 0);
    for (size_t i = 0; i < c.size(); ++i) {
        if (!(c.flags[i] & kWallContact) || !(c.flags[i] & kTouching)) continue;
        const int g = p.aggregate[c.bodyA[i]];
        if (g < 0 || m_aggregates[g].wall != static_cast<int>(c.bodyB[i])) continue;
        normal[g] += c.normal[i];
        friction[g] += materials.pair(c.materialA[i], c.materialB[i]).friction;
        ++count[g];
    }
    bool released = false;
    for (size_t k = 0; k < m_aggregates.size(); ++k) {
        Aggregate& a = m_aggregates[k];
        if (!a.alive() || !a.kinematic()) continue;
        const bool held = count[k] > 0 && walls[a.wall].enabled &&
                          wallHolds(normal[k].normalized(), gravity, friction[k] / count[k]);
        if (held) continue;
        a.wall = -1;
        touched[k] = 1;
        released = true;
    }
    return released;
}

void ModelReduction::loadBodies(const ParticleStore& p, std::vector<SolverBody>& bodies) {
    const size_t n = p.size();
    const SolverBody fixed = bodies.back();
    bodies.resize(n);
    m_body.resize(n);
    m_offset.resize(n);
    m_bodyOfSlot.assign(m_aggregates.size(), -1);
    for (size_t k = 0; k < m_aggregates.size(); ++k) {
        const Aggregate& a = m_aggregates[k];
        if (!a.alive()) continue;
        m_bodyOfSlot[k] = static_cast<Index>(bodies.size());
        SolverBody& b = bodies.emplace_back();
        b.v = a.velocity;
        b.w = a.angularVelocity;
        if (!a.kinematic()) {
            b.invMass = 1.0 / a.mass;
            const Mat3 k3 = a.worldInvInertia();
            b.invInertia[0] = k3(0, 0);
            b.invInertia[1] = k3(1, 1);
            b.invInertia[2] = k3(2, 2);
            b.invInertia[3] = k3(0, 1);
            b.invInertia[4] = k3(0, 2);
            b.invInertia[5] = k3(1, 2);
        }
    }
    bodies.push_back(fixed);
    for (size_t i = 0; i < n; ++i) {
        const int g = p.aggregate[i];
        if (g < 0) {
            m_body[i] = static_cast<Index>(i);
            m_offset[i].setZero();
            continue;
        }
        m_body[i] = m_bodyOfSlot[g];
        m_offset[i] = p.position[i] - m_aggregates[g].position;
        bodies[i].invMass = 0.0;
        bodies[i].setIsotropicInvInertia(0.0);
    }
}

void ModelReduction::applyGyroscopic(std::vector<SolverBody>& bodies, double h) const {
    for (size_t k = 0; k < m_aggregates.size(); ++k) {
        const Aggregate& a = m_aggregates[k];
        if (!a.alive() || a.kinematic()) continue;
        SolverBody& b = bodies[m_bodyOfSlot[k]];
        const Vec3 torque = -b.w.cross(a.worldInertia() * b.w);
        b.w += h * b.applyInvInertia(torque);
    }
}

void ModelReduction::storeBodies(std::span<const SolverBody> bodies, ParticleStore& p,
                                 const std::vector<Wall>& walls) {
    for (size_t k = 0; k < m_aggregates.size(); ++k) {
        Aggregate& a = m_aggregates[k];
        if (!a.alive()) continue;
        if (a.kinematic()) {
            a.followWall(walls[a.wall]);
        } else {
            a.velocity = bodies[m_bodyOfSlot[k]].v;
            a.angularVelocity = bodies[m_bodyOfSlot[k]].w;
        }
        coMove(a, p);
    }
}

int ModelReduction::merge(ParticleStore& p, const ContactSet& c, const std::vector<Wall>& walls,
                          std::span<const SplitSensor> sensors, const MaterialTable& materials,
                          const Vec3& gravity, std::span<const Vec3> startVelocity,
                          std::span<const Vec3> startAngular, const StepSettings& s) {
    const StepSettings::Reduction& r = s.reduction;
    const size_t n = p.size();
    const double h = s.timeStep;
    m_marked.assign(n, 0);  // here: inside a sensor, so never merged
    if (r.sensorSplit)
        for (const SplitSensor& sensor : sensors)
            if (sensor.enabled)
                for (size_t i = 0; i < n; ++i)
                    if (sensor.overlaps(p.position[i], p.radius[i])) m_marked[i] = 1;
    auto mergeable = [&](Index i) {
        return !m_marked[i] && (p.flags[i] & (kKinematic | kFixedRotation)) == 0;
    };
    // One union-find over particles and walls: node n + w is wall w.
    m_parent.resize(n + walls.size());
    for (size_t i = 0; i < m_parent.size(); ++i)
        m_parent[i] = static_cast<Index>(i);
    for (const Aggregate& a : m_aggregates) {
        if (!a.alive()) continue;
        const std::vector<Index>& index = p.indexOfId();
        const Index first = index[a.members.front()];
        for (std::uint32_t id : a.members)
            unite(m_parent, first, index[id]);
        if (a.kinematic()) unite(m_parent, first, static_cast<Index>(n + a.wall));
    }
    std::vector<Vec3> wallNormal(walls.size(), Vec3::UnitZ());
    auto startContactVelocity = [&](size_t i) {
        const Index a = c.bodyA[i];
        const Vec3 va = startVelocity[a] + startAngular[a].cross(c.leverA[i]);
        if (c.flags[i] & kWallContact) return (c.wallVelocity[i] - va).eval();
        const Index b = c.bodyB[i];
        return (startVelocity[b] + startAngular[b].cross(c.leverB[i]) - va).eval();
    };
    for (size_t i = 0; i < c.size(); ++i) {
        if (!(c.flags[i] & kTouching)) continue;
        const Index a = c.bodyA[i];
        if (!mergeable(a)) continue;
        const bool wall = (c.flags[i] & kWallContact) != 0;
        Index other;
        if (wall) {
            const Wall& w = walls[c.bodyB[i]];
            if (!r.mergeWithMovingWalls || !w.enabled || !wallMoves(w)) continue;
            if (!contactHolds(c, i, materials, gravity)) continue;
            other = static_cast<Index>(n + c.bodyB[i]);
        } else {
            other = c.bodyB[i];
            if (!mergeable(other)) continue;
            if (p.aggregate[a] >= 0 && p.aggregate[a] == p.aggregate[other]) continue;
        }
        const Vec3& nrm = c.normal[i];
        const Vec3 u = contactVelocity(p, c, i);
        const double un = u.dot(nrm);
        if (un < -r.mergeNormalIncident || un > r.mergeNormalSeparating) continue;
        const Vec3 ut = u - un * nrm;
        if (ut.norm() > r.mergeTangential) continue;
        if (largestComponent(relativeSpin(p, c, i), nrm) > r.mergeRolling) continue;
        if (r.mergeNormalAcceleration > 0.0 || r.mergeTangentialAcceleration > 0.0) {
            const Vec3 du = (u - startContactVelocity(i)) / h;
            const double an = du.dot(nrm);
            if (r.mergeNormalAcceleration > 0.0 && std::abs(an) > r.mergeNormalAcceleration)
                continue;
            if (r.mergeTangentialAcceleration > 0.0 &&
                (du - an * nrm).norm() > r.mergeTangentialAcceleration)
                continue;
        }
        unite(m_parent, a, other);
        if (wall) wallNormal[c.bodyB[i]] = nrm;
    }

    // Components: size, the one aggregate they may already be, the wall they ride on.
    struct Group {
        int size = 0, free = 0;
        int aggregate = -2;  // -2 none yet, -3 more than one or free particles mixed in
        int wall = -1;
    };
    std::vector<Group> groups(m_parent.size());
    for (size_t w = 0; w < walls.size(); ++w) {
        const Index root = find(m_parent, static_cast<Index>(n + w));
        if (root != static_cast<Index>(n + w)) {
            Group& g = groups[root];
            g.wall = g.wall < 0 ? static_cast<int>(w) : std::min(g.wall, static_cast<int>(w));
        }
    }
    for (size_t i = 0; i < n; ++i) {
        Group& g = groups[find(m_parent, static_cast<Index>(i))];
        ++g.size;
        const int agg = p.aggregate[i];
        if (agg < 0) ++g.free;
        if (g.aggregate == -2)
            g.aggregate = agg < 0 ? -3 : agg;
        else if (g.aggregate != agg)
            g.aggregate = -3;
    }
    int merged = 0;
    std::vector<std::vector<Index>> pieces(m_parent.size());
    for (size_t i = 0; i < n; ++i) {
        const Index root = find(m_parent, static_cast<Index>(i));
        const Group& g = groups[root];
        const bool riding = g.wall >= 0;
        if (g.size < 2 && !riding) continue;
        // Already exactly this aggregate, riding on the same wall (or free): unchanged.
        if (g.aggregate >= 0 && m_aggregates[g.aggregate].wall == g.wall) continue;
        pieces[root].push_back(static_cast<Index>(i));
    }
    for (size_t root = 0; root < pieces.size(); ++root) {
        std::vector<Index>& piece = pieces[root];
        if (piece.empty()) continue;
        const Group& g = groups[root];
        merged += g.free;
        for (Index i : piece)
            if (p.aggregate[i] >= 0) kill(p.aggregate[i], p);
        Aggregate a = formAggregate(piece, p);
        a.wall = g.wall;
        if (g.wall >= 0) {
            a.wallNormal = wallNormal[g.wall];
            a.followWall(walls[g.wall]);
        }
        const int slot = add(std::move(a), p);
        if (g.wall >= 0) coMove(m_aggregates[slot], p);
    }
    return merged;
}

void ModelReduction::integrate(ParticleStore& p, double h) {
    for (Aggregate& a : m_aggregates) {
        if (!a.alive()) continue;
        a.position += h * a.velocity;
        if (!a.angularVelocity.isZero())
            a.orientation = integrateOrientation(a.orientation, a.angularVelocity, h);
        coMove(a, p);
    }
}

}  // namespace ndem
