#include "collide/contact_set.hpp"

#include "core/parallel.hpp"

#include <algorithm>

namespace ndem {

void ContactSet::clear() {
    bodyA.clear();
    bodyB.clear();
    normal.clear();
    leverA.clear();
    leverB.clear();
    overlap.clear();
    diameter.clear();
    effectiveDiameter.clear();
    materialA.clear();
    materialB.clear();
    wallVelocity.clear();
    wallAngularVelocity.clear();
    key.clear();
    flags.clear();
    memory.clear();
    normalImpulse.clear();
    frictionImpulse.clear();
    rollingImpulse.clear();
    impactImpulse.clear();
    hertzScale.clear();
    tangentialSpring.clear();
    rollingSpring.clear();
}

void ContactSet::reserve(size_t n) {
    bodyA.reserve(n);
    bodyB.reserve(n);
    normal.reserve(n);
    leverA.reserve(n);
    leverB.reserve(n);
    overlap.reserve(n);
    diameter.reserve(n);
    effectiveDiameter.reserve(n);
    materialA.reserve(n);
    materialB.reserve(n);
    wallVelocity.reserve(n);
    wallAngularVelocity.reserve(n);
    key.reserve(n);
    flags.reserve(n);
    memory.reserve(n);
    normalImpulse.reserve(n);
    frictionImpulse.reserve(n);
    rollingImpulse.reserve(n);
    impactImpulse.reserve(n);
    hertzScale.reserve(n);
    tangentialSpring.reserve(n);
    rollingSpring.reserve(n);
}

void ContactSet::resize(size_t n) {
    bodyA.resize(n);
    bodyB.resize(n);
    normal.resize(n);
    leverA.resize(n);
    leverB.resize(n);
    overlap.resize(n);
    diameter.resize(n);
    effectiveDiameter.resize(n);
    materialA.resize(n);
    materialB.resize(n);
    wallVelocity.resize(n);
    wallAngularVelocity.resize(n);
    key.resize(n);
    flags.resize(n);
    memory.resize(n);
    normalImpulse.resize(n);
    frictionImpulse.resize(n);
    rollingImpulse.resize(n);
    impactImpulse.resize(n);
    hertzScale.resize(n);
    tangentialSpring.resize(n);
    rollingSpring.resize(n);
}

size_t ContactSet::add(Index a, Index b, const Vec3& n, const Vec3& la, const Vec3& lb,
                       double delta, double d, double dStar, MaterialId ma, MaterialId mb,
                       std::uint64_t k, std::uint8_t f) {
    const size_t c = size();
    resize(c + 1);
    set(c, a, b, n, la, lb, delta, d, dStar, ma, mb, k, f);
    return c;
}

void ContactHistory::clear() {
    m_start.clear();
    m_records.clear();
}

void ContactHistory::store(const ContactSet& c, std::uint32_t ownerIds, int threads) {
    // Counting sort by owner id: O(contacts + ids), buffers reused between steps. Each thread
    // counts and then writes a contiguous range of the contacts; an owner's records from an
    // earlier range go first, so they are in contact order for any thread count.
    const int n = static_cast<int>(c.size());
    const size_t owners = static_cast<size_t>(ownerIds);
    const int teams = std::clamp(n / 4096, 1, std::max(1, threads));
    m_start.assign(owners + 1, 0);
    m_cursor.assign(static_cast<size_t>(teams) * owners, 0);
    m_records.resize(c.size());
    parallel::team(teams, [&] {
        const int t = parallel::threadIndex(), team = parallel::teamSize();
        const auto [begin, end] = parallel::share(0, n, t, team);
        std::int32_t* count = m_cursor.data() + static_cast<size_t>(t) * owners;
        for (int i = begin; i < end; ++i) ++count[keyOwner(c.key[i])];
        parallel::barrier();
        // Owner by owner: where its records start, and where each range's part of them starts.
        const auto [ownerBegin, ownerEnd] = parallel::share(0, static_cast<int>(owners), t, team);
        for (int o = ownerBegin; o < ownerEnd; ++o) {
            std::int32_t total = 0;
            for (int u = 0; u < team; ++u) {
                std::int32_t& k = m_cursor[static_cast<size_t>(u) * owners + o];
                const std::int32_t counted = k;
                k = total;
                total += counted;
            }
            m_start[o + 1] = total;
        }
        parallel::barrier();
        if (t == 0)
            for (size_t o = 1; o <= owners; ++o) m_start[o] += m_start[o - 1];
        parallel::barrier();
        for (int i = begin; i < end; ++i) {
            const std::uint32_t owner = keyOwner(c.key[i]);
            ContactMemory& m = m_records[m_start[owner] + count[owner]++];
            m.key = c.key[i];
            m.normalImpulse = c.normalImpulse[i];
            m.frictionImpulse = c.frictionImpulse[i];
            m.rollingImpulse = c.rollingImpulse[i];
            m.tangentialSpring = c.tangentialSpring[i];
            m.rollingSpring = c.rollingSpring[i];
            m.hertzScale = c.hertzScale[i];
            m.touching = (c.flags[i] & kTouching) != 0 || c.normalImpulse[i] > 0.0;
        }
    });
}

void ContactHistory::match(ContactSet& c, int threads) const {
    parallelFor(static_cast<int>(c.size()), threads, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            c.memory[i] = -1;
            const std::uint32_t owner = keyOwner(c.key[i]);
            if (owner + 1 >= m_start.size()) continue;
            for (std::int32_t r = m_start[owner]; r < m_start[owner + 1]; ++r) {
                if (m_records[r].key != c.key[i]) continue;
                c.memory[i] = r;
                if (m_records[r].touching) c.flags[i] |= kWasTouching;
                break;
            }
        }
    });
}

}  // namespace ndem
