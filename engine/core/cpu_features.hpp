// What the CPU this process runs on can execute, for the kernels chosen at run time.
#pragma once

#include "core/settings.hpp"

namespace ndem {

/// Whether this CPU (and this build) runs the kernels of `level`; Auto and Scalar always.
bool cpuSupports(SimdLevel level);

/// The widest level cpuSupports().
SimdLevel widestSimdLevel();

}  // namespace ndem
