// Everything that defines a simulation before it starts: what a scene file describes.
#pragma once

#include "core/emitter.hpp"
#include "core/material.hpp"
#include "core/particles.hpp"
#include "core/settings.hpp"
#include "core/split_sensor.hpp"
#include "core/triangle_mesh.hpp"
#include "core/wall.hpp"

#include <string>
#include <vector>

namespace ndem {

/// A measurement the scene asks for, by type, with its parameters as numbers and words.
struct MeasurementRequest {
    std::string type;  ///< e.g. "columnHeight", "track", "energy"
    std::vector<std::pair<std::string, double>> numbers;
    std::vector<std::pair<std::string, std::string>> words;
    std::vector<std::pair<std::string, std::vector<double>>> lists;

    double number(const std::string& key, double fallback) const {
        for (const auto& [k, v] : numbers)
            if (k == key) return v;
        return fallback;
    }
    std::string word(const std::string& key, const std::string& fallback) const {
        for (const auto& [k, v] : words)
            if (k == key) return v;
        return fallback;
    }
    std::vector<double> list(const std::string& key, std::vector<double> fallback) const {
        for (const auto& [k, v] : lists)
            if (k == key) return v;
        return fallback;
    }
};

/// Settings that change at a simulated time (a column settled with one solver and released
/// with another, a sample consolidated then sheared): the keys listed take the values in
/// `settings` from the first step at or after `at`; the others keep what they are then.
struct SettingsPhase {
    double at = 0.0;                ///< (s)
    std::vector<std::string> keys;  ///< the settings keys this phase sets
    StepSettings settings;          ///< the scene's settings with every phase up to this one
};

struct Scene {
    std::string name;
    std::string description;
    std::string sourcePath;  ///< the file it was loaded from, if any
    StepSettings settings;
    std::vector<SettingsPhase> phases;  ///< in order of time
    std::vector<Material> materials;
    std::vector<ContactMaterialOverride> contactMaterials;
    std::vector<Wall> walls;
    std::vector<TriangleMesh> meshes;
    std::vector<ParticleSpec> particles;
    std::vector<EmitterSpec> emitters;
    std::vector<SinkSpec> sinks;
    std::vector<SplitSensor> sensors;  ///< model reduction's split sensors
    double duration = 1.0;             ///< default simulated time of `ndem run` (s)
    std::vector<MeasurementRequest> measurements;
};

}  // namespace ndem
