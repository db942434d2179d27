// Helpers shared by the engine tests.
#pragma once

#include "world/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ndem::test {

/// Builds a world from a scene and fails the test with the error message if that fails.
inline World makeWorld(const Scene& scene) {
    auto world = World::create(scene);
    if (!world) ADD_FAILURE() << world.error().message;
    return world ? std::move(world.value()) : World{};
}

/// A plane wall through `at` whose normal (into the grains) is `normal`.
inline Wall plane(const std::string& name, const Vec3& at, const Vec3& normal) {
    Wall w;
    w.name = name;
    w.shape = WallShape::Plane;
    w.position = at;
    w.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), normal);
    return w;
}

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
inline void smoothWallsBut(Scene& scene, const std::string& keep) {
    Material smooth = scene.materials[0];
    smooth.name = "smooth";
    scene.materials.push_back(smooth);
    ContactMaterialOverride pair;
    pair.first = scene.materials[0].name;
    pair.second = "smooth";
    pair.friction = 0.0;
    scene.contactMaterials.push_back(pair);
    for (Wall& w : scene.walls)
        if (w.name != keep) w.material = static_cast<MaterialId>(scene.materials.size() - 1);
}

}  // namespace ndem::test
