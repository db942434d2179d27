// libFuzzer target: a checkpoint file's bytes through readCheckpoint (io/checkpoint.*), then the
// state into a world of its scene (World::loadState). A damaged or foreign file is one error;
// nothing crashes, and libhdf5 never reads a file whose checksum does not match.
#include "io/checkpoint.hpp"
#include "world/world.hpp"

#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = "/tmp/ndem-fuzz-checkpoint-" + std::to_string(getpid()) + ".h5";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    auto checkpoint = ndem::readCheckpoint(path);
    if (!checkpoint) return 0;
    auto scene = ndem::parseSceneText(checkpoint->scene.text, checkpoint->scene.source,
                                      checkpoint->scene.overrides);
    if (!scene) return 0;
    auto world = ndem::World::create(*scene);
    if (world) (void)world->loadState(checkpoint->state);
    return 0;
}
