// `ndem run`: simulate a scene headless with a progress bar and a one-screen summary.
#include "commands.hpp"
#include "progress.hpp"
#include "scene_run.hpp"

#include "io/csv_writer.hpp"
#include "io/run_report.hpp"
#include "io/scene_file.hpp"
#include "io/vtk_writer.hpp"
#include "measure/measurements.hpp"
#include "solve/method/solver_registry.hpp"
#include "world/world.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

namespace ndem::cli {

namespace {

std::atomic<bool> g_interrupted{false};

struct RunOptions {
    std::string scenePath;
    std::optional<long> steps;
    std::optional<double> time;
    std::vector<Override> overrides;
    std::string report;
    std::string vtkDir;
    std::string csvDir;
    long vtkEvery = 0;
    std::string checkpoint;                 ///< write the state here (HDF5)
    std::optional<double> checkpointEvery;  ///< and every this many simulated seconds
    std::string restart;                    ///< go on from this checkpoint
    bool quiet = false;
};

constexpr const char* kSynopsis =
    "ndem run SCENE [--steps N | --time T] [--set key=value]... [--threads N] [--report "
    "FILE.json]\n"
    "            [--csv DIR] [--vtk DIR [--every K]] [--checkpoint FILE.h5 [--checkpoint-every T]] "
    "[--quiet]\n"
    "       ndem run --restart FILE.h5 [--steps N | --time T] [--threads N] [--checkpoint FILE.h5 "
    "...] [...]";

constexpr const char* kDescription =
    R"(Simulate a scene file (assets/scenes/*.json). Without --steps or --time the scene's
"duration" is simulated; after --restart, what is left of it, and --steps or --time count
from the restart. The results are the same bit for bit whatever the thread count.
--checkpoint writes the whole state (HDF5) at the end, on Ctrl-C, and every T simulated
seconds with --checkpoint-every; each write replaces the last one whole, and a run that
diverges keeps its last good checkpoint. --restart goes on from one bit for bit as the run
that wrote it would have (its scene and settings are in the file; the measurements'
samples so far too, so they report what an unbroken run would).)";

void addRunFlags(CLI::App& app, RunOptions& o) {
    app.add_option("SCENE", o.scenePath, "the scene file")->type_name("FILE.json");
    cmdline::addCount(app, "--steps", "N", "simulate N steps", o.steps, 1, kMaxSteps,
                      "a whole number from 1 to 10^12");
    cmdline::addNumber(app, "--time", "T", "simulate T seconds", o.time, 0.0, 1e12,
                       "a number of seconds > 0");
    cmdline::addOverrides(app, o.overrides);
    cmdline::addPath(app, "--report", "FILE.json",
                     "write settings, a StepStats summary and series, and the measurements",
                     o.report);
    cmdline::addPath(app, "--csv", "DIR", "write every measurement table as CSV", o.csvDir);
    cmdline::addPath(app, "--vtk", "DIR",
                     "write ParaView files (particles, contact network, walls)", o.vtkDir);
    cmdline::addCount(app, "--every", "K", "with --vtk: a frame every K steps (10)", o.vtkEvery, 1,
                      kMaxSteps, "a whole number of steps > 0");
    cmdline::addPath(app, "--checkpoint", "FILE.h5", "write the whole state here (HDF5)",
                     o.checkpoint);
    cmdline::addNumber(app, "--checkpoint-every", "T", "and every T simulated seconds",
                       o.checkpointEvery, 0.0, 1e12, "a number of seconds > 0");
    cmdline::addPath(app, "--restart", "FILE.h5", "go on from this checkpoint", o.restart);
    app.add_flag("-q,--quiet", o.quiet, "no progress bar");
}

/// What the flags cannot say one by one; nullopt when they go together.
std::optional<std::string> checkCombination(RunOptions& o) {
    if (!o.restart.empty() && !o.scenePath.empty())
        return "give a scene or --restart FILE, not both (the checkpoint holds its scene)";
    if (o.scenePath.empty() && o.restart.empty())
        return "run needs a scene file, e.g. ndem run assets/scenes/silo.json";
    if (o.checkpointEvery && o.checkpoint.empty())
        return "--checkpoint-every goes with --checkpoint FILE";
    if (o.steps && o.time) return "give --steps or --time, not both";
    if (o.vtkEvery > 0 && o.vtkDir.empty()) return "--every goes with --vtk DIR";
    if (!o.vtkDir.empty() && o.vtkEvery == 0) o.vtkEvery = 10;
    return std::nullopt;
}

/// Output paths are checked before anything runs, so bad input leaves nothing behind.
std::optional<std::string> checkOutputs(const RunOptions& o) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!o.report.empty()) {
        const fs::path parent = fs::path(o.report).parent_path();
        if (!parent.empty() && !fs::is_directory(parent, ec))
            return "--report " + o.report + ": directory '" + parent.string() + "' does not exist";
        if (fs::is_directory(o.report, ec)) return "--report " + o.report + ": is a directory";
    }
    if (!o.checkpoint.empty()) {
        const fs::path parent = fs::path(o.checkpoint).parent_path();
        if (!parent.empty() && !fs::is_directory(parent, ec))
            return "--checkpoint " + o.checkpoint + ": directory '" + parent.string() +
                   "' does not exist";
        if (fs::is_directory(o.checkpoint, ec))
            return "--checkpoint " + o.checkpoint + ": is a directory";
    }
    if (!o.vtkDir.empty() && fs::exists(o.vtkDir, ec) && !fs::is_directory(o.vtkDir, ec))
        return "--vtk " + o.vtkDir + ": exists and is not a directory";
    if (!o.csvDir.empty() && fs::exists(o.csvDir, ec) && !fs::is_directory(o.csvDir, ec))
        return "--csv " + o.csvDir + ": exists and is not a directory";
    return std::nullopt;
}

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

void printSummary(const Scene& scene, const World& world, const RunRecorder& rec, double wall,
                  const RunOptions& o, bool interrupted) {
    const StepSettings& s = world.settings();
    const PhaseTimes& p = rec.phaseTotals();
    const double total = p.total() > 0 ? p.total() : 1.0;
    std::printf("\nNDEM Studio · %s (%s)%s\n", scene.name.c_str(),
                o.restart.empty() ? o.scenePath.c_str() : ("restarted from " + o.restart).c_str(),
                interrupted ? " · INTERRUPTED" : "");
    std::printf(
        "  %zu particles, %zu walls · %s, %s contacts · h = %g s · N_it = %d · warm start %s\n",
        world.particles().size(), world.walls().size(), kStepModeNames[static_cast<int>(s.mode)],
        kContactLawNames[static_cast<int>(s.contactLaw)], s.timeStep, s.iterations,
        s.warmStart ? kWarmStartMethodNames[static_cast<int>(s.warmStartMethod)] : "off");
    std::printf(
        "  simulated %.4g s in %ld steps · wall %.3g s · %.3g steps/s · real-time factor %.3g\n",
        world.time(), rec.steps(), wall, wall > 0 ? rec.steps() / wall : 0.0,
        wall > 0 ? world.time() / wall : 0.0);
    std::printf("  contacts      mean %.0f · final %.0f · impacts/step mean %.2f\n",
                rec.contacts.mean(), rec.contacts.last, rec.impacts.mean());
    const SolverInfo* method = findSolver(s.method);
    std::printf(
        "  solver        %s · %s/step mean %.1f · final residual %.3g m/s (mean over run %.3g)\n",
        s.method.c_str(), method->iterationUnit, rec.iterations.mean(), rec.residual.last,
        rec.residual.mean());
    std::printf("                its own measure at the last step: %s %.3g%s\n",
                method->residualName, rec.last().solverResidual,
                rec.last().converged ? " (converged)" : "");
    if (rec.fallbacks > 0)
        std::printf("  fallbacks     %ld steps took one; the last: %s\n", rec.fallbacks,
                    rec.lastFallback);
    if (rec.servosClosingIn > 0)
        std::printf(
            "  servo walls   closed in at %ld static steps, one touching no grain: σA not"
            " applied there\n",
            rec.servosClosingIn);
    if (rec.staticRunawaySteps > 0)
        std::printf(
            "  static steps  %ld moved grains farther than detection reached: no static"
            " equilibrium there (warning below)\n",
            rec.staticRunawaySteps);
    std::printf("  overlap δ/d   final mean %.4g · final max %.4g · max over run %.4g\n",
                rec.meanOverlap.last, rec.maxOverlap.last, rec.maxOverlap.max);
    std::printf("  kinetic energy final %.4g J · max %.4g J\n", rec.kineticEnergy.last,
                rec.kineticEnergy.max);
    std::printf("  state hash    %016llx (positions and velocities by particle id)\n",
                static_cast<unsigned long long>(stateHash(world.particles())));
    std::printf("  time per phase  collide %s · impact %s · solve %s · integrate %s · measure %s\n",
                fmt("%.0f%%", 100 * p.collide / total).c_str(),
                fmt("%.0f%%", 100 * p.impact / total).c_str(),
                fmt("%.0f%%", 100 * p.solve / total).c_str(),
                fmt("%.0f%%", 100 * p.integrate / total).c_str(),
                fmt("%.0f%%", 100 * p.measure / total).c_str());
    if (s.reduction.enabled)
        std::printf(
            "  model reduction h = 1 - N~/N final %.3f · mean %.3f · %d aggregates, %d members"
            " · merge/split %s of the step time\n",
            rec.reductionLevel.last, rec.reductionLevel.mean(),
            static_cast<int>(rec.aggregates.last), static_cast<int>(rec.members.last),
            fmt("%.0f%%", 100 * p.reduce / total).c_str());
    for (const auto& m : world.measurements()) {
        const MeasurementResult r = m->result();
        std::printf("  %-13s %s\n", r.name.c_str(), r.headline.c_str());
    }
    if (!world.warnings().empty()) {
        std::string kinds;
        for (const RunWarning& w : world.warnings())
            kinds += (kinds.empty() ? "" : ", ") + w.kind + " at step " + std::to_string(w.step);
        std::printf("  warnings      %s (see stderr%s)\n", kinds.c_str(),
                    o.report.empty() ? "" : " and the report");
    }
    if (const auto& d = world.divergence())
        std::printf("  diverged      at step %lld: particle %u, %s\n",
                    static_cast<long long>(d->step), d->particle,
                    d->quantity == "contacts" ? "in a pile of grains thrown into each other"
                                              : (d->quantity + " not finite").c_str());
    if (!o.checkpoint.empty()) std::printf("  checkpoint    %s\n", o.checkpoint.c_str());
    if (!o.report.empty()) std::printf("  report        %s\n", o.report.c_str());
    if (!o.csvDir.empty()) std::printf("  CSV           %s/\n", o.csvDir.c_str());
    if (!o.vtkDir.empty())
        std::printf("  ParaView      %s/particles.pvd (and contacts.pvd, walls.pvd)\n",
                    o.vtkDir.c_str());
}

int runScene(RunOptions& o) {
    if (auto e = checkCombination(o)) return badInput(*e);
    auto loaded = o.restart.empty() ? loadSceneRun(o.scenePath, o.overrides)
                                    : restoreSceneRun(o.restart, o.overrides);
    if (!loaded) return badInput(loaded.error().message);
    if (auto e = checkOutputs(o)) return badInput(*e);
    SceneRun& run = loaded.value();
    World& world = run.world;

    const long steps = stepsFor(run, o.steps, o.time);
    std::optional<VtkSeries> vtk;
    if (!o.vtkDir.empty()) {
        vtk.emplace(o.vtkDir);
        if (auto e = vtk->writeFrame(world)) {
            std::fprintf(stderr, "ndem: error: %s\n", e->message.c_str());
            return 1;
        }
    }

    g_interrupted = false;
    auto previous = std::signal(SIGINT, [](int) { g_interrupted = true; });
    ProgressBar progress(!o.quiet);
    const auto start = std::chrono::steady_clock::now();
    int exitCode = 0;
    size_t warned = 0;
    double nextCheckpoint = o.checkpointEvery ? world.time() + *o.checkpointEvery : 0.0;
    auto checkpoint = [&]() {
        if (auto e = writeSceneCheckpoint(run, o.checkpoint)) {
            progress.clearLine();
            std::fprintf(stderr, "ndem: error: %s\n", e->message.c_str());
            exitCode = 1;
            return false;
        }
        return true;
    };
    executeSceneRun(run, steps, [&](const StepStats& st, long k) {
        for (; warned < world.warnings().size(); ++warned) {
            progress.clearLine();
            std::fprintf(stderr, "ndem: warning: %s\n", world.warnings()[warned].message.c_str());
        }
        if (world.divergence()) {
            exitCode = 3;  // the last checkpoint written stays the last good state
            return false;
        }
        if (o.checkpointEvery && world.time() >= nextCheckpoint - 1e-9) {
            if (!checkpoint()) return false;
            while (nextCheckpoint <= world.time() + 1e-9)
                nextCheckpoint += *o.checkpointEvery;
        }
        if (vtk && (k + 1) % o.vtkEvery == 0) {
            if (auto e = vtk->writeFrame(world)) {
                std::fprintf(stderr, "\nndem: error: %s\n", e->message.c_str());
                exitCode = 1;
                return false;
            }
        }
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::ostringstream detail;
        detail.precision(3);
        detail << "t = " << st.time << " s  " << st.contacts << " contacts  "
               << (elapsed > 0 ? (k + 1) / elapsed : 0.0) << " steps/s";
        progress.update(static_cast<double>(k + 1) / steps, detail.str());
        return !g_interrupted;
    });
    progress.finish();
    std::signal(SIGINT, previous);
    if (!o.checkpoint.empty() && !world.divergence() && exitCode == 0) checkpoint();

    if (world.divergence())
        std::fprintf(stderr, "ndem: error: %s\n", world.divergence()->message.c_str());
    printSummary(run.scene, world, run.recorder, run.wallSeconds, o, g_interrupted);
    if (!o.report.empty()) {
        if (auto e = writeRunReport(o.report, run.scene, o.overrides, world, run.recorder,
                                    run.wallSeconds)) {
            std::fprintf(stderr, "ndem: error: %s\n", e->message.c_str());
            return 1;
        }
    }
    if (!o.csvDir.empty()) {
        if (auto e = writeMeasurementCsvs(o.csvDir, measurementResults(world))) {
            std::fprintf(stderr, "ndem: error: %s\n", e->message.c_str());
            return 1;
        }
    }
    return g_interrupted ? 130 : exitCode;
}

}  // namespace

Command addRunCommand(CLI::App& ndem) {
    auto o = std::make_shared<RunOptions>();
    CLI::App* app = cmdline::addCommand(ndem, "run", kSynopsis, kDescription, kExitCodes);
    addRunFlags(*app, *o);
    return {app, [o] { return runScene(*o); }};
}

}  // namespace ndem::cli
