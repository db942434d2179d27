// The contacts of one step (structure of arrays) and the memory that carries multipliers and
// spring states from one step to the next by persistent contact key.
#pragma once

#include "core/material.hpp"
#include "core/state_archive.hpp"
#include "core/types.hpp"

#include <cstdint>
#include <vector>

namespace ndem {

enum ContactFlag : std::uint8_t {
    kWallContact = 1u << 0,  ///< body B is a wall (bodyB is the wall index)
    kTouching = 1u << 1,     ///< overlap δ >= 0 at detection
    kImpact = 1u << 2,       ///< treated as an impact this step
    kWasTouching = 1u << 3,  ///< the same contact was touching or loaded last step
};

/// Overlaps above −kTouchTolerance·d count as touching, so pairs placed exactly in contact
/// (round-off of either sign) get a contact row from the first step.
inline constexpr double kTouchTolerance = 1e-9;

/// Persistent key: stable id of particle A (the smaller id for particle pairs) in the high
/// 32 bits; the other particle's id, or 0x80000000 | wall << 20 | feature, in the low bits.
inline std::uint64_t particlePairKey(std::uint32_t idA, std::uint32_t idB) {
    return (static_cast<std::uint64_t>(idA) << 32) | idB;
}
inline std::uint64_t wallKey(std::uint32_t idA, std::uint32_t wall, std::uint32_t feature) {
    return (static_cast<std::uint64_t>(idA) << 32) | 0x80000000u | ((wall & 0x7FFu) << 20) |
           (feature & 0xFFFFFu);
}
inline std::uint32_t keyOwner(std::uint64_t key) {
    return static_cast<std::uint32_t>(key >> 32);
}

/// Contacts found by the narrow phase and the impulses the solvers put on them. Body A is
/// always a particle; the normal n points from A to B; levers are contact point minus the
/// body's reference point (particle centre, or the wall's local origin).
struct ContactSet {
    std::vector<Index> bodyA;               ///< particle storage index
    std::vector<Index> bodyB;               ///< particle storage index, or wall index
    std::vector<Vec3> normal;               ///< n, unit, A to B
    std::vector<Vec3> leverA;               ///< contact point − x_A (m)
    std::vector<Vec3> leverB;               ///< contact point − x_B (m)
    std::vector<double> overlap;            ///< δ (m); negative is a gap (speculative contact)
    std::vector<double> diameter;           ///< d of the overlap error ε_c = δ/d (m)
    std::vector<double> effectiveDiameter;  ///< d* = (1/d_a + 1/d_b)⁻¹ (m); a wall counts as ∞
    std::vector<MaterialId> materialA, materialB;
    // Set for wall contacts only (read them behind kWallContact): a pair of grains leaves
    // them unwritten, 48 bytes of the detection's writes per contact.
    std::vector<Vec3> wallVelocity;         ///< velocity of the wall surface at the point (m/s)
    std::vector<Vec3> wallAngularVelocity;  ///< ω of the wall (rad/s)
    std::vector<std::uint64_t> key;
    std::vector<std::uint8_t> flags;
    std::vector<std::int32_t> memory;  ///< index into last step's ContactMemory, -1 if new

    // Results of the last step, read by measurements, warm starting and the force network.
    std::vector<double> normalImpulse;  ///< normal impulse on B over the step (N s)
    std::vector<Vec3> frictionImpulse;  ///< tangential impulse on B (N s), world frame
    std::vector<Vec3> rollingImpulse;   ///< rolling/twisting angular impulse on B (N m s)
    std::vector<double> impactImpulse;  ///< normal impulse of the impact stage (N s)
    std::vector<double> hertzScale;     ///< s of the continuous normal row, 0 if none
    // The smooth DEM's springs: sized and written by its force pass only, empty otherwise
    // (clear() empties them, resize() leaves them), so the nonsmooth steps do not zero them.
    std::vector<Vec3> tangentialSpring;  ///< smooth DEM tangential spring elongation (m)
    std::vector<Vec3> rollingSpring;     ///< smooth DEM rolling spring angle (rad)
    bool hasSprings() const {
        return tangentialSpring.size() == size() && rollingSpring.size() == size();
    }

    size_t size() const { return bodyA.size(); }
    void clear();
    void reserve(size_t n);

    /// n contacts; those added are unset until set(). The springs keep their size.
    void resize(size_t n);
    /// Keeps the contacts whose flag in `keep` (one per contact) is set, in their order.
    void keepOnly(const std::vector<char>& keep);
    /// Writes contact c with zeroed results (inline: the detection calls it for every contact);
    /// a wall contact's velocities are the caller's to set.
    void set(size_t c, Index a, Index b, const Vec3& n, const Vec3& leverA, const Vec3& leverB,
             double overlap, double diameter, double effectiveDiameter, MaterialId ma,
             MaterialId mb, std::uint64_t key, std::uint8_t flags);
    /// Appends a contact with zeroed results; returns its index.
    size_t add(Index a, Index b, const Vec3& n, const Vec3& leverA, const Vec3& leverB,
               double overlap, double diameter, double effectiveDiameter, MaterialId ma,
               MaterialId mb, std::uint64_t key, std::uint8_t flags);
};

inline void ContactSet::set(size_t c, Index a, Index b, const Vec3& n, const Vec3& la,
                            const Vec3& lb, double delta, double d, double dStar, MaterialId ma,
                            MaterialId mb, std::uint64_t k, std::uint8_t f) {
    bodyA[c] = a;
    bodyB[c] = b;
    normal[c] = n;
    leverA[c] = la;
    leverB[c] = lb;
    overlap[c] = delta;
    diameter[c] = d;
    effectiveDiameter[c] = dStar;
    materialA[c] = ma;
    materialB[c] = mb;
    key[c] = k;
    flags[c] = f;
    memory[c] = -1;
    normalImpulse[c] = 0.0;
    frictionImpulse[c].setZero();
    rollingImpulse[c].setZero();
    impactImpulse[c] = 0.0;
    hertzScale[c] = 0.0;
}

/// The share of the step's largest contact impulse above which a contact the detection found
/// apart counts as loaded. An interior point ends a step with every slack above zero (its
/// barrier), so the contacts it loads lie at small gaps, flagged apart at the next detection,
/// while the open ones keep impulses of order β/s; its relative tolerance separates the two.
inline constexpr double kLoadedShare = 1e-6;

/// kLoadedShare times the step's largest normal impulse (impact stage included).
double loadThreshold(const ContactSet& c);

/// A contact of the step's network: touching at detection, or loaded by the solve above
/// `threshold` (loadThreshold). The force network, the contact count and the viewport read it.
inline bool inNetwork(const ContactSet& c, size_t i, double threshold) {
    return (c.flags[i] & kTouching) != 0 || c.normalImpulse[i] + c.impactImpulse[i] > threshold;
}

/// What a contact remembers between steps (one cache-friendly record per contact).
struct ContactMemory {
    std::uint64_t key = 0;
    double normalImpulse = 0.0;  ///< N s (physical impulse, independent of the Hertz row scale)
    Vec3 frictionImpulse = Vec3::Zero();
    Vec3 rollingImpulse = Vec3::Zero();
    Vec3 tangentialSpring = Vec3::Zero();
    Vec3 rollingSpring = Vec3::Zero();
    double hertzScale = 0.0;  ///< Jacobian scale s the normal row used (0: no row)
    bool touching = false;
};

/// Last step's contacts, in their order, with an index of them by owner id (CSR), so each new
/// contact finds its predecessor by scanning the handful of keys of one particle: O(1), no
/// hashing, no allocation per step. The records stay in contact order because the next step's
/// contacts come in nearly the same order: reading a contact's record is then a sequential
/// read, where records sorted by id (not the storage order of the grains) were a cache miss each.
class ContactHistory {
  public:
    /// Stores the results of `contacts`; ownerIds is the id range (ParticleStore::nextId()).
    /// The index lists one owner's records in contact order, whatever the thread count.
    void store(const ContactSet& contacts, std::uint32_t ownerIds, int threads = 1);

    /// Fills contacts.memory and the kWasTouching flag for every contact.
    void match(ContactSet& contacts, int threads = 1) const;
    /// The record of the contact with this key, or −1.
    std::int32_t find(std::uint64_t key) const;

    const ContactMemory& operator[](std::int32_t i) const { return m_records[i]; }
    size_t size() const { return m_records.size(); }
    void clear();
    /// Saves or loads the records and their index (core/state_archive.hpp).
    void archive(StateArchive& a);

  private:
    std::vector<ContactMemory> m_records;    ///< by last step's contact index
    std::vector<std::uint8_t> m_touching;    ///< ContactMemory::touching, packed for the match
    std::vector<std::uint64_t> m_recordKey;  ///< ContactMemory::key, packed for the match
    bool m_uniqueKeys = true;  ///< no key twice: the record after the last match may be taken
    std::vector<std::int32_t> m_start;   ///< CSR offsets by owner id, size ownerIds + 1
    std::vector<std::uint64_t> m_keys;   ///< the keys of each owner's records, packed
    std::vector<std::int32_t> m_record;  ///< the records they are, beside m_keys
    std::vector<std::int32_t> m_cursor;  ///< per thread and owner: the next slot to write
};

}  // namespace ndem
