// What the World samples after every step and saves with its state: the interface every
// measurement implements (measure/ holds them and their factories). The world owns the
// measurements a scene subscribes; it knows them only through this.
#pragma once

#include "core/state_archive.hpp"
#include "core/step_stats.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ndem {

class World;

/// Equal-length named columns (a CSV file).
using Table = std::map<std::string, std::vector<double>>;

/// Numbers a measurement reports: scalars, a time series, and further tables (profiles,
/// per-contact lists, fields).
struct MeasurementResult {
    std::string name;
    std::string headline;  ///< one line for summaries, e.g. "floor carries 36 % of the weight"
    std::map<std::string, double> scalars;
    Table series;                         ///< usually over time: column "t" and values
    std::map<std::string, Table> tables;  ///< e.g. "profile": z and p(z)
    std::map<std::string, std::string> notes;
};

class Measurement {
  public:
    virtual ~Measurement() = default;
    virtual std::string name() const = 0;
    /// Called before each step (e.g. to ask the world for a solver probe).
    virtual void prepare(World&) {}
    /// Called after the step's integration; the world holds x_{i+1}, v_{i+1} and the step's
    /// contacts with their impulses.
    virtual void sample(const World& world, const StepStats& stats) = 0;
    virtual MeasurementResult result() const = 0;
    /// Saves or loads what the samples have accumulated (World::archive, under the
    /// measurement's own scope), so that a restarted run reports what an unbroken one would.
    /// Configuration from the constructor and scratch rewritten at every sample stay out.
    /// Pure so that no measurement can forget it; helpers in measure/measurement_state.hpp.
    virtual void archive(StateArchive& a) = 0;
};

}  // namespace ndem
