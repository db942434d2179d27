// The contact rows the PGS sweep reads, packed for SIMD: eight contacts per block, each field
// an aligned array of eight doubles (one cache line), in the order the kernel reads them.
#pragma once

#include <cstdint>

namespace ndem {

inline constexpr int kBlockLanes = 8;        ///< lanes of a double block
inline constexpr int kFloatBlockLanes = 16;  ///< lanes of a float block (solver.precision)

/// Rolling and twisting rows of the same L contacts (Wang, Servin & Berglund Eq. 28–32), only
/// for blocks that have them: angular rows about t1, t2 and n with one D = 1/I_a + 1/I_b + Σ_r.
/// 10 cache lines for both element types.
template <class T, int L>
struct alignas(64) RollingBlockT {
    T impulse[3][L];  ///< λ about t1, t2, n (N m s)
    T keep[L], gain[L];
    T target[3][L];
    T limit[L];  ///< μ_r R* s: |λ_r| ≤ μ_r R* s λ_n
    T d[L];      ///< D for the residual only
};

/// L sphere contacts whose bodies are all distinct (a graph colour, see PgsSolver), so that
/// their velocity updates can be gathered, computed and scattered side by side: eight lanes
/// of doubles, or sixteen of floats (solver.precision = float). Only what a sphere contact
/// needs is stored: its levers are parallel to n, so the normal row has no angular part and
/// the friction rows' angular parts are the scalars leverA, leverB along n
/// (r × t1 = r t2, r × t2 = −r t1 with t2 = n × t1). Each row j is kept in the form
///   λ_j ← proj(keep_j λ_j + target_j − gain_j u_j)
/// with keep = 1 − Σ_j/D_j, target = q_j/D_j, gain = s_j/D_j (s = Hertz scale for the normal
/// row, 1 otherwise): the SPOOK update of servin-2014 App. B with the divisions done once per
/// step. Doubles: 1472 bytes = 23 lines for 8 contacts (184 bytes each), the sweep reads the
/// first 21; floats: 1536 bytes = 24 lines for 16 contacts (96 bytes each).
template <class T, int L>
struct alignas(64) ContactBlockT {
    using Scalar = T;
    using Rolling = RollingBlockT<T, L>;
    static constexpr int kLanes = L;
    /// Solver body of each side; a negative entry −(k + 1) is body k read but never written
    /// (the static wall body, particles that cannot move, padding lanes).
    std::int32_t bodyA[L], bodyB[L];
    T nx[L], ny[L], nz[L];     ///< n, A to B
    T t1x[L], t1y[L], t1z[L];  ///< t1 (t2 = n × t1)
    T leverA[L], leverB[L];    ///< (contact point − centre) · n (m)
    T normal[L];               ///< λ_n (row units)
    T normalKeep[L], normalTarget[L], normalGain[L];
    T scale[L];                  ///< s: impulse on the bodies = s λ_n
    T tangent1[L], tangent2[L];  ///< λ_t1, λ_t2 (N s)
    T frictionKeep[L], frictionGain[L];
    T frictionTarget1[L], frictionTarget2[L];
    T frictionLimit[L];          ///< μ s: |λ_t| ≤ μ s λ_n
    T normalD[L], frictionD[L];  ///< D_j for the residual only
};

using ContactBlock = ContactBlockT<double, kBlockLanes>;
using RollingBlock = RollingBlockT<double, kBlockLanes>;
using FloatContactBlock = ContactBlockT<float, kFloatBlockLanes>;
using FloatRollingBlock = RollingBlockT<float, kFloatBlockLanes>;
static_assert(sizeof(ContactBlock) == 23 * 64, "ContactBlock: 23 cache lines");
static_assert(sizeof(RollingBlock) == 10 * 64, "RollingBlock: 10 cache lines");
static_assert(sizeof(FloatContactBlock) == 24 * 64, "FloatContactBlock: 24 cache lines");
static_assert(sizeof(FloatRollingBlock) == 10 * 64, "FloatRollingBlock: 10 cache lines");

/// One value per row of each lane of a block (normal, t1, t2, rolling t1, t2, twist n): the
/// multiplier vectors of the accelerated iterations (NNCG's direction and last update).
/// 384 bytes.
struct alignas(64) BlockVector {
    double row[6][kBlockLanes];
};
static_assert(sizeof(BlockVector) == 6 * 64, "BlockVector: 6 cache lines");

/// The residual sums of one block in one measured sweep (see PgsResult).
struct BlockResidual {
    double all = 0.0, normal = 0.0, max = 0.0;
    double squares = 0.0;  ///< NNCG: Σ (D_j Δλ_j)², for β. APGD: ‖γ' − y‖²_D
    double inner = 0.0;    ///< APGD: gᵀ(γ' − γ_k), the restart test
    double sigma = 0.0;    ///< APGD: Σ_j (γ' − y)_j², the regularisation's part of dᵀNd
};

/// A range of blocks of one colour, swept by one thread.
struct BlockSweep {
    ContactBlock* blocks = nullptr;
    RollingBlock* rolling = nullptr;           ///< parallel to blocks, or null: no rolling rows
    const std::uint8_t* hasRolling = nullptr;  ///< per block: any lane with rolling rows
    double* bodies = nullptr;                  ///< SolverBody records (stride kBodyStride doubles)
    BlockResidual* residual = nullptr;         ///< per block, or null: do not measure
    const BlockVector* impulse = nullptr;      ///< per block: impulses to apply (applyImpulses)
    /// NNCG (Silcowitz, Niebe & Erleben 2010), with the momentum split as in the authors'
    /// jinngine: the bodies already hold β M⁻¹Jᵀ p; here each row first takes λ += β p_j and
    /// p_j ← β p_j + Δλ_j(last sweep), then its PGS update, whose Δλ_j it keeps in `last`.
    /// Null: plain PGS. Needs `residual`.
    BlockVector* direction = nullptr;
    BlockVector* last = nullptr;
    double beta = 0.0;
    /// APGD (Mazhar et al. 2015) with Jacobi preconditioning: from the multipliers y the blocks
    /// hold (the bodies' velocities belong to them), γ' = Π(y − step D⁻¹ g(y)) into `next`;
    /// `previous` is γ_k for the restart test. Reads the bodies only.
    const BlockVector* previous = nullptr;
    BlockVector* next = nullptr;
    BlockVector* delta = nullptr;  ///< γ' − y, the impulses that move the bodies to γ'
    double step = 1.0;
    int begin = 0, end = 0;  ///< block range
};

/// A range of float blocks of one colour, swept by one thread: plain PGS only (the
/// accelerated iterations keep doubles). The bodies are FloatBody records.
struct FloatBlockSweep {
    FloatContactBlock* blocks = nullptr;
    FloatRollingBlock* rolling = nullptr;
    const std::uint8_t* hasRolling = nullptr;
    float* bodies = nullptr;
    BlockResidual* residual = nullptr;
    int begin = 0, end = 0;
};

/// A body as the float kernel reads it: v, ω, 1/m, 1/I (isotropic), one 32-byte record.
struct alignas(32) FloatBody {
    float f[8];
};
inline constexpr int kFloatBodyStride = 8;

/// Doubles between consecutive SolverBody records (the kernel reads the first eight).
inline constexpr int kBodyStride = 16;

}  // namespace ndem
