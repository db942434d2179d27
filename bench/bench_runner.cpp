#include "bench_runner.hpp"

#include "bench_interior_point.hpp"
#include "bench_machine.hpp"
#include "bench_scenes.hpp"
#include "bench_series.hpp"
#include "core/parallel.hpp"
#include "dem/smooth_batch.hpp"
#include "solve/pgs/pgs_kernel.hpp"
#include "solve/pgs/pgs_settings.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

namespace ndem::bench {

namespace {

using Progress = std::function<void(const std::string&)>;
using Clock = std::chrono::steady_clock;

constexpr double kDiameter = 0.01;  ///< mean sphere diameter d of the bed (m)

void report(const Progress& progress, const std::string& line) {
    if (progress) progress(line);
}

/// a / b, or NaN (null in the JSON) when there is nothing to divide by, e.g. a bed so small
/// that no two spheres touch.
double ratio(double a, double b) {
    return b > 0.0 ? a / b : std::numeric_limits<double>::quiet_NaN();
}

/// Means over the steps of one timed series.
struct SeriesMeans {
    PhaseTimes seconds;           ///< wall time per phase (s)
    double contacts = 0.0;        ///< touching contacts
    double speculative = 0.0;     ///< detected pairs not yet touching
    double iterations = 0.0;      ///< PGS sweeps (tolerance 0: exactly N_it)
    double kineticEnergy = 0.0;   ///< (J)
    double impacts = 0.0;         ///< contacts handled by the impact stage
    double impactSteps = 0.0;     ///< fraction of steps that ran the impact stage (–)
    double reductionLevel = 0.0;  ///< h of the model reduction (–)
    int steps = 0;
};

/// Times `steps` steps with the world's current settings. One untimed step goes first: the
/// first step after a settings change finds cold caches and, in smooth mode, allocates the
/// force arrays, which would bias a series of only 10–40 steps.
SeriesMeans timeSeries(World& world, int steps, const Progress& progress,
                       const std::string& label) {
    report(progress, "timing " + label);
    world.step();
    SeriesMeans m;
    for (int k = 0; k < steps; ++k) {
        const StepStats s = world.step();
        m.seconds += s.seconds;
        m.reductionLevel += s.reductionLevel;
        m.contacts += s.contacts;
        m.speculative += s.speculativeContacts;
        m.iterations += s.iterations;
        m.kineticEnergy += s.kineticEnergy;
        m.impacts += s.impacts;
        m.impactSteps += s.impacts > 0 ? 1.0 : 0.0;
    }
    const double inv = 1.0 / steps;
    m.seconds *= inv;
    m.reductionLevel *= inv;
    m.contacts *= inv;
    m.speculative *= inv;
    m.iterations *= inv;
    m.kineticEnergy *= inv;
    m.impacts *= inv;
    m.impactSteps *= inv;
    m.steps = steps;
    return m;
}

/// Why the impact phase costs what it does: one new contact closing faster than v_imp makes
/// the step run impactIterations sweeps over every touching contact, not only the new one.
nlohmann::json impactStage(const SeriesMeans& m) {
    return {{"meanImpacts", m.impacts}, {"stepsWithImpactsFraction", m.impactSteps}};
}

}  // namespace

StepSettings benchSettings() {
    StepSettings s;
    s.mode = StepMode::SemiSmooth;
    s.timeStep = 5e-3;
    s.iterations = 50;
    s.warmStart = true;
    s.threads = 1;  // the per-contact and per-particle figures are one-thread figures
    return s;
}

Expected<World> settledBed(int n, double settleTime, const StepSettings& settings,
                           const Progress& progress) {
    return settledScene(scenes::bed(n, kDiameter, scenes::servinGrain(), settings), settleTime,
                        progress);
}

Expected<World> settledScene(const Scene& scene, double settleTime, const Progress& progress) {
    Expected<World> created = World::create(scene);
    if (!created) return created;
    World& world = *created;
    // Stop at the step nearest to settleTime; report every 10 % of it.
    const double end = settleTime - 0.5 * world.settings().timeStep;
    int reported = 0;
    while (world.time() < end) {
        world.step();
        const int percent = static_cast<int>(10.0 * world.time() / settleTime) * 10;
        if (percent > reported && percent < 100) {
            reported = percent;
            report(progress, "settling bed " + std::to_string(percent) + "%");
        }
    }
    return created;
}

namespace {

/// {"error": "bench: MESSAGE"}, the report of a run that could not go on.
nlohmann::json reportBenchError(const Error& e) {
    return {{"error", "bench: " + e.message}};
}

/// The semi-smooth series on the settled bed.
struct PgsSeries {
    SeriesMeans at50, at200;    ///< N_it = 50 and 200
    SeriesMeans at200Parallel;  ///< N_it = 200 on two threads
    SeriesMeans floatAt[2];     ///< float blocks at N_it = 50 and 200
};

/// Model reduction at N_it = 150: resolved, merged, merged with the trial split.
struct ReductionSeries {
    SeriesMeans resolved, reduced, trial;
};

/// The smooth DEM on the settled bed.
struct SmoothSeries {
    double stabilityLimit = 0.0;  ///< √(m/k) (s)
    double timeStep = 0.0;        ///< (s)
    SeriesMeans means;
};

/// Everything a run measures, for the report.
struct BenchSeries {
    int particles = 0;
    double settleTime = 0.0;  ///< (s)
    int steps = 0;            ///< timed steps per series
    bool quick = false;
    double settleWall = 0.0;  ///< (s)
    double semiStep = 0.0;    ///< h of the semi-smooth series (s)
    PgsSeries pgs;
    nlohmann::json methods, interior;
    ReductionSeries reduction;
    SmoothSeries smooth;
    nlohmann::json rain, silo;
};

/// The PGS series into `out`; `settings` left at N_it = 200 on one thread.
std::optional<Error> timePgsSeries(World& world, StepSettings& settings, int steps,
                                   const Progress& progress, PgsSeries& out) {
    // Semi-smooth steps at N_it = 50 and 200. tolerance = 0, so every step does exactly N_it
    // sweeps and the solve phase is (rows + warm start) + N_it × (one sweep): the difference
    // of the two series is 150 sweeps and nothing else.
    settings.iterations = 50;
    if (auto e = world.applySettings(settings)) return e;
    out.at50 = timeSeries(world, steps, progress, "N_it = 50");
    settings.iterations = 200;
    if (auto e = world.applySettings(settings)) return e;
    out.at200 = timeSeries(world, steps, progress, "N_it = 200");
    // The same series on two threads: the colours of the PGS split between them.
    settings.threads = 2;
    if (auto e = world.applySettings(settings)) return e;
    out.at200Parallel = timeSeries(world, steps, progress, "N_it = 200, 2 threads");
    settings.threads = 1;
    // The float blocks (solver.precision = float), sixteen contacts a block, one thread.
    StepSettings f = settings;
    f.solverBlocks.edit<PgsSettings>().precision = SolverPrecision::Float;
    for (int k = 0; k < 2; ++k) {
        f.iterations = k == 0 ? 50 : 200;
        if (auto e = world.applySettings(f)) return e;
        out.floatAt[k] =
            timeSeries(world, steps, progress, "float, N_it = " + std::to_string(f.iterations));
    }
    return std::nullopt;
}

/// One accelerated method's cost per iteration on the PGS series' rows, or {"error": ...}.
nlohmann::json timeIterationCost(World& world, const StepSettings& settings, int steps,
                                 const Progress& progress, const char* method, const char* name) {
    StepSettings m = settings;
    m.method = method;
    SeriesMeans at[2];
    for (int k = 0; k < 2; ++k) {
        m.iterations = k == 0 ? 50 : 200;
        if (auto e = world.applySettings(m)) return {{"error", e->message}};
        at[k] = timeSeries(world, steps, progress,
                           std::string(name) + ", N_it = " + std::to_string(m.iterations));
    }
    const double perContact = 0.5 * (at[0].contacts + at[1].contacts);
    return {{"nsPerContactPerIteration",
             ratio((at[1].seconds.solve - at[0].seconds.solve) / 150.0, perContact) * 1e9},
            {"rawNsPerContactPerIterationAt200",
             ratio(at[1].seconds.solve, 200.0 * at[1].contacts) * 1e9}};
}

/// The interior point's figures: {"bed", "plane"}.
nlohmann::json timeInteriorPoint(World& world, const BenchOptions& options) {
    // The interior point on the same resting bed: a few steps, each to its own accuracy.
    nlohmann::json interior = {
        {"bed", interiorPointOnBed(world, options.quick ? 1 : 3, options.progress)}};
    // And in the plane (the paper's examples are 2D), on a bed of its own.
    interior["plane"] = interiorPointInThePlane(options.quick ? 500 : 2000, options.quick ? 2 : 3,
                                                options.progress);
    return interior;
}

/// The model reduction series into `out`; `settings` left at N_it = 150 without reduction.
std::optional<Error> timeReduction(World& world, StepSettings& settings, int steps,
                                   const Progress& progress, ReductionSeries& out) {
    // Model reduction (servin-wang Sec. 6) on the same resting bed at the paper's
    // N_it = 150: resolved, then merged (untimed steps first: the bed merges within a few
    // steps), then with the trial split running its 50 sweeps of the resolved system each step.
    settings.iterations = 150;
    if (auto e = world.applySettings(settings)) return e;
    out.resolved = timeSeries(world, steps, progress, "N_it = 150, resolved");
    settings.reduction.enabled = true;
    if (auto e = world.applySettings(settings)) return e;
    for (int k = 0; k < 20; ++k)
        world.step();
    out.reduced = timeSeries(world, steps, progress, "N_it = 150, reduced");
    settings.reduction.trialSplit = true;
    if (auto e = world.applySettings(settings)) return e;
    out.trial = timeSeries(world, steps, progress, "N_it = 150, trial split");
    settings.reduction = StepSettings::Reduction{};
    if (auto e = world.applySettings(settings)) return e;
    return std::nullopt;
}

/// The smooth DEM series into `out`.
std::optional<Error> timeSmooth(World& world, int steps, const Progress& progress,
                                SmoothSeries& out) {
    // Smooth DEM on the same packing at half its stability limit √(m/k) (the largest step a
    // production run would use with a safety factor), for the paper's comparison.
    out.stabilityLimit = world.smoothStabilityLimit();
    StepSettings smooth = benchSettings();
    smooth.mode = StepMode::Smooth;
    smooth.timeStep = 0.5 * out.stabilityLimit;
    out.timeStep = smooth.timeStep;
    if (auto e = world.applySettings(smooth)) return e;
    out.means = timeSeries(world, steps, progress, "smooth DEM");
    return std::nullopt;
}

/// The PGS cost figures that the report shares between its parts.
struct SweepCost {
    double contacts = 0.0;              ///< touching contacts, both series' mean
    double sweepSlope = 0.0;            ///< solve time per sweep (s)
    double nsPerContactPerSweep = 0.0;  ///< (ns)
    double detected = 0.0;              ///< touching and speculative contacts
    double fixedNsPerContact = 0.0;     ///< what a step pays once per contact (ns)
};

SweepCost computeSweepCost(const PgsSeries& s) {
    // PGS cost (servin-2014 Eq. 38, Ω = K N_it N_c): the slope between the two sweep counts
    // cancels what every step pays once per contact (row building, warm start, write-back).
    SweepCost c;
    c.contacts = 0.5 * (s.at50.contacts + s.at200.contacts);
    c.sweepSlope = (s.at200.seconds.solve - s.at50.seconds.solve) / 150.0;  // s/sweep
    c.nsPerContactPerSweep = ratio(c.sweepSlope, c.contacts) * 1e9;
    // The continuous stage also gives speculative contacts (gaps the solve may close) a row
    // block, so the sweep visits touching + speculative contacts: the cost per row block.
    c.detected = c.contacts + 0.5 * (s.at50.speculative + s.at200.speculative);
    c.fixedNsPerContact = ratio(s.at200.seconds.solve - 200.0 * c.sweepSlope, c.contacts) * 1e9;
    return c;
}

/// The report's "pgs" part.
nlohmann::json describePgs(const PgsSeries& s, const SweepCost& c) {
    const SeriesMeans &at50 = s.at50, &at200 = s.at200;
    const SeriesMeans* floatAt = s.floatAt;
    return {
        {"nsPerContactPerSweep", c.nsPerContactPerSweep},
        {"rawNsPerContactPerSweepAt200", ratio(at200.seconds.solve, 200.0 * at200.contacts) * 1e9},
        {"rawNsPerContactPerSweepAt50", ratio(at50.seconds.solve, 50.0 * at50.contacts) * 1e9},
        {"nsPerDetectedContactPerSweep", ratio(c.sweepSlope, c.detected) * 1e9},
        {"fixedNsPerContactPerStep", c.fixedNsPerContact},
        {"parallelSpeedUp", ratio(at200.seconds.solve, s.at200Parallel.seconds.solve)},
        {"parallelSpeedUpStep", ratio(at200.seconds.total(), s.at200Parallel.seconds.total())},
        {"sweepsPerStep", {{"nit50", at50.iterations}, {"nit200", at200.iterations}}},
        {"float",
         {{"nsPerContactPerSweep",
           ratio((floatAt[1].seconds.solve - floatAt[0].seconds.solve) / 150.0,
                 0.5 * (floatAt[0].contacts + floatAt[1].contacts)) *
               1e9},
          {"rawNsPerContactPerSweepAt200",
           ratio(floatAt[1].seconds.solve, 200.0 * floatAt[1].contacts) * 1e9},
          {"stepsPerSecond",
           {{"nit50", 1.0 / floatAt[0].seconds.total()},
            {"nit200", 1.0 / floatAt[1].seconds.total()}}}}}};
}

/// The report's "smooth" part: the smooth DEM beside the semi-smooth series at N_it = 50.
nlohmann::json describeSmooth(const BenchSeries& b) {
    const SeriesMeans& sm = b.smooth.means;
    const SeriesMeans& at50 = b.pgs.at50;
    const double semiRate = b.semiStep / at50.seconds.total();  // simulated s per wall s
    const double smoothRate = b.smooth.timeStep / sm.seconds.total();
    const int n = b.particles;
    return {
        {"kernel", smoothBatchKernel(SimdLevel::Auto).name},
        {"timeStep", b.smooth.timeStep},
        {"stabilityLimit", b.smooth.stabilityLimit},
        {"timeStepRatio", b.semiStep / b.smooth.timeStep},
        {"stepsPerSecond", 1.0 / sm.seconds.total()},
        {"contacts", sm.contacts},
        {"phasesMs", phasesMs(sm.seconds)},
        {"nsPerParticlePerStep", sm.seconds.total() / n * 1e9},
        {"semiSmoothNsPerParticlePerStep", at50.seconds.total() / n * 1e9},
        {"simulatedSecondsPerWallSecond", {{"semiSmoothNit50", semiRate}, {"smooth", smoothRate}}},
        {"semiSmoothOverSmooth", semiRate / smoothRate}};
}

/// The report's "reduction" part.
nlohmann::json describeReduction(const ReductionSeries& r) {
    const SeriesMeans &resolved = r.resolved, &reduced = r.reduced, &trial = r.trial;
    // Servin & Wang's model (Eq. 39) with the overhead δ measured here: t_mod over the resolved
    // step. γ = 1/3 assumes N_it shrinks with the reduced system (equal error, 3D volume);
    // at a fixed N_it, as timed here, the solve shrinks only with the contacts (γ = 0).
    auto model = [](double h, double delta, double gamma) {
        return 1.0 / (delta + std::pow(1.0 - h, 1.0 + gamma));
    };
    const double delta = reduced.seconds.reduce / resolved.seconds.total();
    return {{"iterations", 150},
            {"reductionLevel", reduced.reductionLevel},
            {"stepsPerSecond",
             {{"resolved", 1.0 / resolved.seconds.total()},
              {"reduced", 1.0 / reduced.seconds.total()},
              {"trialSplit", 1.0 / trial.seconds.total()}}},
            {"speedUp", resolved.seconds.total() / reduced.seconds.total()},
            {"speedUpTrialSplit", resolved.seconds.total() / trial.seconds.total()},
            {"reductionLevelTrialSplit", trial.reductionLevel},
            {"overheadDelta", delta},
            {"modelSpeedUpFixedIterations", model(reduced.reductionLevel, delta, 0.0)},
            {"modelSpeedUpEq39Gamma1over3", model(reduced.reductionLevel, delta, 1.0 / 3.0)},
            {"phasesMs",
             {{"resolved", phasesMs(resolved.seconds)},
              {"reduced", phasesMs(reduced.seconds)},
              {"trialSplit", phasesMs(trial.seconds)}}}};
}

/// The report of a run (see runBenchmarks in bench_runner.hpp).
nlohmann::json reportBench(const BenchSeries& b) {
    const SeriesMeans &at50 = b.pgs.at50, &at200 = b.pgs.at200;
    const SweepCost cost = computeSweepCost(b.pgs);
    const double collideSeconds = 0.5 * (at50.seconds.collide + at200.seconds.collide);
    nlohmann::json out;
    out["machine"] = describeMachine();
    out["machine"]["threadsUsed"] = resolveThreads(0);
    out["machine"]["simd"] = pgsKernel(SimdLevel::Auto).name;
    out["scene"] = {{"name", "bed"},
                    {"particles", b.particles},
                    {"diameter", kDiameter},
                    {"contacts", at50.contacts},
                    {"speculativeContacts", at50.speculative},
                    {"kineticEnergy", at50.kineticEnergy},
                    {"timeStep", b.semiStep},
                    {"settleTime", b.settleTime},
                    {"settleWallSeconds", b.settleWall},
                    {"timedSteps", b.steps}};
    out["pgs"] = describePgs(b.pgs, cost);
    nlohmann::json methods = b.methods;
    for (auto& [name, m] : methods.items())
        if (m.contains("nsPerContactPerIteration"))
            m["overPgsSweep"] =
                m["nsPerContactPerIteration"].get<double>() / cost.nsPerContactPerSweep;
    out["methods"] = methods;
    nlohmann::json interior = b.interior;
    if (interior["bed"].contains("oneThread"))
        interior["bed"]["newtonStepOverPgsSweep"] =
            interior["bed"]["oneThread"]["nsPerContactPerNewtonStep"].get<double>() /
            cost.nsPerContactPerSweep;
    out["interiorPoint"] = interior;
    out["collision"] = {{"nsPerParticle", ratio(collideSeconds, b.particles) * 1e9},
                        {"nsPerContact", ratio(collideSeconds, cost.contacts) * 1e9}};
    out["stepsPerSecond"] = {{"nit50", 1.0 / at50.seconds.total()},
                             {"nit200", 1.0 / at200.seconds.total()}};
    out["phasesMs"] = {{"nit50", phasesMs(at50.seconds)}, {"nit200", phasesMs(at200.seconds)}};
    out["impactStage"] = {{"nit50", impactStage(at50)}, {"nit200", impactStage(at200)}};
    out["smooth"] = describeSmooth(b);
    out["reduction"] = describeReduction(b.reduction);
    out["rain"] = b.rain;
    out["silo"] = b.silo;
    out["quick"] = b.quick;
    return out;
}

}  // namespace

nlohmann::json runBenchmarks(const BenchOptions& options) {
    BenchSeries b;
    b.particles = options.quick ? 2000 : options.particles;
    b.settleTime = options.quick ? 1.0 : 1.5;  // s
    b.steps = options.quick ? 10 : 40;
    b.quick = options.quick;
    const int n = b.particles;
    if (n < 1)
        return {{"error", "bench: particles: must be at least 1 (got " + std::to_string(n) + ")"}};

    // Settle: drop the lattice into a bed and let it come to rest at N_it = 50, so the timed
    // steps see the contact network of a static packing rather than a falling cloud.
    StepSettings settings = benchSettings();
    const Progress& progress = options.progress;
    report(progress, "building a bed of " + std::to_string(n) + " spheres");
    const auto settleStart = Clock::now();
    Expected<World> created = settledBed(n, b.settleTime, settings, progress);
    if (!created) return reportBenchError(created.error());
    b.settleWall = std::chrono::duration<double>(Clock::now() - settleStart).count();
    World& world = *created;

    if (auto e = timePgsSeries(world, settings, b.steps, progress, b.pgs))
        return reportBenchError(*e);
    // The accelerated methods on the same rows: their cost per iteration, the same slope
    // between 50 and 200 iterations (validation solver-accuracy counts their iterations).
    b.methods = {{"nncg", timeIterationCost(world, settings, b.steps, progress, "nncg", "NNCG")},
                 {"apgd", timeIterationCost(world, settings, b.steps, progress, "apgd", "APGD")}};
    if (auto e = world.applySettings(settings)) return reportBenchError(*e);
    b.interior = timeInteriorPoint(world, options);
    if (auto e = timeReduction(world, settings, b.steps, progress, b.reduction))
        return reportBenchError(*e);
    b.semiStep = settings.timeStep;
    if (auto e = timeSmooth(world, b.steps, progress, b.smooth)) return reportBenchError(*e);

    // Grains raining onto the bed (detection of fast pairs, the impact stage), then the app's
    // live silo on every core.
    if (auto e = world.applySettings(settings)) return reportBenchError(*e);
    b.rain = rainOntoBed(world, b.steps, options.quick ? 400.0 : 2000.0, progress);
    b.silo = liveSilo(options.quick ? 1.0 : 8.0, progress);
    report(progress, "done");
    return reportBench(b);
}

}  // namespace ndem::bench
