// The batch kernel built for Avx2; called only where the CPU has it (cpuSupports).
#include "dem/smooth_batch.hpp"

#include "dem/smooth_batch_impl.hpp"

namespace ndem {

void smoothPairsAvx2(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}
void smoothWallsAvx2(SmoothBatch& batch, int count, double h) {
    smoothWallBatchBody(batch, count, h);
}

}  // namespace ndem
