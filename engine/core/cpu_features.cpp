#include "core/cpu_features.hpp"

namespace ndem {

bool cpuSupports(SimdLevel level) {
    switch (level) {
        case SimdLevel::Auto:
        case SimdLevel::Scalar:
            return true;
#ifdef NDEM_X86_KERNELS
        // libgcc's checks include the operating system's support (XCR0) for the wide registers.
        case SimdLevel::Avx2:
            return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        case SimdLevel::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
        case SimdLevel::Avx2:
        case SimdLevel::Avx512:
            return false;
#endif
    }
    return false;
}

SimdLevel widestSimdLevel() {
    if (cpuSupports(SimdLevel::Avx512)) return SimdLevel::Avx512;
    if (cpuSupports(SimdLevel::Avx2)) return SimdLevel::Avx2;
    return SimdLevel::Scalar;
}

}  // namespace ndem
