#include "bench_interior_point.hpp"

#include "bench_runner.hpp"
#include "bench_scenes.hpp"
#include "solve/convex/interior_point_settings.hpp"

#include <algorithm>
#include <limits>

namespace ndem::bench {

namespace {

using Progress = std::function<void(const std::string&)>;

/// Means over the timed steps of one interior-point series; the first step apart.
struct NewtonSeries {
    double firstSolve = 0.0;   ///< solve phase of the first step (s): symbolic analysis
    double solve = 0.0;        ///< solve phase per later step (s)
    double total = 0.0;        ///< whole later step (s)
    double newtonSteps = 0.0;  ///< per later step
    int maxNewtonSteps = 0;
    double worstResidual = 0.0;  ///< largest relative residual a step left (krabbenhoft Eq. 52)
    double contacts = 0.0;       ///< touching contacts
    double rows = 0.0;           ///< touching + speculative contacts: the problem's size
    int fallbacks = 0;           ///< non-associated steps that took the associated answer
    int runaways = 0;            ///< static steps without equilibrium (StepStats::staticRunaways)
};

nlohmann::json describe(const NewtonSeries& m, int threads, int steps) {
    const double perContact = m.contacts > 0.0 && m.newtonSteps > 0.0
                                  ? m.solve / (m.newtonSteps * m.contacts) * 1e9
                                  : std::numeric_limits<double>::quiet_NaN();
    return {{"threads", threads},
            {"timedSteps", steps},
            {"contacts", m.contacts},
            {"detectedContacts", m.rows},
            {"firstStepSolveMs", 1e3 * m.firstSolve},
            {"solveMsPerStep", 1e3 * m.solve},
            {"stepsPerSecond", 1.0 / m.total},
            {"newtonStepsPerStep", m.newtonSteps},
            {"maxNewtonSteps", m.maxNewtonSteps},
            {"worstRelativeResidual", m.worstResidual},
            {"nsPerContactPerNewtonStep", perContact},
            {"fallbacks", m.fallbacks},
            {"staticRunawaySteps", m.runaways}};
}

/// The first step with `settings`, then `steps` timed ones. Returns the error's message in
/// `error` when the settings are refused.
NewtonSeries timeNewtonSeries(World& world, const StepSettings& settings, int steps,
                              std::string& error) {
    NewtonSeries m;
    if (auto e = world.applySettings(settings)) {
        error = e->message;
        return m;
    }
    m.firstSolve = world.step().seconds.solve;
    for (int k = 0; k < steps; ++k) {
        const StepStats s = world.step();
        m.solve += s.seconds.solve;
        m.total += s.seconds.total();
        m.newtonSteps += s.iterations;
        m.maxNewtonSteps = std::max(m.maxNewtonSteps, s.iterations);
        m.worstResidual = std::max(m.worstResidual, s.solverResidual);
        m.contacts += s.contacts;
        m.rows += s.contacts + s.speculativeContacts;
        m.fallbacks += s.fallback ? 1 : 0;
        m.runaways += s.staticRunaways > 0 ? 1 : 0;
    }
    const double inv = 1.0 / std::max(1, steps);
    m.solve *= inv;
    m.total *= inv;
    m.newtonSteps *= inv;
    m.contacts *= inv;
    m.rows *= inv;
    return m;
}

StepSettings interiorPoint(StepSettings s, int threads) {
    s.method = "interior-point";
    s.iterations = 50;  // the paper's cap (krabbenhoft-2012 Sec. 5.1)
    s.tolerance = 0.0;  // the method's own accuracy
    s.threads = threads;
    return s;
}

}  // namespace

nlohmann::json interiorPointOnBed(World& bed, int steps, const Progress& progress) {
    const StepSettings before = bed.settings();
    nlohmann::json out;
    for (int threads : {1, 2}) {
        if (progress)
            progress("timing the interior point on the bed, " + std::to_string(threads) +
                     (threads == 1 ? " thread" : " threads"));
        std::string error;
        const NewtonSeries m = timeNewtonSeries(bed, interiorPoint(before, threads), steps, error);
        if (!error.empty()) return {{"error", error}};
        out[threads == 1 ? "oneThread" : "twoThreads"] = describe(m, threads, steps);
    }
    if (auto e = bed.applySettings(before)) return {{"error", e->message}};
    const double one = out["oneThread"]["solveMsPerStep"].get<double>();
    const double two = out["twoThreads"]["solveMsPerStep"].get<double>();
    out["parallelSpeedUp"] = two > 0.0 ? one / two : std::numeric_limits<double>::quiet_NaN();
    return out;
}

nlohmann::json interiorPointInThePlane(int disks, int steps, const Progress& progress) {
    if (progress) progress("building a bed of " + std::to_string(disks) + " disks");
    // Rigid disks, as the paper's (Hertz's law is for spheres).
    StepSettings settings = benchSettings();
    settings.mode = StepMode::Nonsmooth;
    Expected<World> created =
        settledScene(scenes::bed2d(disks, 0.01, scenes::servinGrain(), settings), 1.0, progress);
    if (!created) return {{"error", created.error().message}};
    World& world = *created;
    nlohmann::json out = {{"disks", disks}};
    StepSettings s = interiorPoint(world.settings(), 1);
    for (const bool associated : {true, false}) {
        s.solverBlocks.edit<InteriorPointSettings>().slidingRule =
            associated ? SlidingRule::Associated : SlidingRule::NonAssociated;
        s.solverBlocks.edit<InteriorPointSettings>().dilation =
            associated ? 0.0 : 0.01;  // the paper's ν (Sec. 5)
        if (progress)
            progress(std::string("timing the interior point on the disks, ") +
                     (associated ? "associated" : "non-associated"));
        std::string error;
        const NewtonSeries m = timeNewtonSeries(world, s, steps, error);
        if (!error.empty()) return {{"error", error}};
        out[associated ? "associated" : "nonAssociated"] = describe(m, 1, steps);
    }
    // The static formulation (Sec. 3.7): the non-associated rule's mixed form (StaticLcp), an
    // LU of the saddle point with the bodies' velocities, the quasi-static tests' step.
    s.formulation = Formulation::Static;
    if (progress) progress("timing the interior point on the disks, static, non-associated");
    std::string error;
    const NewtonSeries m = timeNewtonSeries(world, s, steps, error);
    if (!error.empty()) return {{"error", error}};
    out["nonAssociatedStatic"] = describe(m, 1, steps);
    return out;
}

}  // namespace ndem::bench
