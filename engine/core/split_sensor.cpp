#include "core/split_sensor.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

double SplitSensor::distance(const Vec3& x) const {
    const Vec3 p = orientation.conjugate() * (x - position);
    switch (shape) {
        case SensorShape::Sphere:
            return std::max(0.0, p.norm() - radius);
        case SensorShape::Cylinder: {
            const double radial = std::max(0.0, std::hypot(p.x(), p.y()) - radius);
            const double axial = std::max(0.0, std::abs(p.z()) - 0.5 * height);
            return std::hypot(radial, axial);
        }
        case SensorShape::Box:
        default:
            return (p.cwiseAbs() - halfExtents).cwiseMax(0.0).norm();
    }
}

std::string sensorProblem(const SplitSensor& s) {
    if (!s.position.allFinite() || !s.velocity.allFinite() || !s.orientation.coeffs().allFinite())
        return "sensor '" + s.name + "': position, velocity and rotation must be finite";
    if (s.shape == SensorShape::Box &&
        !((s.halfExtents.array() > 0.0).all() && s.halfExtents.allFinite()))
        return "sensor '" + s.name + "': every half extent must be > 0";
    if (s.shape != SensorShape::Box && !(s.radius > 0.0 && std::isfinite(s.radius)))
        return "sensor '" + s.name + "': radius must be > 0";
    if (s.shape == SensorShape::Cylinder && !(s.height > 0.0 && std::isfinite(s.height)))
        return "sensor '" + s.name + "': height must be > 0";
    return {};
}

}  // namespace ndem
