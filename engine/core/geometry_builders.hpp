// Composite geometry the scenes use, built from walls and meshes.
#pragma once

#include "core/triangle_mesh.hpp"
#include "core/wall.hpp"

#include <vector>

namespace ndem {

/// A rotating drum (servin-2014 Sec. 4.2.2; wang-servin-berglund; servin-wang): the inside
/// of a cylinder, two end caps, and a saw-tooth lining of `teeth` teeth (height, attack angle)
/// that together cover the circumference. Everything rotates at `speed` about the axis.
struct DrumSpec {
    std::string name = "drum";
    Vec3 center = Vec3::Zero();  ///< midpoint of the axis (m)
    Vec3 axis = Vec3::UnitY();   ///< rotation axis (unit)
    double diameter = 0.8;       ///< Φ (m)
    double length = 0.08;        ///< along the axis (m)
    double speed = 0.0;          ///< Ω (rad/s), right-handed about `axis`
    int teeth = 0;               ///< 0: smooth wall
    double toothHeight = 0.012;  ///< (m)
    double attackAngle = 50.0;   ///< angle of the leading face to the wall (degrees)
    MaterialId material = 0;     ///< shell and teeth
    MaterialId capMaterial = 0;  ///< end caps (servin-wang's caps are frictionless)
};

/// Appends the drum's walls (cylinder, two caps, tooth mesh) and its mesh.
void buildDrum(const DrumSpec& spec, std::vector<Wall>& walls, std::vector<TriangleMesh>& meshes);

}  // namespace ndem
