#include "sim/sim_loop.hpp"

#include <algorithm>
#include <utility>

namespace ndem::app {

SimLoop::SimLoop(World world, std::function<void()> onPublished)
    : m_world(std::move(world)), m_onPublished(std::move(onPublished)) {
    m_thread = std::thread([this] { run(); });
}

SimLoop::~SimLoop() { stop(); }

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
                return m_stopRequested || m_playing || m_stepRequests > 0 || m_commandsPosted;
            });
            if (m_stopRequested) return;
            frame.commands = std::exchange(m_commandsPosted, false);
            if (m_playing) {
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
        for (int k = 0; k < frame.steps; ++k) m_lastStats = m_world.step();
        if (frame.steps > 0 || commandsRun > 0) publish(frame.forceThreshold);
    }
}

void SimLoop::publish(double forceThreshold) {
    // A command that replaced or reset the world leaves stats of a step the world never took.
    if (m_lastStats.step != m_world.stepCount()) m_lastStats = StepStats{};
    Snapshot& snapshot = m_buffer.back();
    fillSnapshot(m_world, m_lastStats, forceThreshold, snapshot);
    // The sequence goes in before publish(): afterwards the slot belongs to the reader.
    const std::uint64_t sequence = m_published.load(std::memory_order_relaxed) + 1;
    snapshot.sequence = sequence;
    m_buffer.publish();
    m_published.store(sequence, std::memory_order_release);
    if (m_onPublished) m_onPublished();
}

}  // namespace ndem::app
