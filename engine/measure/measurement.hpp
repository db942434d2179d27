// The measurement types a scene file can name: their parameters and builders
// (measure/registry.cpp); the interface they implement is the world's (world/measurement.hpp).
#pragma once

#include "core/error.hpp"
#include "world/measurement.hpp"

#include <memory>
#include <vector>

namespace ndem {

struct MeasurementRequest;

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
