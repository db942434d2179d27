// servin-2014 Sec. 4.2.2, 5.2, Figs. 8–9: the 80 d drum lined with 64 saw teeth, 7 500 grains,
// ω = 0.63 rad/s. With enough sweeps the flow has two phases, a plug zone about 0.3 R thick that
// co-rotates with the drum under a shear-flow layer; with fewer sweeps the plug thins until
// all of the bed shears, and with N_it ≤ 25 the bed is compressed by more than 10 %. The
// velocity profile along the line through the axis perpendicular to the free surface for
// N_it = 10 … 500, smooth DEM beside it.
#include "validation.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ndem::cli::validation {

namespace {

/// Plug zone of a profile: from the drum wall (z' = −1) up to the first bin whose mean velocity
/// leaves rigid co-rotation by more than the drum measurement's plug threshold, 0.15 RΩ (in R).
double plugThickness(const Table& t) {
    const std::vector<double>&z = t.at("zPrime"), &v = t.at("velocity"), &rigid = t.at("rigid"),
          &count = t.at("count");
    const double bin = z.size() > 1 ? z[1] - z[0] : 0.0;
    double thickness = 0.0;
    for (size_t k = 0; k < z.size(); ++k) {
        if (count[k] <= 0.0) continue;
        if (std::abs(v[k] - rigid[k]) > 0.15) break;
        thickness = z[k] + 0.5 * bin + 1.0;
    }
    return thickness;
}

/// The bed's depth along the line (in R): from the wall to the last bin holding at least half
/// the grains a bin holds on average below it.
double bedDepth(const Table& t) {
    const std::vector<double>&z = t.at("zPrime"), &count = t.at("count");
    const double bin = z.size() > 1 ? z[1] - z[0] : 0.0;
    double sum = 0.0, depth = 0.0;
    int filled = 0;
    for (size_t k = 0; k < z.size(); ++k) {
        if (filled > 0 && count[k] < 0.5 * sum / filled) break;
        if (count[k] <= 0.0) continue;
        sum += count[k];
        ++filled;
        depth = z[k] + 0.5 * bin + 1.0;
    }
    return depth;
}

CaseReport run(const Context& ctx) {
    CaseReport report;
    report.id = "drum-80d";
    report.title = "The 80 d drum: plug-flow layer and velocity profile against N_it";
    report.source =
        "servin-2014 Sec. 4.2.2, 5.2, Figs. 8–9 (plug layer ≈ 0.3 R for N_it ≥ 150, "
        "thinning with fewer sweeps; > 10 % compression for N_it ≤ 25)";
    const bool quick = ctx.quick();
    const std::vector<int> sweeps =
        quick ? std::vector<int>{10, 150} : std::vector<int>{10, 25, 50, 150, 500};
    // The paper: a 2 s start at N_it = 500, then N_it for a third of a turn plus 3.5 s, measured
    // over 10 steps; here the last 2 s are averaged (its Fig. 9's scatter at high N_it is the
    // avalanches' pulsation).
    const double start = quick ? 1.0 : 2.0,
                 settle = quick ? 1.5 : 2.0 * std::numbers::pi / 0.63 / 3.0 + 1.5;
    const double end = start + settle + 2.0;
    std::vector<Override> size;
    if (quick) {
        // A 40 d drum, 4 d long, 940 grains: the same regime (Fr) at ω = 0.63 · √2.
        size = {{"walls.drum.diameter", "0.4"},        {"walls.drum.length", "0.04"},
                {"walls.drum.speed", "0.89"},          {"particles.0.region.radius", "0.19"},
                {"particles.0.region.height", "0.04"}, {"particles.0.region.center", "[0,-0.02,0]"},
                {"particles.0.count", "940"}};
        report.method = "Quick: the drum halved (40 d, 4 d long, 940 grains, Fr kept); ";
    } else {
        report.method =
            "`assets/scenes/drum-80d.json`: Φ = 80 d, length 8 d, 64 saw teeth "
            "(1.2 d high, attack angle 50°), 7 500 grains (d = 1 cm, E = 5 MPa, "
            "μ = 0.7, e = 0), ω = 0.63 rad/s, h = 10 ms; ";
    }
    report.method +=
        "2 s at N_it = 500 from the lattice (the paper's start), then N_it for a "
        "third of a turn plus 1.5 s, the profile averaged over the last 2 s: the "
        "mean velocity of the grains in bins of z' along the line through the axis "
        "perpendicular to the free surface, over RΩ, in 40 bins (0.05 R). Plug layer: from the "
        "wall up "
        "to the first bin that leaves rigid co-rotation by more than 0.15 RΩ (the "
        "drum measurement's plug threshold). Bed depth: from the wall to the last "
        "bin holding half the grains of the bins below. Smooth DEM: the same run "
        "with `mode smooth`, h = 5·10⁻⁵ s (the paper's smooth step) throughout (full mode).";
    auto measured = [&](double from) {
        return std::vector<Override>{{"measurements.drum.from", num(from, 4)},
                                     {"measurements.drum.bins", "40"},
                                     {"duration", num(end, 4)}};
    };
    std::vector<RunSpec> specs;
    for (int n : sweeps) {
        RunSpec s{"assets/scenes/drum-80d.json", size, std::nullopt};
        for (const Override& o : measured(end - 2.0))
            s.overrides.push_back(o);
        s.overrides.push_back({"solver.iterations", "500"});
        s.later = {{"solver.iterations", std::to_string(n)}};
        s.switchAt = start;
        s.startFirst = n == 500;
        specs.push_back(s);
    }
    if (!quick) {  // 180 000 smooth steps: full mode only
        RunSpec smooth{"assets/scenes/drum-80d.json", size, std::nullopt};
        for (const Override& o : measured(end - 2.0))
            smooth.overrides.push_back(o);
        smooth.overrides.push_back({"mode", "smooth"});
        smooth.overrides.push_back({"timeStep", "5e-5"});
        smooth.startFirst = true;
        specs.push_back(smooth);
    }
    const std::vector<RunOutcome> runs = ctx.run(specs, report.id);

    std::vector<double> thickness, depth;
    for (const RunOutcome& r : runs) {
        const MeasurementResult* m = r.measurement("drum");
        const bool ok = m && m->tables.count("profile");
        thickness.push_back(ok ? plugThickness(m->tables.at("profile")) : NAN);
        depth.push_back(ok ? bedDepth(m->tables.at("profile")) : NAN);
    }
    const size_t most = sweeps.size() - 1, smoothRun = sweeps.size();
    std::string perSweeps, depths;
    for (size_t i = 0; i < sweeps.size(); ++i) {
        perSweeps += (i ? ", " : "") + num(thickness[i], 2);
        depths += (i ? ", " : "") + num(100.0 * (depth[i] / depth[most] - 1.0), 2) + " %";
    }
    std::string list;
    for (size_t i = 0; i < sweeps.size(); ++i)
        list += (i ? ", " : "") + std::to_string(sweeps[i]);
    report.checks.push_back(
        {"plug-layer thickness (R), N_it = " + list, "–", perSweeps, "reported", true});
    const double high = thickness[most];
    const bool plugOk = std::abs(high - 0.3) <= 0.1;
    report.checks.push_back({"plug-layer thickness, N_it = " + std::to_string(sweeps[most]),
                             "≈ 0.3 R (Fig. 9)", num(high, 2) + " R",
                             plugOk ? "reproduced (within 0.1 R)" : "differs (see findings)",
                             quick || plugOk});
    const bool thins = thickness.front() < high;
    report.checks.push_back(
        {"the plug thins with fewer sweeps, N_it = " + std::to_string(sweeps.front()) +
             " against " + std::to_string(sweeps[most]),
         "decreases continuously with decreasing N_it (Sec. 5.2)",
         num(thickness.front(), 2) + " R against " + num(high, 2) + " R",
         thins ? "trend holds" : "differs", thins});
    report.checks.push_back({"bed depth along the line against N_it = " +
                                 std::to_string(sweeps[most]) + ", N_it = " + list,
                             "> 10 % shallower for N_it ≤ 25", depths, "reported", true});
    if (!quick) {
        const double compression = 1.0 - depth[0] / depth[most];
        report.checks.push_back(
            {"compression at N_it = 10", "> 10 % (Sec. 5.2)", num(100.0 * compression, 2) + " %",
             compression > 0.1 ? "reproduced" : "differs (see findings)", compression > 0.1});
    }
    if (!quick)
        report.checks.push_back({"plug-layer thickness, smooth DEM (h = 5·10⁻⁵ s)", "–",
                                 num(thickness[smoothRun], 2) + " R", "reported", true});

    Plot plot;
    plot.png = "drum_80d_profile.png";
    plot.title = "Velocity across the flow, ω = 0.63 rad/s (Fig. 9)";
    plot.xLabel = "z' / R";
    plot.yLabel = "v / (R Ω)";
    for (size_t i = 0; i < runs.size(); ++i) {
        const MeasurementResult* m = runs[i].measurement("drum");
        if (!m || !m->tables.count("profile")) continue;
        const Table& t = m->tables.at("profile");
        const std::string csv = ctx.csv(report.id, "profile" + std::to_string(i), t);
        plot.lines.push_back(
            {csv, columnOf(t, "zPrime"), columnOf(t, "velocity"),
             i == smoothRun ? std::string("smooth DEM") : "N_it = " + std::to_string(sweeps[i])});
        if (i == most)
            plot.lines.push_back(
                {csv, columnOf(t, "zPrime"), columnOf(t, "rigid"), "rigid rotation", "lines"});
    }
    ctx.plot(report.id, {plot}, report);
    return report;
}

}  // namespace

Case drum80dCase() {
    return {"drum-80d", "The 80 d drum: plug-flow layer and velocity profile against N_it", run};
}

}  // namespace ndem::cli::validation
