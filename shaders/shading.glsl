#version 330 core
// Shared lighting: a key light over the viewer's shoulder, a fill light, ambient, specular.
vec3 shade(vec3 base, vec3 n, vec3 toEye) {
    vec3 key = normalize(vec3(0.4, 0.6, 1.0));
    vec3 fill = normalize(vec3(-0.6, -0.2, 0.5));
    float diffuse = max(dot(n, key), 0.0) * 0.75 + max(dot(n, fill), 0.0) * 0.2;
    float spec = pow(max(dot(n, normalize(key + toEye)), 0.0), 40.0) * 0.25;
    return base * (0.22 + diffuse) + vec3(spec);
}
