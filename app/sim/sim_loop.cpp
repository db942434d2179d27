#include "sim/sim_loop.hpp"

#include <algorithm>
#include <utility>

namespace ndem::app {

SimLoop::SimLoop(World world, std::function<void()> onPublished)
    : m_world(std::move(world)), m_onPublished(std::move(onPublished)) {
    m_wallPressure.attach(m_world);
    m_thread = std::thread([this] { run(); });
}

SimLoop::~SimLoop() {
    stop();
}

// Each request changes the state under the mutex before notifying: a notify sent between the
// sim thread's predicate check and its wait would otherwise be lost and the loop would sleep
// through the request.

void SimLoop::play() {
    {
        std::lock_guard lock(m_mutex);
        m_playing = true;
    }
    m_wake.notify_one();
}

void SimLoop::pause() {
    std::lock_guard lock(m_mutex);
    m_playing = false;
}

void SimLoop::stepOnce() {
    {
        std::lock_guard lock(m_mutex);
        m_playing = false;
        ++m_stepRequests;
    }
    m_wake.notify_one();
}

bool SimLoop::isPlaying() const {
    std::lock_guard lock(m_mutex);
    return m_playing;
}

void SimLoop::setStepsPerFrame(int steps) {
    std::lock_guard lock(m_mutex);
    m_stepsPerFrame = std::max(1, steps);
}

void SimLoop::setContactForceThreshold(double newtons) {
    std::lock_guard lock(m_mutex);
    m_forceThreshold = newtons;
}

void SimLoop::setFrameInterval(double seconds) {
    {
        std::lock_guard lock(m_mutex);
        m_frameInterval = seconds > 0.0 ? seconds : 0.0;
        m_holding = false;
    }
    m_wake.notify_one();
}

void SimLoop::releaseFrame() {
    {
        std::lock_guard lock(m_mutex);
        m_holding = false;
    }
    m_wake.notify_one();
}

void SimLoop::replaceWorld(World world) {
    // Command is a copyable std::function and World is move-only: the lambda holds it shared.
    post([this, next = std::make_shared<World>(std::move(world))](World& target) {
        target = std::move(*next);
        m_worldReplaced = true;
    });
}

void SimLoop::takeStep() {
    // A world whose state went non-finite stays as it is, to be looked at or reset.
    if (m_world.divergence()) return;
    m_lastStats = m_world.step();
    m_recentSteps.push_back(m_lastStats);
    m_wallPressure.sample(m_world, m_lastStats);
}

void SimLoop::post(Command command) {
    m_commands.push(std::move(command));
    {
        std::lock_guard lock(m_mutex);
        m_commandsPosted = true;
    }
    m_wake.notify_one();
}

void SimLoop::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopRequested = true;
    }
    m_stopping.store(true, std::memory_order_relaxed);
    m_wake.notify_one();
    if (m_thread.joinable()) m_thread.join();
}

void SimLoop::run() {
    double forceThreshold = 0.0;
    {
        std::lock_guard lock(m_mutex);
        forceThreshold = m_forceThreshold;
    }
    publish(forceThreshold);

    for (;;) {
        // Take this frame's requests and let go of the mutex before any real work, so the GUI
        // never waits for a step. Paused with nothing queued, sleep until a request arrives.
        Frame frame;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] {
                return m_stopRequested || (m_playing && !m_holding) || m_stepRequests > 0 ||
                       m_commandsPosted;
            });
            if (m_stopRequested) return;
            frame.commands = std::exchange(m_commandsPosted, false);
            if (m_playing && m_holding) {
                // Only commands or a stop woke us: the paced frame is still on screen.
            } else if (m_playing && m_frameInterval > 0.0) {
                frame.interval = m_frameInterval;
                m_holding = true;
                m_stepRequests = 0;
            } else if (m_playing) {
                // stepOnce() pauses, so requests seen while playing predate a later play():
                // playing has taken those steps.
                frame.steps = m_stepsPerFrame;
                m_stepRequests = 0;
            } else if (m_stepRequests > 0) {
                frame.steps = 1;
                --m_stepRequests;
            }
            frame.forceThreshold = m_forceThreshold;
        }

        // Commands first: they apply between the previous frame's last step and this one's
        // first, never inside a step.
        const int commandsRun = frame.commands ? m_commands.drain(m_world) : 0;
        if (std::exchange(m_worldReplaced, false)) {
            ++m_generation;
            m_recentSteps.clear();
            m_wallPressure.attach(m_world);
        }
        for (int k = 0; k < frame.steps; ++k)
            takeStep();
        if (frame.interval > 0.0) {
            if (frame.interval != m_paceInterval || m_world.time() < m_paceBase) {
                m_paceInterval = frame.interval;
                m_paceBase = m_world.time();
                m_paceCount = 0;
            }
            // Half a step of slack keeps round-off in the accumulated time from adding a step.
            const double end = m_paceBase + static_cast<double>(++m_paceCount) * frame.interval -
                               0.5 * m_world.settings().timeStep;
            do {
                takeStep();
            } while (m_world.time() < end && !m_stopping.load(std::memory_order_relaxed) &&
                     !m_world.divergence());
            frame.steps = 1;
        }
        if (m_world.divergence()) {
            // Nothing more to step: pause, so that the loop sleeps until a reset or a command.
            std::lock_guard lock(m_mutex);
            m_playing = false;
            m_stepRequests = 0;
        }
        if (frame.steps > 0 || commandsRun > 0) publish(frame.forceThreshold);
    }
}

void SimLoop::publish(double forceThreshold) {
    // A command that replaced or reset the world leaves stats of a step the world never took.
    if (m_lastStats.step != m_world.stepCount()) m_lastStats = StepStats{};
    Snapshot& snapshot = m_buffer.back();
    fillSnapshot(m_world, m_lastStats, forceThreshold, snapshot);
    snapshot.recentSteps.swap(m_recentSteps);
    m_recentSteps.clear();
    m_wallPressure.fill(snapshot.wallPressure);
    snapshot.worldGeneration = m_generation;
    // The sequence goes in before publish(): afterwards the slot belongs to the reader.
    const std::uint64_t sequence = m_published.load(std::memory_order_relaxed) + 1;
    snapshot.sequence = sequence;
    m_buffer.publish();
    m_published.store(sequence, std::memory_order_release);
    if (m_onPublished) m_onPublished();
}

}  // namespace ndem::app
