#include "core/geometry_builders.hpp"

#include <cmath>
#include <numbers>

namespace ndem {

void buildDrum(const DrumSpec& spec, std::vector<Wall>& walls, std::vector<TriangleMesh>& meshes) {
    const double radius = 0.5 * spec.diameter;
    Wall base;
    base.material = spec.material;
    base.position = spec.center - 0.5 * spec.length * spec.axis;
    base.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), spec.axis);
    base.angularVelocity = spec.speed * spec.axis;

    Wall shell = base;
    shell.name = spec.name;
    shell.shape = WallShape::Cylinder;
    shell.radius = radius;
    shell.height = spec.length;
    walls.push_back(shell);

    // End caps: planes facing into the drum, rotating with it about the axis.
    for (int end = 0; end < 2; ++end) {
        Wall cap = base;
        cap.name = spec.name + (end == 0 ? ".cap0" : ".cap1");
        cap.shape = WallShape::Plane;
        cap.material = spec.capMaterial;
        cap.position = base.position + end * spec.length * spec.axis;
        const Vec3 inward = end == 0 ? spec.axis : Vec3(-spec.axis);
        cap.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), inward);
        walls.push_back(cap);
    }
    if (spec.teeth <= 0) return;

    // Saw teeth side by side around the circumference. Seen along +axis the drum turns
    // counter-clockwise (φ grows); each tooth rises gently from its trailing base to an apex
    // and drops back to the wall along the steep leading face that pushes the material.
    TriangleMesh mesh;
    const double pitch = 2.0 * std::numbers::pi / spec.teeth;
    const double attack = spec.attackAngle * std::numbers::pi / 180.0;
    const double apexLag = spec.toothHeight / std::tan(attack) / radius;  // steep face, radians
    for (int k = 0; k < spec.teeth; ++k) {
        const double phi0 = k * pitch, phi1 = (k + 1) * pitch, phiApex = phi1 - apexLag;
        const Vec3 profile[3] = {Vec3(radius * std::cos(phi0), radius * std::sin(phi0), 0.0),
                                 Vec3((radius - spec.toothHeight) * std::cos(phiApex),
                                      (radius - spec.toothHeight) * std::sin(phiApex), 0.0),
                                 Vec3(radius * std::cos(phi1), radius * std::sin(phi1), 0.0)};
        const int first = static_cast<int>(mesh.vertices.size());
        for (const Vec3& p : profile) {
            mesh.vertices.push_back(p);
            mesh.vertices.push_back(p + Vec3(0.0, 0.0, spec.length));
        }
        // Two quads (gentle face, steep face), two triangles each.
        for (int f = 0; f < 2; ++f) {
            const int a = first + 2 * f, b = a + 1, c = a + 2, d = a + 3;
            mesh.triangles.push_back({a, c, b});
            mesh.triangles.push_back({b, c, d});
        }
    }
    Wall lining = base;
    lining.name = spec.name + ".teeth";
    lining.shape = WallShape::Mesh;
    lining.mesh = static_cast<int>(meshes.size());
    meshes.push_back(std::move(mesh));
    walls.push_back(lining);
}

}  // namespace ndem
