#include "core/parallel.hpp"

#include <algorithm>
#include <thread>

namespace ndem {

int hardwareThreads() {
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

int resolveThreads(int requested) {
    return requested <= 0 ? hardwareThreads() : std::min(requested, kMaxThreads);
}

}  // namespace ndem
