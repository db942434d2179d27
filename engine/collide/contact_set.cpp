#include "collide/contact_set.hpp"

#include "core/parallel.hpp"

#include <algorithm>

namespace ndem {

double loadThreshold(const ContactSet& c) {
    double largest = 0.0;
    for (size_t i = 0; i < c.size(); ++i)
        largest = std::max(largest, c.normalImpulse[i] + c.impactImpulse[i]);
    return kLoadedShare * largest;
}

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

namespace {

/// Keeps the entries of v whose flag is set, in order; an array of another length (a per-kind
/// one left unwritten, the springs outside the smooth DEM) stays as it is.
template <class T>
void keepFlagged(std::vector<T>& v, const std::vector<char>& keep) {
    if (v.size() != keep.size()) return;
    size_t out = 0;
    for (size_t c = 0; c < keep.size(); ++c)
        if (keep[c]) v[out++] = v[c];
    v.resize(out);
}

}  // namespace

void ContactSet::keepOnly(const std::vector<char>& keep) {
    keepFlagged(bodyA, keep);
    keepFlagged(bodyB, keep);
    keepFlagged(normal, keep);
    keepFlagged(leverA, keep);
    keepFlagged(leverB, keep);
    keepFlagged(overlap, keep);
    keepFlagged(diameter, keep);
    keepFlagged(effectiveDiameter, keep);
    keepFlagged(materialA, keep);
    keepFlagged(materialB, keep);
    keepFlagged(wallVelocity, keep);
    keepFlagged(wallAngularVelocity, keep);
    keepFlagged(key, keep);
    keepFlagged(flags, keep);
    keepFlagged(memory, keep);
    keepFlagged(normalImpulse, keep);
    keepFlagged(frictionImpulse, keep);
    keepFlagged(rollingImpulse, keep);
    keepFlagged(impactImpulse, keep);
    keepFlagged(hertzScale, keep);
    keepFlagged(tangentialSpring, keep);
    keepFlagged(rollingSpring, keep);
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
}

size_t ContactSet::add(Index a, Index b, const Vec3& n, const Vec3& la, const Vec3& lb,
                       double delta, double d, double dStar, MaterialId ma, MaterialId mb,
                       std::uint64_t k, std::uint8_t f) {
    // One push_back per array (inlined), not resize(size + 1) (a call per array): the wall
    // detection adds its contacts one by one.
    const size_t c = size();
    bodyA.push_back(a);
    bodyB.push_back(b);
    normal.push_back(n);
    leverA.push_back(la);
    leverB.push_back(lb);
    overlap.push_back(delta);
    diameter.push_back(d);
    effectiveDiameter.push_back(dStar);
    materialA.push_back(ma);
    materialB.push_back(mb);
    wallVelocity.emplace_back(Vec3::Zero());
    wallAngularVelocity.emplace_back(Vec3::Zero());
    key.push_back(k);
    flags.push_back(f);
    memory.push_back(-1);
    normalImpulse.push_back(0.0);
    frictionImpulse.emplace_back(Vec3::Zero());
    rollingImpulse.emplace_back(Vec3::Zero());
    impactImpulse.push_back(0.0);
    hertzScale.push_back(0.0);
    return c;
}

void ContactHistory::clear() {
    m_records.clear();
    m_touching.clear();
    m_recordKey.clear();
    m_start.clear();
    m_keys.clear();
    m_record.clear();
}

void ContactHistory::archive(StateArchive& a) {
    const size_t n = m_records.size();
    std::vector<std::uint64_t> key(n);
    std::vector<double> normal(n), hertz(n);
    std::vector<Vec3> friction(n), rolling(n), spring(n), rollingSpring(n);
    std::vector<std::uint8_t> touching(n);
    for (size_t i = 0; i < n; ++i) {
        const ContactMemory& m = m_records[i];
        key[i] = m.key;
        normal[i] = m.normalImpulse;
        friction[i] = m.frictionImpulse;
        rolling[i] = m.rollingImpulse;
        spring[i] = m.tangentialSpring;
        rollingSpring[i] = m.rollingSpring;
        hertz[i] = m.hertzScale;
        touching[i] = m.touching ? 1 : 0;
    }
    a.field("key", key);
    a.field("normalImpulse", normal);
    a.field("frictionImpulse", friction);
    a.field("rollingImpulse", rolling);
    a.field("tangentialSpring", spring);
    a.field("rollingSpring", rollingSpring);
    a.field("hertzScale", hertz);
    a.field("touching", touching);
    a.field("touchingPacked", m_touching);
    a.field("recordKey", m_recordKey);
    a.field("uniqueKeys", m_uniqueKeys);
    a.field("start", m_start);
    a.field("keys", m_keys);
    a.field("record", m_record);
    if (!a.loading()) return;
    const size_t count = key.size();
    for (size_t s : {normal.size(), friction.size(), rolling.size(), spring.size(),
                     rollingSpring.size(), hertz.size(), touching.size()})
        if (s != count) a.fail("contact history arrays of different lengths");
    if (!a.ok()) return;
    m_records.assign(count, ContactMemory{});
    for (size_t i = 0; i < count; ++i)
        m_records[i] = ContactMemory{key[i],    normal[i],        friction[i], rolling[i],
                                     spring[i], rollingSpring[i], hertz[i],    touching[i] != 0};
}

void ContactHistory::store(const ContactSet& c, std::uint32_t ownerIds, int threads) {
    // Records in contact order; the index is a counting sort by owner id, O(contacts + ids),
    // buffers reused between steps. Each thread counts and then indexes a contiguous range of
    // the contacts; an owner's entries from an earlier range go first, so they are in contact
    // order for any thread count.
    const int n = static_cast<int>(c.size());
    const size_t owners = static_cast<size_t>(ownerIds);
    const int teams = parallel::threadsFor(n, 4096, threads);
    m_start.assign(owners + 1, 0);
    m_cursor.assign(static_cast<size_t>(teams) * owners, 0);
    m_records.resize(c.size());
    m_touching.resize(c.size());
    m_recordKey.resize(c.size());
    m_keys.resize(c.size());
    const bool springs = c.hasSprings();
    m_record.resize(c.size());
    parallel::team(teams, [&] {
        const int t = parallel::threadIndex(), team = parallel::teamSize();
        const auto [begin, end] = parallel::share(0, n, t, team);
        std::int32_t* count = m_cursor.data() + static_cast<size_t>(t) * owners;
        for (int i = begin; i < end; ++i) {
            ++count[keyOwner(c.key[i])];
            ContactMemory& m = m_records[i];
            m.key = c.key[i];
            m.normalImpulse = c.normalImpulse[i];
            m.frictionImpulse = c.frictionImpulse[i];
            m.rollingImpulse = c.rollingImpulse[i];
            m.tangentialSpring = springs ? c.tangentialSpring[i] : Vec3::Zero();
            m.rollingSpring = springs ? c.rollingSpring[i] : Vec3::Zero();
            m.hertzScale = c.hertzScale[i];
            m.touching = (c.flags[i] & kTouching) != 0 || c.normalImpulse[i] > 0.0;
            m_touching[i] = m.touching;
            m_recordKey[i] = c.key[i];
        }
        parallel::barrier();
        // Owner by owner: where its entries start, and where each range's part of them starts.
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
            for (size_t o = 1; o <= owners; ++o)
                m_start[o] += m_start[o - 1];
        parallel::barrier();
        for (int i = begin; i < end; ++i) {
            const std::uint32_t owner = keyOwner(c.key[i]);
            const std::int32_t slot = m_start[owner] + count[owner]++;
            m_keys[slot] = c.key[i];
            m_record[slot] = i;
        }
    });
    // A key twice (never emitted today) would make the shortcut of match() find another
    // record than the index.
    m_uniqueKeys = true;
    for (size_t o = 0; o < owners && m_uniqueKeys; ++o)
        for (std::int32_t a = m_start[o]; a < m_start[o + 1]; ++a)
            for (std::int32_t b = a + 1; b < m_start[o + 1]; ++b)
                if (m_keys[a] == m_keys[b]) m_uniqueKeys = false;
}

std::int32_t ContactHistory::find(std::uint64_t key) const {
    const std::uint32_t owner = keyOwner(key);
    if (owner + 1 >= m_start.size()) return -1;
    for (std::int32_t k = m_start[owner]; k < m_start[owner + 1]; ++k)
        if (m_keys[k] == key) return m_record[k];
    return -1;
}

void ContactHistory::match(ContactSet& c, int threads) const {
    parallelFor(static_cast<int>(c.size()), threads, [&](int begin, int end) {
        // Contacts come in nearly last step's order: the record after the last one matched is
        // tried first, a sequential read where the index is a random one.
        const std::int32_t records = static_cast<std::int32_t>(m_records.size());
        std::int32_t next = -1;
        for (int i = begin; i < end; ++i) {
            std::int32_t r = -1;
            if (m_uniqueKeys && next >= 0 && next < records && m_recordKey[next] == c.key[i]) {
                r = next;
            } else {
                r = find(c.key[i]);
            }
            c.memory[i] = r;
            if (r < 0) continue;
            if (m_touching[r]) c.flags[i] |= kWasTouching;
            next = r + 1;
        }
    });
}

}  // namespace ndem
