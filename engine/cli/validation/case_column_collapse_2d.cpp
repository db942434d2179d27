// krabbenhoft-2012 Sec. 5.1, Figs. 7–9: a 2D column of about 1500 disks (a = h0/r0 = 1.42,
// porosity ≈ 0.18, μ = 0.5) collapses against a symmetry wall; the interior-point method runs
// t̄ = t/√(h0/g) = 4 in 25, 50, 100 and 200 steps, and the deposits converge as the step falls.
#include "validation.hpp"

#include <algorithm>
#include <cmath>

namespace ndem::cli::validation {

namespace {

constexpr const char* kScene = "assets/scenes/column-collapse-2d.json";
constexpr double kRelease = 1.0;   ///< the gate goes and the phase switches (s)
constexpr double kCollapse = 0.7;  ///< t̄ = 4 for h0 = 0.30 m (s)

/// The most Newton steps any step of the collapse took, and how many hit the cap.
struct NewtonSteps {
    int most = 0, capped = 0, steps = 0;
};

NewtonSteps newtonSteps(const RunOutcome& run, int cap) {
    NewtonSteps n;
    for (const RunRecorder::Sample& s : run.recorder.samples()) {
        if (s.time <= kRelease + 1e-9) continue;
        n.most = std::max(n.most, s.iterations);
        n.capped += s.iterations >= cap;
        ++n.steps;
    }
    return n;
}

CaseReport run(const Context& ctx) {
    CaseReport report;
    report.id = "column-collapse-2d";
    report.title = "Collapse of a 2D granular column (interior point)";
    report.source =
        "krabbenhoft-2012 Sec. 5.1, Figs. 7–9 (a = h0/r0 = 1.42, ~1500 disks, "
        "porosity ≈ 0.18, d_max/d_min = 2.3, μ = 0.5; t̄ = 4 in 100 steps; the "
        "deposit converges steadily over 25, 50, 100, 200 steps)";
    report.method =
        std::string("`") + kScene +
        "`: 1500 disks (diameters uniform in 4–9.2 mm) settle behind a gate with PGS at "
        "h = 1 ms; at t = 1 s the gate goes and a settings phase switches to the "
        "interior-point method (associated friction, at most 50 Newton steps) at "
        "h = 0.7 s / N for N = 25, 50, 100, 200 steps to t̄ = 4, beside PGS at 1 ms "
        "with 200 sweeps. The columnCollapse measurement reads the column at the "
        "release and, after it, the front (99 % of the grains by area behind it: the "
        "flowing front thins into single rolling grains) and the height at the wall.";
    const std::vector<int> stepCounts =
        ctx.quick() ? std::vector<int>{100, 200} : std::vector<int>{25, 50, 100, 200};
    if (ctx.quick()) report.method += " Quick: N = 100 and 200 only.";
    std::vector<RunSpec> specs;
    for (int n : stepCounts)
        specs.push_back({kScene,
                         {{"phases.0.settings.timeStep", num(kCollapse / n, 6)},
                          {"duration", num(kRelease + kCollapse, 6)}},
                         std::nullopt});
    if (!ctx.quick())
        specs.push_back({kScene,
                         {{"phases.0.settings", R"({"solver": {"iterations": 200}})"},
                          {"duration", num(kRelease + kCollapse, 6)}},
                         std::nullopt});
    const std::vector<RunOutcome> runs = ctx.run(specs, report.id);
    auto scalar = [&](size_t i, const char* key) { return runs[i].scalar("columnCollapse", key); };

    const double a = scalar(0, "aspectRatio"), porosity = scalar(0, "initialPorosity");
    const bool column = std::abs(a - 1.42) <= 0.05 && std::abs(porosity - 0.18) <= 0.02;
    report.checks.push_back(
        {"the column at the release: a = h0/r0, porosity", "1.42, ≈ 0.18",
         num(a, 3) + ", " + num(porosity, 2),
         column ? "reproduced (a within 0.05, porosity within 0.02)" : "differs", column});

    // Fig. 8: the deposit at t̄ = 4 converges steadily as the step falls.
    std::vector<double> runout, height;
    std::string runouts, heights;
    for (size_t i = 0; i < stepCounts.size(); ++i) {
        runout.push_back(scalar(i, "runout"));
        height.push_back(scalar(i, "finalHeight"));
        runouts += (i ? ", " : "") + num(runout.back(), 3);
        heights += (i ? ", " : "") + num(height.back(), 3);
    }
    bool steady = true;
    for (size_t i = 2; i < runout.size(); ++i)
        steady &= std::abs(runout[i] - runout[i - 1]) < std::abs(runout[i - 1] - runout[i - 2]);
    if (runout.size() >= 3)
        report.checks.push_back({"runout (L − L_i)/L_i at t̄ = 4, N = 25, 50, 100, 200 steps",
                                 "converges steadily (Fig. 8)", runouts,
                                 steady ? "trend holds: each halving moves it less" : "differs",
                                 steady});
    report.checks.push_back({"height at the wall H/L_i at t̄ = 4, same runs",
                             "no number in the text (Figs. 7–8 draw the profiles)", heights,
                             "reported", true});
    if (!ctx.quick()) {
        const size_t pgs = stepCounts.size();
        report.checks.push_back(
            {"PGS at h = 1 ms (200 sweeps): runout, height at the wall", "–",
             num(scalar(pgs, "runout"), 3) + ", " + num(scalar(pgs, "finalHeight"), 3),
             "reported (a different solver and step: where the sequence above heads)", true});
    }

    // Fig. 9 / Sec. 4: the cone program's interior point converges within 50 iterations.
    int most = 0, capped = 0, steps = 0;
    for (size_t i = 0; i < stepCounts.size(); ++i) {
        const NewtonSteps n = newtonSteps(runs[i], 50);
        most = std::max(most, n.most);
        capped += n.capped;
        steps += n.steps;
    }
    report.checks.push_back({"Newton steps per step of the collapse (tolerance 10⁻¹⁰ scaled)",
                             "converges within 50 iterations at 10⁻⁶ (QP; the LCP at times not)",
                             "at most " + std::to_string(most) + "; " + std::to_string(capped) +
                                 " of " + std::to_string(steps) + " steps at the cap",
                             capped == 0 ? "reproduced" : "differs", capped == 0});

    Plot profile;
    profile.png = "column_collapse_2d_profiles.png";
    profile.title = "Deposit at t/sqrt(h0/g) = 4 (surface height per mean diameter)";
    profile.xLabel = "distance from the wall s (m)";
    profile.yLabel = "surface height (m)";
    Plot front;
    front.png = "column_collapse_2d_runout.png";
    front.title = "Front of the collapsing column";
    front.xLabel = "t / sqrt(h0/g)";
    front.yLabel = "(L - L_i) / L_i";
    for (size_t i = 0; i < runs.size(); ++i) {
        const MeasurementResult* m = runs[i].measurement("columnCollapse");
        if (!m) continue;
        const std::string label =
            i < stepCounts.size() ? std::to_string(stepCounts[i]) + " steps" : "PGS, 1 ms";
        const std::string tag = i < stepCounts.size() ? std::to_string(stepCounts[i]) : "pgs";
        if (i == 0 && m->tables.count("initialSurface")) {
            const Table& t = m->tables.at("initialSurface");
            const std::string csv = ctx.csv(report.id, "initial_surface", t);
            profile.lines.push_back(
                {csv, columnOf(t, "s"), columnOf(t, "height"), "column at release", "lines"});
        }
        if (m->tables.count("surface")) {
            const Table& t = m->tables.at("surface");
            const std::string csv = ctx.csv(report.id, "surface_" + tag, t);
            profile.lines.push_back({csv, columnOf(t, "s"), columnOf(t, "height"), label, "lines"});
        }
        const std::string csv = ctx.csv(report.id, "front_" + tag, m->series);
        front.lines.push_back(
            {csv, columnOf(m->series, "tBar"), columnOf(m->series, "runout"), label, "lines"});
    }
    ctx.plot(report.id, {profile, front}, report);
    return report;
}

}  // namespace

Case columnCollapse2dCase() {
    return {"column-collapse-2d", "Collapse of a 2D granular column (interior point)", run};
}

}  // namespace ndem::cli::validation
