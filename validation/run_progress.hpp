// What a validation run keeps on disk, so that `ndem validate --resume` goes on from it: a
// checkpoint every so many seconds of wall time while it runs, its outcome once it is done.
#pragma once

#include "validation.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ndem::cli::validation {

/// OUT/runs/<label>-<key>.running.h5 (the checkpoint) and .done.h5 (the outcome); the key is a
/// checksum of the scene file's bytes and of the spec (scene, overrides, length, later
/// settings), so an edited scene or another spec never takes another's files.
struct RunFiles {
    std::string checkpoint, done;
};
RunFiles runFiles(const std::string& outDir, const std::string& sceneText, const RunSpec& spec,
                  const std::string& label);

/// A run's wall time so far, and whether its later settings have taken effect.
struct RunProgress {
    double wallSeconds = 0.0;
    double laterWallSeconds = 0.0;
    bool switched = false;
};

/// The world's state, the run's recorder and its progress, as one checkpoint.
std::optional<Error> saveProgress(const std::string& path, const SceneRun& run,
                                  const RunProgress& progress);
/// The run a checkpoint of saveProgress holds (overrides: `threads` only), with its recorder.
Expected<SceneRun> resumeRun(const std::string& path, const std::vector<Override>& overrides,
                             RunProgress& progress);

/// A finished run's outcome (results, recorder, wall times, final time).
std::optional<Error> saveOutcome(const std::string& path, const SceneRun& run,
                                 const RunOutcome& outcome);
/// Fills `outcome` from a file of saveOutcome; false if there is none or it is not whole.
bool loadOutcome(const std::string& path, RunOutcome& outcome);

}  // namespace ndem::cli::validation
