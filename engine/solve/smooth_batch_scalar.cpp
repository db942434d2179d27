// The batch kernel for any CPU (the compiler may still pair lanes with SSE2), and the run-time
// choice between kernels.
#include "solve/smooth_batch.hpp"

#include "core/cpu_features.hpp"
#include "solve/smooth_batch_impl.hpp"

namespace ndem {

void smoothBatchScalar(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}

#ifndef NDEM_X86_KERNELS
void smoothBatchAvx2(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}
void smoothBatchAvx512(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}
#endif

SmoothBatchKernel smoothBatchKernel(SimdLevel level) {
    const SimdLevel use =
        level == SimdLevel::Auto || !cpuSupports(level) ? widestSimdLevel() : level;
    if (use == SimdLevel::Avx512) return {"avx512", &smoothBatchAvx512};
    if (use == SimdLevel::Avx2) return {"avx2", &smoothBatchAvx2};
    return {"scalar", &smoothBatchScalar};
}

}  // namespace ndem
