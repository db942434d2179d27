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

int ThreadGovernor::threads(int setting) {
    if (setting > 0) return std::min(setting, kMaxThreads);
    const int all = hardwareThreads();
    if (all == 1) return 1;
    // Measure both first; then take the cheaper, and try the other now and then (the load on
    // the machine changes) — less often while it keeps losing by far.
    m_probing = false;
    if (m_cost[1] == 0.0) return all;
    if (m_cost[0] == 0.0) return 1;
    const bool oneIsCheaper = m_cost[0] <= m_cost[1];
    if (++m_sinceProbe < m_probeEvery) return oneIsCheaper ? 1 : all;
    m_sinceProbe = 0;
    m_probing = true;
    const double ratio = oneIsCheaper ? m_cost[1] / m_cost[0] : m_cost[0] / m_cost[1];
    m_probeEvery = ratio > 1.5 ? std::min(2 * m_probeEvery, 800) : 25;
    return oneIsCheaper ? all : 1;
}

void ThreadGovernor::record(int threads, double secondsPerUnit) {
    if (!(secondsPerUnit > 0.0)) return;
    double& c = m_cost[threads > 1 ? 1 : 0];
    // A probe is the one fresh look at the other count: it replaces the old figure.
    c = c == 0.0 || m_probing ? secondsPerUnit : 0.7 * c + 0.3 * secondsPerUnit;
}

}  // namespace ndem
