// The measurements behind `ndem bench`: step throughput, PGS cost per contact and sweep,
// collision cost per particle, and smooth vs semi-smooth DEM on one settled bed.
// docs/PERFORMANCE.md explains the figures and records a run.
#pragma once

#include "core/error.hpp"
#include "core/scene.hpp"
#include "core/settings.hpp"
#include "world/world.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ndem::bench {

struct BenchOptions {
    bool quick = false;     ///< smoke run: 2000 spheres, 1.0 s settle, 10 timed steps per series
    int particles = 10000;  ///< spheres in the bed of a full run (a quick run uses 2000)
    /// Receives short status lines ("settling bed 40%"); may be empty. Called on the caller's
    /// thread between steps.
    std::function<void(const std::string&)> progress;
};

/// Settings every benchmark steps with: semi-smooth, h = 5 ms, N_it = 50, warm start on,
/// the rest at their defaults.
StepSettings benchSettings();

/// A bed of n spheres (scenes::bed, d = 0.01 m, servinGrain) stepped with `settings` until
/// the simulated time reaches `settleTime` (s). `progress` (may be empty) hears every 10 %.
Expected<World> settledBed(int n, double settleTime, const StepSettings& settings,
                           const std::function<void(const std::string&)>& progress = {});

/// `scene` stepped with its settings until the simulated time reaches `settleTime` (s), as
/// settledBed does.
Expected<World> settledScene(const Scene& scene, double settleTime,
                             const std::function<void(const std::string&)>& progress = {});

/// Runs the whole benchmark (single-threaded; a full run takes minutes) and returns the report:
///   {"machine", "scene", "pgs", "collision", "stepsPerSecond", "phasesMs", "impactStage",
///    "smooth", "quick"}
/// with times in the unit the key names (Ms, ns, Seconds). On a setup error (n < 1, invalid
/// settings) the report is {"error": message} instead.
nlohmann::json runBenchmarks(const BenchOptions& options);

}  // namespace ndem::bench
