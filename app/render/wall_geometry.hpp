// Triangles of each wall in its own local frame, built once per scene for the viewport.
#pragma once

#include "core/triangle_mesh.hpp"
#include "core/wall.hpp"

#include <glm/glm.hpp>

#include <vector>

namespace ndem::app {

/// A wall's drawable surface: triangle soup in the wall's local frame (placed by its pose).
struct WallMesh {
    std::vector<glm::vec3> triangles;  ///< 3 vertices per triangle (m)
    bool translucent = false;          ///< shells we look into (silo, drum): drawn see-through
};

/// Planes are infinite: they are drawn over the part of the plane the scene box [lo, hi]
/// covers (a floor somewhat further, for the grains that spread over it).
WallMesh buildWallMesh(const Wall& wall, const std::vector<TriangleMesh>& meshes,
                       const glm::vec3& lo, const glm::vec3& hi);

}  // namespace ndem::app
