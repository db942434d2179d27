// servin-wang Sec. 4–6, Table 3, Fig. 11–12: adaptive model reduction keeps the
// physics of the fully resolved reference (angles of repose) while most grains ride in rigid
// aggregates (reduction level h), and the step gets cheaper.
#include "validation.hpp"

#include <algorithm>
#include <cmath>

namespace ndem::cli::validation {

namespace {

/// Table 1 of servin-wang (as the angle-of-repose case uses it).
std::vector<Override> tableOne(int iterations) {
    return {{"contact.law", "linear"},
            {"materials.grain.linearStiffness", "3000"},
            {"materials.grain.restitution", "0.18"},
            {"materials.grain.friction", "0.91"},
            {"materials.grain.rollingResistance", "0.32"},
            {"timeStep", "0.005"},
            {"solver.iterations", std::to_string(iterations)},
            {"warmStart.enabled", "false"}};
}

std::vector<Override> with(std::vector<Override> base, std::initializer_list<Override> more) {
    base.insert(base.end(), more);
    return base;
}

const Override kReduced{"reduction.enabled", "true"};
// Servin & Wang's trial split, tr-150-50-f: 50 background sweeps, force test ξ_f = 0.15.
const Override kTrial{"reduction.split.trial", "true"};
// Sensor split in the drum, "placed around the estimated lift height": the quadrant above the
// axis on the rising side (the drum turns about +y, so that is −x), reaching past the shell.
// Everything the plug zone lifts above the axis height there is freed; a smaller box at the
// lift point lets the rigid core of the bed turn with the drum past it, over the top.
const Override kDrumLiftSensor{"sensors",
                               R"([{"name": "lift", "type": "box", "position": [-0.14, 0, 0.14],
                                "halfExtents": [0.14, 0.06, 0.14]}])"};
// Servin & Wang establish the drum's flow resolved and let the collapse's grains come to rest
// before it reduces: a bed merged while it still turns as a solid never starts to flow.
const Override kDrumReducedFrom{"reduction.from", "4"};
const Override kCollapseReducedFrom{"reduction.from", "3.5"};
// Table 2 has no rolling split (ξ_rv^c = ∞); ours splits at 2 rad/s (see the findings).
const Override kTable2Rolling{"reduction.split.rolling", "0"};

/// The runs, in the order of the specs.
enum RunIndex : size_t {
    kPileResolved,
    kPileReduced,
    kConveyorResolved,
    kConveyorReduced,
    kDrumResolved,
    kDrumSensor,
    kDrumTrial,
    kCollapseResolved,
    kCollapseTrial,
    kPileTable2,
    kDrumSensorTable2,
    kConveyorReduced50,
    kConveyorResolved500
};

// The conveyor runs 40 s: its stationary window, 14–40 s, holds four 6.5 s blocks of the angle.
constexpr double kConveyorFrom = 14.0, kConveyorEnd = 40.0;
const Override kConveyorDuration{"duration", "40"};
// Conveyor: a box over the discharge end frees the material riding on the belt before it
// reaches the edge, where it loses support and flows over (the belt ends at x = 0.65 m).
const Override kConveyorSensor{"sensors",
                               R"([{"name": "discharge", "type": "box", "position": [0.64, 0, 0.08],
                                    "halfExtents": [0.05, 0.25, 0.12]}])"};

/// Mean of a sampled quantity over the samples at or after `from` (s).
double windowMean(const RunOutcome& r, double from, double RunRecorder::Sample::*field) {
    double sum = 0.0;
    int n = 0;
    for (const auto& sample : r.recorder.samples())
        if (sample.time >= from) {
            sum += sample.*field;
            ++n;
        }
    return n ? sum / n : 0.0;
}

/// A time-series mean over [from, to) with its standard error from the means of `blocks` equal
/// blocks: one conveyor ridge's angle drifts by ±3° over seconds as different material passes,
/// so neighbouring samples are not independent, 6.5 s blocks nearly are.
struct BlockEstimate {
    double mean = 0.0, error = 0.0;
    std::vector<double> blockMeans;
};

BlockEstimate blockEstimate(const Table& t, const std::string& key, double from, double to,
                            int blocks) {
    BlockEstimate e;
    const auto time = t.find("t"), value = t.find(key);
    if (time == t.end() || value == t.end() || blocks < 2) return e;
    const double width = (to - from) / blocks;
    std::vector<double> sum(blocks, 0.0);
    std::vector<int> count(blocks, 0);
    for (size_t k = 0; k < time->second.size() && k < value->second.size(); ++k) {
        const double tk = time->second[k];
        if (tk < from || tk >= to) continue;
        const int b = std::min(blocks - 1, static_cast<int>((tk - from) / width));
        sum[b] += value->second[k];
        ++count[b];
    }
    for (int b = 0; b < blocks; ++b)
        if (count[b] > 0) e.blockMeans.push_back(sum[b] / count[b]);
    const double n = static_cast<double>(e.blockMeans.size());
    if (n < 2) return e;
    for (double m : e.blockMeans)
        e.mean += m / n;
    double var = 0.0;
    for (double m : e.blockMeans)
        var += (m - e.mean) * (m - e.mean) / (n - 1.0);
    e.error = std::sqrt(var / n);
    return e;
}

/// h over time of a run, for the plot.
Table reductionSeries(const RunOutcome& r) {
    Table t;
    for (const auto& s : r.recorder.samples()) {
        t["t"].push_back(s.time);
        t["h"].push_back(s.reductionLevel);
    }
    return t;
}

/// The mean reduction level of run i from `from` (s).
double hWindow(const std::vector<RunOutcome>& runs, size_t i, double from) {
    return windowMean(runs[i], from, &RunRecorder::Sample::reductionLevel);
}

CaseReport describeCase(const Context& ctx, int grains) {
    CaseReport report = openReport(
        "model-reduction", "Adaptive model reduction: reduction level, angles of repose, speed-up",
        "servin-wang Sec. 4–6, Table 2–3, Fig. 11–12, Eq. 39");
    report.method =
        "Reference (resolved) and reduced runs of the same scene with Table 1 parameters and the "
        "Table 2 thresholds (`reduction.*` defaults, which add a rolling split at 2 rad/s to Table "
        "2: see the findings). Pile: `assets/scenes/pile.json`, " +
        std::to_string(grains) +
        " grains, N_it = 150 with history warm start, contact split; angle "
        "as in the angle-of-repose case. Speed-up: wall time of the reference over the reduced "
        "run, one job each." +
        std::string(ctx.quick() ? " The pile is poured five times (emitter seeds 7, 1–4) and the "
                                  "means compared: one 600-grain pour's angle scatters by ±4°."
                                : "");
    if (!ctx.quick())
        report.method +=
            " Conveyor: `assets/scenes/conveyor.json`, N_it = 150, reference vs contact + sensor "
            "split (cs-150, a sensor over the discharge end), cs-50 for equal accuracy, and the "
            "reference at N_it = 500 (the paper's ref-500); h and step times averaged over "
            "14–40 s, the angle too, with its standard error from four 6.5 s blocks. Drum: the "
            "servin-wang drum (Ω = 0.5 rad/s, "
            "linear k_n = 3 kN/m), reference N_it = 500 vs contact + sensor split (a box over the "
            "rising side above the axis) and trial split (tr-150-50-f), reduction from 4 s (after "
            "the flow is established, as in the paper), 12 s, averaged over 6–12 s. Collapse: "
            "`assets/scenes/collapse.json`, reference N_it = 500 vs trial split at 150, reduction "
            "from 3.5 s (the grains at rest, before the release at 4 s).";
    return report;
}

/// The full case's runs past the two piles, in the order of RunIndex.
void addFullRuns(std::vector<RunSpec>& specs, const RunSpec& pile) {
    specs.push_back(
        {"assets/scenes/conveyor.json", with(tableOne(150), {kConveyorDuration}), std::nullopt});
    specs.push_back({"assets/scenes/conveyor.json",
                     with(tableOne(150), {kReduced, kConveyorSensor, kConveyorDuration}),
                     std::nullopt});
    const std::vector<Override> drum = {{"walls.drum.speed", "0.5"},
                                        {"contact.law", "linear"},
                                        {"materials.grain.linearStiffness", "3000"},
                                        {"duration", "12"},
                                        {"measurements.drum.from", "6"}};
    specs.push_back(
        {"assets/scenes/drum.json", with(drum, {{"solver.iterations", "500"}}), std::nullopt});
    specs.push_back(
        {"assets/scenes/drum.json",
         with(drum, {{"solver.iterations", "150"}, kReduced, kDrumReducedFrom, kDrumLiftSensor}),
         std::nullopt});
    specs.push_back({"assets/scenes/drum.json",
                     with(drum, {{"solver.iterations", "150"}, kReduced, kDrumReducedFrom, kTrial}),
                     std::nullopt});
    specs.push_back({"assets/scenes/collapse.json", {{"solver.iterations", "500"}}, std::nullopt});
    specs.push_back({"assets/scenes/collapse.json",
                     {{"solver.iterations", "150"}, kReduced, kCollapseReducedFrom, kTrial},
                     std::nullopt});
    // The paper's own Table 2 (no rolling split) on the pile and the drum, and the conveyor
    // reduced at a third of the sweeps (equal accuracy, Eq. 38–39).
    RunSpec pileTable2 = pile;
    pileTable2.overrides.push_back(kTable2Rolling);
    specs.push_back(pileTable2);
    specs.push_back({"assets/scenes/drum.json",
                     with(drum, {{"solver.iterations", "150"},
                                 kReduced,
                                 kDrumReducedFrom,
                                 kDrumLiftSensor,
                                 kTable2Rolling}),
                     std::nullopt});
    specs.push_back({"assets/scenes/conveyor.json",
                     with(tableOne(50), {kReduced, kConveyorSensor, kConveyorDuration}),
                     std::nullopt});
    // The paper's ref-500: a reference whose ridge does not creep under an unconverged solve.
    // Four times the others' cost, so it starts first.
    specs.push_back({"assets/scenes/conveyor.json", with(tableOne(500), {kConveyorDuration}),
                     std::nullopt, true});
}

/// The runs (in the order of RunIndex, then the quick subset's further pours) and the pile's
/// (resolved, reduced) pairs.
struct Plan {
    std::vector<RunSpec> specs;
    std::vector<std::pair<size_t, size_t>> pilePairs;
};

Plan planRuns(const Context& ctx, int grains) {
    const double emitTime = grains / 300.0;
    std::vector<RunSpec> specs;
    // Warm started: a cold 150-sweep pile creeps down (see the angle-of-repose findings), and a
    // reduced one does not, which would compare the creep rather than the reduction.
    RunSpec pile{"assets/scenes/pile.json", with(tableOne(150), {{"warmStart.enabled", "true"}}),
                 std::nullopt};
    pile.overrides.push_back({"emitters.source.maxCount", std::to_string(grains)});
    pile.overrides.push_back({"duration", num(emitTime + 6.0, 4)});
    pile.overrides.push_back({"measurements.angleOfRepose.from", num(emitTime + 3.0, 4)});
    specs.push_back(pile);
    pile.overrides.push_back(kReduced);
    specs.push_back(pile);
    if (!ctx.quick()) addFullRuns(specs, pile);
    // A 600-grain pile's fitted angle scatters by ±4° from one pour to the next (29.9–40.9°
    // resolved over five emitter seeds), more than the tolerance, so the quick subset compares
    // the means of five pours; the full pile is one pour of 3363 grains (about ±1.5°).
    std::vector<std::pair<size_t, size_t>> pilePairs{{kPileResolved, kPileReduced}};
    if (ctx.quick())
        for (const char* seed : {"1", "2", "3", "4"}) {
            pilePairs.emplace_back(specs.size(), specs.size() + 1);
            for (const bool reduced : {false, true}) {
                RunSpec pour = specs[reduced ? kPileReduced : kPileResolved];
                pour.overrides.push_back({"emitters.source.seed", seed});
                specs.push_back(pour);
            }
        }
    return {specs, pilePairs};
}

/// The pile: the resting pile merges, and its angle stays with the reference.
void scorePile(const Context& ctx, const std::vector<RunOutcome>& runs,
               const std::vector<std::pair<size_t, size_t>>& pilePairs, CaseReport& report) {
    auto angle = [&](size_t i) { return runs[i].scalar("angleOfRepose", "angle"); };
    auto h = [&](size_t i) { return runs[i].recorder.reductionLevel.mean(); };
    double angleResolved = 0.0, angleReduced = 0.0, hEnd = 0.0, hMean = 0.0, wallResolved = 0.0,
           wallReduced = 0.0;
    for (const auto& [resolved, reduced] : pilePairs) {
        angleResolved += angle(resolved) / pilePairs.size();
        angleReduced += angle(reduced) / pilePairs.size();
        hEnd += runs[reduced].recorder.reductionLevel.last / pilePairs.size();
        hMean += h(reduced) / pilePairs.size();
        wallResolved += runs[resolved].wallSeconds;
        wallReduced += runs[reduced].wallSeconds;
    }
    const std::string pours =
        pilePairs.size() > 1 ? " (mean of " + std::to_string(pilePairs.size()) + " pours)" : "";
    const double dPile = angleReduced - angleResolved;
    report.checks.push_back({"pile at rest: reduction level at the end" + pours,
                             "high (piles merge, Sec. 4)", num(100 * hEnd, 3) + " %",
                             hEnd >= 0.7 ? "reproduced" : "differs", hEnd >= 0.7});
    const double pileTolerance = ctx.quick() ? 3.0 : 2.0;
    report.checks.push_back(
        {"pile angle, reduced − resolved" + pours, "within 2° (conveyor: 40.3° vs 40.6°)",
         num(angleReduced, 3) + "° vs " + num(angleResolved, 3) + "° (" + num(dPile, 2) + "°)",
         std::abs(dPile) <= pileTolerance ? "reproduced" : "differs",
         std::abs(dPile) <= pileTolerance});
    report.checks.push_back(
        {"pile speed-up (whole run, emission included)" + pours, "5× at h = 0.7 (Eq. 39)",
         num(wallResolved / wallReduced, 3) + "× at mean h = " + num(hMean, 2), "reported", true});
    if (!ctx.quick())
        report.checks.push_back({"pile, Table 2 as printed (no rolling split): reduced − resolved",
                                 "within 2°",
                                 num(angle(kPileTable2) - angle(kPileResolved), 2) + "° (" +
                                     num(angle(kPileTable2), 3) + "°)",
                                 "reported (findings)", true});
}

/// The conveyor's ridge angle in its stationary window, reduced and resolved.
void scoreConveyorAngle(const std::vector<RunOutcome>& runs, CaseReport& report) {
    auto ridge = [&](size_t i) {
        const MeasurementResult* m = runs[i].measurement("angleOfRepose");
        return m ? blockEstimate(m->series, "angle", kConveyorFrom, kConveyorEnd, 4)
                 : BlockEstimate{};
    };
    auto blocks = [](const BlockEstimate& e) {
        std::string s;
        for (double m : e.blockMeans)
            s += (s.empty() ? "" : ", ") + num(m, 3);
        return s;
    };
    // Reduced − reference with the standard error of the difference, and the blocks behind it.
    auto ridgeRow = [&](const std::string& quantity, const std::string& paper, size_t reduced,
                        size_t reference) {
        const BlockEstimate a = ridge(reduced), b = ridge(reference);
        const double d = a.mean - b.mean;
        report.checks.push_back({quantity, paper,
                                 num(a.mean, 3) + "° vs " + num(b.mean, 3) + "°: " + num(d, 2) +
                                     " ± " + num(std::hypot(a.error, b.error), 1) + "° (blocks " +
                                     blocks(a) + " vs " + blocks(b) + ")",
                                 std::abs(d) <= 2.0 ? "reproduced" : "differs (findings)",
                                 std::abs(d) <= 2.0});
    };
    ridgeRow("conveyor angle 14–40 s, cs-150 − reference at N_it = 150 (blocks of 6.5 s)",
             "within 2° (40.3° vs 40.6°)", kConveyorReduced, kConveyorResolved);
    ridgeRow("conveyor angle 14–40 s, cs-150 − reference at N_it = 500",
             "within 2° (40.3° vs 41.5°)", kConveyorReduced, kConveyorResolved500);
    const BlockEstimate ridge150 = ridge(kConveyorResolved), ridge500 = ridge(kConveyorResolved500);
    report.checks.push_back({"conveyor angle 14–40 s, reference N_it = 500 − N_it = 150",
                             "+0.9° (41.5° vs 40.6°)",
                             num(ridge500.mean - ridge150.mean, 2) + " ± " +
                                 num(std::hypot(ridge500.error, ridge150.error), 1) + "°",
                             "reported", true});
}

/// The conveyor: h in the stationary state, the angle, and what a step costs there.
void scoreConveyor(const std::vector<RunOutcome>& runs, CaseReport& report) {
    const double hc = hWindow(runs, kConveyorReduced, kConveyorFrom);
    report.checks.push_back(
        {"conveyor: reduction level (cs-150), 14–40 s", "≈ 85 %", num(100 * hc, 3) + " %",
         std::abs(hc - 0.85) <= 0.1 ? "reproduced" : "differs", std::abs(hc - 0.85) <= 0.1});
    scoreConveyorAngle(runs, report);
    report.checks.push_back(
        {"conveyor speed-up, whole run (filling included)", "Eq. 39",
         num(runs[kConveyorResolved].wallSeconds / runs[kConveyorReduced].wallSeconds, 3) + "×",
         "reported", true});
    auto stepWindow = [&](size_t i) {
        return windowMean(runs[i], kConveyorFrom, &RunRecorder::Sample::stepSeconds);
    };
    auto overlapWindow = [&](size_t i) {
        return windowMean(runs[i], kConveyorFrom, &RunRecorder::Sample::meanOverlap);
    };
    // Eq. 39 with the overhead left out: γ = 0 at a fixed N_it, γ = 1/3 at equal error.
    auto model = [&](double gamma) { return 1.0 / std::pow(1.0 - hc, 1.0 + gamma); };
    report.checks.push_back({"conveyor speed-up per step, 14–40 s, N_it = 150 both",
                             "Eq. 39 (γ = 0): " + num(model(0.0), 2) + "×",
                             num(stepWindow(kConveyorResolved) / stepWindow(kConveyorReduced), 3) +
                                 "× (" + num(1e3 * stepWindow(kConveyorResolved), 3) + " → " +
                                 num(1e3 * stepWindow(kConveyorReduced), 3) + " ms)",
                             "reported", true});
    const bool asAccurate = overlapWindow(kConveyorReduced50) <= overlapWindow(kConveyorResolved);
    const double equalSpeedUp = stepWindow(kConveyorResolved) / stepWindow(kConveyorReduced50);
    report.checks.push_back(
        {"conveyor at equal accuracy: reduced N_it = 50 vs resolved 150, ⟨δ/d⟩ "
         "and speed-up per step",
         "≥ 5× at h ≥ 70 % (issue); Eq. 39 (γ = 1/3): " + num(model(1.0 / 3.0), 2) + "×",
         num(overlapWindow(kConveyorReduced50), 2) + " vs " +
             num(overlapWindow(kConveyorResolved), 2) + ", " + num(equalSpeedUp, 3) + "× (angle " +
             num(runs[kConveyorReduced50].scalar("angleOfRepose", "angle"), 3) + "°)",
         asAccurate && equalSpeedUp >= 5.0 ? "reproduced" : "differs",
         asAccurate && equalSpeedUp >= 5.0});
}

/// The drum. The paper's contact + sensor drum is overly rigid ("high lifting of material", 5°
/// above its reference) at h = 70 ± 10 % (50–75 % over time); its trial split keeps the
/// reference's angle. Both are checked against our own reference (its angle is a drum-case
/// finding), with the paper's offsets.
void scoreDrum(const std::vector<RunOutcome>& runs, CaseReport& report) {
    auto drumAngle = [&](size_t i) { return runs[i].scalar("drum", "dynamicAngle"); };
    const double ref = drumAngle(kDrumResolved);
    report.checks.push_back(
        {"drum reference, N_it = 500", "44 ± 3°", num(ref, 3) + "°", "reported", true});
    auto drumRow = [&](size_t i) {
        return num(100 * hWindow(runs, i, 6.0), 3) + " % / " + num(drumAngle(i) - ref, 2) + "° (" +
               num(drumAngle(i), 3) + "°)";
    };
    const double hSensor = hWindow(runs, kDrumSensor, 6.0), dSensor = drumAngle(kDrumSensor) - ref;
    // The paper's +5 ± 5° as stated; h within 70 ± 10 % widened to the 50 % its own
    // curve dips to.
    const bool sensorOk = hSensor >= 0.5 && hSensor <= 0.8 && dSensor >= 0.0 && dSensor <= 10.0;
    report.checks.push_back({"drum, contact + sensor split: h / angle − reference",
                             "70 ± 10 % / +5 ± 5° (49° vs 44°)", drumRow(kDrumSensor),
                             sensorOk ? "reproduced" : "differs", sensorOk});
    report.checks.push_back({"drum, contact + sensor split with Table 2 as printed",
                             "70 ± 10 % / +5 ± 5°", drumRow(kDrumSensorTable2),
                             "reported (findings)", true});
    const double hTrial = hWindow(runs, kDrumTrial, 6.0), dTrial = drumAngle(kDrumTrial) - ref;
    const bool trialOk = std::abs(hTrial - 0.4) <= 0.1 && std::abs(dTrial) <= 3.0;
    report.checks.push_back({"drum, trial split: h / angle − reference",
                             "40 ± 10 % / 0 ± 3° (44° vs 44°)", drumRow(kDrumTrial),
                             trialOk ? "reproduced" : "differs", trialOk});
}

void scoreCollapse(const std::vector<RunOutcome>& runs, CaseReport& report) {
    const double collapseRef = runs[kCollapseResolved].scalar("slopeAngle", "finalAngle");
    const double collapseTrial = runs[kCollapseTrial].scalar("slopeAngle", "finalAngle");
    report.checks.push_back(
        {"collapse, trial split − reference (N_it = 500)", "within 3° (paper: 37.5° vs 36.2°)",
         num(collapseTrial, 3) + "° vs " + num(collapseRef, 3) + "°",
         std::abs(collapseTrial - collapseRef) <= 3.0 ? "reproduced" : "differs",
         std::abs(collapseTrial - collapseRef) <= 3.0});
}

void plotReductionLevel(const Context& ctx, const std::vector<RunOutcome>& runs,
                        CaseReport& report) {
    Plot level = makePlot("reduction_level.png", "Reduction level h = 1 − Ñ_p / N_p over time",
                          "t (s)", "h");
    // The curves fill the top left (the runs up to 12 s) and the top (the conveyor to 40 s).
    level.extra = {"set key bottom right", "set yrange [0:1.02]"};
    const char* names[] = {"pile, resolved",
                           "pile, reduced",
                           "conveyor, resolved",
                           "conveyor, cs-150",
                           "drum, resolved",
                           "drum, contact + sensor",
                           "drum, trial split",
                           "collapse, resolved",
                           "collapse, trial split",
                           "pile, Table 2",
                           "drum, contact + sensor, Table 2",
                           "conveyor, cs-50",
                           "conveyor, resolved N_it = 500"};
    const size_t named = ctx.quick() ? kPileReduced + 1 : runs.size();  // not the extra pours
    for (size_t i = 0; i < named; ++i) {
        if (i == kPileResolved || i == kConveyorResolved || i == kDrumResolved ||
            i == kCollapseResolved || i == kPileTable2 || i == kConveyorReduced50 ||
            i == kConveyorResolved500)
            continue;  // resolved runs (h = 0) and the variants
        const Table t = reductionSeries(runs[i]);
        const std::string csv = ctx.csv(report.id, "level" + std::to_string(i), t);
        level.lines.push_back({csv, columnOf(t, "t"), columnOf(t, "h"), names[i], "lines"});
    }
    ctx.plot(report.id, {level}, report);
}

CaseReport run(const Context& ctx) {
    const int grains = ctx.quick() ? 600 : 3363;
    CaseReport report = describeCase(ctx, grains);
    const Plan plan = planRuns(ctx, grains);
    const std::vector<RunOutcome> runs = ctx.run(plan.specs, report.id);
    scorePile(ctx, runs, plan.pilePairs, report);
    if (!ctx.quick()) {
        scoreConveyor(runs, report);
        scoreDrum(runs, report);
        scoreCollapse(runs, report);
    }
    plotReductionLevel(ctx, runs, report);
    return report;
}

}  // namespace

Case modelReductionCase() {
    return {"model-reduction", "Model reduction", run};
}

}  // namespace ndem::cli::validation
