// The measurements a scene can request by type (scene file "measurements": [...]).
#pragma once

#include "core/error.hpp"
#include "core/scene.hpp"
#include "measure/measurement.hpp"

#include <memory>
#include <optional>
#include <string>

namespace ndem {

/// One known measurement type: its name, parameters and what it reports (for the docs).
struct MeasurementType {
    const char* type;
    const char* parameters;
    const char* reports;
};

/// Every type the engine knows.
const std::vector<MeasurementType>& measurementTypes();

/// Checks type and parameters without a world; the message says what is wrong.
std::optional<std::string> checkMeasurementRequest(const MeasurementRequest& request);

/// Builds a measurement for `world` (e.g. resolves particle ids and wall names).
Expected<std::unique_ptr<Measurement>> makeMeasurement(const MeasurementRequest& request,
                                                       const World& world);

}  // namespace ndem
