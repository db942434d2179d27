// The measurements a scene can request by type (scene file "measurements": [...]).
#pragma once

#include "core/error.hpp"
#include "core/scene.hpp"
#include "measure/measurement.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ndem {

/// Every measurement type the engine knows (measure/registry.cpp lists them).
const std::vector<const MeasurementFactory*>& measurementFactories();

/// Checks type and parameter names and kinds without a world; the message says what is wrong.
std::optional<std::string> checkMeasurementRequest(const MeasurementRequest& request);

/// Builds a measurement for `world` (e.g. resolves particle ids and wall names).
Expected<std::unique_ptr<Measurement>> makeMeasurement(const MeasurementRequest& request,
                                                       const World& world);

}  // namespace ndem
