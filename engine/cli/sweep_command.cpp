// `ndem sweep`: every combination of the swept settings, run in parallel, one CSV per
// measurement and PNG plots of every summary figure against the first swept key.
#include "commands.hpp"

#include "core/parallel.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "scene_run.hpp"
#include "sweep_runs.hpp"

#include "io/csv_writer.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

namespace ndem::cli {

namespace {

struct SweepKey {
    std::string key;
    std::vector<std::string> values;
};

struct SweepOptions {
    std::string scenePath, outDir;
    std::vector<SweepKey> keys;
    std::optional<long> steps;
    std::optional<double> time;
    int jobs = 0;
    bool quiet = false;
    bool resume = false;  ///< keep the runs already in OUT/runs/
};

/// Splits "a,b,[1,2,3]" at the commas that are not inside brackets or braces.
std::vector<std::string> splitTopLevel(const std::string& s) {
    std::vector<std::string> out(1);
    int depth = 0;
    for (char c : s) {
        if (c == '[' || c == '{') ++depth;
        if (c == ']' || c == '}') --depth;
        if (c == ',' && depth == 0)
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

constexpr const char* kSynopsis =
    "ndem sweep SCENE --set key=v1,v2,... [--set ...] [--steps N | --time T] [--out DIR] [--jobs "
    "N]\n"
    "        [--resume]";

constexpr const char* kDescription =
    R"(Run every combination of the listed values, in parallel. The sweep writes summary.csv,
one CSV per measurement with all runs, and PNG plots of every figure against the first key.
Each run's results are kept in DIR/runs/ as it finishes, so a sweep stopped (Ctrl-C, a
kill) loses only the runs under way: --resume runs only those not done yet, with the same
scene file, length and values.)";

void addSweepFlags(CLI::App& app, SweepOptions& o) {
    app.add_option("SCENE", o.scenePath, "the scene file")->type_name("FILE.json");
    cmdline::addRepeated(app, "--set", "KEY=V1,V2,...",
                         "the values of one key to sweep (lists inside brackets stay whole)",
                         [&o](const std::string& v) -> std::optional<std::string> {
                             auto parsed = parseOverride(v);
                             if (!parsed) return parsed.error().message;
                             SweepKey k{parsed->key, splitTopLevel(parsed->value)};
                             for (const std::string& value : k.values)
                                 if (value.empty())
                                     return "--set " + v + ": empty value in the list";
                             o.keys.push_back(k);
                             return std::nullopt;
                         });
    cmdline::addCount(app, "--steps", "N", "simulate N steps a run", o.steps, 1, kMaxSteps,
                      "a whole number from 1 to 10^12");
    cmdline::addNumber(app, "--time", "T", "simulate T seconds a run", o.time, 0.0, 1e12,
                       "seconds > 0");
    cmdline::addPath(app, "--out", "DIR", "where the results go (sweep-SCENE)", o.outDir);
    cmdline::addCount(app, "--jobs", "N", "runs side by side (default: every core)", o.jobs, 1,
                      1024, "a whole number from 1 to 1024");
    app.add_flag("--resume", o.resume, "keep the runs already done in DIR/runs/");
    app.add_flag("-q,--quiet", o.quiet, "no progress lines");
}

/// What the flags cannot say one by one; nullopt when they go together.
std::optional<std::string> checkCombination(SweepOptions& o) {
    if (o.scenePath.empty()) return "sweep needs a scene file";
    if (o.keys.empty()) return "sweep needs at least one --set key=v1,v2,...";
    if (o.steps && o.time) return "give --steps or --time, not both";
    if (o.outDir.empty()) o.outDir = "sweep-" + std::filesystem::path(o.scenePath).stem().string();
    return std::nullopt;
}

/// Combination i as overrides: the first key varies slowest.
std::vector<Override> combination(const SweepOptions& o, size_t i) {
    std::vector<Override> out(o.keys.size());
    for (size_t k = o.keys.size(); k-- > 0;) {
        const auto& values = o.keys[k].values;
        out[k] = {o.keys[k].key, values[i % values.size()]};
        i /= values.size();
    }
    return out;
}

struct RunRow : SweepRun {
    std::string error;
};

double numberOrIndex(const std::string& text, size_t index) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return (end != text.c_str() && *end == 0) ? v : static_cast<double>(index);
}

std::string safeName(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    return s;
}

/// How many runs the sweep makes: every combination of the listed values.
size_t countCombinations(const SweepOptions& o) {
    size_t total = 1;
    for (const SweepKey& k : o.keys)
        total *= k.values.size();
    return total;
}

/// Why the first combination that does not load fails; nullopt when all of them load.
std::optional<std::string> checkEveryCombinationLoads(const SweepOptions& o, size_t total) {
    for (size_t i = 0; i < total; ++i) {
        auto check = loadSceneFile(o.scenePath, combination(o, i));
        if (!check) return check.error().message;
    }
    return std::nullopt;
}

/// What a stored run must match (see sweepIdentity): the scene file's bytes and the length.
std::string readSweepIdentity(const SweepOptions& o) {
    std::string sceneText;
    {
        std::ifstream in(o.scenePath, std::ios::binary);
        sceneText.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return sweepIdentity(sceneText, o.steps  ? "steps " + std::to_string(*o.steps)
                                    : o.time ? "time " + std::to_string(*o.time)
                                             : std::string("the scene's duration"));
}

/// Fills the rows of the runs stored by an earlier sweep (with --resume); the runs left to do.
std::vector<size_t> takeStoredRuns(const SweepOptions& o, const std::string& identity,
                                   std::vector<RunRow>& rows) {
    const size_t total = rows.size();
    std::vector<size_t> todo;
    for (size_t i = 0; i < total; ++i) {
        auto stored = o.resume
                          ? loadSweepRun(sweepRunPath(o.outDir, i), identity, combination(o, i))
                          : std::nullopt;
        if (stored)
            static_cast<SweepRun&>(rows[i]) = std::move(*stored);
        else
            todo.push_back(i);
    }
    if (o.resume && !o.quiet)
        std::fprintf(stderr, "sweep: %zu of %zu runs already done in %s/runs, %zu to run\n",
                     total - todo.size(), total, o.outDir.c_str(), todo.size());
    return todo;
}

/// A run's overrides: its swept values, and its share of the cores with `running` runs.
std::vector<Override> addThreadShare(std::vector<Override> overrides, int running) {
    // Runs side by side share the cores: each takes its part unless the sweep sets it.
    const bool threadsGiven = std::any_of(overrides.begin(), overrides.end(),
                                          [](const Override& v) { return v.key == "threads"; });
    if (!threadsGiven && running > 1)
        overrides.push_back({"threads", std::to_string(std::max(1, hardwareThreads() / running))});
    return overrides;
}

/// The finished run's summary figures, measurement results and their scalars into its row.
void recordRun(const SceneRun& run, RunRow& row) {
    const RunRecorder& rec = run.recorder;
    row.figures["wallSeconds"] = run.wallSeconds;
    row.figures["simulatedTime"] = run.world.time();
    row.figures["contactsFinal"] = rec.contacts.last;
    row.figures["iterationsMean"] = rec.iterations.mean();
    row.figures["residualFinal"] = rec.residual.last;
    row.figures["kineticEnergyFinal"] = rec.kineticEnergy.last;
    row.figures["meanOverlapFinal"] = rec.meanOverlap.last;
    row.figures["maxOverlapFinal"] = rec.maxOverlap.last;
    row.figures["warnings"] = static_cast<double>(run.world.warnings().size());
    row.figures["divergedAtStep"] =
        run.world.divergence() ? static_cast<double>(run.world.divergence()->step) : 0.0;
    row.results = measurementResults(run.world);
    std::map<std::string, int> seen;
    for (const MeasurementResult& r : row.results) {
        const int n = seen[r.name]++;
        const std::string prefix = measurementFileBase(r.name, n) + ".";
        for (const auto& [k, v] : r.scalars)
            row.figures[prefix + k] = v;
    }
}

/// The progress line of the `finished`-th run of `count` done, then its warnings.
void reportRun(const SweepOptions& o, const RunRow& row, const SceneRun& run, size_t finished,
               size_t count, std::chrono::steady_clock::time_point sweepStart) {
    std::string label;
    for (const Override& ov : row.overrides)
        label += " " + ov.key + "=" + ov.value;
    if (!o.quiet) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - sweepStart;
        std::fprintf(stderr, "sweep [%zu/%zu]%s: %.1f s%s\n", finished, count, label.c_str(),
                     run.wallSeconds, etaText(elapsed.count(), finished, count).c_str());
    }
    // A run that goes wrong is reported, and the sweep goes on with the others.
    for (const RunWarning& w : run.world.warnings())
        std::fprintf(stderr, "ndem: warning:%s: %s\n", label.c_str(), w.message.c_str());
    if (const auto& d = run.world.divergence())
        std::fprintf(stderr, "ndem: warning:%s: %s\n", label.c_str(), d->message.c_str());
}

/// Runs the combinations in `todo` side by side (--jobs at a time), each into its row and
/// kept in OUT/runs/.
void runCombinations(const SweepOptions& o, const std::string& identity,
                     const std::vector<size_t>& todo, std::vector<RunRow>& rows) {
    const int jobs = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
    const int running = std::min<int>(jobs, static_cast<int>(todo.size()));
    std::atomic<size_t> next{0};
    std::mutex printing;
    size_t finished = 0;
    const auto sweepStart = std::chrono::steady_clock::now();
    auto worker = [&] {
        for (size_t t = next++; t < todo.size(); t = next++) {
            const size_t i = todo[t];
            RunRow& row = rows[i];
            row.overrides = combination(o, i);
            auto loaded = loadSceneRun(o.scenePath, addThreadShare(row.overrides, running));
            if (!loaded) {
                row.error = loaded.error().message;
                continue;
            }
            SceneRun& run = loaded.value();
            executeSceneRun(run, stepsFor(run, o.steps, o.time));
            recordRun(run, row);
            if (auto e = saveSweepRun(sweepRunPath(o.outDir, i), row, identity)) row.error = *e;
            std::lock_guard lock(printing);
            ++finished;
            reportRun(o, row, run, finished, todo.size(), sweepStart);
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < running; ++t)
        threads.emplace_back(worker);
    for (std::thread& t : threads)
        t.join();
}

/// Prints "ndem: error: MESSAGE"; the exit code 1.
int reportError(const std::string& message) {
    std::fprintf(stderr, "ndem: error: %s\n", message.c_str());
    return 1;
}

/// summary.csv: one row per run, swept keys as numbers (index for words), then figures.
Table summarizeRuns(const SweepOptions& o, const std::vector<RunRow>& rows,
                    const std::vector<std::string>& figureNames) {
    Table summary;
    for (size_t i = 0; i < rows.size(); ++i) {
        summary["run"].push_back(static_cast<double>(i));
        for (size_t k = 0; k < o.keys.size(); ++k) {
            const auto& values = o.keys[k].values;
            const auto at = std::find(values.begin(), values.end(), rows[i].overrides[k].value);
            summary[o.keys[k].key].push_back(
                numberOrIndex(rows[i].overrides[k].value, at - values.begin()));
        }
        for (const std::string& f : figureNames)
            summary[f].push_back(rows[i].figures.count(f) ? rows[i].figures.at(f) : NAN);
    }
    return summary;
}

/// A measurement's tables with their file suffixes: its series (""), then "_NAME" for each
/// table.
std::vector<std::pair<std::string, Table>> listMeasurementTables(const MeasurementResult& r) {
    std::vector<std::pair<std::string, Table>> all;
    if (!r.series.empty()) all.push_back({"", r.series});
    for (const auto& [name, t] : r.tables)
        all.push_back({"_" + name, t});
    return all;
}

/// Per measurement (and table): all runs stacked, keyed by run and the swept values.
std::map<std::string, Table> stackMeasurements(const SweepOptions& o,
                                               const std::vector<RunRow>& rows,
                                               const Table& summary) {
    std::map<std::string, Table> files;
    for (size_t i = 0; i < rows.size(); ++i) {
        std::map<std::string, int> seen;
        for (const MeasurementResult& r : rows[i].results) {
            const int n = seen[r.name]++;
            const std::string base = measurementFileBase(r.name, n);
            for (const auto& [suffix, table] : listMeasurementTables(r)) {
                Table& out = files[base + suffix];
                size_t len = 0;
                for (const auto& [c, col] : table)
                    len = std::max(len, col.size());
                for (size_t j = 0; j < len; ++j) {
                    out["run"].push_back(static_cast<double>(i));
                    for (size_t k = 0; k < o.keys.size(); ++k)
                        out[o.keys[k].key].push_back(summary.at(o.keys[k].key)[i]);
                    for (const auto& [c, col] : table)
                        out[c].push_back(j < col.size() ? col[j] : NAN);
                }
            }
        }
    }
    return files;
}

/// The CSV of each plot line (runs i = a·inner + j for a fixed j) and its title; false when a
/// CSV could not be written (reported).
bool writePlotLines(const SweepOptions& o, const Table& summary,
                    const std::vector<std::string>& figureNames, size_t inner,
                    std::vector<std::string>& lineFiles, std::vector<std::string>& lineTitles) {
    for (size_t j = 0; j < inner; ++j) {
        Table t;
        for (size_t a = 0; a < o.keys[0].values.size(); ++a) {
            const size_t i = a * inner + j;
            // Column names that sort in plotting order: x first, then the figures.
            t["0_x"].push_back(summary.at(o.keys[0].key)[i]);
            for (size_t f = 0; f < figureNames.size(); ++f) {
                std::string column = "f";
                column.append(std::to_string(1000 + f));
                t[column].push_back(summary.at(figureNames[f])[i]);
            }
        }
        std::string file = o.outDir;
        file.append("/plots/line").append(std::to_string(j)).append(".csv");
        lineFiles.push_back(file);
        if (auto e = writeCsv(lineFiles.back(), t)) {
            reportError(e->message);
            return false;
        }
        std::string label;
        const std::vector<Override> c = combination(o, j);
        for (size_t k = 1; k < o.keys.size(); ++k)
            label += (label.empty() ? "" : ", ") + c[k].key + "=" + c[k].value;
        lineTitles.push_back(label);
    }
    return true;
}

/// One plot per figure, one line per plot line's CSV.
std::vector<Plot> describePlots(const SweepOptions& o, const std::vector<std::string>& figureNames,
                                const std::vector<std::string>& lineFiles,
                                const std::vector<std::string>& lineTitles) {
    std::vector<Plot> plots;
    for (size_t f = 0; f < figureNames.size(); ++f) {
        Plot p;
        p.png = o.outDir + "/plots/" + safeName(figureNames[f]) + ".png";
        p.title = figureNames[f] + " — " + std::filesystem::path(o.scenePath).filename().string();
        p.xLabel = o.keys[0].key;
        p.yLabel = figureNames[f];
        for (size_t j = 0; j < lineFiles.size(); ++j) {
            PlotLine line;
            line.csv = lineFiles[j];
            line.yColumn = static_cast<int>(2 + f);
            line.title = lineTitles[j].empty() ? figureNames[f] : lineTitles[j];
            p.lines.push_back(line);
        }
        plots.push_back(p);
    }
    return plots;
}

/// Plots: every figure against the first swept key, one line per combination of the other
/// keys, each line from its own small CSV. What the closing line says of them; nullopt when
/// a CSV could not be written (reported).
std::optional<std::string> drawSweepPlots(const SweepOptions& o, const Table& summary,
                                          const std::vector<std::string>& figureNames,
                                          size_t total) {
    if (!gnuplotAvailable()) return "plots skipped: gnuplot not found";
    const size_t inner = total / o.keys[0].values.size();
    std::vector<std::string> lineFiles, lineTitles;
    if (!writePlotLines(o, summary, figureNames, inner, lineFiles, lineTitles)) return std::nullopt;
    const std::vector<Plot> plots = describePlots(o, figureNames, lineFiles, lineTitles);
    const std::string err = drawPlots(plots, o.outDir + "/plots/plots.gp");
    return err.empty() ? "plots in " + o.outDir + "/plots/" : "plots skipped: " + err;
}

int runSweep(SweepOptions& o) {
    if (auto e = checkCombination(o)) return badInput(*e);
    const size_t total = countCombinations(o);
    // Every combination must load before anything runs: bad input costs no time.
    if (auto e = checkEveryCombinationLoads(o, total)) return badInput(*e);
    // Each finished run is kept in OUT/runs/; --resume takes those of the same scene file,
    // length and swept values instead of running them again.
    const std::string identity = readSweepIdentity(o);
    std::vector<RunRow> rows(total);
    const std::vector<size_t> todo = takeStoredRuns(o, identity, rows);
    runCombinations(o, identity, todo, rows);
    for (const RunRow& r : rows)
        if (!r.error.empty()) return reportError(r.error);

    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(o.outDir) / "plots", ec);
    if (ec) return reportError(o.outDir + ": " + ec.message());
    std::vector<std::string> figureNames;
    for (const auto& [k, v] : rows[0].figures)
        figureNames.push_back(k);
    const Table summary = summarizeRuns(o, rows, figureNames);
    if (auto e = writeCsv(o.outDir + "/summary.csv", summary)) return reportError(e->message);
    const std::map<std::string, Table> tables = stackMeasurements(o, rows, summary);
    for (const auto& [name, table] : tables)
        if (auto e = writeCsv(o.outDir + "/" + name + ".csv", table))
            return reportError(e->message);
    const std::optional<std::string> plotNote = drawSweepPlots(o, summary, figureNames, total);
    if (!plotNote) return 1;
    std::printf("sweep: %zu runs of %s → %s (summary.csv, %zu measurement files); %s\n", total,
                o.scenePath.c_str(), o.outDir.c_str(), tables.size(), plotNote->c_str());
    return 0;
}

}  // namespace

Command addSweepCommand(CLI::App& ndem) {
    auto o = std::make_shared<SweepOptions>();
    CLI::App* app = cmdline::addCommand(ndem, "sweep", kSynopsis, kDescription, kExitCodes);
    addSweepFlags(*app, *o);
    return {app, [o] { return runSweep(*o); }};
}

}  // namespace ndem::cli
