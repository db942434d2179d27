#include "render/sensor_geometry.hpp"

#include "render/wall_geometry.hpp"

#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace ndem::app {

std::vector<glm::vec3> unitSensorMesh(SensorShape shape) {
    std::vector<glm::vec3> out;
    constexpr float kTau = 6.2831853f;
    switch (shape) {
        case SensorShape::Box: {
            Wall unit;
            unit.shape = WallShape::Box;
            unit.halfExtents = Vec3::Ones();
            return buildWallMesh(unit, {}, glm::vec3(0.0f), glm::vec3(0.0f)).triangles;
        }
        case SensorShape::Cylinder: {
            constexpr int kSegments = 48;
            for (int k = 0; k < kSegments; ++k) {
                const float a0 = kTau * static_cast<float>(k) / kSegments;
                const float a1 = kTau * static_cast<float>(k + 1) / kSegments;
                const glm::vec3 p0(std::cos(a0), std::sin(a0), -0.5f),
                    p1(std::cos(a1), std::sin(a1), -0.5f);
                const glm::vec3 up(0.0f, 0.0f, 1.0f);
                out.insert(out.end(), {p0, p1, p1 + up, p0, p1 + up, p0 + up});
                out.insert(out.end(), {glm::vec3(0, 0, -0.5f), p1, p0});
                out.insert(out.end(), {glm::vec3(0, 0, 0.5f), p0 + up, p1 + up});
            }
            return out;
        }
        case SensorShape::Sphere:
        default: {
            constexpr int kRings = 16, kSegments = 32;
            auto at = [&](int ring, int segment) {
                const float theta = 0.5f * kTau * static_cast<float>(ring) / kRings;
                const float phi = kTau * static_cast<float>(segment) / kSegments;
                return glm::vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                                 std::cos(theta));
            };
            for (int r = 0; r < kRings; ++r)
                for (int s = 0; s < kSegments; ++s) {
                    const glm::vec3 a = at(r, s), b = at(r + 1, s), c = at(r + 1, s + 1),
                                    d = at(r, s + 1);
                    out.insert(out.end(), {a, b, c, a, c, d});
                }
            return out;
        }
    }
}

glm::mat4 sensorModel(const SplitSensor& s) {
    const glm::quat q(static_cast<float>(s.orientation.w()), static_cast<float>(s.orientation.x()),
                      static_cast<float>(s.orientation.y()), static_cast<float>(s.orientation.z()));
    glm::vec3 scale;
    switch (s.shape) {
        case SensorShape::Box:
            scale = glm::vec3(s.halfExtents.x(), s.halfExtents.y(), s.halfExtents.z());
            break;
        case SensorShape::Cylinder:
            scale = glm::vec3(s.radius, s.radius, s.height);
            break;
        case SensorShape::Sphere:
        default:
            scale = glm::vec3(static_cast<float>(s.radius));
            break;
    }
    glm::mat4 m = glm::mat4_cast(q);
    for (int k = 0; k < 3; ++k)
        m[k] *= scale[k];
    m[3] = glm::vec4(static_cast<float>(s.position.x()), static_cast<float>(s.position.y()),
                     static_cast<float>(s.position.z()), 1.0f);
    return m;
}

std::optional<double> raySensor(const SplitSensor& s, const Vec3& origin, const Vec3& direction) {
    // Sphere tracing: the sensor's distance is exact outside the shape, so steps of that
    // length never pass through it.
    double t = 0.0;
    for (int k = 0; k < 200; ++k) {
        const double d = s.distance(origin + t * direction);
        if (d < 1e-6) return t;
        t += d;
        if (t > 1e4) break;
    }
    return std::nullopt;
}

}  // namespace ndem::app
