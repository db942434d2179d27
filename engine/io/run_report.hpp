// What a run produced: step statistics aggregated and sampled, measurements, the settings that
// made it. Written as the report JSON of `ndem run --report`.
#pragma once

#include "core/state_archive.hpp"

#include "core/error.hpp"
#include "core/step_stats.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ndem {

class World;
struct Scene;
struct Override;

/// Mean, max and last value of one StepStats field over a run.
struct RunningStat {
    double sum = 0.0, max = -1e300, last = 0.0;
    long count = 0;
    void add(double x) {
        sum += x;
        max = x > max ? x : max;
        last = x;
        ++count;
    }
    double mean() const { return count ? sum / count : 0.0; }
};

/// Collects the StepStats of a run: aggregates every step, keeps a time series of every
/// `sampleEvery`-th step (so reports stay small for long runs).
class RunRecorder {
  public:
    explicit RunRecorder(long sampleEvery = 1) : m_every(sampleEvery < 1 ? 1 : sampleEvery) {}
    void record(const StepStats& s);

    long steps() const { return m_steps; }
    const PhaseTimes& phaseTotals() const { return m_phases; }
    const StepStats& last() const { return m_last; }
    RunningStat contacts, iterations, residual, kineticEnergy, meanOverlap, maxOverlap, impacts;
    RunningStat reductionLevel, aggregates, members;  ///< model reduction
    long fallbacks = 0;                               ///< steps with a StepStats::fallback
    const char* lastFallback = nullptr;               ///< the last one's
    long servosClosingIn = 0;                         ///< steps with StepStats::servosClosingIn
    long staticRunawaySteps = 0;                      ///< steps with StepStats::staticRunaways

    struct Sample {
        double time, kineticEnergy, residual, meanOverlap, maxOverlap, stepSeconds;
        int contacts, iterations, impacts;
        double reductionLevel;
        int aggregates;
        double solverResidual;  ///< StepStats::solverResidual
        int fallback;           ///< 1: StepStats::fallback was set
    };
    const std::vector<Sample>& samples() const { return m_samples; }
    long sampleEvery() const { return m_every; }
    /// Saves or loads everything recorded so far (a validation run going on from a
    /// checkpoint keeps its statistics, core/state_archive.hpp).
    void archive(StateArchive& a);

  private:
    long m_every;
    long m_steps = 0;
    PhaseTimes m_phases;
    StepStats m_last;
    std::vector<Sample> m_samples;
};

/// Writes the report JSON (settings, summary, series, measurements) to `path` atomically:
/// a temporary file renamed into place, so a failed run leaves no partial report.
std::optional<Error> writeRunReport(const std::string& path, const Scene& scene,
                                    const std::vector<Override>& overrides, const World& world,
                                    const RunRecorder& recorder, double wallSeconds);

/// Every setting as {key: value} JSON text (the same keys as scene files).
std::string settingsJson(const World& world);

}  // namespace ndem
