// Video pacing, world replacement and the live plots' data in the snapshot.
#include "sim/sim_loop.hpp"

#include "io/scene_file.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

using namespace std::chrono_literals;
using ndem::World;
using ndem::app::SimLoop;

namespace {

World loadScene(const char* file, std::vector<ndem::Override> overrides) {
    auto scene =
        ndem::loadSceneFile(std::string(NDEM_SOURCE_DIR "/assets/scenes/") + file, overrides);
    EXPECT_TRUE(scene.ok()) << scene.error().message;
    auto world = World::create(*scene);
    EXPECT_TRUE(world.ok()) << world.error().message;
    return std::move(world.value());
}

/// Takes the newest snapshot until `pred` holds for it (or 60 s pass).
template <class Pred>
bool takeUntil(SimLoop& loop, Pred pred) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        loop.takeNewest();
        if (pred(loop.snapshot())) return true;
        std::this_thread::sleep_for(1ms);
    }
    return false;
}

TEST(SimPacing, PacedFramesFallOnTheIntervalGridAndWaitForTheGui) {
    // h = 0.01 s and frames every 1/30 s: the steps cannot land on the grid, the targets can.
    SimLoop loop(loadScene("column.json", {{"particles.0.count", "5"}, {"timeStep", "0.01"}}));
    const double interval = 1.0 / 30.0;
    loop.setFrameInterval(interval);
    loop.play();
    std::uint64_t seen = 0;
    std::vector<double> times;
    for (int frame = 0; frame < 12; ++frame) {
        ASSERT_TRUE(
            takeUntil(loop, [&](const auto& s) { return s.sequence > seen && s.time > 0.0; }));
        seen = loop.snapshot().sequence;
        times.push_back(loop.snapshot().time);
        // Held: without releaseFrame() nothing more is published.
        std::this_thread::sleep_for(20ms);
        EXPECT_FALSE(loop.takeNewest()) << "the sim went on without the GUI";
        loop.releaseFrame();
    }
    // Pacing started at t = 0: frame k is the step nearest (k + 1) × interval, within half a
    // step, so the video's clock never drifts however the steps fall.
    for (size_t k = 0; k < times.size(); ++k)
        EXPECT_NEAR(times[k], static_cast<double>(k + 1) * interval, 0.005 + 1e-9) << k;
    loop.setFrameInterval(0.0);
    const std::uint64_t before = loop.snapshot().sequence;
    EXPECT_TRUE(takeUntil(loop, [&](const auto& s) { return s.sequence > before + 5; }));
}

TEST(SimPacing, ReplacingTheWorldRaisesTheGenerationAndStartsAtTimeZero) {
    SimLoop loop(loadScene("column.json", {{"particles.0.count", "5"}}));
    loop.play();
    ASSERT_TRUE(takeUntil(loop, [](const auto& s) { return s.time > 0.05; }));
    loop.pause();
    loop.replaceWorld(loadScene("column.json", {{"particles.0.count", "7"}}));
    ASSERT_TRUE(takeUntil(loop, [](const auto& s) { return s.worldGeneration == 1; }));
    EXPECT_EQ(loop.snapshot().particleCount(), 7u);
    EXPECT_DOUBLE_EQ(loop.snapshot().time, 0.0);
}

TEST(SimPacing, SnapshotCarriesEveryStepsStatsAndTheSilosWallPressure) {
    SimLoop loop(loadScene("silo.json", {{"particles.0.count", "400"}, {"gravityRamp.time", "0"}}));
    loop.setStepsPerFrame(5);
    loop.play();
    // Settled enough for a full averaging window (0.25 s) of wall contacts.
    ASSERT_TRUE(takeUntil(loop, [](const auto& s) { return s.time > 1.0; }));
    loop.pause();
    const auto& s = loop.snapshot();
    EXPECT_EQ(s.wallPressure.wall, "wall");
    ASSERT_FALSE(s.wallPressure.pressure.empty());
    EXPECT_GT(s.wallPressure.fillHeight, 0.0);
    double sum = 0.0;
    for (float p : s.wallPressure.pressure)
        sum += p;
    EXPECT_GT(sum, 0.0);
    // Bottom strip below hydrostatic (K < 1 even without arching).
    EXPECT_LT(s.wallPressure.pressure.front(), s.wallPressure.hydrostatic.front());
    EXPECT_FALSE(s.recentSteps.empty());
    EXPECT_LE(s.recentSteps.size(), 5u);
    EXPECT_EQ(s.recentSteps.back().step, s.stepCount);
    // Particle pressure: Σ f l / (3 V) summed over grains times their volumes gives back
    // Σ_c f l / 3 over contacts — a bed under gravity carries a positive mean stress.
    double loaded = 0.0;
    for (float p : s.pressure)
        loaded += p > 0.0f ? 1.0 : 0.0;
    EXPECT_GT(loaded / static_cast<double>(s.particleCount()), 0.9);
}

}  // namespace
