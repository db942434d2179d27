// The standard scenes' states after a fixed number of steps, hashed and compared with the hashes
// recorded before the contact solvers moved behind one interface (docs/architecture.md): a
// refactor of the frame must not change a bit of the physics. Each row runs a shipped scene
// with the settings that reach its solver path early (phases brought forward, reduction from
// the start). The hashes hold for this engine built by Debian 12's GCC on x86-64 with AVX2 or
// AVX-512; record them again (NDEM_RECORD_HASHES=1 prints the table) only with a change that
// means to move them, and say so in its commit.
#include "io/scene_file.hpp"
#include "solve/pgs/pgs_kernel.hpp"
#include "test_util.hpp"

#include <cstdio>
#include <cstdlib>

namespace ndem {
namespace {

struct HashRow {
    const char* scene;
    std::vector<const char*> overrides;
    int steps;
    std::uint64_t hash;
};

std::uint64_t runAndHash(const HashRow& row) {
    std::vector<Override> overrides;
    for (const char* text : row.overrides) {
        auto o = parseOverride(text);
        EXPECT_TRUE(o.ok()) << text;
        if (o) overrides.push_back(*o);
    }
    auto scene = loadSceneFile(
        std::string(NDEM_SOURCE_DIR) + "/assets/scenes/" + row.scene + ".json", overrides);
    EXPECT_TRUE(scene.ok()) << (scene ? std::string() : scene.error().message);
    if (!scene) return 0;
    World world = test::makeWorld(*scene);
    for (int i = 0; i < row.steps; ++i)
        world.step();
    return stateHash(world.particles());
}

const HashRow kRows[] = {
    {"silo", {}, 120, 0xaaa43755cc23932eull},
    {"silo", {"solver.method=nncg"}, 80, 0xb49737661a93a64dull},
    {"silo", {"solver.method=apgd"}, 80, 0x1db5122cd6bd9c38ull},
    {"silo", {"solver.order=sequential"}, 80, 0xd3c9d03a53bcedfaull},
    {"silo", {"mode=nonsmooth", "warmStart.method=model"}, 80, 0x2818f005b4266e54ull},
    {"drum", {"mode=smooth", "timeStep=1e-4"}, 1000, 0xb97cf3e900f930b1ull},
    {"column", {"mode=smooth", "timeStep=1e-4"}, 2000, 0x18066b2a98c8127dull},
    {"silo-9d-live", {"solver.precision=double", "threads=1"}, 150, 0xc0c371d68dae6a29ull},
    {"silo-9d-live", {"solver.precision=double", "threads=2"}, 150, 0xc0c371d68dae6a29ull},
    {"silo-9d-live", {"solver.precision=float", "threads=1"}, 150, 0x0c9f22a2517f41b9ull},
    {"silo-9d-live", {"solver.precision=float", "threads=2"}, 150, 0x0c9f22a2517f41b9ull},
    {"drum-reduced", {"reduction.from=0.2", "threads=2"}, 120, 0xfd6b8409a15da3a7ull},
    {"conveyor-reduced", {}, 120, 0x1dcd66b336617f92ull},
    {"triaxial", {"phases.0.at=0.1"}, 60, 0x8eddb95cf4b6d094ull},
    {"pile", {}, 300, 0x074f45e8ded85879ull},
    {"collapse", {}, 80, 0xf35582d06a14753eull},
    {"biaxial-2d", {"phases.0.at=0.02"}, 26, 0x2f37ea114cba7949ull},
    {"biaxial-2d",
     {"phases.0.at=0.02", "phases.0.settings.solver.slidingRule=non-associated"},
     26,
     0xe9e002e8a20b8bc0ull},
    {"column-collapse-2d", {"phases.0.at=0.01"}, 20, 0xf3f02af69144b9a9ull},
    {"column-collapse-2d",
     {"phases.0.at=0.01", "phases.0.settings.solver.slidingRule=non-associated"},
     20,
     0x7d7939a19403d3f6ull},
    {"alart-two-disks", {"solver.method=pgs"}, 10, 0x5c7788b0f0d54e2aull},
    {"alart-two-disks", {"solver.method=nncg"}, 10, 0x14d4869ad51a4036ull},
    {"alart-two-disks", {"solver.method=apgd"}, 10, 0x64d74bdf751e5f8eull},
    {"alart-two-disks", {"solver.method=interior-point"}, 10, 0x7e9cb7c29db77f2dull},
    {"alart-two-disks", {"solver.method=nlgs"}, 10, 0x9cca112c1e577455ull},
    {"alart-two-disks", {"solver.method=nlkergs-i"}, 10, 0x36b5aea95a273690ull},
    {"alart-two-disks", {"solver.method=nlkergs-p"}, 10, 0x317965e4007e6152ull},
    {"alart-two-disks", {"solver.method=nlgs-jac"}, 10, 0x8d3c6bc911eb9d76ull},
    {"alart-five-disks", {"solver.method=pgs"}, 10, 0x544e607b0c534f3eull},
    {"alart-five-disks", {"solver.method=nncg"}, 10, 0x5ede2c73fc817896ull},
    {"alart-five-disks", {"solver.method=apgd"}, 10, 0xfe3abae063e529f5ull},
    {"alart-five-disks", {"solver.method=interior-point"}, 10, 0x88c7fec5fd7ceeaaull},
    {"alart-five-disks", {"solver.method=nlgs"}, 10, 0x54c2e1bdf763b1bcull},
    {"alart-five-disks", {"solver.method=nlkergs-i"}, 10, 0xf522bbc6c2fab6baull},
    {"alart-five-disks", {"solver.method=nlkergs-p"}, 10, 0x7682743e80d05f33ull},
    {"alart-five-disks", {"solver.method=nlgs-jac"}, 10, 0xa824f8e43ee570d5ull},
    {"alart-thirty-disks", {"solver.method=pgs"}, 10, 0x1b05fdd7d8f2a455ull},
    {"alart-thirty-disks", {"solver.method=nncg"}, 10, 0xf45f745d9cae611cull},
    {"alart-thirty-disks", {"solver.method=apgd"}, 10, 0x3b5110730d63224dull},
    {"alart-thirty-disks", {"solver.method=interior-point"}, 10, 0x246549cafd7b916full},
    {"alart-thirty-disks", {"solver.method=nlgs"}, 10, 0xb4f16207905d8d0cull},
    {"alart-thirty-disks", {"solver.method=nlkergs-i"}, 10, 0x26f50fb1bdaab8cfull},
    {"alart-thirty-disks", {"solver.method=nlkergs-p"}, 10, 0xf0020cf5f6d8b003ull},
    {"alart-thirty-disks", {"solver.method=nlgs-jac"}, 10, 0x180434ed994e889dull},
    {"alart-500-disks", {"solver.method=pgs"}, 6, 0x5e1da91456940751ull},
    {"alart-500-disks", {"solver.method=nncg"}, 6, 0xaa0789da248f1a63ull},
    {"alart-500-disks", {"solver.method=apgd"}, 6, 0x5983ba1746b506fbull},
    {"alart-500-disks", {"solver.method=interior-point"}, 6, 0xa786734fe9f6a546ull},
    {"alart-500-disks", {"solver.method=nlgs"}, 6, 0x0510f4a844432b86ull},
    {"alart-500-disks", {"solver.method=nlkergs-i"}, 2, 0xc8acf2e583c78942ull},
    {"alart-500-disks", {"solver.method=nlkergs-p"}, 6, 0x039430d425f5a6cbull},
    {"alart-500-disks", {"solver.method=nlgs-jac"}, 6, 0xc3b3a29388954508ull},
};

/// A row as ctest names it: its scene and settings (gtest would print its bytes).
void PrintTo(const HashRow& row, std::ostream* os) {
    *os << row.scene;
    for (const char* o : row.overrides)
        *os << " " << o;
}

class StateHash : public testing::TestWithParam<HashRow> {};

TEST_P(StateHash, IsTheRecordedOne) {
    // The scalar kernel sums a block's rows in another order than the AVX2 and AVX-512 ones
    // (which agree bit for bit): the hashes are the vector kernels'.
    if (std::string(pgsKernel(SimdLevel::Auto).name) == "scalar")
        GTEST_SKIP() << "recorded with the AVX2 / AVX-512 kernels; this CPU runs the scalar one";
    const HashRow& row = GetParam();
    const std::uint64_t hash = runAndHash(row);
    if (std::getenv("NDEM_RECORD_HASHES")) {
        std::printf("RECORD %s", row.scene);
        for (const char* o : row.overrides)
            std::printf(" %s", o);
        std::printf(" -> 0x%016llxull\n", static_cast<unsigned long long>(hash));
        return;
    }
    EXPECT_EQ(hash, row.hash) << std::hex << "0x" << hash;
}

std::string rowName(const testing::TestParamInfo<HashRow>& info) {
    std::string name = info.param.scene;
    for (char& c : name)
        if (c == '-') c = '_';
    return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(StandardScenes, StateHash, testing::ValuesIn(kRows), rowName);

}  // namespace
}  // namespace ndem
