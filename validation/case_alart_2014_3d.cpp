// Beyond Alart 2014: the null-space solvers on problems in space where Gauss–Seidel struggles —
// two spheres wedged by a moving wall (the two-disk scene in space), one sphere wedged between
// two walls closing in, a 1 d silo column, a 3 d silo of 500 spheres and a poured pile of 3 363
// at rest — against NLGS, the PGS and the interior point: iterations, the residual each reaches
// in one shared measure (the PGS row residual of its answer), interpenetration and wall time per
// step. At equal accuracy on the silos and piles: the solver-race case.
#include "validation.hpp"

#include <algorithm>

namespace ndem::cli::validation {

namespace {

struct Subject {
    const char* label;
    const char* scene;
    std::vector<Override> overrides;  ///< before the switch
    double settle = 0.0;              ///< s at the scene's own solver first (0: none)
    double span = 0.0;                ///< s with each method after the switch
};

constexpr std::array<const char*, 5> kMethods{"pgs", "nlgs", "nlkergs-p", "nlgs-jac",
                                              "interior-point"};

struct Row {
    double sweeps = 0.0, residual = 0.0, overlap = 0.0, seconds = 0.0;
    int capped = 0, steps = 0;
};

Row rowOf(const RunOutcome& run, double from, int cap) {
    Row r;
    for (const RunRecorder::Sample& s : run.recorder.samples()) {
        if (s.time <= from + 1e-9) continue;
        ++r.steps;
        r.sweeps += s.iterations;
        r.residual += s.residual;
        r.seconds += s.stepSeconds;
        r.capped += s.iterations >= cap;
        r.overlap = std::max(r.overlap, s.maxOverlap);
    }
    if (r.steps) {
        r.sweeps /= r.steps;
        r.residual /= r.steps;
        r.seconds /= r.steps;
    }
    return r;
}

CaseReport run(const Context& ctx) {
    CaseReport report;
    report.id = "alart-2014-3d";
    report.title = "The null-space solvers in space: wedged spheres and silos at rest";
    report.source =
        "Alart 2014 Sec. 6 (\"implement the present strategy in a general discrete element "
        "software program to evaluate its performance on large-scale granular systems\"); "
        "not a reproduction: no paper gives these numbers";
    report.method =
        "Each subject with `solver.method` pgs, nlgs, nlkergs-p (linear prediction), nlgs-jac "
        "and interior-point, capped at 150 iterations (interior point: its Newton steps, the "
        "scene's cap), the NLGS family stopped at Eq. 10's 10⁻³, the PGS at the scene's "
        "sweeps, the interior point at its tolerance; warm start off. The silos settle first "
        "with the scene's PGS, then each method runs on from the same state. Residual: the "
        "PGS row residual of each answer (mean |Δλ|D, m/s), the one measure every method "
        "reports; overlap: the largest δ/d; time: wall seconds per step, two threads where a "
        "method uses them (PGS, interior point), one for the NLGS family.";
    std::vector<Subject> subjects{
        {"two spheres wedged by a moving wall",
         "assets/scenes/alart-two-disks.json",
         {{"dimension", "3"}},
         0.0,
         1.0},
        // One sphere held by friction (μ = 1) between two walls that touch it and close in
        // by 0.1 mm each over 0.1 s, then stop: how the squeeze's 1.3 % of a diameter is
        // shared between the two contacts is the null space's (any split balances).
        {"one sphere wedged between two walls closing in",
         "assets/scenes/alart-two-disks.json",
         {{"dimension", "3"},
          {"particles.0.items",
           R"([{"position": [0.0175, 0, 0.05], "radius": 0.0075, "material": "disk"}])"},
          {"walls.0.position", "[0, 0, -1]"},
          {"walls.1.position", "[0.01, 0, 0]"},
          {"walls.1.velocity", "[0.001, 0, 0]"},
          {"walls.1.stopAt", "0.1"},
          {"walls.2.position", "[0.025, 0, 0]"},
          {"walls.2.velocity", "[-0.001, 0, 0]"},
          {"walls.2.stopAt", "0.1"}},
         0.0,
         0.5},
        {"1 d silo column at rest (50 spheres)", "assets/scenes/silo-1d.json", {}, 3.0, 0.2},
        {"3 d silo at rest (500 spheres)", "assets/scenes/silo-3d.json", {}, 6.0, 0.2}};
    // The pile poured and at rest (3 363 spheres, 20 s of PGS first): full mode only.
    if (!ctx.quick())
        subjects.push_back(
            {"pile at rest (3 363 spheres)", "assets/scenes/pile.json", {}, 20.0, 0.05});
    std::vector<RunSpec> specs;
    for (const Subject& s : subjects)
        for (const char* m : kMethods) {
            RunSpec spec{s.scene, s.overrides, s.settle + s.span};
            std::vector<Override> method{{"solver.method", m}, {"solver.iterations", "150"}};
            if (std::string(m) == "interior-point") method.pop_back();
            if (s.settle > 0.0) {
                spec.later = method;
                spec.switchAt = s.settle;
            } else {
                spec.overrides.insert(spec.overrides.end(), method.begin(), method.end());
            }
            specs.push_back(spec);
        }
    const std::vector<RunOutcome> runs = ctx.run(specs, report.id);
    for (size_t k = 0; k < subjects.size(); ++k) {
        const Subject& s = subjects[k];
        std::vector<Row> rows;
        for (size_t m = 0; m < kMethods.size(); ++m)
            rows.push_back(rowOf(runs[k * kMethods.size() + m], s.settle, 150));
        std::string sweeps, residual, overlap, seconds;
        for (size_t m = 0; m < rows.size(); ++m) {
            const std::string sep = m ? ", " : "";
            const std::string& error = runs[k * kMethods.size() + m].error;
            if (!error.empty()) {  // a run that diverged or failed says so, not zeros
                sweeps += sep + "failed: " + error;
                residual += sep + "–";
                overlap += sep + "–";
                seconds += sep + "–";
                continue;
            }
            sweeps += sep + num(rows[m].sweeps, 3) + " (" + std::to_string(rows[m].capped) + ")";
            residual += sep + num(rows[m].residual, 2);
            overlap += sep + num(rows[m].overlap, 2);
            seconds += sep + num(rows[m].seconds, 2);
        }
        const std::string who =
            std::string(s.label) + ": pgs, nlgs, nlkergs-p, nlgs-jac, interior point: ";
        report.checks.push_back(
            {who + "mean iterations (steps at the cap)", "", sweeps, "reported", true});
        report.checks.push_back({who + "mean residual (m/s)", "", residual, "reported", true});
        report.checks.push_back({who + "largest overlap δ/d", "", overlap, "reported", true});
        report.checks.push_back({who + "seconds per step", "", seconds, "reported", true});
        if (k <= 1) {  // the two wedges
            const bool fewer = rows[2].capped < rows[1].capped && rows[3].capped < rows[1].capped;
            report.checks.push_back(
                {std::string(s.label) + ": steps at the cap, NLGS against nlkergs-p and nlgs-jac",
                 "the null-space solvers converge where NLGS stalls (in the plane: Figs. 9, 15)",
                 std::to_string(rows[1].capped) + " against " + std::to_string(rows[2].capped) +
                     " and " + std::to_string(rows[3].capped),
                 fewer ? "holds in space" : "differs", fewer || rows[1].capped == 0});
        }
        if (k == 1) {
            // The walls close 0.2 mm in all, 1.33 % of the diameter: shared evenly, each
            // contact takes 0.67 %; all on one wall, 1.33 %.
            std::string shares;
            for (size_t m = 0; m < rows.size(); ++m)
                shares += (m ? ", " : "") + num(100.0 * rows[m].overlap, 2) + " %";
            report.checks.push_back(
                {"one sphere wedged: the squeeze's share on the more loaded wall, pgs, nlgs, "
                 "nlkergs-p, nlgs-jac, interior point",
                 "indeterminate: any share balances (Alart 2014 Sec. 2)", shares, "reported",
                 true});
        }
    }
    return report;
}

}  // namespace

Case alart2014SpaceCase() {
    return {"alart-2014-3d", "The null-space solvers in space: wedged spheres and silos at rest",
            run};
}

}  // namespace ndem::cli::validation
