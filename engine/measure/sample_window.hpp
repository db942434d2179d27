// Which steps a sampled measurement looks at: every N steps within a time window [from, until].
#pragma once

#include "core/scene.hpp"
#include "core/step_stats.hpp"
#include "measure/measurement.hpp"

#include <algorithm>
#include <limits>

namespace ndem {

struct SampleWindow {
    int every = 1;                                           ///< sample every N steps (–)
    double from = 0.0;                                       ///< first time sampled (s)
    double until = std::numeric_limits<double>::infinity();  ///< last time sampled (s)

    static SampleWindow fromRequest(const MeasurementRequest& r) {
        SampleWindow w;
        w.every = std::max(1, static_cast<int>(r.number("every", 1.0)));
        w.from = r.number("from", 0.0);
        w.until = r.number("until", w.until);
        return w;
    }

    /// Step times are sums of h and carry round-off, so a window edge set to a multiple of h
    /// must still include that step: the edges get a slack far below one step.
    bool takes(const StepStats& stats, double timeStep) const {
        const double slack = 1e-6 * timeStep;
        return stats.step % every == 0 && stats.time >= from - slack && stats.time <= until + slack;
    }
};

inline const MeasurementParameter kWindowEvery{"every", MeasurementParameter::Whole,
                                               "sample every N steps (default 1)"};
inline const MeasurementParameter kWindowFrom{"from", MeasurementParameter::Number,
                                              "first time sampled (s, default 0)"};
inline const MeasurementParameter kWindowUntil{"until", MeasurementParameter::Number,
                                               "last time sampled (s, default: the end)"};

}  // namespace ndem
