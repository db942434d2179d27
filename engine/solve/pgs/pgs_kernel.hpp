// The PGS block kernels, one per instruction set, chosen at run time.
#pragma once

#include "solve/pgs/contact_block.hpp"

namespace ndem {

// Declared here without core/settings.hpp: the per-instruction-set files include nothing with
// inline code outside their own templates (see pgs_kernel_impl.hpp).
enum class SimdLevel : int;

/// One sweep over a range of blocks: cone or box friction (see FrictionModel).
using BlockSweepFunction = void (*)(const BlockSweep& sweep);
/// The same over float blocks (solver.precision = float).
using FloatBlockSweepFunction = void (*)(const FloatBlockSweep& sweep);

struct PgsKernel {
    const char* name = "scalar";
    BlockSweepFunction cone = nullptr;
    BlockSweepFunction box = nullptr;
    /// v += M⁻¹ Jᵀ Δλ for the impulses Δλ in sweep.impulse (no projection, λ unchanged).
    BlockSweepFunction applyImpulses = nullptr;
    /// APGD's projected gradient step (BlockSweep::next), cone or box; bodies read only.
    BlockSweepFunction gradientCone = nullptr;
    BlockSweepFunction gradientBox = nullptr;
    FloatBlockSweepFunction floatCone = nullptr;
    FloatBlockSweepFunction floatBox = nullptr;
};

/// The kernel for `level` (Auto: the widest the CPU runs, see cpuSupports). An unsupported
/// level falls back to the widest supported one; settings validation refuses it first.
const PgsKernel& pgsKernel(SimdLevel level);

// Defined in the per-instruction-set translation units.
const PgsKernel& scalarPgsKernel();
const PgsKernel* avx2PgsKernel();  ///< null where the build has no x86-64 kernels
const PgsKernel* avx512PgsKernel();

}  // namespace ndem
