// The block kernel one lane at a time (any CPU), and the run-time choice between kernels.
#include "solve/pgs/pgs_kernel.hpp"

#include "core/cpu_features.hpp"

#include "solve/pgs/pgs_kernel_impl.hpp"
#include "solve/pgs/simd/ops_scalar.hpp"

namespace ndem {

const PgsKernel& scalarPgsKernel() {
    static constexpr PgsKernel kernel{simd::ScalarOps::kName,
                                      &simd::sweepBlocks<simd::ScalarOps, true>,
                                      &simd::sweepBlocks<simd::ScalarOps, false>,
                                      &simd::applyBlocks<simd::ScalarOps>,
                                      &simd::gradientBlocks<simd::ScalarOps, true>,
                                      &simd::gradientBlocks<simd::ScalarOps, false>,
                                      &simd::sweepFloatBlocks<simd::ScalarFloatOps, true>,
                                      &simd::sweepFloatBlocks<simd::ScalarFloatOps, false>};
    return kernel;
}

#ifndef NDEM_X86_KERNELS
const PgsKernel* avx2PgsKernel() {
    return nullptr;
}
const PgsKernel* avx512PgsKernel() {
    return nullptr;
}
#endif

const PgsKernel& pgsKernel(SimdLevel level) {
    // Auto: AVX-512 measured fastest where present (docs/PERFORMANCE.md), then AVX2.
    const SimdLevel use =
        level == SimdLevel::Auto || !cpuSupports(level) ? widestSimdLevel() : level;
    if (use == SimdLevel::Avx512) return *avx512PgsKernel();
    if (use == SimdLevel::Avx2) return *avx2PgsKernel();
    return scalarPgsKernel();
}

}  // namespace ndem
