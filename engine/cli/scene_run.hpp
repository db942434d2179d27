// Loading a scene into a world with its measurements, and stepping it: shared by `ndem run`,
// `ndem sweep` and `ndem validate`.
#pragma once

#include "core/error.hpp"
#include "io/checkpoint.hpp"
#include "io/run_report.hpp"
#include "io/scene_file.hpp"
#include "world/world.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ndem::cli {

struct SceneRun {
    CheckpointScene source;  ///< the scene file's text, path and overrides (for checkpoints)
    Scene scene;
    World world;
    RunRecorder recorder{1};
    double wallSeconds = 0.0;
    bool stopped = false;  ///< afterStep asked to stop early
};

/// Loads the scene with the overrides, builds the world and subscribes the scene's
/// measurements. Errors are bad input (one line naming file, key and value).
Expected<SceneRun> loadSceneRun(const std::string& path, const std::vector<Override>& overrides);

/// Builds the world of a checkpoint's scene and loads its state; `overrides` (only `threads`)
/// apply after. Errors name the file.
Expected<SceneRun> restoreSceneRun(const std::string& checkpoint,
                                   const std::vector<Override>& overrides);
/// The same from a checkpoint already read (`path` names it in errors).
Expected<SceneRun> restoreSceneRun(Checkpoint& saved, const std::string& path,
                                   const std::vector<Override>& overrides);

/// Writes the run's state with its scene (io/checkpoint.hpp).
std::optional<Error> writeSceneCheckpoint(const SceneRun& run, const std::string& path);

/// Steps from the world's time to simulated time `end`, rounded up, with the time steps the
/// scene's phases set on the way.
long stepsUntil(const World& world, double end);

/// Steps to run: --steps, else those of --time, else of what is left of the scene's duration.
long stepsFor(const SceneRun& run, std::optional<long> steps, std::optional<double> time);

/// Runs `steps` steps, recording StepStats; `afterStep(stats, k)` may return false to stop.
/// A run whose state went non-finite stops after that step (World::divergence()). The
/// recorder starts afresh unless `continueRecorder` (a run going on from a checkpoint).
void executeSceneRun(SceneRun& run, long steps,
                     const std::function<bool(const StepStats&, long)>& afterStep = {},
                     bool continueRecorder = false);

/// The measurements' results after the run.
std::vector<MeasurementResult> measurementResults(const World& world);

}  // namespace ndem::cli
