#include "solve/rows/impact_region.hpp"

namespace ndem {

void ImpactRegion::mark(const ContactSet& c, size_t bodyCount, int depth) {
    const size_t n = c.size();
    m_inRegion.assign(n, 0);
    auto conducts = [&](size_t i) { return (c.flags[i] & (kTouching | kImpact)) != 0; };
    if (depth <= 0) {
        for (size_t i = 0; i < n; ++i)
            m_inRegion[i] = conducts(i);
        return;
    }
    // Body → contact lists (particles only; a wall contact hangs off its particle).
    m_start.assign(bodyCount + 1, 0);
    for (size_t i = 0; i < n; ++i) {
        if (!conducts(i)) continue;
        ++m_start[c.bodyA[i] + 1];
        if (!(c.flags[i] & kWallContact)) ++m_start[c.bodyB[i] + 1];
    }
    for (size_t b = 0; b < bodyCount; ++b)
        m_start[b + 1] += m_start[b];
    m_items.resize(m_start[bodyCount]);
    m_cursor.assign(m_start.begin(), m_start.end() - 1);
    for (size_t i = 0; i < n; ++i) {
        if (!conducts(i)) continue;
        m_items[m_cursor[c.bodyA[i]]++] = static_cast<std::int32_t>(i);
        if (!(c.flags[i] & kWallContact))
            m_items[m_cursor[c.bodyB[i]]++] = static_cast<std::int32_t>(i);
    }

    // Breadth-first from the bodies of the impacts: a contact is in the region when one of
    // its bodies is fewer than `depth` contacts away from an impact.
    m_distance.assign(bodyCount, -1);
    m_queue.clear();
    auto reach = [&](std::int32_t body, std::int32_t d) {
        if (m_distance[body] >= 0) return;
        m_distance[body] = d;
        m_queue.push_back(body);
    };
    for (size_t i = 0; i < n; ++i) {
        if (!(c.flags[i] & kImpact)) continue;
        m_inRegion[i] = 1;
        reach(c.bodyA[i], 0);
        if (!(c.flags[i] & kWallContact)) reach(c.bodyB[i], 0);
    }
    for (size_t head = 0; head < m_queue.size(); ++head) {
        const std::int32_t body = m_queue[head];
        const std::int32_t d = m_distance[body];
        if (d >= depth) continue;
        for (std::int32_t k = m_start[body]; k < m_start[body + 1]; ++k) {
            const std::int32_t i = m_items[k];
            m_inRegion[i] = 1;
            reach(c.bodyA[i], d + 1);
            if (!(c.flags[i] & kWallContact)) reach(c.bodyB[i], d + 1);
        }
    }
}

}  // namespace ndem
