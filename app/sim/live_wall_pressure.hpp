// The silo's wall pressure profile for the live plot, averaged over a short window of steps.
#pragma once

#include "measure/measurement.hpp"
#include "world/world.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ndem::app {

/// Wall pressure p(z) on the first cylinder wall in 5 d strips (the engine's wallPressure
/// measurement), with the hydrostatic line and the fitted Janssen curve.
struct WallPressureProfile {
    std::string wall;                ///< empty: the scene has no cylinder wall
    std::vector<float> depth;        ///< below the fill surface (m)
    std::vector<float> pressure;     ///< (Pa)
    std::vector<float> hydrostatic;  ///< ρ_b g (H − z) (Pa)
    std::vector<float> janssen;      ///< p_sat (1 − exp(−depth/λ)) (Pa)
    double pSat = 0.0, lambda = 0.0, janssenK = 0.0, fillHeight = 0.0;
    double windowTime = 0.0;  ///< simulated time the profile averages over (s)
};

/// Sampled by the sim thread after every step. The average restarts every `window` seconds of
/// simulated time; the snapshot shows the last complete window (the running one until then),
/// so the curve is steady and at most one window old.
class LiveWallPressure {
  public:
    explicit LiveWallPressure(double window = 0.25) : m_window(window) {}
    /// Finds the cylinder wall of a (new) world; none: the profile stays empty.
    void attach(const World& world);
    void sample(const World& world, const StepStats& stats);
    void fill(WallPressureProfile& out) const;

  private:
    void restart(const World& world);

    double m_window;
    std::string m_wall;
    std::unique_ptr<Measurement> m_running;
    double m_runningSince = 0.0;
    WallPressureProfile m_complete;  ///< of the last finished window
    bool m_haveComplete = false;
};

}  // namespace ndem::app
