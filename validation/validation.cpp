#include "validation.hpp"

#include "run_progress.hpp"

#include "cli/progress.hpp"
#include "core/parallel.hpp"
#include "io/csv_writer.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <numeric>
#include <thread>

namespace ndem::cli::validation {

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

const MeasurementResult* RunOutcome::measurement(const std::string& name, int occurrence) const {
    for (const MeasurementResult& r : results)
        if (r.name == name && occurrence-- == 0) return &r;
    return nullptr;
}

double RunOutcome::scalar(const std::string& name, const std::string& key, double fallback) const {
    const MeasurementResult* r = measurement(name);
    if (!r) return fallback;
    auto it = r->scalars.find(key);
    return it == r->scalars.end() ? fallback : it->second;
}

Spread spreadOf(const std::vector<RunOutcome>& runs, const std::vector<size_t>& which,
                const std::string& measurement, const std::string& key) {
    double sum = 0.0, sumSq = 0.0;
    for (size_t i : which) {
        const double v = runs[i].scalar(measurement, key);
        sum += v;
        sumSq += v * v;
    }
    const double n = static_cast<double>(which.size());
    Spread s;
    s.mean = sum / n;
    if (which.size() > 1)
        s.sd = std::sqrt(std::max(0.0, (sumSq - n * s.mean * s.mean) / (n - 1.0)));
    return s;
}

std::vector<RunOutcome> Context::run(const std::vector<RunSpec>& specs,
                                     const std::string& label) const {
    std::vector<RunOutcome> out(specs.size());
    std::vector<size_t> order(specs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_partition(order.begin(), order.end(),
                          [&](size_t i) { return specs[i].startFirst; });
    std::atomic<size_t> next{0};
    std::mutex printing;
    size_t finished = 0;
    const auto batchStart = std::chrono::steady_clock::now();
    const int jobs = std::max(1, std::min<int>(m_jobs, static_cast<int>(specs.size())));
    auto worker = [&] {
        for (size_t k = next++; k < specs.size(); k = next++) {
            const size_t i = order[k];
            RunOutcome& o = out[i];
            o.spec = specs[i];
            const std::string scenePath = m_source + "/" + specs[i].scene;
            std::string what;
            for (const Override& ov : specs[i].overrides)
                what += " " + ov.key + "=" + ov.value;
            if (!specs[i].later.empty()) what += " | from t = " + num(specs[i].switchAt) + ":";
            for (const Override& ov : specs[i].later)
                what += " " + ov.key + "=" + ov.value;
            auto report = [&](const char* how, double seconds) {
                std::lock_guard lock(printing);
                ++finished;
                const double elapsed =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - batchStart)
                        .count();
                std::fprintf(stderr, "validate %s [%zu/%zu done] %s%s: %s%.1f s%s\n", label.c_str(),
                             finished, specs.size(), specs[i].scene.c_str(), what.c_str(), how,
                             seconds, etaText(elapsed, finished, specs.size()).c_str());
            };
            const RunFiles files = runFiles(m_out, readText(scenePath), specs[i], label);
            if (m_resume && loadOutcome(files.done, o)) {
                o.spec = specs[i];
                o.earlierWallSeconds = o.wallSeconds;
                report("kept from an earlier run, ", o.wallSeconds);
                continue;
            }
            // Runs side by side share the cores: each takes its part unless it asks.
            const bool threadsGiven =
                std::any_of(specs[i].overrides.begin(), specs[i].overrides.end(),
                            [](const Override& v) { return v.key == "threads"; });
            std::vector<Override> share;
            if (!threadsGiven && jobs > 1)
                share.push_back({"threads", std::to_string(std::max(1, hardwareThreads() / jobs))});
            std::vector<Override> overrides = specs[i].overrides;
            overrides.insert(overrides.end(), share.begin(), share.end());
            RunProgress before;
            const bool resumed = m_resume && std::filesystem::exists(files.checkpoint);
            auto loaded = resumed ? resumeRun(files.checkpoint, share, before)
                                  : loadSceneRun(scenePath, overrides);
            if (!loaded) {
                o.error = loaded.error().message;
                continue;
            }
            SceneRun& run = loaded.value();
            std::optional<StepSettings> later;
            if (!specs[i].later.empty() && !before.switched) {
                std::vector<Override> all = overrides;
                all.insert(all.end(), specs[i].later.begin(), specs[i].later.end());
                auto switched = loadSceneFile(scenePath, all);
                if (!switched) {
                    o.error = switched.error().message;
                    continue;
                }
                later = switched->settings;
            }
            const auto start = std::chrono::steady_clock::now();
            auto switchTime =
                before.switched ? start : std::chrono::time_point<std::chrono::steady_clock>{};
            auto lastCheckpoint = start;
            double saving = 0.0, savingLater = 0.0;  // wall time spent writing checkpoints
            // What this session adds to the progress the checkpoint held (the timed rows of
            // the cases must not count the writing).
            auto progress = [&] {
                const auto now = std::chrono::steady_clock::now();
                RunProgress p = before;
                p.wallSeconds += std::chrono::duration<double>(now - start).count() - saving;
                p.switched = before.switched || (!specs[i].later.empty() && !later);
                if (p.switched && !specs[i].later.empty())
                    p.laterWallSeconds +=
                        std::chrono::duration<double>(now - switchTime).count() - savingLater;
                return p;
            };
            const double end = specs[i].time ? *specs[i].time : run.scene.duration;
            const long steps = stepsUntil(run.world, end);
            executeSceneRun(
                run, steps,
                [&](const StepStats&, long) {
                    if (later && run.world.time() >= specs[i].switchAt - 1e-9) {
                        if (auto e = run.world.applySettings(*later)) o.error = e->message;
                        later.reset();
                        switchTime = std::chrono::steady_clock::now();
                    }
                    const auto now = std::chrono::steady_clock::now();
                    if (std::chrono::duration<double>(now - lastCheckpoint).count() >=
                        m_checkpointSeconds) {
                        if (auto e = saveProgress(files.checkpoint, run, progress()))
                            std::fprintf(stderr, "ndem: warning: %s\n", e->message.c_str());
                        lastCheckpoint = std::chrono::steady_clock::now();
                        const double spent =
                            std::chrono::duration<double>(lastCheckpoint - now).count();
                        saving += spent;
                        if (!specs[i].later.empty() && !later) savingLater += spent;
                    }
                    return o.error.empty();
                },
                resumed);
            if (const auto& d = run.world.divergence()) o.error = d->message;
            const RunProgress done = progress();
            o.laterWallSeconds = done.laterWallSeconds;
            o.results = measurementResults(run.world);
            o.recorder = run.recorder;
            o.wallSeconds = before.wallSeconds + run.wallSeconds;
            o.earlierWallSeconds = before.wallSeconds;
            o.finalTime = run.world.time();
            std::error_code ec;
            if (o.error.empty()) {
                if (auto e = saveOutcome(files.done, run, o))
                    std::fprintf(stderr, "ndem: warning: %s\n", e->message.c_str());
                std::filesystem::remove(files.checkpoint, ec);
            }
            report(resumed ? "went on from its checkpoint, " : "", o.wallSeconds);
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < jobs; ++t)
        threads.emplace_back(worker);
    for (std::thread& t : threads)
        t.join();
    for (const RunOutcome& o : out)
        m_earlierSeconds += o.earlierWallSeconds;
    return out;
}

std::string Context::csv(const std::string& caseId, const std::string& name, const Table& t) const {
    const std::string dir = m_out + "/" + caseId;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::string path = dir;
    path.append("/").append(name).append(".csv");
    if (auto e = writeCsv(path, t)) std::fprintf(stderr, "validate: %s\n", e->message.c_str());
    return path;
}

void Context::plot(const std::string& caseId, std::vector<Plot> plots, CaseReport& report) const {
    if (!gnuplotAvailable()) {
        report.notes += "\n(Plots skipped: gnuplot not found.)";
        return;
    }
    const std::string dir = m_out + "/" + caseId;
    for (Plot& p : plots) {
        report.figures.push_back(caseId + "/" + p.png);
        p.png = dir + "/" + p.png;
    }
    const std::string err = drawPlots(plots, dir + "/plots.gp");
    if (!err.empty()) report.notes += "\n(Plots failed: " + err + ".)";
}

int columnOf(const Table& table, const std::string& name) {
    int k = 1;
    for (const auto& [key, column] : table) {
        if (key == name) return k;
        ++k;
    }
    return 1;
}

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        janssenCase(),        iterationScalingCase(),   warmStartCase(),       drumCase(),
        drum80dCase(),        angleOfReposeCase(),      collapseCase(),        modelReductionCase(),
        solverAccuracyCase(), columnCollapse2dCase(),   solverRaceCase(),      biaxial2dCase(),
        alart2014Case(),      alart2014NullSpaceCase(), alart2014SparseCase(), alart2014SpaceCase(),
        triaxialCase()};
    return all;
}

CaseReport openReport(std::string id, std::string title, std::string source) {
    CaseReport report;
    report.id = std::move(id);
    report.title = std::move(title);
    report.source = std::move(source);
    return report;
}

Plot makePlot(std::string png, std::string title, std::string xLabel, std::string yLabel) {
    Plot plot;
    plot.png = std::move(png);
    plot.title = std::move(title);
    plot.xLabel = std::move(xLabel);
    plot.yLabel = std::move(yLabel);
    return plot;
}

std::string num(double v, int digits) {
    if (std::isnan(v)) return "–";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}

}  // namespace ndem::cli::validation
