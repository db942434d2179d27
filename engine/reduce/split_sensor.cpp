#include "reduce/split_sensor.hpp"

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

}  // namespace ndem
