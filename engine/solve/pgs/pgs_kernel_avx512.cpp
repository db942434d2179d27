// The block kernel with AVX-512F/DQ, eight lanes at a time. Built with -mavx512f -mavx512dq;
// called only where the CPU has them (simdSupported).
#include "solve/pgs/pgs_kernel.hpp"

#include "solve/pgs/pgs_kernel_impl.hpp"
#include "solve/pgs/simd/ops_avx512.hpp"

namespace ndem {

namespace {
// Constant-initialised: no code of this file runs before the CPU check.
constexpr PgsKernel kKernel{simd::Avx512Ops::kName,
                            &simd::sweepBlocks<simd::Avx512Ops, true>,
                            &simd::sweepBlocks<simd::Avx512Ops, false>,
                            &simd::applyBlocks<simd::Avx512Ops>,
                            &simd::gradientBlocks<simd::Avx512Ops, true>,
                            &simd::gradientBlocks<simd::Avx512Ops, false>,
                            &simd::sweepFloatBlocks<simd::Avx512FloatOps, true>,
                            &simd::sweepFloatBlocks<simd::Avx512FloatOps, false>};
}  // namespace

const PgsKernel* avx512PgsKernel() {
    return &kKernel;
}

}  // namespace ndem
