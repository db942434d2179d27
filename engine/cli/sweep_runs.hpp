// What one finished run of `ndem sweep` leaves on disk, so that `--resume` skips it.
#pragma once

#include "io/scene_file.hpp"
#include "measure/measurement.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ndem::cli {

struct SweepRun {
    std::vector<Override> overrides;        ///< the swept values of this run
    std::map<std::string, double> figures;  ///< summary and measurement scalars
    std::vector<MeasurementResult> results;
};

/// OUT/runs/run-<index>.json.
std::string sweepRunPath(const std::string& outDir, size_t index);

/// What must match for a stored run to stand for a run of this sweep: the scene file's bytes
/// and the length asked for (--steps, --time or the scene's duration).
std::string sweepIdentity(const std::string& sceneText, const std::string& length);

/// Writes the run through a temporary file renamed over `path`: a sweep stopped at any moment
/// (Ctrl-C, a kill) leaves each run's file whole or absent.
std::optional<std::string> saveSweepRun(const std::string& path, const SweepRun& run,
                                        const std::string& identity);

/// The run stored at `path` if there is one, whole, of this identity and with these swept
/// values; otherwise nothing (the run is done again).
std::optional<SweepRun> loadSweepRun(const std::string& path, const std::string& identity,
                                     const std::vector<Override>& overrides);

}  // namespace ndem::cli
