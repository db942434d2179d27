#version 330 core
in vec3 vCentre;
in float vRadius;
in vec3 vPos;
in vec4 vColour;

uniform mat4 proj;

out vec4 fragColour;

vec3 shade(vec3 base, vec3 n, vec3 toEye);

void main() {
    // Ray from the eye (origin of view space) through this fragment against the sphere.
    vec3 dir = normalize(vPos);
    float b = dot(dir, vCentre);
    float disc = b * b - dot(vCentre, vCentre) + vRadius * vRadius;
    if (disc < 0.0) discard;
    float t = b - sqrt(disc);
    vec3 hit = t * dir;
    vec3 n = (hit - vCentre) / vRadius;
    vec4 clip = proj * vec4(hit, 1.0);
    gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
    fragColour = vec4(shade(vColour.rgb, n, -dir), 1.0);
}
