// libFuzzer target: `--set key=value` text (io/scene_file.*), split and applied to a small valid
// scene: parseOverride, then the scene parsed with it. Never a crash, one error or a scene.
#include "io/scene_file.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {
const char* kScene = R"({
  "name": "fuzz", "duration": 0.1,
  "settings": { "timeStep": 0.001, "solver": { "iterations": 20 } },
  "materials": [ { "name": "grain", "youngsModulus": 1e7 } ],
  "walls": [ { "name": "floor", "type": "plane" } ],
  "particles": [ { "type": "column", "count": 3, "radius": 0.005 } ],
  "measurements": [ { "type": "wallForce", "wall": "floor" } ]
})";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto parsed = ndem::parseOverride(text);
    if (!parsed) return 0;
    const auto scene = ndem::parseSceneText(kScene, "fuzz.json", {parsed.value()});
    if (!scene && scene.error().message.empty()) __builtin_trap();
    return 0;
}
