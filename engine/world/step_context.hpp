// What one step carries from stage to stage (Box2D v3's b2StepContext): its statistics, the
// settings it runs with and the map from particles to solver bodies.
#pragma once

#include "core/settings.hpp"
#include "core/step_stats.hpp"
#include "solve/rows/body_map.hpp"

#include <chrono>
#include <utility>

namespace ndem {

struct StepContext {
    StepStats stats;
    /// The world's settings with this step's thread count resolved (0: chosen by measurement).
    StepSettings settings;
    /// Particles to solver bodies: the identity unless aggregates exist (set where the solver
    /// bodies are loaded, whose arrays it points into).
    BodyMap map;
};

/// Runs `stage` and adds its wall-clock seconds to `phase`: every stage is timed where the step
/// calls it, so StepStats keeps one figure per phase however the stages are arranged.
template <class Stage>
void timed(double& phase, Stage&& stage) {
    const auto start = std::chrono::steady_clock::now();
    std::forward<Stage>(stage)();
    phase += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace ndem
