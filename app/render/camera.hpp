// Orbit camera of the viewport: turns about a target point, pans, zooms, fits the scene.
#pragma once

#include <glm/glm.hpp>

namespace ndem::app {

/// Z-up orbit camera. Angles in radians; distance and target in metres (the scene's units).
class OrbitCamera {
  public:
    /// Looks at the box [lo, hi] from the current direction, far enough to see all of it in
    /// the part of the viewport between NDC x = left and right (the rest is under panels), and
    /// shifts the image so the box is centred there.
    void fit(const glm::vec3& lo, const glm::vec3& hi, float aspect, float left = -1.0f,
             float right = 1.0f);
    /// Drag by (dx, dy) pixels: yaw about z, pitch clamped short of the poles.
    void orbit(float dx, float dy);
    /// Drag by (dx, dy) pixels in a viewport `height` pixels high: the target follows the cursor.
    void pan(float dx, float dy, float height);
    /// Wheel steps (> 0 closer): each step is 10 % of the distance.
    void zoom(float steps);

    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    glm::vec3 eye() const;
    /// World-space ray through pixel (x, y) of a width × height viewport (origin top left).
    void ray(float x, float y, float width, float height, glm::vec3& origin, glm::vec3& dir) const;

    float fovY = glm::radians(40.0f);
    float yaw = glm::radians(-60.0f);
    float pitch = glm::radians(20.0f);
    float distance = 1.0f;
    glm::vec3 target{0.0f};
    float sceneRadius = 1.0f;  ///< bounds the near/far planes
    float shiftX = 0.0f;       ///< lens shift (NDC x): the target's place on screen
};

}  // namespace ndem::app
