// GUI actions waiting for the sim thread: applied between steps, never in the middle of one.
#pragma once

#include "world/world.hpp"

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace ndem::app {

/// A change to the world (new settings, a moved sensor, a reset, a new scene). It runs on the
/// sim thread between steps, so it may touch the World freely. It must not throw: errors are
/// values here (World::applySettings returns one), and an exception would end the sim thread.
using Command = std::function<void(World&)>;

/// Many pushers (the GUI thread), one drainer (the sim thread). The mutex guards only the
/// pending vector: push appends, drain swaps it out and runs the commands unlocked, so a slow
/// command never blocks the GUI and a command may itself push (it runs at the next drain).
/// Both vectors keep their capacity, so a steady trickle of commands does not allocate for the
/// vectors (a std::function may still allocate for a large capture).
class CommandQueue {
  public:
    void push(Command command) {
        std::lock_guard lock(m_mutex);
        m_pending.push_back(std::move(command));
    }

    /// Runs every command pushed before the swap, in push order; returns how many ran.
    /// Sim thread only.
    int drain(World& world) {
        {
            std::lock_guard lock(m_mutex);
            if (m_pending.empty()) return 0;
            m_pending.swap(m_running);
        }
        for (Command& command : m_running)
            command(world);
        const int count = static_cast<int>(m_running.size());
        m_running.clear();
        return count;
    }

    bool empty() const {
        std::lock_guard lock(m_mutex);
        return m_pending.empty();
    }

  private:
    mutable std::mutex m_mutex;
    std::vector<Command> m_pending;  ///< guarded by m_mutex
    std::vector<Command> m_running;  ///< drainer's only; empty between drains
};

}  // namespace ndem::app
