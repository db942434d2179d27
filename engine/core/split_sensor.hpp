// Split sensors (servin-wang Sec. 3.2.3): physically transparent shapes that free
// every aggregate member they overlap. They never make a contact force.
#pragma once

#include "core/types.hpp"

#include <array>
#include <string>

namespace ndem {

enum class SensorShape : int { Box, Sphere, Cylinder };
inline constexpr std::array<const char*, 3> kSensorShapeNames{"box", "sphere", "cylinder"};

struct SplitSensor {
    std::string name = "sensor";
    SensorShape shape = SensorShape::Box;
    bool enabled = true;
    Vec3 position = Vec3::Zero();             ///< centre (m)
    Quat orientation = Quat::Identity();      ///< local to world; a cylinder's axis is local z
    Vec3 halfExtents = Vec3::Constant(0.05);  ///< box half extents (m)
    double radius = 0.05;                     ///< sphere and cylinder radius (m)
    double height = 0.1;                      ///< cylinder length along its axis, centred (m)
    Vec3 velocity = Vec3::Zero();             ///< prescribed motion (m/s)

    /// Distance from the world point x to the solid shape (0 inside) (m).
    double distance(const Vec3& x) const;
    /// A sphere of radius r at x touches or enters the shape.
    bool overlaps(const Vec3& x, double r) const { return distance(x) <= r; }
    void move(double h) { position += h * velocity; }
};

/// Why a sensor cannot be used (non-finite pose, sizes not > 0), or empty.
std::string sensorProblem(const SplitSensor& s);

}  // namespace ndem
