// The part of the contact network an impact stage has to solve.
#pragma once

#include "collide/contact_set.hpp"

#include <cstdint>
#include <vector>

namespace ndem {

/// Marks the contacts within `depth` contacts of an impact (flags kImpact) along the touching
/// network: the impact itself, the contacts of its two bodies (distance 1), theirs (2), and
/// so on. Walls do not conduct (they do not move). depth = 0 marks every touching contact.
/// Buffers are reused between steps; no allocation once warmed up.
class ImpactRegion {
  public:
    void mark(const ContactSet& contacts, size_t bodyCount, int depth);
    bool contains(size_t contact) const { return m_inRegion[contact] != 0; }

  private:
    std::vector<std::int32_t> m_start, m_items, m_cursor;  ///< body → contacts (CSR)
    std::vector<std::int32_t> m_distance;                  ///< per body, -1 unreached
    std::vector<std::int32_t> m_queue;
    std::vector<std::uint8_t> m_inRegion;  ///< per contact
};

}  // namespace ndem
