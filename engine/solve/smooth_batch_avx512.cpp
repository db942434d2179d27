// The batch kernel built for Avx512; called only where the CPU has it (cpuSupports).
#include "solve/smooth_batch.hpp"

#include "solve/smooth_batch_impl.hpp"

namespace ndem {

void smoothBatchAvx512(SmoothBatch& batch, int count, double h) {
    smoothBatchBody(batch, count, h);
}

}  // namespace ndem
