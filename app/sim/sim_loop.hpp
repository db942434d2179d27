// The app's simulation thread: owns the World, steps it, and hands snapshots to the GUI.
#pragma once

#include "core/step_stats.hpp"
#include "sim/command_queue.hpp"
#include "sim/live_wall_pressure.hpp"
#include "sim/snapshot.hpp"
#include "sim/triple_buffer.hpp"
#include "world/world.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace ndem::app {

/// Runs a World on its own thread (docs/architecture.md, "Threads"). Each frame the thread applies
/// the queued commands, takes `stepsPerFrame` steps while playing (or one per stepOnce), then
/// copies the world into a Snapshot and publishes it through a triple buffer.
///
/// Threading contract: every public function except the ones marked otherwise is for one
/// controlling thread (the GUI). None of them waits for a step: the control mutex is held by
/// the sim thread only to read the requests between frames, never while stepping, copying or
/// running commands. The World is reachable only through commands.
class SimLoop {
  public:
    /// Starts the thread, paused, and publishes the initial state so the GUI can draw the scene
    /// before the first step. `onPublished` runs on the sim thread after each publish; it must
    /// not block or call stop() (the GUI passes something that posts a queued update).
    explicit SimLoop(World world, std::function<void()> onPublished = {});
    ~SimLoop();
    SimLoop(const SimLoop&) = delete;
    SimLoop& operator=(const SimLoop&) = delete;

    void play();
    void pause();
    /// Pauses and takes exactly one step (published on its own); n calls take n steps.
    void stepOnce();
    bool isPlaying() const;
    /// Steps between two publishes while playing; more steps per frame spend less time copying
    /// snapshots when each step is cheap. Clamped to >= 1.
    void setStepsPerFrame(int steps);
    /// Contacts with a normal force above this become snapshot edges (N).
    void setContactForceThreshold(double newtons);

    /// Video pacing: while playing, each frame steps until the simulated time has advanced by
    /// `seconds` (at least one step), publishes, and then holds until releaseFrame(), so a
    /// recording gets exactly one frame per interval of simulated time however slow or fast
    /// the step is. The sim waits for the GUI here, never the other way round. 0 turns it off.
    void setFrameInterval(double seconds);
    /// The GUI has drawn the held frame; the sim thread may take the next one.
    void releaseFrame();

    /// Queues the replacement of the whole world (open a scene, reset); the snapshot's
    /// worldGeneration goes up with it.
    void replaceWorld(World world);

    /// Queues a command for the sim thread; it runs before the next step. A paused loop wakes
    /// up, runs it and publishes, so the GUI sees its effect (a reset, a new scene) at once.
    void post(Command command);

    /// Makes the newest published snapshot current; false when none arrived since the last
    /// call. snapshot() is stable until the next takeNewest(). GUI thread only.
    bool takeNewest() { return m_buffer.refresh(); }
    const Snapshot& snapshot() const { return m_buffer.front(); }

    /// Snapshots published so far; any thread.
    std::uint64_t publishedCount() const { return m_published.load(std::memory_order_acquire); }

    /// Ends the thread after its current frame and joins it. Queued commands that have not run
    /// are dropped. Idempotent; the destructor calls it.
    void stop();

  private:
    /// What the sim thread does in one frame, read under the control mutex.
    struct Frame {
        int steps = 0;
        double interval = 0.0;  ///< > 0: step through this much simulated time, then hold
        bool commands = false;
        double forceThreshold = 0.0;
    };

    void run();
    void publish(double forceThreshold);
    void takeStep();

    // Sim thread only (and the constructor, before the thread starts).
    World m_world;
    StepStats m_lastStats;
    std::vector<StepStats> m_recentSteps;  ///< since the last publish
    LiveWallPressure m_wallPressure;
    std::uint64_t m_generation = 0;
    bool m_worldReplaced = false;  ///< set by a replaceWorld command, read after the drain
    // Paced frames fall on base + k × interval: fixed targets, so round-off in the steps never
    // accumulates into the video's clock.
    double m_paceInterval = 0.0, m_paceBase = 0.0;
    long m_paceCount = 0;
    std::function<void()> m_onPublished;

    CommandQueue m_commands;
    TripleBuffer<Snapshot> m_buffer;
    std::atomic<std::uint64_t> m_published{0};
    std::atomic<bool> m_stopping{false};  ///< read between the steps of a long paced frame

    // Requests from the controlling thread, guarded by m_mutex; m_wake is notified on each.
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_playing = false;
    bool m_stopRequested = false;
    bool m_commandsPosted = false;
    int m_stepRequests = 0;
    int m_stepsPerFrame = 1;
    double m_frameInterval = 0.0;   ///< (s), 0 = not pacing
    bool m_holding = false;         ///< a paced frame was published and waits for releaseFrame()
    double m_forceThreshold = 0.0;  ///< (N)

    // Last: everything above is constructed before the thread that uses it starts.
    std::thread m_thread;
};

}  // namespace ndem::app
