#include "render/camera.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace ndem::app {

void OrbitCamera::fit(const glm::vec3& lo, const glm::vec3& hi, float aspect, float left,
                      float right) {
    target = 0.5f * (lo + hi);
    sceneRadius = std::max(0.5f * glm::length(hi - lo), 1e-4f);
    shiftX = 0.5f * (left + right);
    // The bounding sphere fills the narrower of the free width and the height, with a margin.
    const float tanV = std::tan(0.5f * fovY);
    const float tanH = tanV * std::max(aspect, 1e-3f) * 0.5f * (right - left);
    const float half = std::atan(std::min(tanV, tanH));
    distance = 1.1f * sceneRadius / std::sin(half);
}

void OrbitCamera::orbit(float dx, float dy) {
    yaw -= 0.008f * dx;
    pitch = std::clamp(pitch + 0.008f * dy, glm::radians(-89.0f), glm::radians(89.0f));
}

void OrbitCamera::pan(float dx, float dy, float height) {
    // One pixel is this many metres in the target's plane.
    const float perPixel = 2.0f * distance * std::tan(0.5f * fovY) / std::max(height, 1.0f);
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
    const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    target += perPixel * (-dx * right + dy * up);
}

void OrbitCamera::zoom(float steps) {
    distance =
        std::clamp(distance * std::pow(0.9f, steps), 1e-4f * sceneRadius, 100.0f * sceneRadius);
}

glm::vec3 OrbitCamera::eye() const {
    const glm::vec3 dir(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                        std::sin(pitch));
    return target + distance * dir;
}

glm::mat4 OrbitCamera::view() const {
    return glm::lookAt(eye(), target, glm::vec3(0, 0, 1));
}

glm::mat4 OrbitCamera::projection(float aspect) const {
    // Near and far planes bracket the scene around the target so depth precision goes there.
    const float nearPlane = std::max(1e-3f * sceneRadius, distance - 4.0f * sceneRadius);
    const float farPlane = distance + 4.0f * sceneRadius;
    // Clip-space translation: x/w moves by shiftX, so the image slides without turning.
    const glm::mat4 shift = glm::translate(glm::mat4(1.0f), glm::vec3(shiftX, 0.0f, 0.0f));
    return shift * glm::perspective(fovY, std::max(aspect, 1e-3f), nearPlane, farPlane);
}

void OrbitCamera::ray(float x, float y, float width, float height, glm::vec3& origin,
                      glm::vec3& dir) const {
    const float ndcX = 2.0f * x / std::max(width, 1.0f) - 1.0f;
    const float ndcY = 1.0f - 2.0f * y / std::max(height, 1.0f);
    const glm::mat4 inv = glm::inverse(projection(width / std::max(height, 1.0f)) * view());
    glm::vec4 a = inv * glm::vec4(ndcX, ndcY, -1.0f, 1.0f);
    glm::vec4 b = inv * glm::vec4(ndcX, ndcY, 1.0f, 1.0f);
    origin = glm::vec3(a) / a.w;
    dir = glm::normalize(glm::vec3(b) / b.w - origin);
}

}  // namespace ndem::app
