// The list of measurement types and the checks every request goes through.
#include "measure/measurements.hpp"

#include <cmath>

namespace ndem {

// One factory per measurement file.
extern const MeasurementFactory kTrackMeasurement;
extern const MeasurementFactory kRestitutionMeasurement;
extern const MeasurementFactory kWallForceMeasurement;
extern const MeasurementFactory kColumnHeightMeasurement;
extern const MeasurementFactory kSolverConvergenceMeasurement;
extern const MeasurementFactory kSolverRaceMeasurement;
extern const MeasurementFactory kCellStressMeasurement;
extern const MeasurementFactory kContactErrorsMeasurement;
extern const MeasurementFactory kForceNetworkMeasurement;
extern const MeasurementFactory kIterationEstimateMeasurement;
extern const MeasurementFactory kDrumMeasurement;
extern const MeasurementFactory kAngleOfReposeMeasurement;
extern const MeasurementFactory kSlopeAngleMeasurement;
extern const MeasurementFactory kWallPressureMeasurement;
extern const MeasurementFactory kAxisPressureMeasurement;
extern const MeasurementFactory kFieldsMeasurement;
extern const MeasurementFactory kColumnCollapseMeasurement;

const std::vector<const MeasurementFactory*>& measurementFactories() {
    static const std::vector<const MeasurementFactory*> all = {
        &kTrackMeasurement,
        &kRestitutionMeasurement,
        &kWallForceMeasurement,
        &kColumnHeightMeasurement,
        &kSolverConvergenceMeasurement,
        &kSolverRaceMeasurement,
        &kCellStressMeasurement,
        &kContactErrorsMeasurement,
        &kForceNetworkMeasurement,
        &kIterationEstimateMeasurement,
        &kDrumMeasurement,
        &kAngleOfReposeMeasurement,
        &kSlopeAngleMeasurement,
        &kWallPressureMeasurement,
        &kAxisPressureMeasurement,
        &kFieldsMeasurement,
        &kColumnCollapseMeasurement,
    };
    return all;
}

namespace {

const MeasurementFactory* find(const std::string& type) {
    for (const MeasurementFactory* f : measurementFactories())
        if (type == f->type) return f;
    return nullptr;
}

const MeasurementParameter* parameter(const MeasurementFactory& f, const std::string& name) {
    for (const MeasurementParameter& p : f.parameters)
        if (name == p.name) return &p;
    return nullptr;
}

}  // namespace

std::optional<std::string> checkMeasurementRequest(const MeasurementRequest& r) {
    const MeasurementFactory* f = find(r.type);
    if (!f) {
        std::string names;
        for (const MeasurementFactory* k : measurementFactories())
            names += (names.empty() ? "" : " | ") + std::string(k->type);
        return "unknown measurement type '" + r.type + "' (known: " + names + ")";
    }
    auto unknown = [&](const std::string& k) {
        return "unknown parameter '" + k + "' for measurement '" + r.type + "'";
    };
    for (const auto& [k, v] : r.numbers) {
        const MeasurementParameter* p = parameter(*f, k);
        if (!p ||
            (p->kind != MeasurementParameter::Number && p->kind != MeasurementParameter::Whole))
            return p ? "parameter '" + k + "' must not be a number" : unknown(k);
        if (!std::isfinite(v)) return "parameter '" + k + "' must be finite";
        if (p->kind == MeasurementParameter::Whole && (v < 0.0 || v != std::floor(v)))
            return "parameter '" + k + "' must be a whole number >= 0";
    }
    for (const auto& [k, v] : r.words) {
        const MeasurementParameter* p = parameter(*f, k);
        if (!p || p->kind != MeasurementParameter::Word)
            return p ? "parameter '" + k + "' must not be a string" : unknown(k);
    }
    for (const auto& [k, v] : r.lists) {
        const MeasurementParameter* p = parameter(*f, k);
        if (!p || p->kind != MeasurementParameter::List)
            return p ? "parameter '" + k + "' must not be a list" : unknown(k);
    }
    return std::nullopt;
}

Expected<std::unique_ptr<Measurement>> makeMeasurement(const MeasurementRequest& r,
                                                       const World& world) {
    if (auto e = checkMeasurementRequest(r)) return Error{*e};
    return find(r.type)->make(r, world);
}

}  // namespace ndem
