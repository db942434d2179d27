#include "collide/contact_set.hpp"

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

void ContactHistory::store(const ContactSet& c, std::uint32_t ownerIds) {
    // Counting sort by owner id: O(contacts + ids), buffers reused between steps.
    m_start.assign(static_cast<size_t>(ownerIds) + 1, 0);
    for (std::uint64_t k : c.key) ++m_start[keyOwner(k) + 1];
    for (size_t i = 1; i < m_start.size(); ++i) m_start[i] += m_start[i - 1];
    m_cursor.assign(m_start.begin(), m_start.end() - 1);
    m_records.resize(c.size());
    for (size_t i = 0; i < c.size(); ++i) {
        ContactMemory& m = m_records[m_cursor[keyOwner(c.key[i])]++];
        m.key = c.key[i];
        m.normalImpulse = c.normalImpulse[i];
        m.frictionImpulse = c.frictionImpulse[i];
        m.rollingImpulse = c.rollingImpulse[i];
        m.tangentialSpring = c.tangentialSpring[i];
        m.rollingSpring = c.rollingSpring[i];
        m.hertzScale = c.hertzScale[i];
        m.touching = (c.flags[i] & kTouching) != 0 || c.normalImpulse[i] > 0.0;
    }
}

void ContactHistory::match(ContactSet& c) const {
    for (size_t i = 0; i < c.size(); ++i) {
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
}

}  // namespace ndem
