// Accuracy per second: on a settled 9 d silo the level of the Janssen wall pressure p_sat keeps
// rising with the sweeps long after the overlaps are small (servin-2014 Sec. 5.1: "at least
// N_it = 100 for the correct force level"). Each method is judged by the wall time it needs
// to bring p_sat within 10 % of a 5 000-sweep reference, not by sweeps per second alone.
#include "validation.hpp"

#include <algorithm>
#include <cmath>

namespace ndem::cli::validation {

namespace {

struct Method {
    const char* name;         ///< settings.solver.method
    std::vector<int> ladder;  ///< sweeps per step tried, ascending
};

/// The packing, the hold that follows it, and the methods' ladders.
struct Setup {
    bool quick;
    std::string scene;
    double ramp, settled, hold;
    int fill, reference;
    std::vector<Method> methods;
    std::vector<Override> base;
};

Setup chooseSetup(bool quick) {
    // The packing: the fast fill (gravity ramped in `ramp` s), at rest by `settled`; then the
    // same packing is held `hold` s with each method and sweep count, p_sat averaged over the
    // last quarter of the hold.
    const std::string scene = quick ? "assets/scenes/silo-6d.json" : "assets/scenes/silo-9d.json";
    const double ramp = quick ? 3.0 : 5.0, settled = quick ? 4.0 : 8.0, hold = quick ? 1.0 : 2.0;
    const int fill = 100, reference = quick ? 2000 : 5000;
    const std::vector<Method> methods =
        quick ? std::vector<Method>{{"pgs", {25, 50, 100, 200}},
                                    {"nncg", {25, 50, 100}},
                                    {"apgd", {25, 50, 100}}}
              : std::vector<Method>{{"pgs", {50, 100, 200, 400, 800, 1600}},
                                    {"nncg", {25, 50, 100, 200, 400, 800}},
                                    {"apgd", {25, 50, 100, 200, 400, 800}}};
    std::vector<Override> base = {
        {"gravityRamp.time", num(ramp)},
        {"duration", num(settled + hold)},
        {"solver.iterations", std::to_string(fill)},
        {"solver.method", "pgs"},
        {"warmStart.enabled", "true"},
        {"measurements.wallPressure.from", num(settled + 0.75 * hold, 4)},
        {"measurements.axisPressure.from", num(settled + hold, 4)},
        {"measurements.contactErrors.from", num(settled + 0.75 * hold, 4)}};
    if (quick) base.push_back({"particles.0.count", "700"});
    return {quick, scene, ramp, settled, hold, fill, reference, methods, base};
}

CaseReport describeCase(const Setup& s) {
    CaseReport report = openReport(
        "solver-accuracy", "Solver accuracy per second: the Janssen level on a settled silo",
        "servin-2014 Sec. 5.1 (the force level needs many more sweeps than the "
        "saturation); silcowitz-2010 (NNCG); mazhar-2015 (APGD)");
    report.method =
        "`" + s.scene + "` (" + (s.quick ? "700" : "7500") + " grains), gravity ramped over " +
        num(s.ramp) + " s with N_it = " + std::to_string(s.fill) +
        " and warm start; at t = " + num(s.settled) + " s, at rest, the same packing goes on for " +
        num(s.hold) +
        " s with each method and sweep count (warm start on); p_sat of the Janssen "
        "fit to the wall pressure averaged over the last quarter of that time. Reference: PGS at " +
        std::to_string(s.reference) + " sweeps. Wall time: the hold only, " +
        (s.quick ? "runs side by side" : "two runs side by side, one thread each") + ".";
    return report;
}

/// The packing held with a method at a sweep count from `settled` on.
RunSpec holdWith(const Setup& setup, const char* method, int sweeps) {
    RunSpec s{setup.scene, setup.base, std::nullopt};
    s.later = {{"solver.method", method}, {"solver.iterations", std::to_string(sweeps)}};
    s.switchAt = setup.settled;
    return s;
}

std::vector<RunSpec> planRuns(const Setup& setup) {
    std::vector<RunSpec> specs = {holdWith(setup, "pgs", setup.reference)};
    specs[0].startFirst = true;
    for (const Method& m : setup.methods)
        for (int n : m.ladder)
            specs.push_back(holdWith(setup, m.name, n));
    return specs;
}

/// Per method that reached 10 %: its name, the wall time of that hold, its sweeps.
struct Reached {
    std::string method;
    double seconds = 0.0;
    int sweeps = 0;
};

/// What the ladders gave: the reference level, each hold's numbers by method ("pgs.pSat"…),
/// and the methods that reached 10 %.
struct Ladders {
    double pRef = 0.0;
    Table holds;
    std::vector<Reached> secondsToTen;
};

Ladders scoreLadders(const Setup& setup, const std::vector<RunOutcome>& runs, CaseReport& report) {
    const bool quick = setup.quick;
    Ladders ladders;
    ladders.pRef = runs[0].scalar("wallPressure", "pSat");
    const double pRef = ladders.pRef;
    report.checks.push_back(
        {"p_sat, PGS at " + std::to_string(setup.reference) + " sweeps (reference)", "–",
         num(pRef, 4) + " Pa", "reported", std::isfinite(pRef)});
    Table& t = ladders.holds;
    size_t k = 1;
    for (const Method& m : setup.methods) {
        // The level is not monotonic in the sweeps (a hold with few sweeps lets the packing
        // creep and load the walls anew), so a count counts once it and every larger one on
        // the ladder stay within 10 %.
        int needed = -1;
        double seconds = std::nan("");
        const std::string key(m.name);
        for (int n : m.ladder) {
            const RunOutcome& r = runs[k++];
            const double p = r.scalar("wallPressure", "pSat");
            const bool within = std::abs(p / pRef - 1.0) <= 0.10;
            t[key + ".sweeps"].push_back(n);
            t[key + ".pSat"].push_back(p);
            t[key + ".error"].push_back(std::abs(p / pRef - 1.0));
            t[key + ".holdSeconds"].push_back(r.laterWallSeconds);
            t[key + ".meanOverlap"].push_back(r.scalar("contactErrors", "meanOverlapError"));
            if (!within) needed = -1;
            if (within && needed < 0) {
                needed = n;
                seconds = r.laterWallSeconds;
            }
        }
        // Quick: 700 grains held 1 s do not settle the level to 10 % on any ladder (measured:
        // within 15-30 % of the reference, not monotonic); the check that can fail there is
        // that more sweeps close the overlaps.
        const std::vector<double>& overlap = t[key + ".meanOverlap"];
        if (quick)
            report.checks.push_back({key + ": ⟨ε_c⟩ at " + std::to_string(m.ladder.back()) +
                                         " sweeps / at " + std::to_string(m.ladder.front()),
                                     "< 1", num(overlap.back() / overlap.front(), 3),
                                     "more sweeps close the overlaps",
                                     overlap.back() < overlap.front()});
        report.checks.push_back({key + ": sweeps per step for p_sat within 10 %", "–",
                                 needed > 0 ? std::to_string(needed) : "beyond the ladder",
                                 needed > 0 ? "reached"
                                 : quick    ? "not reached (reported)"
                                            : "not reached",
                                 needed > 0 || quick});
        report.checks.push_back({std::string(m.name) + ": wall time of the " + num(setup.hold) +
                                     " s hold at that count",
                                 "–", needed > 0 ? num(seconds, 3) + " s" : "–", "measured", true});
        if (needed > 0) ladders.secondsToTen.push_back({m.name, seconds, needed});
    }
    return ladders;
}

void compareTimes(const std::vector<Reached>& secondsToTen, CaseReport& report) {
    for (size_t m = 1; m < secondsToTen.size(); ++m)
        report.checks.push_back({"wall time to 10 %: PGS / " + secondsToTen[m].method, "–",
                                 num(secondsToTen[0].seconds / secondsToTen[m].seconds, 3),
                                 "measured", true});
}

/// What a user gets: the method that reached 10 % in the least time, its hold again alone
/// on every core (the runs above share the cores two by two, one thread each).
void runBestAlone(const Context& ctx, const Setup& setup, const Ladders& ladders,
                  CaseReport& report) {
    const std::vector<Reached>& secondsToTen = ladders.secondsToTen;
    const auto best =
        std::min_element(secondsToTen.begin(), secondsToTen.end(),
                         [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
    RunSpec alone = holdWith(setup, best->method.c_str(), best->sweeps);
    alone.overrides.push_back({"threads", "0"});
    const RunOutcome r = ctx.run({alone}, report.id + " alone").front();
    const double p = r.scalar("wallPressure", "pSat");
    report.checks.push_back({best->method + " at " + std::to_string(best->sweeps) +
                                 " sweeps alone on every core: wall time of the " +
                                 num(setup.hold) + " s hold (error of p_sat)",
                             "–",
                             num(r.laterWallSeconds, 3) + " s (" +
                                 num(100.0 * std::abs(p / ladders.pRef - 1.0), 2) + " %)",
                             "measured", std::isfinite(p)});
}

void writeFigures(const Context& ctx, const Setup& setup, const Ladders& ladders,
                  CaseReport& report) {
    // Per method, so that each has its own rows (the ladders differ in length).
    std::vector<Plot> plots{
        makePlot("psat_vs_sweeps.png", "Janssen level against sweeps per step",
                 "sweeps (iterations) per step", "p_sat (Pa)"),
        makePlot("error_vs_seconds.png", "Error of p_sat against the wall time of the hold",
                 "wall time of the hold (s)", "|p_sat / p_ref − 1|")};
    plots[0].logX = true;
    plots[1].logX = plots[1].logY = true;
    for (const Method& m : setup.methods) {
        Table one;
        for (const char* key : {"sweeps", "pSat", "error", "holdSeconds", "meanOverlap"})
            one[key] = ladders.holds.at(std::string(m.name) + "." + key);
        const std::string csv = ctx.csv(report.id, std::string("hold_") + m.name, one);
        plots[0].lines.push_back({csv, columnOf(one, "sweeps"), columnOf(one, "pSat"), m.name});
        plots[1].lines.push_back(
            {csv, columnOf(one, "holdSeconds"), columnOf(one, "error"), m.name});
    }
    plots[0].extra.push_back("set arrow from graph 0, first " + num(ladders.pRef, 6) +
                             " to graph 1, first " + num(ladders.pRef, 6) + " nohead dt 2");
    plots[1].extra.push_back("set arrow from graph 0, first 0.1 to graph 1, first 0.1 nohead dt 2");
    ctx.plot(report.id, plots, report);
}

CaseReport run(const Context& ctx) {
    const Setup setup = chooseSetup(ctx.quick());
    CaseReport report = describeCase(setup);
    const std::vector<RunOutcome> runs = ctx.run(planRuns(setup), report.id);
    const Ladders ladders = scoreLadders(setup, runs, report);
    compareTimes(ladders.secondsToTen, report);
    if (!ladders.secondsToTen.empty() && !setup.quick) runBestAlone(ctx, setup, ladders, report);
    writeFigures(ctx, setup, ladders, report);
    return report;
}

}  // namespace

Case solverAccuracyCase() {
    return {"solver-accuracy", "Solver accuracy per second", run};
}

}  // namespace ndem::cli::validation
