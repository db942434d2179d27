#version 330 core
// Inferno-like map (dark purple → red → yellow): strong chains are bright on any background.
vec3 colourMap(float t) {
    t = clamp(t, 0.0, 1.0);
    vec3 c0 = vec3(0.0002, 0.0016, -0.0194);
    vec3 c1 = vec3(0.1065, 0.5640, 3.8273);
    vec3 c2 = vec3(11.6025, -3.9729, -15.9424);
    vec3 c3 = vec3(-41.7040, 17.4364, 44.3541);
    vec3 c4 = vec3(77.1629, -33.4023, -81.8073);
    vec3 c5 = vec3(-71.3194, 32.6261, 73.2095);
    vec3 c6 = vec3(25.1311, -12.2427, -23.0703);
    return clamp(c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6))))), 0.0, 1.0);
}
