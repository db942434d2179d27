#include "run_progress.hpp"

#include "io/checkpoint.hpp"
#include "measure/measurement_state.hpp"

#include <cstdio>
#include <filesystem>

namespace ndem::cli::validation {

namespace {

void archiveProgress(StateArchive& a, RunProgress& p, RunRecorder& recorder) {
    const auto scope = a.scope("validation");
    a.field("wallSeconds", p.wallSeconds);
    a.field("laterWallSeconds", p.laterWallSeconds);
    a.field("switched", p.switched);
    const auto inner = a.scope("recorder");
    recorder.archive(a);
}

void archiveOutcome(StateArchive& a, RunOutcome& o) {
    const auto scope = a.scope("outcome");
    a.field("wallSeconds", o.wallSeconds);
    a.field("laterWallSeconds", o.laterWallSeconds);
    a.field("finalTime", o.finalTime);
    std::int64_t count = static_cast<std::int64_t>(o.results.size());
    a.field("results", count);
    if (a.loading()) o.results.assign(static_cast<size_t>(std::max<std::int64_t>(0, count)), {});
    for (size_t k = 0; k < o.results.size(); ++k)
        archiveResult(a, "result/" + std::to_string(k), o.results[k]);
    const auto inner = a.scope("recorder");
    o.recorder.archive(a);
}

}  // namespace

RunFiles runFiles(const std::string& outDir, const std::string& sceneText, const RunSpec& spec,
                  const std::string& label) {
    std::string what = sceneText + '\n' + spec.scene + '\n';
    for (const Override& o : spec.overrides)
        what += o.key + '=' + o.value + '\n';
    what += "time " + (spec.time ? std::to_string(*spec.time) : std::string("duration")) + '\n';
    for (const Override& o : spec.later)
        what += "later " + o.key + '=' + o.value + '\n';
    what += "at " + std::to_string(spec.switchAt);
    std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : what)
        hash = (hash ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    std::string name;
    for (char c : label)
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    const std::string base = outDir + "/runs/" + name + "-" + hex;
    return {base + ".running.h5", base + ".done.h5"};
}

std::optional<Error> saveProgress(const std::string& path, const SceneRun& run,
                                  const RunProgress& progress) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    StateArchive state = run.world.saveState();
    RunProgress p = progress;
    RunRecorder recorder = run.recorder;
    archiveProgress(state, p, recorder);
    return writeCheckpoint(path, run.source, state);
}

Expected<SceneRun> resumeRun(const std::string& path, const std::vector<Override>& overrides,
                             RunProgress& progress) {
    auto saved = readCheckpoint(path);
    if (!saved) return saved.error();
    auto run = restoreSceneRun(*saved, path, overrides);
    if (!run) return run.error();
    archiveProgress(saved->state, progress, run->recorder);
    if (!saved->state.ok()) return Error{path + ": " + saved->state.error()};
    return run;
}

std::optional<Error> saveOutcome(const std::string& path, const SceneRun& run,
                                 const RunOutcome& outcome) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    StateArchive state = StateArchive::saving();
    RunOutcome o = outcome;
    archiveOutcome(state, o);
    return writeCheckpoint(path, run.source, state);
}

bool loadOutcome(const std::string& path, RunOutcome& outcome) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    auto saved = readCheckpoint(path);
    if (!saved) return false;
    RunOutcome o = outcome;
    archiveOutcome(saved->state, o);
    if (!saved->state.ok()) return false;
    outcome = std::move(o);
    return true;
}

}  // namespace ndem::cli::validation
