// A measurement subscribed to a World: sampled after every step, reported at the end.
#pragma once

#include "core/error.hpp"
#include "core/state_archive.hpp"
#include "core/step_stats.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ndem {

class World;
struct MeasurementRequest;

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

/// A parameter of a measurement type in the scene file.
struct MeasurementParameter {
    enum Kind { Number, Whole, Word, List };
    const char* name;
    Kind kind;
    const char* doc;
};

/// A measurement type: its scene-file name, parameters, what it reports, and its builder
/// (which may refuse a request for a given world, e.g. an unknown wall name).
struct MeasurementFactory {
    const char* type;
    const char* reports;
    std::vector<MeasurementParameter> parameters;
    Expected<std::unique_ptr<Measurement>> (*make)(const MeasurementRequest&, const World&);
};

}  // namespace ndem
