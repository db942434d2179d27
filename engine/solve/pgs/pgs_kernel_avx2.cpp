// The block kernel with AVX2 + FMA, four lanes at a time. Built with -mavx2 -mfma; called only
// where the CPU has them (simdSupported).
#include "solve/pgs/pgs_kernel.hpp"

#include "solve/pgs/pgs_kernel_impl.hpp"
#include "solve/pgs/simd/ops_avx2.hpp"

namespace ndem {

namespace {
// Constant-initialised: no code of this file runs before the CPU check.
constexpr PgsKernel kKernel{simd::Avx2Ops::kName,
                            &simd::sweepBlocks<simd::Avx2Ops, true>,
                            &simd::sweepBlocks<simd::Avx2Ops, false>,
                            &simd::applyBlocks<simd::Avx2Ops>,
                            &simd::gradientBlocks<simd::Avx2Ops, true>,
                            &simd::gradientBlocks<simd::Avx2Ops, false>,
                            &simd::sweepFloatBlocks<simd::Avx2FloatOps, true>,
                            &simd::sweepFloatBlocks<simd::Avx2FloatOps, false>};
}  // namespace

const PgsKernel* avx2PgsKernel() {
    return &kKernel;
}

}  // namespace ndem
