#include "core/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

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
    if (oneIsCheaper != m_oneWasCheaper) {
        // The winner changed: the loser's figure may be one bad spell of the host (a
        // neighbour's burst), so look at it again soon, not after the long interval that the
        // old winner had earned.
        m_oneWasCheaper = oneIsCheaper;
        m_probeEvery = kFirstProbe;
        m_sinceProbe = 0;
    }
    if (++m_sinceProbe < m_probeEvery) return oneIsCheaper ? 1 : all;
    m_sinceProbe = 0;
    m_probing = true;
    const double ratio = oneIsCheaper ? m_cost[1] / m_cost[0] : m_cost[0] / m_cost[1];
    m_probeEvery = ratio > 1.5 ? std::min(2 * m_probeEvery, 800) : kFirstProbe;
    return oneIsCheaper ? all : 1;
}

void ThreadGovernor::record(int threads, double secondsPerUnit) {
    if (!(secondsPerUnit > 0.0)) return;
    double& c = m_cost[threads > 1 ? 1 : 0];
    // A probe is the one fresh look at the other count: it replaces the old figure.
    c = c == 0.0 || m_probing ? secondsPerUnit : 0.7 * c + 0.3 * secondsPerUnit;
}

namespace parallel {

namespace {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

/// How long a thread spins at a barrier before it yields its core: longer than the imbalance
/// of a colour between threads (a few µs), far shorter than a scheduler time slice (ms).
constexpr double kSpinSeconds = 50e-6;
/// Then how long it yields before it sleeps on the futex.
constexpr double kYieldSeconds = 1e-3;

}  // namespace

void SpinBarrier::arriveAndWait() {
    const unsigned generation = m_generation.load(std::memory_order_acquire);
    if (m_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == m_count) {
        // The last to arrive opens the next generation; the others see it with acquire.
        m_arrived.store(0, std::memory_order_relaxed);
        m_generation.store(generation + 1, std::memory_order_release);
        m_generation.notify_all();
        return;
    }
    waitFor(generation);
}

void SpinBarrier::waitFor(unsigned generation) {
    using Clock = std::chrono::steady_clock;
    const auto released = [&] {
        return m_generation.load(std::memory_order_acquire) != generation;
    };
    // The clock is read every 64 spins only: a read costs as much as a few dozen of them.
    const auto start = Clock::now();
    for (int spin = 1;; ++spin) {
        if (released()) return;
        cpuRelax();
        if (spin % 64 == 0 &&
            std::chrono::duration<double>(Clock::now() - start).count() > kSpinSeconds)
            break;
    }
    while (std::chrono::duration<double>(Clock::now() - start).count() < kYieldSeconds) {
        if (released()) return;
        std::this_thread::yield();
    }
    while (!released())
        m_generation.wait(generation, std::memory_order_acquire);
}

}  // namespace parallel

}  // namespace ndem
