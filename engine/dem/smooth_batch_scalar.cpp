// The batch kernel for any CPU (the compiler may still pair lanes with SSE2), and the run-time
// choice between kernels.
#include "dem/smooth_batch.hpp"

#include "core/cpu_features.hpp"
#include "dem/smooth_batch_impl.hpp"

namespace ndem {

void smoothPairsScalar(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}
void smoothWallsScalar(SmoothBatch& batch, int count, double h) {
    smoothWallBatchBody(batch, count, h);
}

#ifndef NDEM_X86_KERNELS
void smoothPairsAvx2(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}
void smoothWallsAvx2(SmoothBatch& batch, int count, double h) {
    smoothWallBatchBody(batch, count, h);
}
void smoothPairsAvx512(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}
void smoothWallsAvx512(SmoothBatch& batch, int count, double h) {
    smoothWallBatchBody(batch, count, h);
}
#endif

SmoothBatchKernel smoothBatchKernel(SimdLevel level) {
    const SimdLevel use =
        level == SimdLevel::Auto || !cpuSupports(level) ? widestSimdLevel() : level;
    if (use == SimdLevel::Avx512) return {"avx512", &smoothPairsAvx512, &smoothWallsAvx512};
    if (use == SimdLevel::Avx2) return {"avx2", &smoothPairsAvx2, &smoothWallsAvx2};
    return {"scalar", &smoothPairsScalar, &smoothWallsScalar};
}

}  // namespace ndem
