#include "world/planar_scene.hpp"

#include <cmath>
#include <string>

namespace ndem {

namespace {

constexpr double kTolerance = 1e-12;

bool inPlane(const Vec3& v) {
    return std::abs(v.y()) <= kTolerance * std::max(1.0, v.norm());
}
/// Zero but for its y component (a rotation about y).
bool alongY(const Vec3& v) {
    return std::abs(v.x()) <= kTolerance && std::abs(v.z()) <= kTolerance;
}

std::optional<Error> checkWall(const Wall& w) {
    const std::string where = "walls." + w.name + ": ";
    const Vec3 z = w.orientation * Vec3::UnitZ();
    switch (w.shape) {
        case WallShape::Plane:
            if (!inPlane(z))
                return Error{where + "a plane of a 2D scene must have its normal in the x-z plane"};
            break;
        case WallShape::Box: {
            bool faceAlongY = false;
            for (int k = 0; k < 3; ++k)
                faceAlongY |=
                    std::abs(std::abs((w.orientation * Vec3::Unit(k)).y()) - 1.0) <= kTolerance;
            if (!faceAlongY) return Error{where + "a box of a 2D scene must have one axis along y"};
            break;
        }
        case WallShape::Cylinder: {
            if (std::abs(std::abs(z.y()) - 1.0) > kTolerance)
                return Error{where +
                             "a cylinder of a 2D scene must have its axis along y (a circle in "
                             "the x-z plane)"};
            const double from = w.position.y(), to = w.position.y() + w.height * z.y();
            if (std::min(from, to) > 0.0 || std::max(from, to) < 0.0)
                return Error{where + "a cylinder of a 2D scene must span y = 0"};
            break;
        }
        case WallShape::Mesh:
            return Error{where +
                         "a 2D scene takes no triangle meshes (planes, boxes and cylinders)"};
    }
    if (!inPlane(w.linearVelocity) || !alongY(w.angularVelocity) ||
        !inPlane(w.orientation * w.surfaceVelocity) || !inPlane(w.servo.direction))
        return Error{where + "a wall of a 2D scene moves in the x-z plane and turns about y only"};
    return std::nullopt;
}

}  // namespace

std::optional<Error> checkPlanarScene(const Scene& scene) {
    if (scene.settings.dimension != 2) return std::nullopt;
    for (const Wall& w : scene.walls)
        if (auto e = checkWall(w)) return e;
    for (size_t i = 0; i < scene.particles.size(); ++i) {
        const ParticleSpec& p = scene.particles[i];
        const Vec3 w = p.angularVelocity;
        if (p.position.y() != 0.0 || p.velocity.y() != 0.0 || w.x() != 0.0 || w.z() != 0.0)
            return Error{"particles: grain " + std::to_string(i) +
                         " of a 2D scene must lie at y = 0, move in the x-z plane and turn about "
                         "y only"};
    }
    for (const EmitterSpec& e : scene.emitters)
        if (e.velocity.y() != 0.0)
            return Error{"emitters." + e.name +
                         ".velocity: a 2D scene's grains move in the x-z "
                         "plane (y component must be 0)"};
    return std::nullopt;
}

void keepInPlane(ParticleStore& p, int begin, int end) {
    for (int i = begin; i < end; ++i) {
        p.position[i].y() = 0.0;
        p.velocity[i].y() = 0.0;
        p.angularVelocity[i].x() = 0.0;
        p.angularVelocity[i].z() = 0.0;
    }
}

}  // namespace ndem
