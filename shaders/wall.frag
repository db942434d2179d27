#version 330 core
in vec3 vView;
in vec3 vWorld;

uniform vec4 colour;  // rgb, alpha (translucent silo and drum shells)
uniform vec4 clipPlane;
uniform bool clipOn;

out vec4 fragColour;

vec3 shade(vec3 base, vec3 n, vec3 toEye);

void main() {
    if (clipOn && dot(clipPlane.xyz, vWorld) + clipPlane.w < 0.0) discard;
    // Flat normal from the screen-space derivatives: walls need no normal attribute, and both
    // faces are lit (we see the inside of the silo).
    vec3 n = normalize(cross(dFdx(vView), dFdy(vView)));
    vec3 toEye = normalize(-vView);
    if (dot(n, toEye) < 0.0) n = -n;
    fragColour = vec4(shade(colour.rgb, n, toEye), colour.a);
}
