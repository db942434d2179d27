#include "render/wall_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace ndem::app {

namespace {

void quad(std::vector<glm::vec3>& out, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
    out.insert(out.end(), {a, b, c, a, c, d});
}

glm::vec3 toGlm(const Vec3& v) {
    return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}

}  // namespace

WallMesh buildWallMesh(const Wall& wall, const std::vector<TriangleMesh>& meshes,
                       const glm::vec3& lo, const glm::vec3& hi) {
    WallMesh out;
    switch (wall.shape) {
        case WallShape::Plane: {
            // The rectangle the scene's box covers on the plane, in the plane's own axes.
            float x0 = 1e30f, x1 = -1e30f, y0 = 1e30f, y1 = -1e30f;
            for (int k = 0; k < 8; ++k) {
                const Vec3 corner((k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y,
                                  (k & 4) ? hi.z : lo.z);
                const Vec3 local = wall.toLocal(corner);
                x0 = std::min(x0, static_cast<float>(local.x()));
                x1 = std::max(x1, static_cast<float>(local.x()));
                y0 = std::min(y0, static_cast<float>(local.y()));
                y1 = std::max(y1, static_cast<float>(local.y()));
            }
            // A floor (facing up) reaches well past the footprint, where the grains may run out;
            // a side wall or end cap only covers the scene, and is seen through.
            const bool floor = (wall.orientation * Vec3::UnitZ()).z() > 0.9;
            const float grow =
                floor ? 0.75f * std::max(x1 - x0, y1 - y0) : 0.02f * std::max(x1 - x0, y1 - y0);
            x0 -= grow, x1 += grow, y0 -= grow, y1 += grow;
            if (wall.angularVelocity.isZero()) {
                quad(out.triangles, {x0, y0, 0}, {x1, y0, 0}, {x1, y1, 0}, {x0, y1, 0});
            } else {
                // A turning plane is a drum's end cap: a disc about its axis, so it does not
                // tumble as a square would.
                const float r = std::max({std::abs(x0), std::abs(x1), std::abs(y0), std::abs(y1)});
                constexpr int kSegments = 72;
                for (int k = 0; k < kSegments; ++k) {
                    const float a0 = 6.2831853f * static_cast<float>(k) / kSegments;
                    const float a1 = 6.2831853f * static_cast<float>(k + 1) / kSegments;
                    out.triangles.insert(out.triangles.end(),
                                         {glm::vec3(0.0f),
                                          {r * std::cos(a0), r * std::sin(a0), 0.0f},
                                          {r * std::cos(a1), r * std::sin(a1), 0.0f}});
                }
            }
            out.translucent = !floor;
            break;
        }
        case WallShape::Box: {
            const glm::vec3 h = toGlm(wall.halfExtents);
            auto v = [&](int i) {
                return glm::vec3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
            };
            quad(out.triangles, v(0), v(2), v(3), v(1));  // -z
            quad(out.triangles, v(4), v(5), v(7), v(6));  // +z
            quad(out.triangles, v(0), v(1), v(5), v(4));  // -y
            quad(out.triangles, v(2), v(6), v(7), v(3));  // +y
            quad(out.triangles, v(0), v(4), v(6), v(2));  // -x
            quad(out.triangles, v(1), v(3), v(7), v(5));  // +x
            break;
        }
        case WallShape::Cylinder: {
            constexpr int kSegments = 72;
            const float r = static_cast<float>(wall.radius), hgt = static_cast<float>(wall.height);
            for (int k = 0; k < kSegments; ++k) {
                const float a0 = 6.2831853f * static_cast<float>(k) / kSegments;
                const float a1 = 6.2831853f * static_cast<float>(k + 1) / kSegments;
                const glm::vec3 p0(r * std::cos(a0), r * std::sin(a0), 0.0f);
                const glm::vec3 p1(r * std::cos(a1), r * std::sin(a1), 0.0f);
                quad(out.triangles, p0, p1, p1 + glm::vec3(0, 0, hgt), p0 + glm::vec3(0, 0, hgt));
            }
            out.translucent = true;
            break;
        }
        case WallShape::Mesh: {
            if (wall.mesh < 0 || wall.mesh >= static_cast<int>(meshes.size())) break;
            const TriangleMesh& m = meshes[static_cast<size_t>(wall.mesh)];
            out.triangles.reserve(3 * m.triangles.size());
            for (const auto& t : m.triangles)
                for (int k = 0; k < 3; ++k)
                    out.triangles.push_back(toGlm(m.vertices[static_cast<size_t>(t[k])]));
            break;
        }
    }
    return out;
}

}  // namespace ndem::app
