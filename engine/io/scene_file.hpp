// Scene files: JSON in assets/scenes/, documented in docs/scene-format.md.
#pragma once

#include "core/error.hpp"
#include "core/scene.hpp"

#include <string>
#include <vector>

namespace ndem {

/// One `--set key=value` override. Keys are dotted paths into the scene file; a key that does
/// not start with a top-level section (name, duration, settings, materials, ...) is a setting:
/// `solver.iterations=50` means `settings.solver.iterations`. Array elements are addressed by
/// index or by their "name": `materials.grain.friction=0.5`, `walls.0.enabled=false`.
struct Override {
    std::string key;
    std::string value;  ///< JSON text; anything that is not valid JSON is taken as a string
};

/// Splits "key=value"; the error names the text.
Expected<Override> parseOverride(const std::string& text);

/// `--threads N`: the setting `threads` for 1 <= N <= kMaxThreads. 0 is refused here although
/// the setting takes it (every core): leaving the flag out says that.
Expected<Override> parseThreadsFlag(const std::string& text);

/// Reads, overrides and validates a scene. Errors are one line naming the file (or the --set
/// override), the key and the value, e.g.
///   "assets/scenes/silo.json: settings.solver.iterations: must be >= 1 (got -3)".
Expected<Scene> loadSceneFile(const std::string& path, const std::vector<Override>& overrides = {});
Expected<Scene> parseSceneText(const std::string& text, const std::string& sourceName,
                               const std::vector<Override>& overrides = {});

}  // namespace ndem
