#include "solve/smooth_pairs.hpp"

#include "core/parallel.hpp"
#include "solve/smooth_contact.hpp"
#include "solve/smooth_dem.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ndem {

namespace {
constexpr std::uint64_t kNoKey = ~std::uint64_t{0};

std::uint64_t slotOf(std::uint64_t key, std::uint64_t mask) {
    // Fibonacci hashing: keys of neighbours differ in a few low bits of each half.
    return (key * 0x9E3779B97F4A7C15ull) >> 20 & mask;
}
}  // namespace

void SmoothPairs::Carry::build(const std::vector<std::pair<std::uint64_t, Springs>>& items) {
    const size_t size = std::bit_ceil(std::max<size_t>(16, 2 * items.size()));
    m_keys.assign(size, kNoKey);
    m_springs.resize(size);
    m_mask = size - 1;
    for (const auto& [key, springs] : items) {
        std::uint64_t s = slotOf(key, m_mask);
        while (m_keys[s] != kNoKey && m_keys[s] != key)
            s = (s + 1) & m_mask;
        m_keys[s] = key;
        m_springs[s] = springs;
    }
}

const SmoothPairs::Springs* SmoothPairs::Carry::find(std::uint64_t key) const {
    if (m_keys.empty()) return nullptr;
    for (std::uint64_t s = slotOf(key, m_mask);; s = (s + 1) & m_mask) {
        if (m_keys[s] == key) return &m_springs[s];
        if (m_keys[s] == kNoKey) return nullptr;
    }
}

void SmoothPairs::keepListSprings(const NeighbourList& lists, bool escapedOnly) {
    if (!m_passed || m_build != lists.builds()) return;
    const size_t built = std::min(lists.builtCount(), m_wasEscaped.size());
    for (size_t i = 0; i < built; ++i) {
        if (m_wasEscaped[i]) continue;
        const std::int32_t base = lists.firstEntry(i);
        const std::span<const std::int32_t> listed = lists.of(i);
        for (size_t k = 0; k < listed.size(); ++k) {
            const size_t j = static_cast<size_t>(listed[k]);
            if (!m_touched[base + k] || j >= m_wasEscaped.size() || m_wasEscaped[j]) continue;
            if (escapedOnly && !lists.escaped(i) && !lists.escaped(j)) continue;
            // Keyed by the grains the entry was for: an escaped slot may hold another by now.
            const std::uint32_t a = lists.builtId(i), b = lists.builtId(j);
            m_carried.emplace_back(particlePairKey(std::min(a, b), std::max(a, b)),
                                   m_entrySprings[base + k]);
            m_touched[base + k] = 0;
        }
    }
}

void SmoothPairs::pairPass(const Collider& collider, const ParticleStore& p,
                           const MaterialTable& materials, const StepSettings& s,
                           const ContactHistory& history, int begin, int end, ThreadPart& out,
                           std::vector<Vec3>& force, std::vector<Vec3>& torque) {
    const NeighbourList& lists = collider.neighbours();
    const std::vector<Collider::Grain>& g = collider.grains();
    const double h = s.timeStep;
    const bool sameLists = m_passed && m_build == lists.builds();
    const size_t slots = m_wasEscaped.size();
    // Whether the entry of i and j held its spring in the last pass (neither had escaped).
    auto wasListed = [&](size_t i, size_t j) {
        return sameLists && i < slots && j < slots && !m_wasEscaped[i] && !m_wasEscaped[j];
    };
    auto lastSprings = [&](std::int32_t entry, size_t i, size_t j, std::uint64_t key,
                           bool& found) -> Springs {
        if (entry >= 0 && wasListed(i, j)) {
            found = m_touched[entry] != 0;
            return found ? m_entrySprings[entry] : Springs{};
        }
        if (!m_passed) {
            const std::int32_t r = history.find(key);
            found = r >= 0;
            return found ? Springs{history[r].tangentialSpring, history[r].rollingSpring}
                         : Springs{};
        }
        const Springs* c = m_carry.find(key);
        found = c != nullptr;
        return found ? *c : Springs{};
    };

    auto contact = [&](size_t i, size_t j, std::int32_t entry) {
        const Collider::Grain& gi = g[i];
        const Collider::Grain& gj = g[j];
        const Vec3 d = gj.position - gi.position;
        const double dist2 = d.squaredNorm();
        const double touch = (gi.radius + gj.radius) * (1.0 + kTouchTolerance);
        if (!((gi.free | gj.free) & (dist2 < touch * touch) & (dist2 > 0.0))) {
            if (entry >= 0) m_touched[entry] = 0;
            return;
        }
        // Body A is the grain with the smaller id, as in the detection's contacts.
        const bool swap = gj.id < gi.id;
        const Index a = static_cast<Index>(swap ? j : i), b = static_cast<Index>(swap ? i : j);
        const Collider::Grain& ga = g[a];
        const Collider::Grain& gb = g[b];
        const double dist = std::sqrt(dist2);
        const Vec3 n = d * ((swap ? -1.0 : 1.0) / dist);
        const double overlap = gi.radius + gj.radius - dist;
        const std::uint64_t key = particlePairKey(ga.id, gb.id);
        bool found = false;
        Springs springs = lastSprings(entry, i, j, key, found);

        Record r;
        r.a = a;
        r.b = b;
        r.flags = kTouching | (found ? kWasTouching : 0);
        r.normal = n;
        r.overlap = overlap;
        ThreadPart::Push push{Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
        if (overlap > 0.0) {
            const Vec3 leverA = (ga.radius - 0.5 * overlap) * n;
            const Vec3 leverB = -(gb.radius - 0.5 * overlap) * n;
            const Vec3 u = (p.velocity[b] + p.angularVelocity[b].cross(leverB)) -
                           (p.velocity[a] + p.angularVelocity[a].cross(leverA));
            const ContactMaterial& m = materials.pair(ga.material, gb.material);
            const double da = 2.0 * ga.radius, db = 2.0 * gb.radius;
            const Vec3 spin = m.rollingResistance > 0.0
                                  ? Vec3(p.angularVelocity[b] - p.angularVelocity[a])
                                  : Vec3::Zero();
            const SmoothPush sp = smoothContactForce(
                m, s.contactLaw, s.referenceOverlap, da * db / (da + db), 0.5 * (da + db), n,
                overlap, u, spin, h, springs.tangential, springs.rolling);
            push.force = sp.normalForce * n + sp.tangentialForce;
            push.torqueA = leverA.cross(push.force) + sp.moment;
            push.torqueB = leverB.cross(push.force) + sp.moment;
            r.normalImpulse = sp.normalForce * h;
            r.frictionImpulse = sp.tangentialForce * h;
            r.rollingImpulse = sp.moment * h;
        } else {
            springs = Springs{};
            r.frictionImpulse.setZero();
            r.rollingImpulse.setZero();
        }
        if (entry >= 0) {
            m_entrySprings[entry] = springs;
            m_touched[entry] = 1;
            r.springs = entry;
        } else {
            r.springs = -1 - static_cast<std::int32_t>(out.loose.size());
            out.loose.emplace_back(key, springs);
        }
        if (out.direct) {
            force[a] -= push.force;
            torque[a] -= push.torqueA;
            force[b] += push.force;
            torque[b] += push.torqueB;
            out.totals.contacts += 1;
            const double e = overlap / (ga.radius + gb.radius);
            out.totals.overlapSum += e;
            out.totals.maxOverlap = std::max(out.totals.maxOverlap, e);
        } else {
            out.pushes.push_back(push);
        }
        out.records.push_back(r);
    };

    for (int i = begin; i < end; ++i) {
        const bool iOut = lists.escaped(i);
        const std::span<const std::int32_t> listed = lists.of(i);
        const std::span<const std::int32_t> extra = lists.escapedOf(i);
        const std::int32_t base = lists.firstEntry(i);
        // Listed and escaped partners merged in ascending order: the same pairs in the same
        // order whenever the lists were searched.
        size_t x = 0, y = 0;
        while (x < listed.size() || y < extra.size()) {
            if (y == extra.size() || (x < listed.size() && listed[x] < extra[y])) {
                const std::int32_t entry = base + static_cast<std::int32_t>(x);
                const size_t j = static_cast<size_t>(listed[x++]);
                if (iOut || lists.escaped(j))
                    m_touched[entry] = 0;
                else
                    contact(i, j, entry);
            } else {
                // Off the lists (a grain escaped): the entry of the same slots, if any, is out.
                if (x < listed.size() && listed[x] == extra[y]) m_touched[base + x++] = 0;
                contact(i, static_cast<size_t>(extra[y++]), -1);
            }
        }
    }
}

void SmoothPairs::detect(Collider& collider, const ParticleStore& p, const std::vector<Wall>& walls,
                         const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                         const ContactHistory& history) {
    const NeighbourList& lists =
        collider.updateLists(p, params, [&] { keepListSprings(collider.neighbours(), false); });
    // Grains that escaped since the last pass leave their pairs' springs to be found by key.
    bool newlyEscaped = false;
    for (std::int32_t e : lists.escapedGrains())
        newlyEscaped |= static_cast<size_t>(e) >= m_wasEscaped.size() || !m_wasEscaped[e];
    if (newlyEscaped || lists.builtCount() > p.size()) keepListSprings(lists, true);
    if (m_passed) m_carry.build(m_carried);
    m_carried.clear();
    if (m_build != lists.builds() || m_touched.size() != lists.entries()) {
        m_entrySprings.resize(lists.entries());
        m_touched.assign(lists.entries(), 0);
    }
    CollisionParams wallParams = params;
    wallParams.touchingOnly = true;
    m_walls.clear();
    collider.detectWalls(p, walls, meshes, wallParams, m_walls);
    (m_passed ? m_wallHistory : history).match(m_walls, params.threads);
}

SmoothPairs::Totals SmoothPairs::forces(const Collider& collider, const ParticleStore& p,
                                        const MaterialTable& materials, const StepSettings& s,
                                        const ContactHistory& history, int threads,
                                        std::vector<Vec3>& force, std::vector<Vec3>& torque) {
    const NeighbourList& lists = collider.neighbours();
    const int n = static_cast<int>(p.size());
    const int team = parallel::threadsFor(n, 1024, threads);
    m_parts.resize(std::max<size_t>(m_parts.size(), team));
    for (ThreadPart& part : m_parts) {
        part.records.clear();
        part.loose.clear();
        part.pushes.clear();
        part.direct = team <= 1;
        part.totals = Totals{};
    }
    parallel::team(team, [&] {
        const int t = parallel::threadIndex();
        const auto [begin, end] = parallel::share(0, n, t, parallel::teamSize());
        pairPass(collider, p, materials, s, history, begin, end, m_parts[t], force, torque);
    });
    // The pushes in pass order on one thread: the sums do not depend on the thread count.
    Totals totals;
    for (int t = 0; t < team; ++t) {
        const ThreadPart& part = m_parts[t];
        if (part.direct) {
            totals = part.totals;
            continue;
        }
        for (size_t k = 0; k < part.records.size(); ++k) {
            const Record& r = part.records[k];
            const ThreadPart::Push& push = part.pushes[k];
            force[r.a] -= push.force;
            torque[r.a] -= push.torqueA;
            force[r.b] += push.force;
            torque[r.b] += push.torqueB;
            const double e = r.overlap / (p.radius[r.a] + p.radius[r.b]);
            totals.contacts += 1;
            totals.overlapSum += e;
            totals.maxOverlap = std::max(totals.maxOverlap, e);
        }
    }

    const ContactHistory& wallHistory = m_passed ? m_wallHistory : history;
    computeSmoothForces(p, m_walls, wallHistory, materials, s, force, torque, threads);
    for (size_t c = 0; c < m_walls.size(); ++c) {
        const double e = m_walls.overlap[c] / m_walls.diameter[c];
        totals.contacts += 1;
        totals.overlapSum += e;
        totals.maxOverlap = std::max(totals.maxOverlap, e);
    }
    m_wallHistory.store(m_walls, p.nextId(), threads);

    for (int t = 0; t < team; ++t)
        for (const auto& [key, springs] : m_parts[t].loose)
            if (!springs.tangential.isZero() || !springs.rolling.isZero())
                m_carried.emplace_back(key, springs);
    m_wasEscaped.resize(p.size());
    for (size_t i = 0; i < p.size(); ++i)
        m_wasEscaped[i] = lists.escaped(i) ? 1 : 0;
    m_build = lists.builds();
    m_passed = true;
    return totals;
}

void SmoothPairs::writeContacts(const ParticleStore& p, ContactSet& out) const {
    size_t pairs = 0;
    for (const ThreadPart& part : m_parts)
        pairs += part.records.size();
    const size_t first = out.size();
    out.resize(first + pairs);
    out.tangentialSpring.resize(out.size());
    out.rollingSpring.resize(out.size());
    size_t c = first;
    for (const ThreadPart& part : m_parts)
        for (const Record& r : part.records) {
            if (static_cast<size_t>(std::max(r.a, r.b)) >= p.size()) continue;  // removed since
            const double ra = p.radius[r.a], rb = p.radius[r.b];
            const double da = 2.0 * ra, db = 2.0 * rb;
            out.set(c, r.a, r.b, r.normal, (ra - 0.5 * r.overlap) * r.normal,
                    -(rb - 0.5 * r.overlap) * r.normal, r.overlap, 0.5 * (da + db),
                    da * db / (da + db), p.material[r.a], p.material[r.b],
                    particlePairKey(p.id[r.a], p.id[r.b]), r.flags);
            out.normalImpulse[c] = r.normalImpulse;
            out.frictionImpulse[c] = r.frictionImpulse;
            out.rollingImpulse[c] = r.rollingImpulse;
            const Springs& springs =
                r.springs >= 0 ? m_entrySprings[r.springs] : part.loose[-1 - r.springs].second;
            out.tangentialSpring[c] = springs.tangential;
            out.rollingSpring[c] = springs.rolling;
            ++c;
        }
    out.resize(c);
    out.tangentialSpring.resize(c);
    out.rollingSpring.resize(c);
    const ContactSet& w = m_walls;
    for (size_t k = 0; k < w.size(); ++k) {
        const size_t i = out.add(w.bodyA[k], w.bodyB[k], w.normal[k], w.leverA[k], w.leverB[k],
                                 w.overlap[k], w.diameter[k], w.effectiveDiameter[k],
                                 w.materialA[k], w.materialB[k], w.key[k], w.flags[k]);
        out.wallVelocity[i] = w.wallVelocity[k];
        out.wallAngularVelocity[i] = w.wallAngularVelocity[k];
        out.normalImpulse[i] = w.normalImpulse[k];
        out.frictionImpulse[i] = w.frictionImpulse[k];
        out.rollingImpulse[i] = w.rollingImpulse[k];
        out.tangentialSpring.push_back(w.hasSprings() ? w.tangentialSpring[k] : Vec3::Zero());
        out.rollingSpring.push_back(w.hasSprings() ? w.rollingSpring[k] : Vec3::Zero());
    }
}

}  // namespace ndem
