// A small, portable, deterministic random stream for scene generation (splitmix64): the same
// seed gives the same scene on every platform and standard library.
#pragma once

#include <cstdint>

namespace ndem {

class Random {
  public:
    explicit Random(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// The stream's position, to save and restore it (a checkpoint).
    std::uint64_t state() const { return m_state; }
    void setState(std::uint64_t state) { m_state = state; }
    /// Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * (next() >> 11) * 0x1.0p-53; }

  private:
    std::uint64_t m_state;
};

}  // namespace ndem
