// servin-wang Sec. 4–5, Fig. 9–10, Table 3: a granular cube released on one side
// collapses into a semi-pile of 36° (N_it = 500) or 30° (N_it = 150).
#include "validation.hpp"

#include <cmath>

namespace ndem::cli::validation {

namespace {

CaseReport run(const Context& ctx) {
    CaseReport report;
    report.id = "collapse";
    report.title = "Granular collapse";
    report.source = "servin-wang Sec. 4–5, Fig. 9–10, Table 3 (θ_collapse = 36° at "
                    "N_it = 500, 30° at 150)";
    report.method = "`assets/scenes/collapse.json`: 4000 bi-disperse grains poured into a 15 d "
                    "cube with frictionless walls, at rest by 4 s, the +x wall removed at 4 s; the "
                    "angle of the plane fitted to the grains that formed the top surface at the "
                    "release (Servin & Wang's red grains; those still in the main contact "
                    "cluster), 2 s after release (t = 2 s in the paper). Table 1 parameters "
                    "(linear, k_n = 3 kN/m).";
    // Quick: fewer grains in a narrower box keep the block's aspect ratio (a 1500-grain layer in
    // the 15 d box is so shallow that most of its top never moves and the fitted plane stays flat).
    const std::vector<Override> quickBox = {
        {"emitters.pour.maxCount", "1500"},
        {"walls.gate.position", "[0.065,0,0]"},
        {"walls.back.position", "[-0.065,0,0]"},
        {"walls.left.position", "[0,-0.065,0]"},
        {"walls.right.position", "[0,0.065,0]"},
        {"emitters.pour.region.min", "[-0.058,-0.058,0.22]"},
        {"emitters.pour.region.max", "[0.058,0.058,0.4]"},
        {"measurements.slopeAngle.min", "[-0.065,-0.065,0]"},
        {"measurements.slopeAngle.max", "[0.5,0.065,1]"}};
    if (ctx.quick()) report.method += " Quick: 1500 grains in a 10 d box.";
    std::vector<RunSpec> specs;
    for (int it : {500, 150}) {
        RunSpec s{"assets/scenes/collapse.json", {{"solver.iterations", std::to_string(it)}}, std::nullopt};
        if (ctx.quick()) s.overrides.insert(s.overrides.end(), quickBox.begin(), quickBox.end());
        specs.push_back(s);
    }
    const std::vector<RunOutcome> runs = ctx.run(specs, report.id);
    const double high = runs[0].scalar("slopeAngle", "finalAngle");
    const double low = runs[1].scalar("slopeAngle", "finalAngle");
    if (!ctx.quick()) {
        report.checks.push_back({"final angle, N_it = 500", "36°", num(high, 3) + "°",
                                 std::abs(high - 36.0) <= 4.0 ? "reproduced" : "differs (see findings)",
                                 std::abs(high - 36.0) <= 4.0});
        report.checks.push_back({"final angle, N_it = 150", "30°", num(low, 3) + "°",
                                 std::abs(low - 30.0) <= 4.0 ? "reproduced" : "differs (see findings)",
                                 std::abs(low - 30.0) <= 4.0});
    }
    report.checks.push_back({"fewer sweeps give a flatter pile", "30° < 36°",
                             num(low, 3) + "° vs " + num(high, 3) + "°",
                             low < high ? "trend holds" : "differs", low < high});
    Plot angle;
    angle.png = "collapse_angle.png";
    angle.title = "Top-surface angle during the collapse (release at 4 s)";
    angle.xLabel = "t (s)";
    angle.yLabel = "angle (degrees)";
    for (size_t i = 0; i < runs.size(); ++i)
        if (const MeasurementResult* m = runs[i].measurement("slopeAngle")) {
            const std::string csv = ctx.csv(report.id, "angle" + std::to_string(i), m->series);
            angle.lines.push_back({csv, columnOf(m->series, "t"), columnOf(m->series, "angle"),
                                   i == 0 ? "N_it = 500" : "N_it = 150", "lines"});
        }
    ctx.plot(report.id, {angle}, report);
    return report;
}

}  // namespace

Case collapseCase() { return {"collapse", "Granular collapse", run}; }

}  // namespace ndem::cli::validation
