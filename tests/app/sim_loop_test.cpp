#include "sim/sim_loop.hpp"

#include "io/scene_file.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

using namespace std::chrono_literals;
using ndem::World;
using ndem::app::SimLoop;
using ndem::app::Snapshot;

namespace {

constexpr int kColumnParticles = 10;
constexpr int kColumnIterations = 100;  // solver.iterations of assets/scenes/column.json

/// The warm-start column, shortened: every particle touches a neighbour or the floor from the
/// first step, so each step runs the PGS for its full iteration count.
World loadColumn() {
    auto scene = ndem::loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/column.json",
                                     {{"particles.0.count", std::to_string(kColumnParticles)}});
    EXPECT_TRUE(scene.ok()) << scene.error().message;
    auto world = World::create(*scene);
    EXPECT_TRUE(world.ok()) << world.error().message;
    return std::move(world.value());
}

/// Polls until `done` holds. Generous: the tests run under ThreadSanitizer on a loaded machine
/// too, and they assert what happens, not how fast.
bool waitFor(const std::function<bool()>& done, std::chrono::seconds timeout = 60s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

/// Takes snapshots as the GUI does until `count` have been published; the last one is current.
bool takeUntilPublished(SimLoop& loop, std::uint64_t count) {
    return waitFor([&] {
        loop.takeNewest();
        return loop.snapshot().sequence >= count;
    });
}

/// Pauses and returns once the frame in flight (if any) is published and no other will be:
/// the command runs in the first frame that sees the pause, which takes no steps and
/// publishes exactly once more.
std::uint64_t pauseAndSettle(SimLoop& loop) {
    loop.pause();
    std::atomic<std::uint64_t> seenByCommand{0};
    std::atomic<bool> ran{false};
    loop.post([&](World&) {
        seenByCommand = loop.publishedCount();
        ran = true;
    });
    EXPECT_TRUE(waitFor([&] { return ran.load(); }));
    const std::uint64_t settled = seenByCommand + 1;
    EXPECT_TRUE(takeUntilPublished(loop, settled));
    return settled;
}

}  // namespace

TEST(SimLoop, StartsPausedAndPublishesTheInitialState) {
    SimLoop loop(loadColumn());
    ASSERT_TRUE(takeUntilPublished(loop, 1));
    const Snapshot& s = loop.snapshot();
    EXPECT_EQ(s.sequence, 1u);
    EXPECT_EQ(s.stepCount, 0);
    EXPECT_EQ(s.particleCount(), static_cast<size_t>(kColumnParticles));
    EXPECT_FALSE(loop.isPlaying());
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(loop.publishedCount(), 1u);
    EXPECT_FALSE(loop.takeNewest());
}

TEST(SimLoop, PlayingPublishesSnapshotsOfTheWholeWorld) {
    std::atomic<std::uint64_t> callbacks{0};
    SimLoop loop(loadColumn(), [&] { ++callbacks; });
    loop.setContactForceThreshold(0.0);
    loop.play();
    EXPECT_TRUE(loop.isPlaying());
    const std::uint64_t start = loop.publishedCount();
    ASSERT_TRUE(waitFor([&] {
        loop.takeNewest();
        return loop.publishedCount() >= start + 5 && loop.snapshot().sequence >= start + 5;
    }));

    const Snapshot& s = loop.snapshot();
    ASSERT_EQ(s.particleCount(), static_cast<size_t>(kColumnParticles));
    EXPECT_EQ(s.stats.particles, kColumnParticles);
    EXPECT_EQ(s.position.size(), 3u * kColumnParticles);
    EXPECT_EQ(s.velocity.size(), 3u * kColumnParticles);
    EXPECT_EQ(s.id.size(), static_cast<size_t>(kColumnParticles));
    EXPECT_GT(s.stepCount, 0);
    EXPECT_EQ(s.stats.step, s.stepCount);
    EXPECT_DOUBLE_EQ(s.stats.time, s.time);
    EXPECT_EQ(s.stats.iterations, kColumnIterations);

    // A column on a floor: every grain touches something, and every touching contact carries
    // weight, so with a zero threshold each one is an edge.
    for (size_t i = 0; i < s.particleCount(); ++i)
        EXPECT_GE(s.contactCount[i], 1u) << i;
    EXPECT_GT(s.edgeCount(), 0u);
    EXPECT_EQ(s.contactEnds.size(), 6 * s.edgeCount());
    EXPECT_GT(s.maxContactForce, 0.0f);
    for (float f : s.contactForce)
        EXPECT_GT(f, 0.0f);
    for (float x : s.contactEnds)
        EXPECT_TRUE(std::isfinite(x));

    loop.stop();
    EXPECT_EQ(callbacks.load(), loop.publishedCount());
}

TEST(SimLoop, ContactForceThresholdSelectsTheEdges) {
    SimLoop loop(loadColumn());
    loop.setContactForceThreshold(1e9);
    loop.stepOnce();
    ASSERT_TRUE(takeUntilPublished(loop, 2));
    EXPECT_EQ(loop.snapshot().edgeCount(), 0u);
    EXPECT_DOUBLE_EQ(loop.snapshot().forceThreshold, 1e9);
    EXPECT_GT(loop.snapshot().maxContactForce, 0.0f);

    loop.setContactForceThreshold(0.0);
    loop.stepOnce();
    ASSERT_TRUE(takeUntilPublished(loop, 3));
    EXPECT_GT(loop.snapshot().edgeCount(), 0u);
}

// The command changes the settings on the sim thread between two steps: every step after the
// one it followed runs 37 sweeps, every step before it the scene's 100.
TEST(SimLoop, PostedCommandRunsBetweenStepsAndChangesTheNextStep) {
    SimLoop loop(loadColumn());
    loop.play();
    ASSERT_TRUE(takeUntilPublished(loop, 3));

    std::atomic<bool> ran{false}, applied{false};
    std::atomic<std::int64_t> ranAfterStep{-1};
    loop.post([&](World& world) {
        ndem::StepSettings settings = world.settings();
        settings.iterations = 37;
        applied = !world.applySettings(settings).has_value();
        world.setRecordResidualHistory(true);
        ranAfterStep = world.stepCount();
        ran = true;
    });

    std::vector<std::pair<std::int64_t, int>> seen;  // (stepCount, iterations) of each snapshot
    ASSERT_TRUE(waitFor([&] {
        if (loop.takeNewest())
            seen.emplace_back(loop.snapshot().stepCount, loop.snapshot().stats.iterations);
        return ran && loop.snapshot().stepCount > ranAfterStep;
    }));
    EXPECT_TRUE(applied);

    const Snapshot& s = loop.snapshot();
    EXPECT_EQ(s.stats.iterations, 37);
    EXPECT_EQ(s.residualPerIteration.size(), 37u);
    for (const auto& [stepCount, iterations] : seen) {
        if (stepCount == 0) continue;  // the initial state: no step yet
        EXPECT_EQ(iterations, stepCount > ranAfterStep ? 37 : kColumnIterations)
            << "step " << stepCount << ", command after step " << ranAfterStep;
    }
}

TEST(SimLoop, PauseStopsSteppingAndStepOnceTakesExactlyOne) {
    SimLoop loop(loadColumn());
    loop.play();
    ASSERT_TRUE(takeUntilPublished(loop, 5));

    const std::uint64_t settled = pauseAndSettle(loop);
    EXPECT_FALSE(loop.isPlaying());
    const std::int64_t pausedAt = loop.snapshot().stepCount;
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(loop.publishedCount(), settled);
    EXPECT_FALSE(loop.takeNewest());

    loop.stepOnce();
    ASSERT_TRUE(takeUntilPublished(loop, settled + 1));
    EXPECT_EQ(loop.snapshot().stepCount, pausedAt + 1);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(loop.publishedCount(), settled + 1);

    for (int k = 0; k < 3; ++k)
        loop.stepOnce();
    ASSERT_TRUE(takeUntilPublished(loop, settled + 4));
    EXPECT_EQ(loop.snapshot().stepCount, pausedAt + 4);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(loop.publishedCount(), settled + 4);
}

// What "reset" and "load scene" will do: the paused loop wakes up, swaps the world in between
// steps and publishes it at once, without the last step's stats of the old world.
TEST(SimLoop, CommandThatReplacesTheWorldIsPublishedWhilePaused) {
    SimLoop loop(loadColumn());
    loop.stepOnce();
    loop.stepOnce();
    ASSERT_TRUE(takeUntilPublished(loop, 3));
    EXPECT_EQ(loop.snapshot().stepCount, 2);

    // std::function needs a copyable callable and World is move-only: share it.
    auto fresh = std::make_shared<World>(loadColumn());
    loop.post([fresh](World& world) { world = std::move(*fresh); });
    ASSERT_TRUE(takeUntilPublished(loop, 4));
    EXPECT_EQ(loop.snapshot().stepCount, 0);
    EXPECT_EQ(loop.snapshot().stats.step, 0);
    EXPECT_EQ(loop.snapshot().stats.iterations, 0);
    EXPECT_EQ(loop.snapshot().particleCount(), static_cast<size_t>(kColumnParticles));
    EXPECT_FALSE(loop.isPlaying());
}

TEST(SimLoop, StepOnceWhilePlayingPauses) {
    SimLoop loop(loadColumn());
    loop.play();
    ASSERT_TRUE(takeUntilPublished(loop, 3));
    loop.stepOnce();
    EXPECT_FALSE(loop.isPlaying());
    const std::uint64_t settled = pauseAndSettle(loop);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(loop.publishedCount(), settled);
}

TEST(SimLoop, StepsPerFrameStepsBetweenPublishes) {
    SimLoop loop(loadColumn());
    loop.setStepsPerFrame(4);
    loop.play();
    std::vector<std::int64_t> stepCounts;
    ASSERT_TRUE(waitFor([&] {
        if (loop.takeNewest()) stepCounts.push_back(loop.snapshot().stepCount);
        return loop.snapshot().sequence >= 6;
    }));
    for (std::int64_t n : stepCounts)
        EXPECT_EQ(n % 4, 0) << n;
    EXPECT_GT(stepCounts.back(), 0);
}

TEST(SimLoop, StopJoinsWhetherPlayingOrPausedAndIsIdempotent) {
    {
        SimLoop paused(loadColumn());
        ASSERT_TRUE(takeUntilPublished(paused, 1));
        paused.stop();  // the thread is asleep on the condition variable
        paused.stop();
    }
    SimLoop playing(loadColumn());
    playing.play();
    ASSERT_TRUE(takeUntilPublished(playing, 3));
    playing.stop();
    const std::uint64_t count = playing.publishedCount();
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(playing.publishedCount(), count);
    // The last published snapshot is still there to take after the thread has ended.
    playing.takeNewest();
    EXPECT_EQ(playing.snapshot().sequence, count);
}

TEST(SimLoop, ADivergedWorldPausesAndItsSnapshotSaysWhy) {
    World world = loadColumn();
    ndem::StepSettings settings = world.settings();
    settings.gravity = ndem::Vec3(0.0, 0.0, -1e308);  // a speed whose square overflows
    ASSERT_FALSE(world.applySettings(settings));
    SimLoop loop(std::move(world));
    loop.play();
    ASSERT_TRUE(waitFor([&] {
        loop.takeNewest();
        return loop.snapshot().divergence.has_value();
    }));
    EXPECT_TRUE(waitFor([&] { return !loop.isPlaying(); }));
    const std::int64_t divergedAt = loop.snapshot().divergence->step;
    EXPECT_EQ(divergedAt, loop.snapshot().stepCount);
    EXPECT_EQ(loop.snapshot().divergence->quantity, "velocity");
    // It stays where it diverged: a step request takes no step.
    const std::uint64_t settled = pauseAndSettle(loop);
    loop.stepOnce();
    ASSERT_TRUE(takeUntilPublished(loop, settled + 1));
    EXPECT_EQ(loop.snapshot().stepCount, divergedAt);
}
