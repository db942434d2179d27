// wang-servin-berglund Sec. 4.4, Figs. 15–16: a triaxial cell of six 100 kg walls on prismatic
// motors. After a hydrostatic 100 Pa the top and bottom walls close at 0.01 m/s each while the
// side walls keep pushing with 100 Pa; the sample fails and shears at a critical deviator
// σ_z − σ_h, the mean over 10–25 % strain, which converges to about 1 ± 0.2 kPa: with warm
// starting from N_it ≈ 200, cold only at N_it = 1000.
#include "validation.hpp"

#include <algorithm>
#include <cmath>

namespace ndem::cli::validation {

namespace {

constexpr const char* kScene = "assets/scenes/triaxial.json";
constexpr double kShearFrom = 4.0;             ///< the scene's start of the shear (s)
constexpr double kHydrostatic = 100.0;         ///< σ_h (Pa)
constexpr double kCritical = 1000.0;           ///< the paper's critical deviator (Pa)
constexpr double kError = 200.0;               ///< its stated error (Pa)
constexpr double kFrom = 0.10, kUntil = 0.25;  ///< the strain window of the critical state

/// Mean and standard deviation of a series over the samples with strain in [kFrom, kUntil].
Spread inWindow(const Table& t, const char* key) {
    const std::vector<double>&strain = t.at("axialStrain"), &v = t.at(key);
    double sum = 0.0, squares = 0.0;
    int n = 0;
    for (size_t k = 0; k < strain.size(); ++k) {
        if (strain[k] < kFrom || strain[k] > kUntil) continue;
        sum += v[k];
        squares += v[k] * v[k];
        ++n;
    }
    if (n == 0) return {std::nan(""), std::nan("")};
    const double mean = sum / n;
    return {mean, std::sqrt(std::max(0.0, squares / n - mean * mean))};
}

/// The lateral stress (σ_x + σ_y)/2 of a run, mean over the window.
double lateral(const RunOutcome& r) {
    const MeasurementResult* m = r.measurement("cellStress");
    if (!m || !m->series.count("sigmaX")) return std::nan("");
    return 0.5 * (inWindow(m->series, "sigmaX").mean + inWindow(m->series, "sigmaY").mean);
}

/// The deviator's fluctuation over the window (Pa).
double fluctuation(const RunOutcome& r) {
    const MeasurementResult* m = r.measurement("cellStress");
    return m && m->series.count("deviator") ? inWindow(m->series, "deviator").sd : std::nan("");
}

/// The case's sweep counts and packings, its runs, and what the scoring reads of them.
struct Cell {
    bool quick = false;
    std::vector<int> sweeps, seeds;
    size_t heavy = 0;  ///< the run with the paper's 100 kg walls (full mode)
    std::vector<RunOutcome> runs;

    size_t top() const { return sweeps.size() - 1; }
    /// The run of a sweep count, cold or warm, on a packing, in the order planRuns makes them.
    size_t index(size_t sweep, bool warm, size_t seed) const {
        return (sweep * 2 + (warm ? 1 : 0)) * seeds.size() + seed;
    }
    std::vector<size_t> which(size_t sweep, bool warm) const {
        std::vector<size_t> w;
        for (size_t k = 0; k < seeds.size(); ++k)
            w.push_back(index(sweep, warm, k));
        return w;
    }
    Spread critical(size_t sweep, bool warm) const {
        return spreadOf(runs, which(sweep, warm), "cellStress", "criticalDeviator");
    }
    double mean(size_t sweep, bool warm, double (*f)(const RunOutcome&)) const {
        double sum = 0.0;
        for (size_t i : which(sweep, warm))
            sum += f(runs[i]);
        return sum / static_cast<double>(seeds.size());
    }
    std::string pm(const Spread& s) const {
        return num(s.mean, 4) + (seeds.size() > 1 ? " ± " + num(s.sd, 2) : std::string()) + " Pa";
    }
};

Cell chooseRuns(const Context& ctx) {
    Cell c;
    c.quick = ctx.quick();
    c.sweeps = c.quick ? std::vector<int>{200} : std::vector<int>{25, 50, 100, 200, 500, 1000};
    c.seeds = c.quick ? std::vector<int>{9} : std::vector<int>{9, 10, 11};
    return c;
}

CaseReport describeCase(const Cell& c) {
    CaseReport report = openReport(
        "triaxial", "Triaxial shear: critical deviator stress against N_it, cold and warm",
        "wang-servin-berglund Sec. 4.4, Figs. 15–16 (six 100 kg walls on prismatic motors, "
        "σ_h = 100 Pa, platens at 0.01 m/s, E = 60 MPa; critical deviator, mean of σ_z − σ_h "
        "over 10–25 % strain, ≈ 1 ± 0.2 kPa, level for N_it ≳ 200 warm, N_it = 1000 cold; "
        "larger fluctuations when warm started)");
    std::string seedList;
    for (int seed : c.seeds)
        seedList.append(" ").append(std::to_string(seed));
    report.method =
        std::string("`") + kScene +
        "`: 2 197 grains (d = 13 and 10 mm, half each, ρ = 3 700 kg/m³, E = 60 MPa, μ = 0.91, "
        "μ_r = 0.32, e = 0.18) from a jittered lattice in a 0.2 m cube, gravity off, h = 5 ms. "
        "Each wall is a body of the solve that slides along its normal, pushed by σA (A from "
        "the opposite walls' positions), of 1 kg: the paper's 100 kg walls, run once below, "
        "cannot follow this sample's dilation (findings). The grains are compacted frictionless to "
        "100 Pa, get their friction at t = 3 s, and from t = 4 s the platens move in at "
        "0.01 m/s each (strain rate 0.02 m/s over the sample's height) while the side walls "
        "push with 100 Pa. The preparation runs at N_it = 200 warm; at t = 4 s each run "
        "switches to its N_it, cold or warm (history, β = 0.85). The cellStress measurement "
        "reads the stresses from the walls' forces; the critical deviator σ_z − (σ_x + σ_y)/2 "
        "is its mean over axial strains 10–25 %, over " +
        std::to_string(c.seeds.size()) + " packing" + (c.seeds.size() > 1 ? "s" : "") +
        " (lattice seeds" + seedList + ").";
    return report;
}

std::vector<RunSpec> planRuns(Cell& c) {
    // Runs: per N_it, cold then warm, each over the seeds.
    std::vector<RunSpec> specs;
    for (int n : c.sweeps)
        for (bool warm : {false, true})
            for (int seed : c.seeds) {
                RunSpec s{kScene, {{"particles.0.seed", std::to_string(seed)}}, std::nullopt};
                // The switch takes the scene's settings again, whose friction is off until
                // the phase at 3 s: it is set on here.
                s.later = {{"solver.iterations", std::to_string(n)},
                           {"warmStart.enabled", warm ? "true" : "false"},
                           {"contact.frictionScale", "1"}};
                s.switchAt = kShearFrom;
                s.startFirst = n >= 500;
                specs.push_back(s);
            }
    // The paper's own 100 kg walls, once (full mode): on this sample σA is 2.5 N a wall.
    c.heavy = specs.size();
    if (!c.quick) {
        RunSpec s{kScene, {{"particles.0.seed", std::to_string(c.seeds.front())}}, std::nullopt};
        for (const char* w : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"})
            s.overrides.push_back({std::string("walls.") + w + ".servo.mass", "100"});
        specs.push_back(s);
    }
    return specs;
}

/// The side walls' motors: σ_h held through the shear.
void scoreLateralStress(const Cell& c, CaseReport& report) {
    double worst = 0.0;
    for (size_t i = 0; i < c.heavy; ++i) {
        const double off = std::abs(lateral(c.runs[i]) / kHydrostatic - 1.0);
        worst = std::isnan(off) ? INFINITY : std::max(worst, off);  // a failed run fails it
    }
    const bool held = worst <= 0.1;
    report.checks.push_back({"lateral stress (σ_x + σ_y)/2 over 10–25 % strain, every run",
                             "σ_h = 100 Pa (imposed by the motors)",
                             "within " + num(100.0 * worst, 2) + " % of 100 Pa",
                             held ? "reproduced (within 10 %)" : "differs", held});
}

void scoreCriticalDeviator(const Cell& c, CaseReport& report) {
    const size_t top = c.top();
    std::string table = "N_it";
    for (bool warm : {false, true}) {
        table += warm ? "; warm:" : ": cold:";
        for (size_t i = 0; i < c.sweeps.size(); ++i)
            table +=
                (i ? ", " : " ") + std::to_string(c.sweeps[i]) + " → " + c.pm(c.critical(i, warm));
    }
    report.checks.push_back({"critical deviator against N_it", "Fig. 15", table, "reported", true});
    for (bool warm : {true, false}) {
        const Spread s = c.critical(top, warm);
        const bool ok = std::abs(s.mean - kCritical) <= kError;
        // The converged level is asserted where the paper gives it, at N_it = 1000; the quick
        // run checks that the sample fails at a deviator many times σ_h.
        const bool pass = c.quick ? s.mean > 3.0 * kHydrostatic : ok;
        report.checks.push_back(
            {std::string("critical deviator, N_it = ") + std::to_string(c.sweeps[top]) +
                 (warm ? ", warm" : ", cold"),
             "≈ 1 ± 0.2 kPa (Fig. 15)", c.pm(s),
             c.quick ? (pass ? "trend holds: fails well above σ_h" : "differs")
                     : (ok ? "reproduced (within the paper's 0.2 kPa)" : "differs (see findings)"),
             pass});
    }
}

/// Full mode: where cold and warm starting level out, how much the deviator fluctuates, and
/// the paper's own walls.
void scoreLevelling(const Cell& c, CaseReport& report) {
    const size_t top = c.top();
    // Where each one levels out: the fewest sweeps within the paper's error of its own
    // N_it = 1000 value.
    auto level = [&](bool warm) {
        const double converged = c.critical(top, warm).mean;
        for (size_t i = 0; i < c.sweeps.size(); ++i) {
            bool within = true;
            for (size_t j = i; j < c.sweeps.size(); ++j)
                within = within && std::abs(c.critical(j, warm).mean - converged) <= kError;
            if (within) return c.sweeps[i];
        }
        return c.sweeps[top];
    };
    const int warmLevel = level(true), coldLevel = level(false);
    const bool saving = warmLevel < coldLevel;
    report.checks.push_back(
        {"N_it from which the critical deviator stays within 0.2 kPa of its N_it = 1000 value",
         "warm ≈ 200, cold 1000 (Fig. 15)",
         "warm " + std::to_string(warmLevel) + ", cold " + std::to_string(coldLevel),
         saving ? "trend holds: warm starting levels out sooner" : "differs", saving});
    std::string spread;
    for (size_t i : {size_t(2), top})
        spread += (spread.empty() ? "" : "; ") + std::string("N_it = ") +
                  std::to_string(c.sweeps[i]) + ": cold " + num(c.mean(i, false, fluctuation), 3) +
                  " Pa, warm " + num(c.mean(i, true, fluctuation), 3) + " Pa";
    report.checks.push_back(
        {"fluctuation of the deviator over 10–25 % strain (standard "
         "deviation, mean over the packings)",
         "larger when warm started (Fig. 16)", spread, "reported", true});
    // The paper's walls: how far the side walls let the stress swing, and where it ends.
    const MeasurementResult* m = c.runs[c.heavy].measurement("cellStress");
    if (m && m->series.count("sigmaX")) {
        const Table& t = m->series;
        double low = INFINITY, high = 0.0;
        for (size_t k = 0; k < t.at("t").size(); ++k) {
            const double side = 0.5 * (t.at("sigmaX")[k] + t.at("sigmaY")[k]);
            low = std::min(low, side);
            high = std::max(high, side);
        }
        report.checks.push_back(
            {"the paper's 100 kg walls (N_it = 200 warm, first packing): lateral stress "
             "over the shear, porosity at its end, critical deviator",
             "σ_h = 100 Pa held",
             num(low, 3) + " … " + num(high, 3) + " Pa; " + num(t.at("porosity").back(), 3) + "; " +
                 num(c.runs[c.heavy].scalar("cellStress", "criticalDeviator"), 4) + " Pa",
             "reported (why 1 kg walls: see findings)", true});
    }
}

void writeFigures(const Context& ctx, const Cell& c, CaseReport& report) {
    Plot levels = makePlot("triaxial_critical_deviator.png",
                           "Critical deviator stress, mean over 10-25 % strain (Fig. 15)", "N_it",
                           "sigma_z - sigma_h (Pa)");
    levels.logX = true;
    Table t;
    for (size_t i = 0; i < c.sweeps.size(); ++i) {
        t["iterations"].push_back(c.sweeps[i]);
        t["cold"].push_back(c.critical(i, false).mean);
        t["warm"].push_back(c.critical(i, true).mean);
    }
    const std::string csv = ctx.csv(report.id, "critical_deviator", t);
    levels.lines.push_back({csv, columnOf(t, "iterations"), columnOf(t, "cold"), "cold"});
    levels.lines.push_back({csv, columnOf(t, "iterations"), columnOf(t, "warm"), "warm"});
    levels.extra.push_back("set yrange [0:1400]");
    levels.extra.push_back("set arrow from graph 0, first 800 to graph 1, first 800 nohead dt 2");
    levels.extra.push_back("set arrow from graph 0, first 1200 to graph 1, first 1200 nohead dt 2");

    Plot curves = makePlot("triaxial_stress_strain.png",
                           "Deviator stress against axial strain, first packing (Fig. 16)",
                           "axial strain", "sigma_z - (sigma_x + sigma_y)/2 (Pa)");
    const std::vector<size_t> shown =
        c.quick ? std::vector<size_t>{0} : std::vector<size_t>{2, c.top()};
    for (size_t i : shown)
        for (bool warm : {false, true}) {
            const MeasurementResult* m = c.runs[c.index(i, warm, 0)].measurement("cellStress");
            if (!m || !m->series.count("deviator")) continue;
            const std::string name = std::to_string(c.sweeps[i]) + (warm ? " warm" : " cold");
            const std::string file = ctx.csv(
                report.id, "cell_" + std::to_string(c.sweeps[i]) + (warm ? "_warm" : "_cold"),
                m->series);
            curves.lines.push_back({file, columnOf(m->series, "axialStrain"),
                                    columnOf(m->series, "deviator"), "N_it = " + name, "lines"});
        }
    ctx.plot(report.id, {levels, curves}, report);
}

CaseReport run(const Context& ctx) {
    Cell c = chooseRuns(ctx);
    CaseReport report = describeCase(c);
    const std::vector<RunSpec> specs = planRuns(c);
    c.runs = ctx.run(specs, report.id);
    scoreLateralStress(c, report);
    scoreCriticalDeviator(c, report);
    if (!c.quick) scoreLevelling(c, report);
    writeFigures(ctx, c, report);
    return report;
}

}  // namespace

Case triaxialCase() {
    return {"triaxial", "Triaxial shear: critical deviator stress against N_it, cold and warm",
            run};
}

}  // namespace ndem::cli::validation
