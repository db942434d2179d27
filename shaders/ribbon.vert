#version 330 core
// Instanced force-network edge: a camera-facing ribbon from end A to end B whose width and
// colour grow with the normal force.
layout(location = 0) in vec2 corner;   // x in {-1, 1} along A to B, y in {-1, 1} across
layout(location = 1) in vec3 endA;     // per instance (m)
layout(location = 2) in vec3 endB;     // per instance (m)
layout(location = 3) in float force;   // per instance (N)

uniform mat4 view;
uniform mat4 proj;
uniform float maxForce;   // colour and width saturate here (N)
uniform float threshold;  // edges below are not drawn (N)
uniform float maxWidth;   // half width at maxForce (m)
uniform vec4 clipPlane;
uniform bool clipOn;

out float vLevel;

void main() {
    bool cut = clipOn && (dot(clipPlane.xyz, endA) + clipPlane.w < 0.0 ||
                          dot(clipPlane.xyz, endB) + clipPlane.w < 0.0);
    if (force <= threshold || cut) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    vec3 a = (view * vec4(endA, 1.0)).xyz;
    vec3 b = (view * vec4(endB, 1.0)).xyz;
    vec3 p = mix(a, b, 0.5 * corner.x + 0.5);
    vec3 axis = b - a;
    vec3 side = cross(axis, p);
    float len = length(side);
    side = len > 0.0 ? side / len : vec3(1.0, 0.0, 0.0);
    float level = clamp(force / maxForce, 0.0, 1.0);
    vLevel = level;
    // Width grows as sqrt(f): a chain twice as strong reads clearly thicker without the weak
    // network vanishing.
    gl_Position = proj * vec4(p + side * corner.y * maxWidth * (0.15 + 0.85 * sqrt(level)), 1.0);
}
