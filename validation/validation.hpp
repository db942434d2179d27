// `ndem validate`: the papers' reproductions as cases that run scenes, compare numbers with the
// papers and write docs/validation/ (Markdown, CSV, PNG).
#pragma once

#include "cli/plots.hpp"
#include "cli/scene_run.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ndem::cli::validation {

/// One compared number: what the paper says, what we get, and whether it holds.
struct Check {
    std::string quantity;
    std::string paper;    ///< the paper's value or claim, as text
    std::string ours;     ///< our value, as text
    std::string verdict;  ///< "reproduced", "trend holds", "differs: ..." etc.
    bool pass = true;     ///< counts against the exit status (quick mode asserts trends)
};

struct CaseReport {
    std::string id, title, source;
    std::string method;  ///< what was run (scenes, sizes, settings)
    std::vector<Check> checks;
    std::vector<std::string> figures;  ///< PNG paths relative to the report directory
    std::string notes;                 ///< findings, e.g. why a number does not reproduce
    double wallSeconds = 0.0;
    /// Wall time its runs took in earlier invocations (kept or resumed with --resume), which
    /// wallSeconds, this invocation's, does not hold.
    double earlierSeconds = 0.0;
};

/// One simulation a case asks for.
struct RunSpec {
    std::string scene;  ///< path relative to the source tree
    std::vector<Override> overrides;
    std::optional<double> time;  ///< simulated time; default: the scene's duration
    bool startFirst = false;  ///< a long run: started before the others, not left alone at the end
    /// Settings overrides that take effect at simulated time `switchAt`: a run that prepares a
    /// state and then goes on with other solver settings (the scene is parsed again with
    /// them; only its settings are used).
    std::vector<Override> later = {};
    double switchAt = 0.0;
};

struct RunOutcome {
    RunSpec spec;
    std::vector<MeasurementResult> results;
    RunRecorder recorder{1};
    double wallSeconds = 0.0;
    double laterWallSeconds = 0.0;    ///< wall time after the switch to `later` (s)
    double earlierWallSeconds = 0.0;  ///< the part of wallSeconds spent in earlier invocations
    double finalTime = 0.0;
    std::string error;

    /// The first result of a measurement type (and its n-th occurrence), or nullptr.
    const MeasurementResult* measurement(const std::string& name, int occurrence = 0) const;
    double scalar(const std::string& measurementName, const std::string& key,
                  double fallback = std::nan("")) const;
};

class Context {
  public:
    /// `resume`: take the runs already done in OUT/runs/ and go on from the checkpoints of
    /// those cut short, which every run writes each `checkpointSeconds` of wall time.
    Context(bool quick, std::string sourceDir, std::string outDir, int jobs, bool resume = false,
            double checkpointSeconds = 60.0)
        : m_quick(quick),
          m_source(std::move(sourceDir)),
          m_out(std::move(outDir)),
          m_jobs(jobs),
          m_resume(resume),
          m_checkpointSeconds(checkpointSeconds) {}
    bool quick() const { return m_quick; }
    const std::string& outDir() const { return m_out; }
    const std::string& sourceDir() const { return m_source; }
    /// Runs the specs in parallel (up to `jobs` at a time); progress lines on stderr.
    std::vector<RunOutcome> run(const std::vector<RunSpec>& specs, const std::string& label) const;
    /// Writes a table as <outDir>/<caseId>/<name>.csv; returns the path.
    std::string csv(const std::string& caseId, const std::string& name, const Table& t) const;
    /// Draws plots into <outDir>/<caseId>/ (paths in Plot are file names there).
    void plot(const std::string& caseId, std::vector<Plot> plots, CaseReport& report) const;
    /// Wall time that the runs returned since the last call took in earlier invocations; resets.
    double takeEarlierSeconds() const { return std::exchange(m_earlierSeconds, 0.0); }

  private:
    bool m_quick;
    std::string m_source, m_out;
    int m_jobs;
    bool m_resume;
    double m_checkpointSeconds;
    mutable double m_earlierSeconds = 0.0;
};

/// A validation case.
struct Case {
    const char* id;
    const char* title;
    std::function<CaseReport(const Context&)> run;
};

/// All cases, in report order.
const std::vector<Case>& cases();

/// Formats a number for the report.
std::string num(double v, int digits = 3);

/// A report with its id, title and source: the opening every case's run shares.
CaseReport openReport(std::string id, std::string title, std::string source);

/// A plot with its file name, title and axis labels, for the case to add lines to.
Plot makePlot(std::string png, std::string title, std::string xLabel, std::string yLabel);

/// Mean and sample standard deviation of one measurement's scalar over some of the runs (the
/// realisations of one configuration: packings, pours), so a row is judged on the mean of
/// several chaotic realisations rather than on one.
struct Spread {
    double mean = 0.0, sd = 0.0;
};
Spread spreadOf(const std::vector<RunOutcome>& runs, const std::vector<size_t>& which,
                const std::string& measurement, const std::string& key);

/// 1-based column of `name` in the CSV that writeCsv makes of `table` (columns sorted by name).
int columnOf(const Table& table, const std::string& name);

// The cases (one file each).
Case janssenCase();
Case iterationScalingCase();
Case warmStartCase();
Case drumCase();
Case drum80dCase();
Case angleOfReposeCase();
Case collapseCase();
Case modelReductionCase();
Case solverAccuracyCase();
Case columnCollapse2dCase();
Case solverRaceCase();
Case biaxial2dCase();
Case alart2014Case();
Case alart2014NullSpaceCase();
Case alart2014SparseCase();
Case alart2014SpaceCase();
Case triaxialCase();

}  // namespace ndem::cli::validation
