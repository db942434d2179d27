// The divergence guards' findings (engine/world/state_guard.hpp) as messages for the window:
// each warning once per loaded world, a divergence once until the world is replaced.
#pragma once

#include "sim/snapshot.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ndem::app {

class GuardMessages {
  public:
    /// What `s` holds that was not taken yet ("warning: …", "stopped: …").
    std::vector<std::string> take(const Snapshot& s) {
        std::vector<std::string> out;
        if (s.worldGeneration != m_generation) {
            m_generation = s.worldGeneration;
            m_warnings = 0;
            m_divergence = false;
        }
        // One message for those that came together: a step's warnings name the cause before
        // the symptom (a static step without equilibrium, then its grain behind the floor),
        // and a window shows one message at a time, each replacing the last.
        std::string joined;
        for (; m_warnings < s.warnings.size(); ++m_warnings)
            joined += (joined.empty() ? "warning: " : " · then: ") + s.warnings[m_warnings].message;
        if (!joined.empty()) out.push_back(std::move(joined));
        if (s.divergence && !m_divergence) {
            out.push_back("stopped: " + s.divergence->message + "; reset or open a scene");
            m_divergence = true;
        }
        return out;
    }

  private:
    std::uint64_t m_generation = ~std::uint64_t{0};
    size_t m_warnings = 0;
    bool m_divergence = false;
};

}  // namespace ndem::app
