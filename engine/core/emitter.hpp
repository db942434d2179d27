// Sources and sinks of particles: emitters that pour grains in at a rate (pile, conveyor) and
// sinks that take away the grains that leave the region of interest (conveyor discharge).
#pragma once

#include "core/material.hpp"
#include "core/radius_distribution.hpp"
#include "core/random.hpp"
#include "core/types.hpp"

#include <limits>
#include <string>

namespace ndem {

/// Emits particles at random, non-overlapping positions inside an axis-aligned box.
struct EmitterSpec {
    std::string name = "emitter";
    Vec3 min = Vec3::Zero(), max = Vec3::Zero();            ///< box of the new particle centres (m)
    double rate = 100.0;                                    ///< particles per second
    double start = 0.0;                                     ///< first emission (s)
    double stop = std::numeric_limits<double>::infinity();  ///< last emission (s)
    long maxCount = 0;                                      ///< total emitted, 0 = unlimited
    RadiusDistribution radii;
    Vec3 velocity = Vec3::Zero();  ///< initial velocity (m/s)
    MaterialId material = 0;
    std::uint64_t seed = 1;
};

/// Removes every particle whose centre is inside an axis-aligned box.
struct SinkSpec {
    std::string name = "sink";
    Vec3 min = Vec3::Zero(), max = Vec3::Zero();  ///< (m)
};

/// An emitter with its running state.
struct Emitter {
    EmitterSpec spec;
    double owed = 0.0;  ///< fractional particles carried to the next step
    long emitted = 0;
    long skipped = 0;  ///< emissions given up because no free place was found
    Random random{1};
};

}  // namespace ndem
