// Split sensors in the viewport: unit meshes placed by each sensor's pose and size, and
// picking by casting the mouse ray against the sensor's own distance function.
#pragma once

#include "core/split_sensor.hpp"

#include <glm/glm.hpp>

#include <optional>
#include <vector>

namespace ndem::app {

/// Triangles of the unit shape (box [-1, 1]³, sphere of radius 1, cylinder of radius 1 from
/// z = −1/2 to 1/2 with caps) that sensorModel() scales, turns and places.
std::vector<glm::vec3> unitSensorMesh(SensorShape shape);

/// Local-to-world matrix of a sensor's unit mesh.
glm::mat4 sensorModel(const SplitSensor& s);

/// Distance along the ray (origin, unit direction) to the sensor's surface, if it is hit.
std::optional<double> raySensor(const SplitSensor& s, const Vec3& origin, const Vec3& direction);

}  // namespace ndem::app
