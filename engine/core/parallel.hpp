// Threads inside a step: OpenMP teams (GCC's libgomp), announced to ThreadSanitizer.
//
// Why OpenMP and not TBB: the colours of a PGS sweep need a barrier between them, hundreds of
// times per step; an OpenMP team keeps its threads for the whole solve and meets at a spinning
// barrier (< 1 µs), where a TBB parallel_for per colour costs a task spawn and join each time.
#pragma once

#include <algorithm>

#include <atomic>
#include <optional>
#include <utility>

#if defined(_OPENMP)
#include <omp.h>
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace ndem {

/// Maximum thread count a setting may ask for.
inline constexpr int kMaxThreads = 1024;

/// Cores this process may use (at least 1).
int hardwareThreads();
/// The threads a setting of `requested` means: 0 = every core, else min(requested, kMaxThreads).
int resolveThreads(int requested);

/// For a setting of 0 ("every core"): picks, step by step, between one thread and every
/// core by measuring which is faster now. Results never depend on the thread count, so the
/// switch is invisible to the physics; it matters on a machine with more runnable threads than
/// cores (the app's GUI rendering beside the step, runs side by side), where the barriers
/// between the colours of a sweep cost a scheduling delay each and two threads ran a silo
/// step 30× slower than one.
class ThreadGovernor {
  public:
    /// The thread count for the next step, given the setting (0 = every core, adaptive).
    int threads(int setting);
    /// The wall time per unit of work (e.g. per row and sweep) that the last step took with
    /// `threads` threads.
    void record(int threads, double secondsPerUnit);

  private:
    double m_cost[2] = {0.0, 0.0};  ///< moving average of the cost: one thread, every core
    static constexpr int kFirstProbe = 25;
    int m_sinceProbe = 0;
    int m_probeEvery = kFirstProbe;  ///< steps between probes; doubles while probes lose
    bool m_oneWasCheaper = false;    ///< the winner of the last choice
    bool m_probing = false;          ///< the last count returned was a probe of the other
};

namespace parallel {

/// The meeting point of a team, crossed hundreds of times per step (once per colour of every
/// sweep). It spins first, for a bounded time, because the work between two crossings is
/// balanced and short (tens of µs): std::barrier spins only a few dozen iterations before it
/// sleeps on a futex, and the wake-up through the kernel cost 5 µs per crossing on this
/// 2-vCPU VM (0.27 µs spinning; a two-thread solve ran at half the speed of one thread).
/// Spinning on regardless (libgomp's ~10⁵ iterations) burns the time slice of the thread it
/// waits for when there are more runnable threads than cores (the app's GUI beside the
/// step), so after kSpinSeconds it yields the core, and later sleeps on the futex.
class SpinBarrier {
  public:
    explicit SpinBarrier(int count) : m_count(count) {}
    /// Every thread of the team calls it; none returns before all have arrived, and what each
    /// wrote before is visible to all after (release on arrival, acquire on leaving).
    void arriveAndWait();

  private:
    void waitFor(unsigned generation);
    alignas(64) std::atomic<int> m_arrived{0};
    alignas(64) std::atomic<unsigned> m_generation{0};
    int m_count;
};

#if defined(__SANITIZE_THREAD__)
// libgomp is not instrumented, so ThreadSanitizer does not see its forks, barriers and joins:
// each one is announced as a release before and an acquire after, on one token.
inline char g_token;
inline void release() {
    __tsan_release(&g_token);
}
inline void acquire() {
    __tsan_acquire(&g_token);
}
#else
inline void release() {}
inline void acquire() {}
#endif

/// The barrier of the team the calling thread is in (null outside a team).
inline thread_local SpinBarrier* t_barrier = nullptr;

#if defined(_OPENMP)
inline int threadIndex() {
    return omp_get_thread_num();
}
inline int teamSize() {
    return omp_get_num_threads();
}
/// All threads of the team wait here; what each wrote before is visible to all after.
/// Not libgomp's barrier, which spins up to ~10⁵ iterations before it sleeps: on a machine
/// with more runnable threads than cores (the app's GUI beside the step, two runs side by
/// side) the waiting thread burns the time slice of the one it waits for, and a step took 7×
/// longer on two threads than on one. SpinBarrier bounds its spin.
inline void barrier() {
    if (t_barrier) t_barrier->arriveAndWait();
}
#else
inline int threadIndex() {
    return 0;
}
inline int teamSize() {
    return 1;
}
inline void barrier() {}
#endif

/// The contiguous part [begin, end) of [first, last) that thread t of a team of n takes.
inline std::pair<int, int> share(int first, int last, int t, int n) {
    const long long count = last - first;
    return {first + static_cast<int>(count * t / n), first + static_cast<int>(count * (t + 1) / n)};
}

/// How many of `threads` to give `items` of work so that each takes at least `perThread`: a
/// team costs microseconds to start, which a small scan (a pair of grains) does not repay.
inline int threadsFor(int items, int perThread, int threads) {
    return std::clamp(items / std::max(1, perThread), 1, std::max(1, threads));
}

/// Runs body() on a team of `threads` threads (the calling thread is thread 0); inside, use
/// threadIndex(), teamSize(), share() and barrier(). One thread: body() runs inline.
template <class F>
void team(int threads, F&& body) {
#if defined(_OPENMP)
    if (threads > 1) {
        std::optional<SpinBarrier> sync;
        release();
#pragma omp parallel num_threads(threads)
        {
#if defined(__SANITIZE_THREAD__)
            // The fork writes the region's shared pointers after the release above: announce
            // them once more, and let no thread read them before.
            if (omp_get_thread_num() == 0) release();
#pragma omp barrier
#endif
            acquire();
#pragma omp single
            {
                sync.emplace(omp_get_num_threads());  // fewer than asked inside another team
                release();
            }
            acquire();
            SpinBarrier* outer = t_barrier;
            t_barrier = &*sync;
            body();
            t_barrier = outer;
            release();
        }
        acquire();
        return;
    }
#endif
    (void)threads;
    body();
}

}  // namespace parallel

/// Fewer items than this run on the calling thread: a team's fork and join cost microseconds,
/// and a scheduling quantum each when more threads are runnable than cores (two 2-grain
/// collision tests side by side under ctest took 257–425 s instead of 0.5).
inline constexpr int kMinParallelItems = 64;

/// Calls f(begin, end) on contiguous chunks of [0, n), one per thread, and returns when all
/// are done. Chunks depend on the thread count: f must write only what its range owns.
template <class F>
void parallelFor(int n, int threads, F&& f) {
    if (threads <= 1 || n < kMinParallelItems) {
        f(0, n);
        return;
    }
    parallel::team(threads, [&] {
        const auto [begin, end] =
            parallel::share(0, n, parallel::threadIndex(), parallel::teamSize());
        if (begin < end) f(begin, end);
    });
}

/// Calls f(begin, end) on chunks of `chunk` items of [0, n) dealt round a team (thread t
/// takes chunks t, t + T, …): for work whose cost is uneven along [0, n), such as the
/// grains of a falling cloud, contiguous in storage. f must write only what its range owns.
template <class F>
void parallelChunks(int n, int chunk, int threads, F&& f) {
    if (threads <= 1 || n <= chunk) {
        f(0, n);
        return;
    }
    parallel::team(threads, [&] {
        const int t = parallel::threadIndex(), size = parallel::teamSize();
        for (int begin = t * chunk; begin < n; begin += size * chunk)
            f(begin, std::min(begin + chunk, n));
    });
}

}  // namespace ndem
