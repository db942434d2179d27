// A measurement subscribed to a World: sampled after every step, reported at the end.
#pragma once

#include "core/step_stats.hpp"

#include <map>
#include <string>
#include <vector>

namespace ndem {

class World;

/// Numbers a measurement reports: scalars, and named series (equal-length columns).
struct MeasurementResult {
    std::string name;
    std::string headline;  ///< one line for summaries, e.g. "floor carries 36 % of the weight"
    std::map<std::string, double> scalars;
    std::map<std::string, std::vector<double>> series;
    std::map<std::string, std::string> notes;
};

class Measurement {
public:
    virtual ~Measurement() = default;
    virtual std::string name() const = 0;
    /// Called after the step's integration; the world holds x_{i+1}, v_{i+1} and the step's
    /// contacts with their impulses.
    virtual void sample(const World& world, const StepStats& stats) = 0;
    virtual MeasurementResult result() const = 0;
};

}  // namespace ndem
