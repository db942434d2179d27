#version 330 core
// Wall geometry in the wall's local frame, placed by its pose each frame.
layout(location = 0) in vec3 position;

uniform mat4 model;
uniform mat4 view;
uniform mat4 proj;

out vec3 vView;
out vec3 vWorld;

void main() {
    vec4 world = model * vec4(position, 1.0);
    vWorld = world.xyz;
    vView = (view * world).xyz;
    gl_Position = proj * vec4(vView, 1.0);
}
