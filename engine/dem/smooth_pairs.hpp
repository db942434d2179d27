// The smooth DEM straight from the neighbour lists, as LAMMPS' granular pair styles do with
// fix neigh/history: every listed pair is tested and, where it touches, its force computed in
// the same pass, and the springs live beside the list entries (no contact records written and
// read again, no lookup of last step's contact by key). The contacts are recorded compactly
// and written out as a ContactSet only when something asks for them.
#pragma once

#include "collide/collider.hpp"
#include "collide/contact_set.hpp"
#include "core/material.hpp"
#include "core/particles.hpp"
#include "core/settings.hpp"
#include "dem/smooth_batch.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace ndem {

class SmoothPairs {
  public:
    /// The touching contacts of a pass and their overlaps ε = δ/d (pairs and walls).
    struct Totals {
        int contacts = 0;
        double overlapSum = 0.0, maxOverlap = 0.0;
    };

    /// Detection of one step: readies the lists (keeping the springs of the touching entries
    /// if they are searched again) and finds the touching wall contacts. Springs come from the
    /// last pass, or from `history` where there was none (the first pass, or a nonsmooth step,
    /// a restart or a change of mode since).
    void detect(Collider& collider, const ParticleStore& p, const std::vector<Wall>& walls,
                const std::vector<TriangleMesh>& meshes, const CollisionParams& params,
                ContactLaw law, const ContactHistory& history);
    /// Finds the touching pairs on the lists and adds their forces and torques, then the
    /// walls', to `force` and `torque` (the caller zeroes them), in an order that does not
    /// depend on the thread count or on when the lists were searched: grain by grain,
    /// partners ascending, then the walls.
    Totals forces(const Collider& collider, const ParticleStore& p, const MaterialTable& materials,
                  const StepSettings& s, const ContactHistory& history, int threads,
                  std::vector<Vec3>& force, std::vector<Vec3>& torque);

    /// Writes the last pass's contacts as the detection and the ContactSet force pass would
    /// have: geometry at the start of the step, impulses (force × h), springs; pairs first,
    /// then the walls.
    void writeContacts(const ParticleStore& p, ContactSet& out) const;
    /// The wall contacts of the last pass (with their impulses).
    const ContactSet& wallContacts() const { return m_walls; }
    /// Takes the springs from the history at the next pass, as after a nonsmooth step.
    void forget() { m_passed = false; }

    /// The two springs of a contact (m, rad).
    struct Springs {
        Vec3 tangential = Vec3::Zero(), rolling = Vec3::Zero();
    };

  private:
    /// The touching pairs of one thread's part of a pass, in pass order: who they are, and
    /// the batch kernel's columns that a contact written out needs, copied a batch at a time
    /// (and, where the pass runs on several threads, the pushes its serial sum adds up).
    struct PairRecords {
        struct Ids {
            Index a = 0, b = 0;        ///< storage indices, A the smaller id
            std::int32_t springs = 0;  ///< list entry (≥ 0), or −1 − its place in `loose`
            std::uint8_t flags = 0;    ///< ContactFlag
        };
        /// n, δ, f_n, f_t and M, then the pushes: f on B, the torques about A and B.
        enum Column { Nx, Ny, Nz, Overlap, NormalForce, Ftx, Fty, Ftz, Mx, My, Mz, kRecorded };
        static constexpr int kColumns = kRecorded + 9;
        size_t count = 0;
        std::vector<Ids> ids;  ///< grown, never shrunk: [0, count) hold this pass's pairs
        std::vector<double> columns[kColumns];
        /// Room for `more` pairs after the `count` held.
        void reserve(size_t more);
        const double* column(int c) const { return columns[c].data(); }
    };
    /// What one thread of a pass found, in pass order.
    struct ThreadPart {
        PairRecords records;
        std::vector<std::pair<std::uint64_t, Springs>> loose;  ///< pairs off the lists
        std::unique_ptr<SmoothBatch> batch;
        std::vector<std::int32_t> hits;  ///< a grain's touching partners, by place in its list
        bool direct = false;             ///< adds each push as it goes (one thread)
        Totals totals;
    };
    /// Springs keyed by contact, for the pairs that leave or enter the lists between passes.
    class Carry {
      public:
        void build(const std::vector<std::pair<std::uint64_t, Springs>>& items);
        const Springs* find(std::uint64_t key) const;

      private:
        std::vector<std::uint64_t> m_keys;
        std::vector<Springs> m_springs;
        std::uint64_t m_mask = 0;
    };
    /// Moves the springs of the entries that held them in the last pass into the carry, all
    /// of them (the lists are to be searched again) or those of escaped grains.
    void keepListSprings(const NeighbourList& lists, bool escapedOnly);
    /// The wall contacts' forces through the batch kernel (Hertz; last step's springs in the
    /// contacts' springs), into force and torque and into the contacts' impulses and springs.
    void wallForces(const ParticleStore& p, const MaterialTable& materials, const StepSettings& s,
                    std::vector<Vec3>& force, std::vector<Vec3>& torque);
    /// The batch's forces through smoothContactForce, for the laws the kernel does not run.
    static void lawOneByOne(SmoothBatch& batch, int count, const StepSettings& s);
    /// One thread's part of a pass: its state and steps (smooth_pairs.cpp).
    struct PairPass;
    void pairPass(const Collider& collider, const ParticleStore& p, const MaterialTable& materials,
                  const StepSettings& s, const ContactHistory& history, int begin, int end,
                  ThreadPart& out, std::vector<Vec3>& force, std::vector<Vec3>& torque);

    std::vector<Springs> m_entrySprings;     ///< beside the list entries
    std::vector<std::uint8_t> m_touched;     ///< the entry touched in the last pass
    std::vector<std::uint8_t> m_wasEscaped;  ///< per slot, in the last pass
    long m_build = -1;                       ///< the lists' search of the last pass
    bool m_passed = false;                   ///< the entries hold the last pass's springs
    double m_timeStep = 0.0;                 ///< of the last pass (impulse = force × h)

    std::vector<ThreadPart> m_parts;  ///< per thread: records, loose springs, pushes
    std::vector<std::pair<std::uint64_t, Springs>> m_carried;  ///< into the next pass's carry
    Carry m_carry;
    ContactSet m_walls;
    /// The wall contacts' springs of the last pass by key (Hertz), or their history (the
    /// other laws, whose ContactSet pass reads one).
    Carry m_wallCarry;
    std::vector<std::pair<std::uint64_t, Springs>> m_wallItems;
    ContactHistory m_wallHistory;
};

}  // namespace ndem
