#include "scene_run.hpp"

#include "measure/measurements.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

namespace ndem::cli {

namespace {

Expected<SceneRun> buildSceneRun(CheckpointScene source) {
    const std::string& path = source.source;
    auto scene = parseSceneText(source.text, path, source.overrides);
    if (!scene) return scene.error();
    auto world = World::create(*scene);
    if (!world) return Error{path + ": " + world.error().message};
    SceneRun run;
    run.source = std::move(source);
    run.scene = std::move(scene.value());
    run.world = std::move(world.value());
    for (const MeasurementRequest& r : run.scene.measurements) {
        auto m = makeMeasurement(r, run.world);
        if (!m) return Error{path + ": " + m.error().message};
        run.world.subscribe(std::move(m.value()));
    }
    return run;
}

}  // namespace

Expected<SceneRun> loadSceneRun(const std::string& path, const std::vector<Override>& overrides) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open the scene file"};
    std::stringstream text;
    text << in.rdbuf();
    return buildSceneRun(CheckpointScene{text.str(), path, overrides});
}

Expected<SceneRun> restoreSceneRun(const std::string& checkpoint,
                                   const std::vector<Override>& overrides) {
    auto saved = readCheckpoint(checkpoint);
    if (!saved) return saved.error();
    return restoreSceneRun(*saved, checkpoint, overrides);
}

Expected<SceneRun> restoreSceneRun(Checkpoint& saved, const std::string& checkpoint,
                                   const std::vector<Override>& overrides) {
    auto run = buildSceneRun(saved.scene);
    if (!run) return Error{checkpoint + ": its scene: " + run.error().message};
    if (auto e = run->world.loadState(saved.state)) return Error{checkpoint + ": " + e->message};
    StepSettings settings = run->world.settings();
    for (const Override& o : overrides) {
        if (o.key != "threads")
            return Error{"--set " + o.key +
                         ": a restart keeps the checkpoint's scene and settings (only --threads "
                         "may change)"};
        settings.threads = std::stoi(o.value);
    }
    if (auto e = run->world.applySettings(settings)) return *e;
    return run;
}

std::optional<Error> writeSceneCheckpoint(const SceneRun& run, const std::string& path) {
    return writeCheckpoint(path, run.source, run.world.saveState());
}

long stepsUntil(const World& world, double end) {
    double t = world.time(), h = world.settings().timeStep;
    long steps = 0;
    auto until = [&](double to) {
        const long k = std::max(0L, static_cast<long>(std::ceil((to - t) / h - 1e-9)));
        steps += k;
        t += static_cast<double>(k) * h;
    };
    for (const SettingsPhase& phase : world.phases()) {
        if (phase.at < t - 1e-9 * h) continue;  // applied already
        if (phase.at >= end) break;
        until(phase.at);
        if (std::find(phase.keys.begin(), phase.keys.end(), "timeStep") != phase.keys.end())
            h = phase.settings.timeStep;
    }
    until(end);
    return steps;
}

long stepsFor(const SceneRun& run, std::optional<long> steps, std::optional<double> time) {
    if (steps) return *steps;
    return stepsUntil(run.world, time ? run.world.time() + *time : run.scene.duration);
}

void executeSceneRun(SceneRun& run, long steps,
                     const std::function<bool(const StepStats&, long)>& afterStep,
                     bool continueRecorder) {
    // Keep reports small for long runs: at most ~2000 sampled steps.
    if (!continueRecorder) run.recorder = RunRecorder(std::max(1L, steps / 2000));
    const auto start = std::chrono::steady_clock::now();
    for (long k = 0; k < steps; ++k) {
        const StepStats st = run.world.step();
        run.recorder.record(st);
        // A diverged state (world/state_guard.hpp) cannot be stepped on.
        if ((afterStep && !afterStep(st, k)) || run.world.divergence()) {
            run.stopped = true;
            break;
        }
    }
    run.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<MeasurementResult> measurementResults(const World& world) {
    std::vector<MeasurementResult> out;
    for (const auto& m : world.measurements())
        out.push_back(m->result());
    return out;
}

}  // namespace ndem::cli
