#version 330 core
in float vLevel;
out vec4 fragColour;

vec3 colourMap(float t);

void main() { fragColour = vec4(colourMap(0.25 + 0.75 * vLevel), 1.0); }
