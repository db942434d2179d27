// Alart 2014 Sec. 2.3, Figs. 1–5: two disks of slightly different radii wedged by a wall moving
// in, NSCD with the nonlinear Gauss–Seidel on the Delassus operator capped at 150 iterations:
// where the disks wedge the iteration reaches the cap; frictionless, the wedge is released
// within a few steps; with friction and without memory it does not converge to the end; with
// memory it behaves nearer the frictionless case. Run with the engine's gap stabilisation
// (the scene's) and with the paper's velocity law, which leaves overlaps as they are.
#include "validation.hpp"

#include <algorithm>
#include <cmath>

namespace ndem::cli::validation {

namespace {

constexpr const char* kScene = "assets/scenes/alart-two-disks.json";
constexpr int kCap = 150;  ///< the paper's iteration cap

/// The steps (1-based) at the cap, and the mean violation (Eq. 11, δ over the mean radius).
struct Wedge {
    int first = 0, last = 0, capped = 0, steps = 0;
    double violation = 0.0;  ///< largest over the run
};

Wedge wedgeOf(const RunOutcome& run) {
    Wedge w;
    for (const RunRecorder::Sample& s : run.recorder.samples()) {
        ++w.steps;
        // meanOverlap is δ/d over the touching contacts: δ/r̄ is twice it.
        w.violation = std::max(w.violation, 2.0 * s.meanOverlap);
        if (s.iterations < kCap) continue;
        ++w.capped;
        if (!w.first) w.first = w.steps;
        w.last = w.steps;
    }
    return w;
}

std::string steps(const Wedge& w) {
    if (!w.capped) return "none";
    return std::to_string(w.capped) + " (steps " + std::to_string(w.first) + "–" +
           std::to_string(w.last) + ")";
}

CaseReport run(const Context& ctx) {
    CaseReport report;
    report.id = "alart-2014";
    report.title = "Two disks wedged by a moving wall: NLGS without and with memory";
    report.source =
        "Alart 2014 Sec. 2.3, Figs. 1–5 (two disks, radii 0.8 and 0.75 cm, under gravity in a box "
        "whose right wall moves in; 100 steps; NLGS capped at 150 iterations, stopped at Eq. 10's "
        "10⁻³; frictionless, and with μ = 1, 0.01, 0.01, 1, 0.01 at the five contacts)";
    report.method =
        std::string("`") + kScene +
        "`: NSCD (mode nonsmooth, impact stage off, h = 10 ms) with `solver.method nlgs` "
        "(Alart's Alg. 2: each contact's 2×2 local problem solved exactly) capped at 150 sweeps "
        "and stopped at Eq. 10's error 10⁻³; without memory (warm start off) and with it (the "
        "last step's impulses, β = 1). The paper gives neither the box nor the wall's speed: the "
        "right wall moves in at 1 cm/s and the disks, 4 mm apart, meet near the 40th step as "
        "the paper's do. Friction 1 against the side walls, 0.01 on the floor and between the "
        "disks (our reading of its Fig. 1's numbering). Violation: the mean overlap of the "
        "touching contacts over the mean radius (Eq. 11 averages over the potential contacts).";
    // The three cases with the engine's gap stabilisation (the scene's), then with the paper's
    // velocity Signorini law, which leaves an overlap as the solver leaves it.
    const Override unstabilised{"regularization.stabilizationSteps", "1000"};
    const std::vector<RunSpec> specs{
        {kScene, {{"contact.frictionScale", "0"}}, std::nullopt},
        {kScene, {}, std::nullopt},
        {kScene, {{"warmStart.enabled", "true"}}, std::nullopt},
        {kScene, {{"contact.frictionScale", "0"}, unstabilised}, std::nullopt},
        {kScene, {unstabilised}, std::nullopt},
        {kScene, {{"warmStart.enabled", "true"}, unstabilised}, std::nullopt}};
    std::vector<RunOutcome> runs = ctx.run(specs, report.id);
    const Wedge frictionless = wedgeOf(runs[0]), cold = wedgeOf(runs[1]), memory = wedgeOf(runs[2]);
    const Wedge paperFrictionless = wedgeOf(runs[3]), paperCold = wedgeOf(runs[4]),
                paperMemory = wedgeOf(runs[5]);

    // Frictionless: the cap where the disks wedge, then released within steps.
    const bool released = frictionless.capped > 0 && frictionless.last < frictionless.steps;
    report.checks.push_back(
        {"frictionless: steps at the cap of 150", "steps 42–44, released at the next (Fig. 2)",
         steps(frictionless),
         released ? (frictionless.capped <= 5 ? "reproduced" : "trend holds: wedged, then released")
                  : "differs",
         released});
    const bool stuck = cold.capped > 0 && cold.last == cold.steps;
    // Quick: the trend (the wedge stalls the iteration); full: the paper's claim.
    report.checks.push_back(
        {"frictional, without memory: steps at the cap",
         "no convergence from the wedge to the end (Fig. 2)", steps(cold),
         stuck ? "reproduced" : (cold.capped > 0 ? "differs: released before the end" : "differs"),
         ctx.quick() ? cold.capped > 0 : stuck});
    const bool nearer = memory.capped < cold.capped;
    report.checks.push_back({"frictional, with memory: steps at the cap",
                             "behaves nearer the frictionless case (Figs. 2, 5)", steps(memory),
                             nearer ? "trend holds: fewer than without memory" : "differs",
                             nearer});
    report.checks.push_back(
        {"largest mean violation (δ / mean radius): frictionless, without, with memory",
         "grows where the cap is reached; inadmissible without memory (Figs. 2, 4)",
         num(frictionless.violation, 2) + ", " + num(cold.violation, 2) + ", " +
             num(memory.violation, 2),
         "reported", true});
    const bool paperStuck = paperCold.capped > 0 && paperCold.last == paperCold.steps;
    report.checks.push_back(
        {"the paper's law (no gap stabilisation): steps at the cap, frictionless; frictional "
         "without memory; with memory",
         "released after 3; no convergence to the end; nearer the frictionless case (Fig. 2)",
         steps(paperFrictionless) + "; " + steps(paperCold) + "; " + steps(paperMemory),
         paperStuck ? "frictional rows reproduced; frictionless differs: wedged to the end"
                    : "differs",
         paperStuck});
    report.checks.push_back(
        {"the paper's law: largest mean violation, frictionless, without, with memory",
         "inadmissible without memory (Figs. 2, 4)",
         num(paperFrictionless.violation, 2) + ", " + num(paperCold.violation, 2) + ", " +
             num(paperMemory.violation, 2),
         "reported", true});
    runs.resize(3);

    Plot iterations;
    iterations.png = "alart_2014_iterations.png";
    iterations.title = "NLGS iterations per step (cap 150)";
    iterations.xLabel = "step";
    iterations.yLabel = "iterations";
    Plot violation;
    violation.png = "alart_2014_violation.png";
    violation.title = "Mean violation (overlap / mean radius)";
    violation.xLabel = "step";
    violation.yLabel = "violation";
    const char* labels[] = {"frictionless", "frictional, without memory",
                            "frictional, with memory"};
    const char* names[] = {"frictionless", "without_memory", "with_memory"};
    for (size_t i = 0; i < runs.size(); ++i) {
        Table t;
        int k = 0;
        for (const RunRecorder::Sample& s : runs[i].recorder.samples()) {
            t["step"].push_back(++k);
            t["iterations"].push_back(s.iterations);
            t["violation"].push_back(2.0 * s.meanOverlap);
        }
        const std::string csv = ctx.csv(report.id, names[i], t);
        iterations.lines.push_back(
            {csv, columnOf(t, "step"), columnOf(t, "iterations"), labels[i], "lines"});
        violation.lines.push_back(
            {csv, columnOf(t, "step"), columnOf(t, "violation"), labels[i], "lines"});
    }
    ctx.plot(report.id, {iterations, violation}, report);
    return report;
}

}  // namespace

Case alart2014Case() {
    return {"alart-2014", "Two disks wedged by a moving wall: NLGS without and with memory", run};
}

}  // namespace ndem::cli::validation
