// Helpers shared by the engine tests.
#pragma once

#include "world/world.hpp"

#include <gtest/gtest.h>

namespace ndem::test {

/// Builds a world from a scene and fails the test with the error message if that fails.
inline World makeWorld(const Scene& scene) {
    auto world = World::create(scene);
    if (!world) ADD_FAILURE() << world.error().message;
    return world ? std::move(world.value()) : World{};
}

/// Steps until simulated time t (s); returns the last step's stats.
inline StepStats runUntil(World& world, double t) {
    StepStats stats;
    while (world.time() < t - 1e-12) stats = world.step();
    return stats;
}

}  // namespace ndem::test
