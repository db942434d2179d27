// What the particle colours show: a scalar per particle through a colour map, or categories.
#pragma once

#include "sim/snapshot.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace ndem::app {

enum class ColourMode : int {
    Speed,             ///< |v| (m/s)
    RelativeVelocity,  ///< |v − Ω × r| against the rotating wall's rigid co-motion (m/s)
    Height,            ///< z (m)
    ContactCount,      ///< touching contacts, walls included
    Pressure,          ///< tr(σ)/3 of the particle (Pa)
    Aggregate,         ///< aggregate id vs free particle
    ParticleId,        ///< stable id, hashed to a colour
};

inline constexpr std::array<const char*, 7> kColourModeNames{
    "speed",         "velocity vs co-rotation", "height",
    "contact count", "particle pressure",       "aggregate",
    "particle id"};
/// Short names for the command line (--colour), in the same order.
inline constexpr std::array<const char*, 7> kColourModeKeys{
    "speed", "co-rotation", "height", "contacts", "pressure", "aggregate", "id"};
inline constexpr std::array<const char*, 7> kColourModeUnits{"m/s", "m/s", "m", "", "Pa", "", ""};

/// The colour scale of scalar modes: values at the two ends of the map.
struct ColourRange {
    float lo = 0.0f;
    float hi = 1.0f;
    bool scalar = true;  ///< false for categorical modes (no legend bar)
};

/// Viridis-like map: t in [0, 1] to packed RGBA8 (little-endian: r in the low byte).
std::uint32_t viridis(float t);

/// Fills one RGBA8 colour per particle. With `autoRange` the range is the 1st–99th percentile
/// of the values (a few fast grains do not wash out the rest); otherwise `range` is used as given.
void computeColours(const Snapshot& s, ColourMode mode, bool autoRange, ColourRange& range,
                    std::vector<std::uint32_t>& rgba);

/// Gives every aggregate member its aggregate's colour (the other particles keep theirs);
/// `pastel` lightens them for drawing over a scalar colour map.
void markAggregates(const Snapshot& s, std::vector<std::uint32_t>& rgba, bool pastel);

/// The value mode shows for particle i (NaN for categorical modes).
float colourValue(const Snapshot& s, ColourMode mode, size_t i);

}  // namespace ndem::app
