// servin-2014 Sec. 5.1, Fig. 3–4: in a 9 d silo with 7.5 k grains and N_it = 500 the wall
// pressure saturates with depth (Janssen); with N_it = 10 the column is compressed and the
// pressure follows the hydrostatic line — with the papers' sequential sweep order. The
// engine's graph-coloured order mobilises the wall friction within fewer sweeps: reported.
#include "validation.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ndem::cli::validation {

namespace {

/// The silo the runs fill and the sweep count of its converged runs.
struct Silo {
    int high;
    std::string scene;
    std::vector<Override> base;
};

Silo chooseSilo(const Context& ctx, CaseReport& report) {
    const int high = ctx.quick() ? 100 : 500;
    std::string scene = "assets/scenes/silo-9d.json";
    std::vector<Override> base;
    if (ctx.quick()) {
        scene = "assets/scenes/silo-6d.json";
        base = {{"particles.0.count", "700"},
                {"gravityRamp.time", "3"},
                {"duration", "5"},
                {"measurements.wallPressure.from", "4"},
                {"measurements.axisPressure.from", "4"},
                {"measurements.contactErrors.from", "4"}};
        report.method =
            "Quick: the 6 d silo with 700 grains, 3 s gravity ramp, averaged over the "
            "last second; N_it = 100 and 10.";
    } else {
        report.method =
            "`assets/scenes/silo-9d.json`: Φ = 9 d, 7500 grains (d = 1 cm, E = 5 MPa, "
            "μ = 0.7, e = 0), h = 10 ms, gravity ramped over 60 s as in the paper, "
            "then 5 s at full gravity; pressures averaged over the last 2 s. Wall "
            "pressure in strips of 5 d; hydrostatic ρ_b g (H − z) with the bulk "
            "density of the fill; Janssen curve p_sat (1 − exp(−(H − z)/λ)) fitted.";
    }
    return {high, scene, base};
}

/// The runs, and those at N_it = high, one per packing.
struct Plan {
    std::vector<RunSpec> specs;
    std::vector<size_t> packings;
};

Plan planRuns(const Context& ctx, const Silo& silo) {
    const int high = silo.high;
    std::vector<RunSpec> specs;
    // N_it = 10 twice: in the papers' sequential sweep order (their claim is about that
    // PGS) and in the engine's default graph-coloured order.
    for (auto [it, order] : {std::pair{high, "coloured"}, {10, "sequential"}, {10, "coloured"}}) {
        RunSpec s{silo.scene, silo.base, std::nullopt};
        s.overrides.push_back({"solver.iterations", std::to_string(it)});
        s.overrides.push_back({"solver.order", order});
        s.startFirst = it == high;
        specs.push_back(s);
    }
    // The floor layer's stress differs from packing to packing by ±12 % (the column's by a few
    // per cent), so Fig. 4's p0 is read over three packings: the grains' seed changes the
    // emitter's positions and radii, nothing else.
    std::vector<size_t> packings = {0};  // the runs at N_it = high, one per seed
    for (const char* seed : {"2", "3"}) {
        if (ctx.quick()) break;
        RunSpec s = specs[0];
        s.overrides.push_back({"particles.0.seed", seed});
        packings.push_back(specs.size());
        specs.push_back(s);
    }
    return {specs, packings};
}

/// Fig. 3–4: the converged wall pressure saturates, the 10-sweep runs' follows the hydrostatic
/// line and their column is compressed.
void scoreSaturation(const std::vector<RunOutcome>& runs, const std::string& hi,
                     CaseReport& report) {
    auto wp = [&](size_t i, const char* k) { return runs[i].scalar("wallPressure", k); };
    const double ratioHigh = wp(0, "bottomRatio"), ratioLow = wp(1, "bottomRatio");
    report.checks.push_back({"bottom-strip wall pressure / hydrostatic, " + hi,
                             "well below 1: saturates (Fig. 3–4)", num(ratioHigh, 3),
                             ratioHigh < 0.8 ? "reproduced" : "differs", ratioHigh < 0.8});
    const double residual = wp(0, "fitRelativeResidual");
    report.checks.push_back({"Janssen fit relative rms residual, " + hi, "small", num(residual, 2),
                             residual < 0.15 ? "reproduced" : "differs", residual < 0.15});
    report.checks.push_back(
        {"Janssen fit, " + hi, "p_sat (1 − exp(−(H − z)/λ))",
         "p_sat = " + num(wp(0, "pSat"), 3) + " Pa, λ = " + num(wp(0, "lambda"), 3) +
             " m, K = " + num(wp(0, "janssenK"), 2) +
             " (R/(2 μ_w λ): the wall's friction fully mobilised); K from "
             "p_sat/(ρ_b g λ) = " +
             num(wp(0, "janssenKFromPSat"), 2) +
             ", which implies a mobilised wall friction R/(2 K λ) = " +
             num(wp(0, "wallFriction") * wp(0, "janssenK") / wp(0, "janssenKFromPSat"), 2),
         "reported", true});
    report.checks.push_back(
        {"bottom-strip wall pressure / hydrostatic, N_it = 10, sequential order",
         "follows hydrostatic (≈ 1)", num(ratioLow, 3),
         ratioLow > ratioHigh && ratioLow > 0.7 ? "reproduced" : "differs",
         ratioLow > ratioHigh && ratioLow > 0.7});
    // Not a claim of the paper: how far the default order is from converged after 10 sweeps.
    const double ratioColoured = wp(2, "bottomRatio");
    report.checks.push_back(
        {"bottom-strip wall pressure / hydrostatic, N_it = 10, coloured order", "–",
         num(ratioColoured, 3),
         ratioColoured > ratioHigh ? "above the converged ratio (reported)" : "differs",
         ratioColoured > ratioHigh});
    for (auto [run, order] : {std::pair{1, "sequential"}, {2, "coloured"}}) {
        const double heightRatio = wp(run, "fillHeight") / wp(0, "fillHeight");
        report.checks.push_back(
            {"fill height N_it = 10 (" + std::string(order) + ") / " + hi,
             "compressed (< 40 % for 7.5 k grains)", num(100 * heightRatio, 3) + " %",
             heightRatio < 0.95 ? "compressed" : "differs", heightRatio < 0.95});
    }
}

/// Fig. 4's p0, read as tr σ/3 and as the vertical stress σ_zz (servin-2014 does not say).
/// Judged on the mean over the packings; the scatter is reported beside it.
void scoreBottomPressure(const std::vector<RunOutcome>& runs, const std::vector<size_t>& packings,
                         CaseReport& report) {
    for (const char* key : {"pressureAtBottom", "sigmaZZAtBottom"}) {
        const auto [p0, spread] = spreadOf(runs, packings, "axisPressure", key);
        const bool ok = std::abs(p0 - 990.0) / 990.0 < 0.25;
        report.checks.push_back({std::string("axis ") +
                                     (key[0] == 'p' ? "pressure tr σ/3" : "vertical stress σ_zz") +
                                     " at the bottom p0, N_it = 500, mean of " +
                                     std::to_string(packings.size()) + " packings",
                                 "990 Pa (Fig. 4)", num(p0, 3) + " ± " + num(spread, 2) + " Pa",
                                 ok ? "reproduced (within 25 %)" : "differs (see findings)", ok});
    }
    const auto [pSat, pSatSpread] = spreadOf(runs, packings, "wallPressure", "pSat");
    report.checks.push_back(
        {"Janssen p_sat over " + std::to_string(packings.size()) + " packings, N_it = 500", "–",
         num(pSat, 3) + " ± " + num(pSatSpread, 2) + " Pa", "reported", true});
}

void scoreOverlap(const std::vector<RunOutcome>& runs, const std::string& hi, CaseReport& report) {
    const double overlapHigh = runs[0].scalar("contactErrors", "meanOverlapError");
    const double overlapLow = runs[1].scalar("contactErrors", "meanOverlapError");
    report.checks.push_back(
        {"mean overlap ⟨ε_c⟩, " + hi + " / N_it = 10", "grows with fewer sweeps",
         num(overlapHigh, 2) + " / " + num(overlapLow, 2),
         overlapLow > overlapHigh ? "trend holds" : "differs", overlapLow > overlapHigh});
}

void writeFigures(const Context& ctx, const std::vector<RunOutcome>& runs, const std::string& hi,
                  CaseReport& report) {
    const char* suffix[] = {"high", "10", "10_coloured"};
    const std::string label[] = {hi, "N_it = 10, sequential order", "N_it = 10, coloured order"};
    std::vector<Plot> plots;
    for (size_t i = 0; i < std::size(suffix); ++i) {
        const MeasurementResult* m = runs[i].measurement("wallPressure");
        if (!m || !m->tables.count("profile")) continue;
        const Table& t = m->tables.at("profile");
        const std::string csv = ctx.csv(report.id, std::string("wall_pressure_") + suffix[i], t);
        Plot p = makePlot(std::string("wall_pressure_") + suffix[i] + ".png",
                          "Wall pressure vs depth, " + label[i], "depth H − z (m)",
                          "wall pressure (Pa)");
        const int x = columnOf(t, "depth");
        p.lines = {{csv, x, columnOf(t, "pressure"), "measured (strips of 5 d)", "points"},
                   {csv, x, columnOf(t, "hydrostatic"), "hydrostatic ρ_b g (H − z)", "lines"},
                   {csv, x, columnOf(t, "janssen"), "Janssen fit", "lines"}};
        plots.push_back(p);
    }
    Plot axis = makePlot("axis_pressure.png", "Pressure along the centre axis (servin-2014 Fig. 4)",
                         "height z (m)", "pressure (Pa)");
    for (size_t i = 0; i < std::size(suffix); ++i)
        if (const MeasurementResult* m = runs[i].measurement("axisPressure"))
            if (m->tables.count("profile")) {
                const Table& t = m->tables.at("profile");
                const std::string csv = ctx.csv(report.id, std::string("axis_") + suffix[i], t);
                axis.lines.push_back({csv, columnOf(t, "z"), columnOf(t, "pressure"), label[i]});
            }
    plots.push_back(axis);
    ctx.plot(report.id, plots, report);
}

CaseReport run(const Context& ctx) {
    CaseReport report = openReport("janssen", "Silo: wall pressure saturates with depth (Janssen)",
                                   "servin-2014 Sec. 4.2.1, 5.1, Fig. 3–4 (p0 = 990 Pa on the "
                                   "axis at the bottom, N_it = 500)");
    const Silo silo = chooseSilo(ctx, report);
    const Plan plan = planRuns(ctx, silo);
    const std::vector<RunOutcome> runs = ctx.run(plan.specs, report.id);
    const std::string hi = "N_it = " + std::to_string(silo.high);
    scoreSaturation(runs, hi, report);
    if (!ctx.quick()) scoreBottomPressure(runs, plan.packings, report);
    scoreOverlap(runs, hi, report);
    writeFigures(ctx, runs, hi, report);
    return report;
}

}  // namespace

Case janssenCase() {
    return {"janssen", "Janssen silo", run};
}

}  // namespace ndem::cli::validation
