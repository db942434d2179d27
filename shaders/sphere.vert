#version 330 core
// Instanced sphere impostor: a camera-facing quad per particle; the fragment shader traces the
// sphere so silhouettes and depth are exact at any zoom.
layout(location = 0) in vec2 corner;        // quad corner in [-1, 1]^2
layout(location = 1) in vec4 centreRadius;  // per instance: world centre (m), radius (m)
layout(location = 2) in vec4 colour;        // per instance

uniform mat4 view;
uniform mat4 proj;
uniform float radiusScale;
uniform vec4 clipPlane;  // world: particles with dot(n, c) + d < 0 are cut away
uniform bool clipOn;

out vec3 vCentre;
out float vRadius;
out vec3 vPos;
out vec4 vColour;

void main() {
    float r = centreRadius.w * radiusScale;
    if (clipOn && dot(clipPlane.xyz, centreRadius.xyz) + clipPlane.w < 0.0) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: nothing drawn
        return;
    }
    vec3 c = (view * vec4(centreRadius.xyz, 1.0)).xyz;
    // The quad sits in front of the sphere; 1.5 r covers the perspective silhouette except
    // for spheres almost touching the eye.
    vec3 p = c + vec3(corner * (1.5 * r), r);
    vCentre = c;
    vRadius = r;
    vPos = p;
    vColour = colour;
    gl_Position = proj * vec4(p, 1.0);
}
