// Checkpoint files: a world's saved state (World::saveState) with the scene it belongs to, in
// HDF5 (the container Siconos and Chrono write their states in), written atomically: the file
// appears complete under its name or not at all, so a kill during a write leaves the previous
// checkpoint intact.
//
// Layout (h5dump shows it): root attributes format = "ndem-checkpoint", version = 1, ndem; the
// group /scene with the scene file's text, its path and the --set overrides (JSON); the state
// under /real (doubles), /integer (64-bit integers) and /text, one 1-D dataset per entry,
// named by its path in the archive (e.g. /real/particles/position, 3 numbers per grain).
#pragma once

#include "core/error.hpp"
#include "core/state_archive.hpp"
#include "io/scene_file.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ndem {

/// The scene a state belongs to: a world built from it can load the state.
struct CheckpointScene {
    std::string text;    ///< the scene file as read
    std::string source;  ///< its path (relative paths inside it are resolved from there)
    std::vector<Override> overrides;
};

struct Checkpoint {
    CheckpointScene scene;
    StateArchive state = StateArchive::saving();
};

/// Writes `path` through a temporary file beside it, renamed over it once complete and synced.
std::optional<Error> writeCheckpoint(const std::string& path, const CheckpointScene& scene,
                                     const StateArchive& state);

/// Reads a checkpoint; the error names the file and what is wrong with it.
Expected<Checkpoint> readCheckpoint(const std::string& path);

}  // namespace ndem
