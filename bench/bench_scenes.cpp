#include "bench_scenes.hpp"

#include <cmath>
#include <numbers>

namespace ndem::scenes {

Material servinGrain() {
    Material m;
    m.name = "grain";
    m.density = 2500.0;
    m.youngsModulus = 5e6;
    m.poissonRatio = 0.3;
    m.friction = 0.7;
    m.restitution = 0.0;
    return m;
}

Material warmStartGrain() {
    Material m;
    m.name = "grain";
    m.density = 3700.0;
    m.youngsModulus = 6e6;
    m.poissonRatio = 0.3;
    m.friction = 0.91;
    m.rollingResistance = 0.32;
    m.restitution = 0.18;
    return m;
}

namespace {
/// A scene with one material, the given settings and nothing in it yet.
Scene emptyScene(const char* name, const Material& material, const StepSettings& settings) {
    Scene s;
    s.name = name;
    s.settings = settings;
    s.materials = {material};
    return s;
}

Wall floorPlane() {
    Wall w;
    w.name = "floor";
    w.shape = WallShape::Plane;
    return w;
}
}  // namespace

Scene column(int n, double d, const Material& material, const StepSettings& settings) {
    Scene s = emptyScene("column", material, settings);
    s.walls = {floorPlane()};
    for (int k = 0; k < n; ++k) {
        ParticleSpec p;
        p.radius = 0.5 * d;
        p.position = Vec3(0.0, 0.0, 0.5 * d + k * d);
        s.particles.push_back(p);
    }
    return s;
}

std::vector<double> hertzColumnOverlaps(int n, double d, const Material& m, double g) {
    const double mass = m.density * std::numbers::pi / 6.0 * d * d * d;
    const double modulus = m.youngsModulus / (1.0 - m.poissonRatio * m.poissonRatio);
    std::vector<double> overlaps(n);
    for (int k = 0; k < n; ++k) {
        // Effective diameter: sphere on a wall d* = d, sphere on sphere d* = d/2.
        const double dStar = k == 0 ? d : 0.5 * d;
        const double kn = modulus * std::sqrt(2.0 * dStar) / 3.0;
        overlaps[k] = std::pow((n - k) * mass * g / kn, 2.0 / 3.0);
    }
    return overlaps;
}

Scene headOnCollision(double d, double speed, const Material& material,
                      const StepSettings& settings) {
    Scene s = emptyScene("collision", material, settings);
    s.settings.gravity = Vec3::Zero();
    for (int side : {-1, 1}) {
        ParticleSpec p;
        p.radius = 0.5 * d;
        p.position = Vec3(side * 0.75 * d, 0.0, 0.0);
        p.velocity = Vec3(-side * speed, 0.0, 0.0);
        s.particles.push_back(p);
    }
    return s;
}

Scene incline(double angleDeg, double d, const Material& material, const StepSettings& settings,
              bool fixedRotation) {
    Scene s = emptyScene("incline", material, settings);
    Wall plane = floorPlane();
    const double angle = angleDeg * std::numbers::pi / 180.0;
    plane.orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitY()));
    s.walls = {plane};
    ParticleSpec p;
    p.radius = 0.5 * d;
    p.position = plane.orientation * Vec3(0.0, 0.0, 0.5 * d);
    if (fixedRotation) p.flags = kFixedRotation;
    s.particles.push_back(p);
    return s;
}

Scene rollingSphere(double speed, double d, const Material& material,
                    const StepSettings& settings) {
    Scene s = emptyScene("rolling", material, settings);
    s.walls = {floorPlane()};
    ParticleSpec p;
    p.radius = 0.5 * d;
    p.position = Vec3(0.0, 0.0, 0.5 * d);
    p.velocity = Vec3(speed, 0.0, 0.0);
    p.angularVelocity = Vec3(0.0, speed / p.radius, 0.0);
    s.particles.push_back(p);
    return s;
}

Scene bed(int n, double d, const Material& material, const StepSettings& settings, unsigned seed) {
    Scene s = emptyScene("bed", material, settings);
    Random random(seed);
    // A square footprint about 30 d wide; columns of particles stacked 1.1 d apart.
    const int side = std::max(2, static_cast<int>(std::ceil(std::sqrt(n / 10.0))));
    const double spacing = 1.1 * d;
    const double half = 0.5 * side * spacing;
    s.walls.push_back(floorPlane());
    for (int k = 0; k < 4; ++k) {
        Wall w;
        w.name = "side" + std::to_string(k);
        const double angle = k * std::numbers::pi / 2.0;
        const Vec3 inward(-std::cos(angle), -std::sin(angle), 0.0);
        w.position = -half * inward;
        w.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), inward);
        s.walls.push_back(w);
    }
    for (int i = 0; i < n; ++i) {
        const int layer = i / (side * side);
        const int cell = i % (side * side);
        ParticleSpec p;
        p.radius = 0.5 * d * random.uniform(0.9, 1.1);
        p.position = Vec3(-half + (cell % side + 0.5) * spacing + random.uniform(-0.02, 0.02) * d,
                          -half + (cell / side + 0.5) * spacing + random.uniform(-0.02, 0.02) * d,
                          0.6 * d + layer * spacing);
        s.particles.push_back(p);
    }
    return s;
}

Scene bed2d(int n, double d, const Material& material, StepSettings settings, unsigned seed) {
    settings.dimension = 2;
    Scene s = emptyScene("bed-2d", material, settings);
    Random random(seed);
    const int side = std::max(2, static_cast<int>(std::ceil(std::sqrt(3.0 * n))));
    const double spacing = 1.1 * d;
    const double half = 0.5 * side * spacing;
    s.walls.push_back(floorPlane());
    for (double sign : {-1.0, 1.0}) {
        Wall w;
        w.name = sign < 0.0 ? "left" : "right";
        w.position = Vec3(sign * half, 0.0, 0.0);
        w.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3(-sign, 0.0, 0.0));
        s.walls.push_back(w);
    }
    for (int i = 0; i < n; ++i) {
        ParticleSpec p;
        p.radius = 0.5 * d * random.uniform(0.9, 1.1);
        p.position = Vec3(-half + (i % side + 0.5) * spacing + random.uniform(-0.02, 0.02) * d, 0.0,
                          0.6 * d + (i / side) * spacing);
        s.particles.push_back(p);
    }
    return s;
}

}  // namespace ndem::scenes
