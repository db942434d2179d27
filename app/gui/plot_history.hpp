// Step statistics over simulated time for the live plots (iterations, phase times, energy).
#pragma once

#include "core/step_stats.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace ndem::app {

/// Columns of equal length, one row per recorded step. Bounded: past `capacity` rows every
/// other row is dropped and only every second step is kept from then on, so a long run keeps
/// its whole history at halving resolution in constant memory.
class PlotHistory {
  public:
    explicit PlotHistory(std::size_t capacity = 4000) : m_capacity(capacity) {}
    void add(const StepStats& s);
    void clear();
    std::size_t size() const { return time.size(); }

    std::vector<float> time;                                                  ///< t (s)
    std::vector<float> iterations;                                            ///< PGS sweeps
    std::vector<float> collideMs, impactMs, solveMs, integrateMs, measureMs;  ///< (ms)
    std::vector<float> kineticEnergy;                                         ///< (J)
    std::vector<float> meanOverlap;                                           ///< ⟨δ/d⟩ (–)
    std::vector<float> residual;        ///< mean residual after the last sweep (m/s)
    std::vector<float> reductionLevel;  ///< h of the model reduction (–)
    std::vector<float> reduceMs;        ///< merge and split (ms)
    std::vector<float> stepMs;          ///< the whole step (ms)
    /// The whole step split by whether model reduction was on (ms; NaN in the other column), so
    /// that switching it off and on draws the resolved and the reduced cost side by side.
    std::vector<float> stepMsReduced, stepMsResolved;

  private:
    /// Every column, for the operations that apply to all rows alike.
    std::array<std::vector<float>*, 15> columns();
    void halve();
    std::size_t m_capacity;
    long m_stride = 1;  ///< keep every m_stride-th step
    long m_seen = 0;
};

}  // namespace ndem::app
