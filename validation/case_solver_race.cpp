// Where each solver wins (krabbenhoft-2012 against servin-2014 and wang-servin-berglund): one
// real step of the 1 d column at growing heights, of a settled silo and of a pile, solved again
// by the PGS from a cold start, by the PGS from the step's warm start and by the interior point,
// each as far as it must go for the normal impulses to come within 1 % of the exact answer
// (the solverRace measurement); sweeps or Newton steps, and wall time on one thread.
#include "validation.hpp"

#include <algorithm>
#include <cmath>

namespace ndem::cli::validation {

namespace {

struct Subject {
    std::string label;  ///< row of the table
    RunSpec spec;
    double height = 0.0;    ///< column: grains stacked (the plot's x); 0: not a column
    bool standing = false;  ///< the column at rest, held by rolling resistance
    bool alart = false;     ///< Alart 2014's solvers raced too
};

constexpr double kStandingRolling = 0.3;

constexpr double kTarget = 0.01;

/// `alart`: Alart 2014's solvers race too (the packings, not the columns: a column has no
/// null space to speak of).
std::vector<Override> raceAt(double at, std::vector<Override> more, double rolling = 0.0,
                             bool alart = false) {
    more.push_back({"threads", "1"});
    more.push_back({"warmStart.enabled", "true"});
    more.push_back({"materials.0.rollingResistance", num(rolling)});
    more.push_back({"duration", num(at + 0.05, 6)});
    more.push_back({"measurements", R"([{"type": "solverRace", "at": )" + num(at, 6) +
                                        R"(, "target": )" + num(kTarget) +
                                        (alart ? R"(, "nullSpace": 1)" : "") + "}]"});
    return more;
}

/// Alart 2014's solvers against the PGS at the same 1 % of Coulomb's answer, one thread.
std::string alartTable(const std::vector<Subject>& subjects, const std::vector<RunOutcome>& runs,
                       CaseReport& report) {
    const std::array<std::pair<const char*, const char*>, 5> methods{
        std::pair{"nlgsCold", "NLGS cold"},
        {"nlgsMemory", "NLGS with memory"},
        {"nlkergsP", "NLKerGS-P linear"},
        {"nlkergsPElastic", "NLKerGS-P elastic"},
        {"nlgsJac", "NLGS-Jac"}};
    // Runs made before the race measured overlaps have none to print.
    bool overlaps = false;
    for (size_t i = 0; i < subjects.size(); ++i)
        overlaps = overlaps || std::isfinite(runs[i].scalar("solverRace", "pgsWarmOverlapMax"));
    std::string table =
        "\n\nAlart 2014's solvers to the same 1 % of Coulomb's exact normal impulses, one "
        "thread (sweeps, s; or the least error any sweep reached";
    table += overlaps ? "; then δ/d, the largest overlap the answer leaves at the step's end" : "";
    table += "):\n\n| scene | PGS warm |";
    for (const auto& m : methods) {
        table += ' ';
        table += m.second;
        table += " |";
    }
    table += "\n|---|---|---|---|---|---|---|\n";
    bool any = false;
    for (size_t i = 0; i < subjects.size(); ++i) {
        if (!subjects[i].alart) continue;
        any = true;
        auto sc = [&](const std::string& key) { return runs[i].scalar("solverRace", key); };
        // Sweeps and seconds to the target (or the least error reached), then the largest
        // overlap its answer leaves at the step's end (runs before it was measured: none).
        auto cell = [&](const std::string& key, const char* best) {
            const double n = sc(key + "Sweeps"), overlap = sc(key + "OverlapMax");
            const std::string left =
                std::isfinite(overlap) ? "; δ/d " + num(overlap, 2) : std::string();
            if (n >= 0 && std::isfinite(n))
                return num(n, 4) + ", " + num(sc(key + "Seconds"), 3) + left;
            const double e = sc(best);
            return std::string("not within the cap") +
                   (std::isfinite(e) ? " (" + num(100.0 * e, 2) + " %)" : "") + left;
        };
        table += "| " + subjects[i].label + " | " + cell("pgsWarm", "pgsWarmLastError") + " |";
        for (const auto& m : methods) {
            const std::string key = m.first;
            table.append(" ").append(cell(key, (key + "BestError").c_str())).append(" |");
        }
        table += '\n';
        // Alart's Sec. 2.3: memory (the last step's reactions) helps NLGS: fewer sweeps to
        // the target, or where neither gets there within the cap, nearer to it.
        const double cold = sc("nlgsColdSweeps"), memory = sc("nlgsMemorySweeps");
        const bool helps = memory >= 0
                               ? cold < 0 || memory < cold
                               : cold < 0 && sc("nlgsMemoryBestError") < sc("nlgsColdBestError");
        report.checks.push_back(
            {subjects[i].label + ": NLGS sweeps to 1 %, without and with memory",
             "memory improves convergence (Alart 2014 Sec. 2.3)",
             cell("nlgsCold", "nlgsColdBestError") + " against " +
                 cell("nlgsMemory", "nlgsMemoryBestError"),
             helps ? "reproduced" : "differs", helps});
        report.checks.push_back(
            {subjects[i].label + ": NLKerGS-P (linear, elastic), NLGS-Jac to 1 %", "–",
             cell("nlkergsP", "nlkergsPBestError") + "; " +
                 cell("nlkergsPElastic", "nlkergsPElasticBestError") + "; " +
                 cell("nlgsJac", "nlgsJacBestError"),
             "reported", true});
    }
    return any ? table : std::string();
}

/// The scenes raced, with the column heights among them.
struct Race {
    std::vector<int> heights, standing;  ///< columns raced at t = 0.1 s; columns raced at rest
    std::vector<Subject> subjects;
};

Race chooseSubjects(bool quick) {
    Race race;
    race.heights = quick ? std::vector<int>{10, 40, 160} : std::vector<int>{10, 40, 160, 640, 2560};
    for (int n : race.heights)
        race.subjects.push_back(
            {"1 d column, " + std::to_string(n) + " spheres",
             {"assets/scenes/column.json", raceAt(0.1, {{"particles.0.count", std::to_string(n)}}),
              std::nullopt},
             static_cast<double>(n)});
    // At rest: rolling resistance holds a tall column up for the second it takes to settle.
    // Taller ones fell even so: 640 spheres had 1 661 contacts at 1 s, 2 560 had 15 974.
    race.standing = quick ? std::vector<int>{} : std::vector<int>{10, 40, 160};
    for (int n : race.standing) {
        std::vector<Override> o =
            raceAt(1.0, {{"particles.0.count", std::to_string(n)}}, kStandingRolling);
        race.subjects.push_back({"1 d column at rest (μ_r 0.3), " + std::to_string(n) + " spheres",
                                 {"assets/scenes/column.json", o, std::nullopt},
                                 static_cast<double>(n),
                                 true});
    }
    // Quick: the columns only. A silo's exact answer (hundreds of Newton steps, 10⁵ sweeps on
    // W) and NLGS's 20 000 sweeps took three minutes of CI's time on 700 grains.
    if (!quick) {
        race.subjects.push_back(
            {"9 d silo, 7500 grains",
             {"assets/scenes/silo-9d.json",
              raceAt(8.0, {{"gravityRamp.time", "5"}, {"solver.iterations", "100"}}, 0.0, true),
              std::nullopt},
             0.0,
             false,
             true});
        race.subjects.push_back(
            {"pile, 3363 grains",
             {"assets/scenes/pile.json", raceAt(14.0, {}, 0.0, true), std::nullopt},
             0.0,
             false,
             true});
        // The conveyor's pile, carried on the belt and wedged against it (Alart 2014's
        // Sec. 6 asks for it; issue 18's "wedged conveyor pile").
        race.subjects.push_back(
            {"conveyor pile",
             {"assets/scenes/conveyor.json", raceAt(14.0, {}, 0.0, true), std::nullopt},
             0.0,
             false,
             true});
    }
    return race;
}

CaseReport describeCase(bool quick) {
    CaseReport report = openReport(
        "solver-race", "Where each solver wins: PGS cold, PGS warm started, interior point",
        "krabbenhoft-2012 Sec. 4.5 (interior-point iterations in the 20s to low 30s, "
        "independent of the system size); servin-2014 Eq. 41 (PGS sweeps grow with a "
        "column's height); wang-servin-berglund (warm starting)");
    report.method =
        "One step of each scene, taken as the continuous stage is about to solve it (PGS with "
        "100 sweeps and warm start until then, one thread, rolling resistance off but in the "
        "columns at rest), is solved again by each method until the "
        "error of its normal impulses against the exact answer of the law it solves, "
        "Σ|λ − λ*| / Σλ* (weighted by the load, as a stress is), is within 1 %. The PGS "
        "solves Coulomb's law, whose exact answer is taken to Siconos' error 10⁻⁸ (the "
        "interior point's fixed point of cone programs, then up to 20 000 Gauss–Seidel sweeps "
        "on W, then the semismooth Newton method on the Alart–Curnier function, each from the "
        "answer before); the interior point the associated rule (its own answer to round-off); the "
        "column 'law gap' is how far the two exact answers lie apart. PGS: its sweeps checked on a "
        "ladder "
        "(×√2), at most 100 000, then that count timed in one solve; interior point "
        "(associated rule): the least number of Newton steps that reaches 1 %, timed with "
        "the assembly of its problem. Column: `assets/scenes/column.json` (13 mm spheres, "
        "h = 5 ms) raced at t = 0.1 s, still standing (without rolling resistance a tall "
        "column buckles within the first second: 640 spheres had 1 661 contacts at 1 s), and "
        "with rolling resistance μ_r = 0.3 raced at t = 1 s, at rest; silo: the fast fill of "
        "the solver-accuracy case, raced at rest; pile: `assets/scenes/pile.json` raced at t = 14 "
        "s, "
        "after the last grain; conveyor: `assets/scenes/conveyor.json` raced at t = 14 s, its "
        "pile carried on the moving belt. On the silos and piles Alart 2014's solvers race too, "
        "against Coulomb's exact answer as the PGS: NLGS on W without memory (cold) and with it "
        "(the step's warm start), NLKerGS-P with the linear and the elastic prediction and "
        "NLGS-Jac (weight 0.05, sparse null space), each stopped at the first sweep within 1 % "
        "(NLGS at most 20 000 sweeps, the null-space solvers 300), timed in that one solve with "
        "its null space and prediction.";
    if (quick) report.method += " Quick: columns of 10, 40 and 160 spheres only.";
    return report;
}

/// The race's table, and the columns' numbers the checks and the plot read.
struct Tally {
    Table columns;
    std::string table;
    std::vector<double> ipSteps, coldSweeps, standingIp, standingCold;
};

/// A method's count and seconds to 1 %, or how near it came within its cap.
std::string raceCell(double count, double seconds, double last = NAN) {
    if (count >= 0 && std::isfinite(count)) return num(count, 4) + ", " + num(seconds, 3);
    return std::string("not within the cap") +
           (std::isfinite(last) ? " (" + num(100.0 * last, 2) + " % there)" : "");
}

Tally tabulateRace(const std::vector<Subject>& subjects, const std::vector<RunOutcome>& runs,
                   CaseReport& report) {
    Tally tally;
    tally.table =
        "| scene | contacts | PGS cold: sweeps, s | PGS warm: sweeps, s | interior point: "
        "Newton steps, s | law gap | fastest |\n|---|---|---|---|---|---|---|\n";
    for (size_t i = 0; i < subjects.size(); ++i) {
        auto sc = [&](const char* key) { return runs[i].scalar("solverRace", key); };
        const double cold = sc("pgsColdSweeps"), warm = sc("pgsWarmSweeps");
        const double ip = sc("interiorPointNewtonSteps");
        const double coldS = cold >= 0 ? sc("pgsColdSeconds") : INFINITY;
        const double warmS = warm >= 0 ? sc("pgsWarmSeconds") : INFINITY;
        const double ipS = ip >= 0 ? sc("interiorPointSeconds") : INFINITY;
        const double best = std::min({coldS, warmS, ipS});
        const std::string fastest = !std::isfinite(best) ? "–"
                                    : best == ipS        ? "interior point"
                                    : best == warmS      ? "PGS warm"
                                                         : "PGS cold";
        tally.table += "| " + subjects[i].label + " | " + num(sc("contacts"), 5) + " | " +
                       raceCell(cold, coldS, sc("pgsColdLastError")) + " | " +
                       raceCell(warm, warmS, sc("pgsWarmLastError")) + " | " + raceCell(ip, ipS) +
                       " | " + num(100.0 * sc("lawGap"), 2) + " % | " + fastest + " |\n";
        if (subjects[i].standing) {
            report.checks.push_back({subjects[i].label + ": still standing at the raced step",
                                     "one contact a sphere", num(sc("contacts"), 5) + " contacts",
                                     sc("contacts") == subjects[i].height ? "standing" : "fell",
                                     sc("contacts") == subjects[i].height});
            tally.standingIp.push_back(sc("interiorPointConvergedSteps"));
            tally.standingCold.push_back(cold < 0 ? 1e5 : cold);
        } else if (subjects[i].height > 0.0) {
            Table& columns = tally.columns;
            columns["spheres"].push_back(subjects[i].height);
            columns["pgsColdSeconds"].push_back(std::isfinite(coldS) ? coldS : NAN);
            columns["pgsWarmSeconds"].push_back(std::isfinite(warmS) ? warmS : NAN);
            columns["interiorPointSeconds"].push_back(std::isfinite(ipS) ? ipS : NAN);
            columns["pgsColdSweeps"].push_back(cold);
            columns["pgsWarmSweeps"].push_back(warm);
            columns["interiorPointNewtonSteps"].push_back(ip);
            tally.ipSteps.push_back(sc("interiorPointConvergedSteps"));
            tally.coldSweeps.push_back(cold < 0 ? 1e5 : cold);
        }
        report.checks.push_back({subjects[i].label + ": the exact answer (Coulomb)", "–",
                                 num(sc("referenceNewtonSteps"), 4) + " Newton steps, " +
                                     num(sc("referenceSweeps"), 4) + " sweeps on W, " +
                                     num(sc("referenceAlartCurnierSteps"), 4) +
                                     " Alart–Curnier Newton steps: error " +
                                     num(sc("referenceError"), 2),
                                 sc("referenceConverged") > 0 ? "converged" : "not converged",
                                 sc("referenceConverged") > 0});
    }
    return tally;
}

/// The paper's claim: Newton steps hardly grow with the size; the PGS's sweeps do.
void scoreGrowth(const Race& race, const Tally& tally, CaseReport& report) {
    const std::vector<double>&ipSteps = tally.ipSteps, &coldSweeps = tally.coldSweeps;
    const double ipGrowth = ipSteps.back() / std::max(1.0, ipSteps.front());
    const double pgsGrowth = coldSweeps.back() / std::max(1.0, coldSweeps.front());
    const std::string span = std::to_string(race.heights.front()) + " to " +
                             std::to_string(race.heights.back()) + " spheres";
    report.checks.push_back({"interior point, Newton steps to convergence, column of " + span,
                             "hardly grow with the system (20s to low 30s, Sec. 4.5)",
                             num(ipSteps.front(), 3) + " → " + num(ipSteps.back(), 3),
                             ipGrowth <= 2.0 ? "reproduced (at most doubles)" : "differs",
                             ipGrowth <= 2.0});
    report.checks.push_back({"PGS cold, sweeps to 1 %, column of " + span,
                             "grow with the height (servin-2014 Eq. 41)",
                             num(coldSweeps.front(), 4) + " → " + num(coldSweeps.back(), 4) +
                                 (tally.columns.at("pgsColdSweeps").back() < 0 ? " (the cap)" : ""),
                             pgsGrowth >= 4.0 ? "trend holds" : "differs", pgsGrowth >= 4.0});
    if (!race.standing.empty()) {
        const std::vector<double>&standingIp = tally.standingIp, &standingCold = tally.standingCold;
        const std::string at = std::to_string(race.standing.front()) + " to " +
                               std::to_string(race.standing.back()) + " spheres at rest";
        const double ipUp = standingIp.back() / std::max(1.0, standingIp.front());
        const double pgsUp = standingCold.back() / std::max(1.0, standingCold.front());
        report.checks.push_back({"interior point, Newton steps to convergence, column of " + at,
                                 "hardly grow with the system (Sec. 4.5)",
                                 num(standingIp.front(), 3) + " → " + num(standingIp.back(), 3),
                                 ipUp <= 2.0 ? "reproduced (at most doubles)" : "differs",
                                 ipUp <= 2.0});
        report.checks.push_back({"PGS cold, sweeps to 1 %, column of " + at,
                                 "grow with the height (servin-2014 Eq. 41)",
                                 num(standingCold.front(), 4) + " → " + num(standingCold.back(), 4),
                                 pgsUp >= 4.0 ? "trend holds" : "differs", pgsUp >= 4.0});
    }
}

void plotColumn(const Context& ctx, const Table& columns, CaseReport& report) {
    Plot plot = makePlot("solver_race_column.png",
                         "1 d column: wall time to 1 % of the normal impulses (one thread)",
                         "spheres in the column", "wall time (s)");
    plot.logX = plot.logY = true;
    const std::string csv = ctx.csv(report.id, "column", columns);
    for (const auto& [key, label] :
         {std::pair{"pgsColdSeconds", "PGS cold"}, std::pair{"pgsWarmSeconds", "PGS warm started"},
          std::pair{"interiorPointSeconds", "interior point"}})
        plot.lines.push_back(
            {csv, columnOf(columns, "spheres"), columnOf(columns, key), label, "linespoints"});
    ctx.plot(report.id, {plot}, report);
}

CaseReport run(const Context& ctx) {
    const Race race = chooseSubjects(ctx.quick());
    CaseReport report = describeCase(ctx.quick());
    std::vector<RunSpec> specs;
    for (const Subject& s : race.subjects)
        specs.push_back(s.spec);
    const std::vector<RunOutcome> runs = ctx.run(specs, report.id);
    const Tally tally = tabulateRace(race.subjects, runs, report);
    report.notes =
        "Wall time to 1 % of the exact normal impulses of each method's law, one thread:\n\n" +
        tally.table + alartTable(race.subjects, runs, report);
    scoreGrowth(race, tally, report);
    plotColumn(ctx, tally.columns, report);
    return report;
}

}  // namespace

Case solverRaceCase() {
    return {"solver-race", "Where each solver wins", run};
}

}  // namespace ndem::cli::validation
