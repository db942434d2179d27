// Projected Gauss-Seidel over contact rows (servin-2014 App. B; Wang, Servin & Berglund,
// Algorithm 1), and its accelerations NNCG (silcowitz-2010) and APGD (mazhar-2015): the
// projected Gauss–Seidel family. Keys: docs/references.md.
#pragma once

#include "core/settings.hpp"
#include "core/state_archive.hpp"
#include "solve/pgs/contact_block.hpp"
#include "solve/pgs/pgs_kernel.hpp"
#include "solve/pgs/pgs_settings.hpp"
#include "solve/rows/general_rows.hpp"
#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace ndem {

/// Which member of the family sweeps: plain projected Gauss–Seidel, with NNCG's momentum, or
/// APGD's accelerated projected gradient.
enum class PgsVariant : int { Plain, Nncg, Apgd };

struct PgsOptions {
    int iterations = 100;    ///< maximum sweeps N_it
    double tolerance = 0.0;  ///< stop when the mean residual drops below (m/s); 0 = never
    FrictionModel friction = FrictionModel::Cone;
    std::vector<double>* residualHistory = nullptr;  ///< if set: mean residual after each sweep
    int threads = 1;  ///< threads sweeping the colours (the result does not depend on it)
    SimdLevel simd = SimdLevel::Auto;  ///< kernel of the sphere blocks
    /// Float: the sphere blocks and the velocities they sweep in floats, sixteen lanes a
    /// block (plain PGS in colour order only; otherwise doubles).
    SolverPrecision precision = SolverPrecision::Double;
    PgsVariant variant = PgsVariant::Plain;
    SweepOrder order =
        SweepOrder::Coloured;  ///< Sequential: rows in the given order, general kernel
    /// false: every row through the general kernel, in the order the blocks would take them
    /// (tests compare the block kernels against it).
    bool blocks = true;
};

struct PgsResult {
    int iterations = 0;           ///< sweeps done
    double residual = 0.0;        ///< mean |Δλ_j| D_j over all rows of the last sweep (m/s)
    double maxResidual = 0.0;     ///< max |Δλ_j| D_j of the last sweep (m/s)
    double normalResidual = 0.0;  ///< mean over normal rows only (m/s)
};

/// How a solve split its rows: graph colours of SIMD blocks, and the general rows.
struct PgsLayout {
    int colours = 0;          ///< colours with at least one block
    int sharedColours = 0;    ///< colours split between threads (the rest: one thread)
    int blocks = 0;           ///< blocks of eight lanes (sixteen for float)
    int blockRows = 0;        ///< contacts in blocks (the rest of the lanes are padding)
    int generalRows = 0;      ///< contacts swept one by one after the colours
    const char* kernel = "";  ///< instruction set of the block kernel
};

/// Projected Gauss-Seidel with the rows ordered by graph colour (Box2D v3's solver design).
/// Sphere contacts — levers along the normal, isotropic bodies: the bulk of every granular
/// scene — are packed eight to a block whose contacts touch distinct bodies, and swept with
/// SIMD; the colours' blocks are independent, so threads split each colour and meet at a
/// barrier. Contacts of rigid aggregates and those no colour can take (a body with more
/// contacts than colours) are general rows, swept in order after the colours. The order of
/// the rows does not depend on the thread count, so neither does the result.
///
/// Reuses its buffers between solves: keep one per use (continuous stage, impact stage).
class PgsSolver {
  public:
    PgsSolver();
    ~PgsSolver();
    PgsSolver(PgsSolver&&) noexcept;
    PgsSolver& operator=(PgsSolver&&) noexcept;

    /// Runs sweeps over `rows`, updating multipliers and body velocities in place. The
    /// residual of a row is the velocity error its last update removed, |Δλ_j| D_j: zero once
    /// the row satisfies its complementarity condition.
    PgsResult solve(std::span<SolverContact> rows, std::span<SolverBody> bodies,
                    const PgsOptions& options);

    const PgsLayout& layout() const { return m_layout; }
    /// Saves or loads what carries from one solve to the next (APGD's Lipschitz estimate).
    void archive(StateArchive& a) { a.field("lipschitz", m_lipschitz); }

  private:
    void partition(std::span<const SolverContact> rows, std::span<const SolverBody> bodies,
                   int threads);
    void pack(std::span<const SolverContact> rows, std::span<const SolverBody> bodies, int threads);
    /// Moves every block row into the general rows, in sweep order (PgsOptions::blocks false).
    void unblock();
    /// Every row a general row, in the given order (SweepOrder::Sequential).
    void sequential(size_t rows);
    void unpack(std::span<SolverContact> rows, int threads) const;
    /// Float solves: the float body records from the double ones, and back.
    void loadFloatBodies(std::span<const SolverBody> bodies, int threads);
    void storeFloatBodies(std::span<SolverBody> bodies, int threads) const;
    void syncGeneralBodies(std::span<SolverBody> bodies, bool toDouble);
    template <bool kCone>
    PgsResult run(std::span<SolverBody> bodies, const PgsOptions& options, const PgsKernel& kernel);
    /// APGD (pgs_apgd.cpp): Jacobi-preconditioned, backtracking, gradient restart; its state
    /// and steps.
    struct Apgd;
    template <bool kCone>
    PgsResult runApgd(std::span<SolverBody> bodies, const PgsOptions& options,
                      const PgsKernel& kernel);
    /// NNCG's body-space momentum after sweep k, on bodies [begin, end) (see BlockSweep).
    void moveBodies(std::span<SolverBody> bodies, int begin, int end, double beta, bool apply);

    /// A row as the colouring sees it: its bodies and whether it is a sphere row whose
    /// bodies can move (kSphereKey, kMovesA, kMovesB). 12 bytes.
    struct RowKey {
        std::int32_t a = 0, b = 0;
        std::uint32_t kind = 0;
    };
    static constexpr std::uint32_t kSphereKey = 1, kMovesA = 2, kMovesB = 4;
    std::vector<RowKey> m_keys;
    std::vector<std::uint64_t> m_used;   ///< per body: colours it already appears in
    std::vector<std::int32_t> m_colour;  ///< per row: colour, or -1 for a general row
    /// First block of each shared colour, then of the serial tail, then the end.
    std::vector<std::int32_t> m_stageStart;
    int m_sharedStages = 0;               ///< colours swept by all threads
    std::vector<std::int32_t> m_laneRow;  ///< row of each block lane, -1 for padding
    bool m_float = false;                 ///< this solve's blocks are float ones
    int m_lanes = kBlockLanes;            ///< lanes of this solve's blocks
    std::vector<ContactBlock> m_blocks;
    std::vector<RollingBlock> m_rolling;
    // Float solves: the blocks, the bodies as the float kernel reads them, and which bodies
    // general rows touch (their double records are kept in step with the float ones).
    std::vector<FloatContactBlock> m_floatBlocks;
    std::vector<FloatRollingBlock> m_floatRolling;
    std::vector<FloatBody> m_floatBodies;
    std::vector<std::int32_t> m_generalBodies;
    std::vector<std::uint8_t> m_isGeneralBody;
    std::vector<std::uint8_t> m_hasRolling;
    std::vector<BlockResidual> m_blockResidual;
    std::vector<std::int32_t> m_generalIndex;  ///< rows swept one by one, in order
    std::vector<SolverContact> m_general;      ///< their copies during the solve
    // NNCG state: per block lane and per general row the direction p and the last update Δλ;
    // per body the velocities at the start of the sweep and the velocity image of p.
    std::vector<BlockVector> m_direction, m_last;
    std::vector<std::array<double, 6>> m_generalDirection, m_generalLast, m_generalBefore;
    std::vector<std::array<double, 6>> m_bodyStart, m_bodyDirection;
    // APGD state: γ_k, γ' and the impulses to apply, per block lane and per general row; the
    // energy sum in fixed chunks of bodies; the Lipschitz estimate, kept between solves.
    std::vector<BlockVector> m_previous, m_next, m_delta;
    std::vector<std::array<double, 6>> m_generalPrevious, m_generalNext;
    std::vector<double> m_chunkEnergy;
    double m_lipschitz = 1.0;
    int m_rowsCounted = 0, m_normalRowsCounted = 0;
    PgsLayout m_layout;
};

/// One-off solve with a temporary PgsSolver (tests, diagnostics).
PgsResult solvePgs(std::span<SolverContact> rows, std::span<SolverBody> bodies,
                   const PgsOptions& options);

/// Plain sweeps as a step's settings ask for them (the PGS block, the kernel): the impact
/// stage's, the trial split's.
PgsOptions pgsOptions(const StepSettings& s, int threads, int iterations);

}  // namespace ndem
