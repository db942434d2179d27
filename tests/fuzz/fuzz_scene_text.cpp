// libFuzzer target: a scene file's text through the parser and validation (io/scene_file.*).
// Whatever the bytes, parseSceneText returns a scene or one error; it never crashes, hangs or
// reads out of bounds.
#include "io/scene_file.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto scene = ndem::parseSceneText(text, "fuzz.json");
    if (!scene && scene.error().message.empty()) __builtin_trap();  // an error says what is wrong
    return 0;
}
