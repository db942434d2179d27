// Which solver body carries each particle's contacts: the particle itself, or the rigid
// aggregate it co-moves with (model reduction, servin-wang Sec. 2.4).
#pragma once

#include "collide/contact_set.hpp"
#include "core/types.hpp"

#include <span>

namespace ndem {

/// Empty spans are the identity: particle i is solver body i with its own lever arms, and
/// every wall is the static body.
struct BodyMap {
    std::span<const Index> body;   ///< solver body of each particle
    std::span<const Vec3> offset;  ///< particle centre − solver body centre (m), world frame
    /// Per wall: the prismatic solver body of a wall moved by the solve (a servo wall with a
    /// mass), or −1; and the linear velocity its contacts' wallVelocity already holds (m/s).
    std::span<const Index> wallBody;
    std::span<const Vec3> wallLinear;

    Index of(Index particle) const { return body.empty() ? particle : body[particle]; }
    /// Solver body of wall `wall`'s side of a contact: its own, or the static one.
    Index ofWall(Index wall, Index staticBody) const {
        return wallBody.empty() || wallBody[wall] < 0 ? staticBody : wallBody[wall];
    }
    bool wallMoves(Index wall) const { return !wallBody.empty() && wallBody[wall] >= 0; }
    /// Lever from the solver body's centre to a contact point `lever` away from the particle.
    Vec3 lever(Index particle, const Vec3& lever) const {
        return offset.empty() ? lever : (lever + offset[particle]).eval();
    }
    /// Both sides of contact i are the same rigid body: no row, no force (Sec. 2.4).
    bool internal(const ContactSet& c, size_t i) const {
        return !body.empty() && !(c.flags[i] & kWallContact) &&
               body[c.bodyA[i]] == body[c.bodyB[i]];
    }
};

}  // namespace ndem
