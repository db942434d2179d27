#include "validation.hpp"

#include "core/parallel.hpp"
#include "io/csv_writer.hpp"
#include "../progress.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <thread>

namespace ndem::cli::validation {

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
    if (which.size() > 1) s.sd = std::sqrt(std::max(0.0, (sumSq - n * s.mean * s.mean) / (n - 1.0)));
    return s;
}

std::vector<RunOutcome> Context::run(const std::vector<RunSpec>& specs,
                                     const std::string& label) const {
    std::vector<RunOutcome> out(specs.size());
    std::vector<size_t> order(specs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_partition(order.begin(), order.end(), [&](size_t i) { return specs[i].startFirst; });
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
            // Runs side by side share the cores: each takes its part unless it asks.
            std::vector<Override> overrides = specs[i].overrides;
            const bool threadsGiven = std::any_of(overrides.begin(), overrides.end(),
                                                  [](const Override& v) { return v.key == "threads"; });
            if (!threadsGiven && jobs > 1)
                overrides.push_back({"threads", std::to_string(std::max(1, hardwareThreads() / jobs))});
            auto loaded = loadSceneRun(m_source + "/" + specs[i].scene, overrides);
            if (!loaded) {
                o.error = loaded.error().message;
                continue;
            }
            SceneRun& run = loaded.value();
            std::optional<StepSettings> later;
            if (!specs[i].later.empty()) {
                std::vector<Override> all = overrides;
                all.insert(all.end(), specs[i].later.begin(), specs[i].later.end());
                auto switched = loadSceneFile(m_source + "/" + specs[i].scene, all);
                if (!switched) {
                    o.error = switched.error().message;
                    continue;
                }
                later = switched->settings;
            }
            const auto start = std::chrono::steady_clock::now();
            auto switchTime = start;
            executeSceneRun(run, stepsFor(run, std::nullopt, specs[i].time),
                            [&](const StepStats&, long) {
                                if (later && run.world.time() >= specs[i].switchAt - 1e-9) {
                                    if (auto e = run.world.applySettings(*later)) o.error = e->message;
                                    later.reset();
                                    switchTime = std::chrono::steady_clock::now();
                                }
                                return o.error.empty();
                            });
            if (const auto& d = run.world.divergence()) o.error = d->message;
            if (switchTime != start)
                o.laterWallSeconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - switchTime).count();
            o.results = measurementResults(run.world);
            o.recorder = run.recorder;
            o.wallSeconds = run.wallSeconds;
            o.finalTime = run.world.time();
            std::lock_guard lock(printing);
            std::string what;
            for (const Override& ov : specs[i].overrides) what += " " + ov.key + "=" + ov.value;
            if (!specs[i].later.empty()) what += " | from t = " + num(specs[i].switchAt) + ":";
            for (const Override& ov : specs[i].later) what += " " + ov.key + "=" + ov.value;
            ++finished;
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - batchStart).count();
            std::fprintf(stderr, "validate %s [%zu/%zu done] %s%s: %.1f s%s\n", label.c_str(),
                         finished, specs.size(), specs[i].scene.c_str(), what.c_str(),
                         run.wallSeconds, etaText(elapsed, finished, specs.size()).c_str());
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < jobs; ++t) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
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
    static const std::vector<Case> all = {janssenCase(),  iterationScalingCase(), warmStartCase(),
                                          drumCase(),     angleOfReposeCase(),    collapseCase(),
                                          modelReductionCase(),   solverAccuracyCase()};
    return all;
}

std::string num(double v, int digits) {
    if (std::isnan(v)) return "–";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}

}  // namespace ndem::cli::validation
