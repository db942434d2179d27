// The batch kernel built for Avx512; called only where the CPU has it (cpuSupports).
#include "dem/smooth_batch.hpp"

#include "dem/smooth_batch_impl.hpp"

namespace ndem {

void smoothPairsAvx512(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}
void smoothWallsAvx512(SmoothBatch& batch, int count, double h) {
    smoothWallBatchBody(batch, count, h);
}

}  // namespace ndem
