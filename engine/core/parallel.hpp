// Threads inside a step: OpenMP teams (GCC's libgomp), announced to ThreadSanitizer.
//
// Why OpenMP and not TBB: the colours of a PGS sweep need a barrier between them, hundreds of
// times per step; an OpenMP team keeps its threads for the whole solve and meets at a spinning
// barrier (< 1 µs), where a TBB parallel_for per colour costs a task spawn and join each time.
#pragma once

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

namespace parallel {

#if defined(__SANITIZE_THREAD__)
// libgomp is not instrumented, so ThreadSanitizer does not see its forks, barriers and joins:
// each one is announced as a release before and an acquire after, on one token.
inline char g_token;
inline void release() { __tsan_release(&g_token); }
inline void acquire() { __tsan_acquire(&g_token); }
#else
inline void release() {}
inline void acquire() {}
#endif

#if defined(_OPENMP)
inline int threadIndex() { return omp_get_thread_num(); }
inline int teamSize() { return omp_get_num_threads(); }
/// All threads of the team wait here; what each wrote before is visible to all after.
inline void barrier() {
    release();
#pragma omp barrier
    acquire();
}
#else
inline int threadIndex() { return 0; }
inline int teamSize() { return 1; }
inline void barrier() {}
#endif

/// The contiguous part [begin, end) of [first, last) that thread t of a team of n takes.
inline std::pair<int, int> share(int first, int last, int t, int n) {
    const long long count = last - first;
    return {first + static_cast<int>(count * t / n), first + static_cast<int>(count * (t + 1) / n)};
}

/// Runs body() on a team of `threads` threads (the calling thread is thread 0); inside, use
/// threadIndex(), teamSize(), share() and barrier(). One thread: body() runs inline.
template <class F>
void team(int threads, F&& body) {
#if defined(_OPENMP)
    if (threads > 1) {
        release();
#pragma omp parallel num_threads(threads)
        {
            acquire();
            body();
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

/// Calls f(begin, end) on contiguous chunks of [0, n), one per thread, and returns when all
/// are done. Chunks depend on the thread count: f must write only what its range owns.
template <class F>
void parallelFor(int n, int threads, F&& f) {
    if (threads <= 1 || n < 2) {
        f(0, n);
        return;
    }
    parallel::team(threads, [&] {
        const auto [begin, end] = parallel::share(0, n, parallel::threadIndex(), parallel::teamSize());
        if (begin < end) f(begin, end);
    });
}

}  // namespace ndem
