// Helpers shared by the engine tests. Their bodies live in test_util.cpp: Eigen's
// Quaternion::FromTwoVectors instantiates a JacobiSVD, seven seconds of compiling in every test
// file that would see it.
#pragma once

#include "solve/convex/interior_point_settings.hpp"
#include "solve/method/solver_registry.hpp"
#include "solve/nscd/nscd_settings.hpp"
#include "solve/pgs/pgs_settings.hpp"
#include "solve/settings_keys.hpp"
#include "world/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ndem::test {

/// Builds a world from a scene and fails the test with the error message if that fails.
World makeWorld(const Scene& scene);

/// A plane wall through `at` whose normal (into the grains) is `normal`.
Wall plane(const std::string& name, const Vec3& at, const Vec3& normal);

/// Steps until simulated time t (s); returns the last step's stats.
inline StepStats runUntil(World& world, double t) {
    StepStats stats;
    while (world.time() < t - 1e-12)
        stats = world.step();
    return stats;
}

/// Adds a copy of the first material whose pair with it has no friction, and gives it to
/// every wall but the one named `keep`: frictionless side walls, so that only the floor holds
/// the grains up.
void smoothWallsBut(Scene& scene, const std::string& keep);

}  // namespace ndem::test
