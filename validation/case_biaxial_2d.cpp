// krabbenhoft-2012 Sec. 5.2, Figs. 10–12: a biaxial test on about 1000 disks under the static
// formulation (Sec. 3.7): the side platens hold σ3 = 125 as unknowns of each step while the top
// one moves down 15 % in 150 steps; the friction angle of Eq. 58 peaks near 33° and falls to a
// residual near 20°, the sample dilates to a critical state, and the associated and the
// non-associated (ν = 0.01) rules agree closely.
#include "validation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem::cli::validation {

namespace {

constexpr const char* kScene = "assets/scenes/biaxial-2d.json";
constexpr const char* kLarge = "assets/scenes/biaxial-2d-large.json";
constexpr double kShearFrom = 15.2;  ///< the scenes' start of the static loading (s)
constexpr double kPeak = 33.0;       ///< the paper's peak friction angle (degrees)
constexpr double kResidual = 20.0;   ///< its residual angle (degrees)
constexpr double kWindow = 3.0;      ///< degrees either side we count as reproduced
constexpr double kDilation = 0.01;   ///< ν of the non-associated run (the paper's)
/// The static formulation's inertia share for the non-associated run. Where its complementarity
/// problem stalls (Sec. 4.5), what is left of the impulses moves a grain or a platen at a speed
/// of order 1/ε of it; at the scene's 10⁻⁴ single steps threw a side platen off the sample
/// (friction angle 45° for a step), at 10⁻³ too (42°, and a 0.38 d overlap); at 10⁻² none did
/// in the runs reported, though other orderings of the same arithmetic did (physics notes).
/// The case measures what 10⁻² costs on the associated run (a reported row).
constexpr double kNonAssociatedInertia = 0.01;
/// The packings' lattice seeds besides the scene's own (7): a 1 000-disk sample is one chaotic
/// realisation (its porosity and first-step peak move with the seed), so the full case judges
/// the associated rows on the mean of five.
constexpr int kOtherPackings[] = {1, 2, 3, 4};
constexpr double kMu = 0.5774;   ///< the grains' friction (the scene's)
constexpr double kEarly = 0.04;  ///< the early strains where the two rules part (ε_a)
/// The shares of the paper's step (0.1 % axial strain) the step-refinement runs take, to
/// ε_a = kEarly: how much of the rules' early difference is the associated rule's time
/// discretisation (Sec. 6: its dilation "an artifact of the time discretization").
constexpr int kRefinements[] = {2, 4, 8};
constexpr double kTopSpeed = 0.025;    ///< the top platen's speed in the scene (m/s)
constexpr double kStaticStep = 0.01;   ///< the static steps' pseudo-time (s)
constexpr double kStrainStep = 0.001;  ///< the paper's axial strain a step (the scene's)

/// The scene's duration that shears to ε_a = kEarly at 1/share of the paper's step.
std::string earlyUntil(int share) {
    return num(kShearFrom + (share * kEarly / kStrainStep + 1) * kStaticStep, 6);
}

/// Within the early strains: up to kEarly and the step that reaches past it (a step is 0.1 %
/// of the height at its start, so the strain runs a little ahead of the step count).
bool isEarly(double strain) {
    return strain <= 1.03 * kEarly;
}

/// Runs that shear the scene's packing at the non-associated run's inertia share.
RunSpec atInertia(std::vector<Override> more) {
    RunSpec spec{kScene,
                 {{"phases.0.settings.solver.staticInertia", num(kNonAssociatedInertia, 3)}},
                 std::nullopt};
    spec.overrides.insert(spec.overrides.end(), more.begin(), more.end());
    return spec;
}

/// The early runs' indices in the case's specs.
struct EarlyRuns {
    size_t rule[2] = {};                         ///< ν = 0.2, ν = μ
    size_t finer[std::size(kRefinements)] = {};  ///< associated at 1/kRefinements of the step
    size_t halfNonAssociated = 0;
};

/// The static steps' stalls and overlaps in a run's sampled steps.
struct Stalls {
    int stalled = 0, steps = 0;  ///< sampled steps above 10⁻⁶ after the Newton steps; all
    double overlap = 0.0;        ///< largest overlap over the mean diameter
};

Stalls stallsOf(const RunOutcome& run) {
    Stalls out;
    for (const RunRecorder::Sample& s : run.recorder.samples()) {
        if (s.time <= kShearFrom + 1e-9) continue;
        ++out.steps;
        out.stalled += s.solverResidual > 1e-6;
        out.overlap = std::max(out.overlap, s.maxOverlap);
    }
    return out;
}

/// The largest friction angle over the early strains.
double earlyPeak(const RunOutcome& run) {
    double peak = -std::numeric_limits<double>::infinity();
    const MeasurementResult* m = run.measurement("cellStress");
    if (!m) return std::nan("");
    const std::vector<double>& strain = m->series.at("axialStrain");
    const std::vector<double>& angle = m->series.at("frictionAngle");
    for (size_t k = 0; k < strain.size(); ++k)
        if (isEarly(strain[k])) peak = std::max(peak, angle[k]);
    return peak;
}

/// The case's runs, where each kind of run sits among them, and their outcomes.
struct Shear {
    std::vector<RunSpec> specs;
    std::vector<size_t> packings;  ///< the associated runs on the scene's and the other packings
    EarlyRuns early;
    std::vector<RunOutcome> runs;

    double scalar(size_t i, const char* key) const { return runs[i].scalar("cellStress", key); }
};

CaseReport describeCase() {
    CaseReport report = openReport(
        "biaxial-2d", "Biaxial test under the static formulation (interior point)",
        "krabbenhoft-2012 Sec. 5.2, Figs. 10–12 (~1000 disks, d_max/d_min = 2.3, porosity ≈ 0.16, "
        "μ = tan 30°, σ3 = 125, 150 steps to ε_a = 0.15; peak friction angle ≈ 33°, residual "
        "≈ 20°; associated and non-associated (ν = 0.01) in close agreement; the sample dilates "
        "to a critical state)");
    report.method =
        std::string("`") + kScene +
        "`: 1000 disks (diameters uniform in 4–9.2 mm) from a lattice are compacted "
        "frictionless (contact.frictionScale 0) to σ3 = 125 N/m on all sides by servo platens "
        "with PGS on compliant contacts (gravity off, smooth platens); at t = 15 s the grains "
        "get their friction μ = tan 30°, the contacts become rigid and the interior-point "
        "method switches to the static formulation at h = 10 ms of pseudo-time: the side "
        "platens are unknowns pushing with exactly σ3 times the sample's height, the top one "
        "moves down 0.1 % of the height a step from t = 15.2 s (150 steps). The cellStress "
        "measurement reads σ1 (top) and σ3 (sides) from the platens' forces, "
        "sin φ = (σ1 − σ3)/(σ1 + σ3) (Eq. 58), the volumetric strain (contraction positive) "
        "and the porosity.";
    return report;
}

void addEarlyRuns(Shear& s) {
    std::vector<RunSpec>& specs = s.specs;
    // To ε_a = kEarly: the rule between the two (ν = 0.2) and at ν = μ, where the
    // complementarity problem is the cone program's (Sec. 4.1); the associated rule at
    // finer steps; the non-associated one at half the step.
    const double nus[] = {0.2, kMu};
    for (size_t i = 0; i < std::size(nus); ++i) {
        s.early.rule[i] = specs.size();
        specs.push_back(atInertia({{"phases.0.settings.solver.slidingRule", "non-associated"},
                                   {"phases.0.settings.solver.dilation", num(nus[i], 4)},
                                   {"duration", earlyUntil(1)}}));
    }
    auto finer = [](int share) {
        return std::vector<Override>{{"walls.1.servo.constantSpeed", num(kTopSpeed / share, 6)},
                                     {"duration", earlyUntil(share)}};
    };
    for (size_t i = 0; i < std::size(kRefinements); ++i) {
        s.early.finer[i] = specs.size();
        specs.push_back(atInertia(finer(kRefinements[i])));
    }
    s.early.halfNonAssociated = specs.size();
    std::vector<Override> half = finer(kRefinements[0]);
    half.push_back({"phases.0.settings.solver.slidingRule", "non-associated"});
    half.push_back({"phases.0.settings.solver.dilation", num(kDilation, 3)});
    specs.push_back(atInertia(half));
}

Shear planRuns(const Context& ctx, CaseReport& report) {
    // The associated rule; in full mode also the non-associated one (the LCP of Sec. 4) and
    // the 26 000 disks.
    Shear s;
    std::vector<RunSpec>& specs = s.specs;
    specs.push_back({kScene, {}, std::nullopt});
    s.packings.push_back(0);
    if (!ctx.quick()) {
        specs.push_back(RunSpec{kLarge, {}, std::nullopt, true});
        specs.push_back(
            {kScene,
             {{"phases.0.settings.solver.slidingRule", "non-associated"},
              {"phases.0.settings.solver.dilation", num(kDilation, 3)},
              {"phases.0.settings.solver.staticInertia", num(kNonAssociatedInertia, 3)}},
             std::nullopt});
        specs.push_back(
            {kScene,
             {{"phases.0.settings.solver.staticInertia", num(kNonAssociatedInertia, 3)}},
             std::nullopt});
        for (int seed : kOtherPackings) {
            s.packings.push_back(specs.size());
            specs.push_back({kScene, {{"particles.0.seed", std::to_string(seed)}}, std::nullopt});
        }
        addEarlyRuns(s);
        report.method += " The associated rows are the mean ± standard deviation over " +
                         std::to_string(s.packings.size()) +
                         " packings (lattice seeds 7, the scene's, and 1–4); the non-associated "
                         "run shears the scene's packing, as the paper's \"identical assemblies\", "
                         "with the static formulation's inertia share ε = " +
                         num(kNonAssociatedInertia, 3) +
                         " (the scene's 10⁻⁴ lets a stalled step throw a platen off the sample), "
                         "and the associated rule runs once more on it at that ε. On the same "
                         "packing at that ε, to ε_a = 0.04: the complementarity problem at ν = 0.2 "
                         "and ν = μ, the associated rule at a half, a quarter and an eighth of the "
                         "step (the top platen slower, h the same) and the non-associated one at "
                         "half the step.";
    }
    return s;
}

/// The associated rule over the packings: the sample, σ3, the friction angles, the dilation.
void scorePackings(const Context& ctx, const Shear& s, CaseReport& report) {
    const std::vector<size_t>& packings = s.packings;
    auto spread = [&](const char* key) { return spreadOf(s.runs, packings, "cellStress", key); };
    const std::string over =
        packings.size() > 1 ? ", mean of " + std::to_string(packings.size()) + " packings" : "";
    auto shown = [&](const Spread& v, const char* unit, int digits) {
        return packings.size() > 1 ? num(v.mean, digits) + " ± " + num(v.sd, 2) + unit
                                   : num(v.mean, digits) + unit;
    };

    const Spread porosity = spread("initialPorosity");
    const bool dense = std::abs(porosity.mean - 0.16) <= 0.02;
    report.checks.push_back({"the sample at the start of shearing: porosity" + over, "≈ 0.16",
                             shown(porosity, "", 3),
                             dense ? "reproduced (within 0.02)"
                                   : "differs (the paper does not say how its sample was made)",
                             dense});
    const double sigma3 = s.scalar(0, "finalLateralStress");
    // The platens push with σ3 times the height at the step's start; the measurement divides
    // by the height after it, 0.1 % less.
    const bool held = std::abs(sigma3 - 125.0) <= 5e-3 * 125.0;
    report.checks.push_back(
        {"σ3 on the side platens at the end", "125 (imposed)", num(sigma3, 6),
         held ? "reproduced (within 0.5 %: the platens are unknowns)" : "differs", held});
    const Spread peaks = spread("peakFrictionAngle");
    const Spread residuals = spread("residualFrictionAngle");
    // Quick: the trend (a dense sample's peak stands above its residual strength); full: the
    // paper's number.
    const bool peakOk = ctx.quick() ? peaks.mean >= residuals.mean + kWindow
                                    : std::abs(peaks.mean - kPeak) <= kWindow;
    const bool residualOk = std::abs(residuals.mean - kResidual) <= kWindow;
    std::string eachPeak;  // each packing's peak beside its porosity: the spread's cause
    for (size_t i : packings)
        eachPeak += (eachPeak.empty() ? "; each (porosity): " : ", ") +
                    num(s.scalar(i, "peakFrictionAngle"), 3) + "° (" +
                    num(s.scalar(i, "initialPorosity"), 3) + ")";
    report.checks.push_back({"peak friction angle φ (Eq. 58), associated" + over, "≈ 33° (Fig. 11)",
                             shown(peaks, "°", 3) + (packings.size() > 1 ? eachPeak : ""),
                             peakOk ? (ctx.quick() ? "trend holds: a peak above the residual"
                                                   : "reproduced (within 3°)")
                                    : "differs",
                             peakOk});
    report.checks.push_back(
        {"residual friction angle, mean over ε_a = 0.10–0.15, associated" + over, "≈ 20° (Fig. 11)",
         shown(residuals, "°", 3), residualOk ? "reproduced (within 3°)" : "differs", residualOk});
    double leastDilation = std::numeric_limits<double>::infinity();
    for (size_t i : packings)
        leastDilation = std::min(leastDilation, -s.scalar(i, "finalVolumetricStrain"));
    const Spread dilation = spread("finalVolumetricStrain");
    report.checks.push_back(
        {"volumetric strain at ε_a = 0.15 (dilation positive), associated" + over,
         "dilates to a critical state (Fig. 11)", shown({-dilation.mean, dilation.sd}, "", 3),
         leastDilation > 0.0 ? "trend holds: every sample dilates" : "differs",
         leastDilation > 0.0});
}

/// The peak friction angle over the early strains: between the rules, and as the step falls.
void scoreEarlyPeaks(const Shear& s, const Stalls& na, CaseReport& report) {
    const std::vector<RunOutcome>& runs = s.runs;
    const EarlyRuns& early = s.early;
    // Between the rules: ν = 0.01, 0.2, μ on the same packing and inertia share.
    const double rulePeaks[] = {earlyPeak(runs[2]), earlyPeak(runs[early.rule[0]]),
                                earlyPeak(runs[early.rule[1]])};
    const double conePeak = earlyPeak(runs[3]);
    const Stalls atMu = stallsOf(runs[early.rule[1]]);
    const Stalls between = stallsOf(runs[early.rule[0]]);
    const bool sameAtMu = std::abs(rulePeaks[2] - conePeak) <= 0.5 && atMu.stalled == 0 &&
                          atMu.steps > 0 && rulePeaks[0] < rulePeaks[1] &&
                          rulePeaks[1] < rulePeaks[2];
    report.checks.push_back(
        {"the complementarity problem at ν = 0.01, 0.2 and μ (at ν = μ the associated rule, "
         "Sec. 4.1) against the cone program, the same packing and ε: peak friction angle "
         "over ε_a ≤ 0.04; sampled steps above 10⁻⁶ after 50 Newton steps",
         "ν = μ: the cone program's answer, residuals as small as wished; ν < μ: progress "
         "stalls (Sec. 4.5)",
         num(rulePeaks[0], 3) + "°, " + num(rulePeaks[1], 3) + "°, " + num(rulePeaks[2], 3) +
             "° (cone program " + num(conePeak, 3) + "°); " + std::to_string(na.stalled) + " of " +
             std::to_string(na.steps) + ", " + std::to_string(between.stalled) + " of " +
             std::to_string(between.steps) + ", " + std::to_string(atMu.stalled) + " of " +
             std::to_string(atMu.steps),
         sameAtMu ? "reproduced: at ν = μ the cone program's curve (within 0.5°), "
                    "converged; the peak grows with ν"
                  : "differs",
         sameAtMu});
    // The associated rule's early strength as the step falls, against the non-associated.
    std::vector<double> finerPeaks{conePeak};
    for (size_t i : early.finer)
        finerPeaks.push_back(earlyPeak(runs[i]));
    const double halfNa = earlyPeak(runs[early.halfNonAssociated]);
    bool falls = true;
    for (size_t i = 1; i < finerPeaks.size(); ++i)
        falls &= finerPeaks[i] < finerPeaks[i - 1];
    const double gapThen = finerPeaks.front() - rulePeaks[0];
    const double gapNow = std::abs(finerPeaks.back() - halfNa);
    const bool artefact = falls && gapNow <= 1.5 && gapNow < gapThen / 3.0;
    std::string finerList;
    for (double v : finerPeaks)
        finerList += (finerList.empty() ? "" : ", ") + num(v, 3) + "°";
    report.checks.push_back(
        {"peak friction angle over ε_a ≤ 0.04 as the step falls (Δε_a = 0.1, 0.05, 0.025, "
         "0.0125 %, ε = " +
             num(kNonAssociatedInertia, 3) +
             "): associated; non-associated (ν = 0.01) at 0.1 and 0.05 %",
         "the associated rule's dilation \"an artifact of the time discretization\" "
         "(Sec. 6)",
         finerList + "; " + num(rulePeaks[0], 3) + "°, " + num(halfNa, 3) + "°",
         artefact ? "trend holds: the associated peak falls to the non-associated one, " +
                        num(gapNow, 2) + "° apart at an eighth of the step (" + num(gapThen, 2) +
                        "° at the paper's)"
                  : "differs",
         artefact});
}

/// The non-associated rule against the associated one on the same packing at the same inertia
/// share (full mode).
void scoreNonAssociated(const Context& ctx, const Shear& s, CaseReport& report) {
    if (ctx.quick()) {
        report.checks.push_back({"non-associated (ν = 0.01) against the associated",
                                 "close agreement (Fig. 11)", "not run", "not run in quick mode",
                                 true});
        return;
    }
    // The same packing at the same inertia share (run 3).
    const double naPeak = s.scalar(2, "peakFrictionAngle");
    const double naResidual = s.scalar(2, "residualFrictionAngle");
    const double asPeak = s.scalar(3, "peakFrictionAngle");
    const double asResidual = s.scalar(3, "residualFrictionAngle");
    const bool close =
        std::abs(naPeak - asPeak) <= kWindow && std::abs(naResidual - asResidual) <= kWindow;
    report.checks.push_back(
        {"non-associated (ν = 0.01): peak and residual friction angle against the associated "
         "on the same packing, both at ε = " +
             num(kNonAssociatedInertia, 3),
         "close agreement (Fig. 11)",
         num(naPeak, 3) + "°, " + num(naResidual, 3) + "° (associated " + num(asPeak, 3) + "°, " +
             num(asResidual, 3) + "°)",
         close ? "reproduced (both within 3°)"
               : "differs at the paper's step (the associated peak falls to the "
                 "non-associated one as the step falls: rows below)",
         close});
    const Stalls na = stallsOf(s.runs[2]);
    report.checks.push_back(
        {"non-associated: static steps stalled above 10⁻² (the associated answer taken); "
         "sampled steps above 10⁻⁶ after 50 Newton steps; largest overlap",
         "stalls usual, of an acceptable magnitude (Sec. 4.5)",
         std::to_string(s.runs[2].recorder.fallbacks) + " of 150; " + std::to_string(na.stalled) +
             " of " + std::to_string(na.steps) + "; " + num(na.overlap, 2) + " d",
         "reported", true});
    scoreEarlyPeaks(s, na, report);
    // What the larger inertia share costs: the associated rule on the same packing.
    report.checks.push_back(
        {"the inertia share ε = " + num(kNonAssociatedInertia, 3) +
             " against the scene's 10⁻⁴, associated, the scene's packing: peak, residual "
             "friction angle, σ3 on the side platens at the end",
         "– (the static limit: ε → 0)",
         num(s.scalar(3, "peakFrictionAngle"), 3) + "°, " +
             num(s.scalar(3, "residualFrictionAngle"), 3) + "°, " +
             num(s.scalar(3, "finalLateralStress"), 4) +
             " (ε = 10⁻⁴: " + num(s.scalar(0, "peakFrictionAngle"), 3) + "°, " +
             num(s.scalar(0, "residualFrictionAngle"), 3) + "°, " +
             num(s.scalar(0, "finalLateralStress"), 4) + ")",
         "reported", true});
}

/// The ~26 000-disk sample (full mode): its friction angles and what a static step costs.
void scoreLargeSample(const Context& ctx, const Shear& s, CaseReport& report) {
    if (ctx.quick()) {
        report.checks.push_back({"the ~26 000-disk sample and its time per step",
                                 "≈ 25 s a step with SONIC (Fig. 13)", "not run",
                                 "not run in quick mode", true});
        return;
    }
    // The static steps' wall time and Newton steps, from the recorder's samples.
    double seconds = 0.0, overlap = 0.0;
    int steps = 0, newton = 0, capped = 0;
    for (const RunRecorder::Sample& sample : s.runs[1].recorder.samples()) {
        if (sample.time <= kShearFrom + 1e-9) continue;
        seconds += sample.stepSeconds;
        newton = std::max(newton, sample.iterations);
        capped += sample.solverResidual > 1e-6;
        overlap = std::max(overlap, sample.maxOverlap);
        ++steps;
    }
    const double perStep = steps ? seconds / steps : std::nan("");
    const double largePeak = s.scalar(1, "peakFrictionAngle");
    const double largeResidual = s.scalar(1, "residualFrictionAngle");
    const bool largeOk = std::abs(largeResidual - kResidual) <= kWindow;
    report.checks.push_back({"26 000 disks: peak and residual friction angle, associated",
                             "≈ 33°, ≈ 20°",
                             num(largePeak, 3) + "°, " + num(largeResidual, 3) + "°",
                             largeOk ? "residual reproduced (within 3°)" : "differs", largeOk});
    report.checks.push_back(
        {"26 000 disks: wall time per static step", "≈ 25 s (SONIC, Fig. 13)",
         num(perStep, 3) + " s (mean of " + std::to_string(steps) + " sampled steps, at most " +
             std::to_string(newton) + " Newton steps)",
         "measured (two threads of this machine; the paper's computer is not given)", steps > 0});
    report.checks.push_back(
        {"26 000 disks: static steps above 10⁻⁶ after 50 Newton steps; largest overlap",
         "converges in the 20s to low 30s independent of size (Sec. 4.5)",
         std::to_string(capped) + " of " + std::to_string(steps) + " sampled; " + num(overlap, 2) +
             " d",
         capped == 0 ? "reproduced" : "differs", capped == 0});
}

/// A run's cellStress series as a CSV (with the dilation), drawn on the friction-angle and the
/// volumetric-strain plots.
void addCellLines(const Context& ctx, const std::string& id, const MeasurementResult& m,
                  const std::string& name, const std::string& label, Plot& angle, Plot& volume) {
    Table t = m.series;
    for (double v : m.series.at("volumetricStrain"))
        t["dilation"].push_back(-v);
    const std::string csv = ctx.csv(id, name, t);
    angle.lines.push_back(
        {csv, columnOf(t, "axialStrain"), columnOf(t, "frictionAngle"), label, "lines"});
    volume.lines.push_back(
        {csv, columnOf(t, "axialStrain"), columnOf(t, "dilation"), label, "lines"});
}

/// The first strains at finer steps: where the associated rule's time discretisation shows.
Plot plotEarlySteps(const Context& ctx, const Shear& s, const std::string& id) {
    Plot steps = makePlot("biaxial_2d_early_steps.png",
                          "Friction angle at the first strains as the step falls (same packing)",
                          "axial strain", "phi (degrees)");
    if (!ctx.quick()) {
        std::vector<std::pair<size_t, std::string>> curves{{3, "associated, 0.1 % a step"}};
        for (size_t i = 0; i < std::size(kRefinements); ++i)
            curves.push_back(
                {s.early.finer[i], "associated, " + num(0.1 / kRefinements[i], 3) + " % a step"});
        curves.push_back({2, "non-associated, 0.1 % a step"});
        curves.push_back({s.early.halfNonAssociated, "non-associated, 0.05 % a step"});
        for (size_t c = 0; c < curves.size(); ++c)
            if (const MeasurementResult* m = s.runs[curves[c].first].measurement("cellStress")) {
                Table t;
                const std::vector<double>& strain = m->series.at("axialStrain");
                for (size_t k = 0; k < strain.size() && isEarly(strain[k]); ++k) {
                    t["axialStrain"].push_back(strain[k]);
                    t["frictionAngle"].push_back(m->series.at("frictionAngle")[k]);
                }
                const std::string csv = ctx.csv(id, "early_" + std::to_string(c), t);
                steps.lines.push_back({csv, columnOf(t, "axialStrain"),
                                       columnOf(t, "frictionAngle"), curves[c].second, "lines"});
            }
        steps.extra.push_back("set yrange [15:35]");
    }
    return steps;
}

void writeFigures(const Context& ctx, const Shear& s, CaseReport& report) {
    Plot angle = makePlot("biaxial_2d_friction_angle.png",
                          "Mobilised friction angle, sin(phi) = (s1 - s3)/(s1 + s3)",
                          "axial strain", "phi (degrees)");
    Plot volume =
        makePlot("biaxial_2d_volumetric_strain.png", "Volumetric strain (dilation positive)",
                 "axial strain", "-volumetric strain");
    if (const MeasurementResult* m = s.runs[0].measurement("cellStress"))
        addCellLines(ctx, report.id, *m, "cell_associated", "associated", angle, volume);
    const std::pair<size_t, const char*> others[] = {{2, "non-associated"}, {1, "26 000 disks"}};
    for (const auto& [i, label] : others)
        if (const MeasurementResult* m =
                i < s.runs.size() ? s.runs[i].measurement("cellStress") : nullptr)
            addCellLines(ctx, report.id, *m, i == 1 ? "cell_large" : "cell_non_associated", label,
                         angle, volume);
    const Plot steps = plotEarlySteps(ctx, s, report.id);
    angle.extra.push_back("set yrange [0:40]");
    angle.extra.push_back("set arrow from graph 0, first 33 to graph 1, first 33 nohead dt 2");
    angle.extra.push_back("set arrow from graph 0, first 20 to graph 1, first 20 nohead dt 3");
    std::vector<Plot> plots{angle, volume};
    if (!steps.lines.empty()) plots.push_back(steps);
    ctx.plot(report.id, plots, report);
}

CaseReport run(const Context& ctx) {
    CaseReport report = describeCase();
    Shear s = planRuns(ctx, report);
    s.runs = ctx.run(s.specs, report.id);
    scorePackings(ctx, s, report);
    scoreNonAssociated(ctx, s, report);
    scoreLargeSample(ctx, s, report);
    writeFigures(ctx, s, report);
    return report;
}

}  // namespace

Case biaxial2dCase() {
    return {"biaxial-2d", "Biaxial test under the static formulation (interior point)", run};
}

}  // namespace ndem::cli::validation
