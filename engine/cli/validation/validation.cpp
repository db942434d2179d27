#include "validation.hpp"

#include "io/csv_writer.hpp"

#include <algorithm>
#include <atomic>
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

std::vector<RunOutcome> Context::run(const std::vector<RunSpec>& specs,
                                     const std::string& label) const {
    std::vector<RunOutcome> out(specs.size());
    std::vector<size_t> order(specs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_partition(order.begin(), order.end(), [&](size_t i) { return specs[i].startFirst; });
    std::atomic<size_t> next{0};
    std::mutex printing;
    auto worker = [&] {
        for (size_t k = next++; k < specs.size(); k = next++) {
            const size_t i = order[k];
            RunOutcome& o = out[i];
            o.spec = specs[i];
            auto loaded = loadSceneRun(m_source + "/" + specs[i].scene, specs[i].overrides);
            if (!loaded) {
                o.error = loaded.error().message;
                continue;
            }
            SceneRun& run = loaded.value();
            executeSceneRun(run, stepsFor(run, std::nullopt, specs[i].time));
            o.results = measurementResults(run.world);
            o.recorder = run.recorder;
            o.wallSeconds = run.wallSeconds;
            o.finalTime = run.world.time();
            std::lock_guard lock(printing);
            std::string what;
            for (const Override& ov : specs[i].overrides) what += " " + ov.key + "=" + ov.value;
            std::fprintf(stderr, "validate %s [%zu/%zu] %s%s: %.1f s\n", label.c_str(), i + 1,
                         specs.size(), specs[i].scene.c_str(), what.c_str(), run.wallSeconds);
        }
    };
    std::vector<std::thread> threads;
    const int n = std::max(1, std::min<int>(m_jobs, static_cast<int>(specs.size())));
    for (int t = 0; t < n; ++t) threads.emplace_back(worker);
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
                                          modelReductionCase()};
    return all;
}

std::string num(double v, int digits) {
    if (std::isnan(v)) return "–";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}

}  // namespace ndem::cli::validation
