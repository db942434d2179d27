#include "measure/continuum_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

namespace ndem {

double meanDiameter(const ParticleStore& p) {
    double sum = 0.0;
    int n = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (p.invMass[i] > 0.0) {
            sum += 2.0 * p.radius[i];
            ++n;
        }
    return n > 0 ? sum / n : 0.0;
}

MaterialId dominantMaterial(const ParticleStore& p) {
    std::map<MaterialId, int> counts;
    for (size_t i = 0; i < p.size(); ++i)
        if (p.invMass[i] > 0.0) ++counts[p.material[i]];
    MaterialId best = 0;
    int most = 0;
    for (const auto& [material, n] : counts)
        if (n > most) {
            best = material;
            most = n;
        }
    return best;
}

double SiloFrame::crossSection() const {
    return plane ? 2.0 * radius : std::numbers::pi * radius * radius;
}

double SiloFrame::perimeter() const {
    return plane ? 2.0 : 2.0 * std::numbers::pi * radius;
}

namespace {

/// Up in the plane: against gravity, or +z without it.
Vec3 upOf(const Vec3& gravity) {
    return gravity.norm() > 0.0 ? Vec3(-gravity.normalized()) : Vec3::UnitZ();
}

}  // namespace

Expected<SiloWalls> findSiloWalls(const std::vector<Wall>& walls, bool plane,
                                  const std::string& name, const std::string& across,
                                  const Vec3& gravity, const std::string& measurement) {
    const std::string prefix = "measurement '" + measurement + "': ";
    auto find = [&](const std::string& n) {
        for (size_t k = 0; k < walls.size(); ++k)
            if (walls[k].name == n) return static_cast<int>(k);
        return -1;
    };
    SiloWalls silo;
    silo.wall = find(name);
    if (silo.wall < 0) return Error{prefix + "no wall named '" + name + "'"};
    if (!plane) {
        if (!across.empty())
            return Error{prefix +
                         "across names the facing side wall of a 2D bin; a silo in "
                         "space is one cylinder wall"};
        if (walls[silo.wall].shape != WallShape::Cylinder)
            return Error{prefix + "wall '" + name +
                         "' is not a cylinder (name the container's cylinder wall)"};
        return silo;
    }
    if (across.empty())
        return Error{prefix +
                     "a 2D silo is a bin: name its side wall (wall) and the wall "
                     "across from it (across)"};
    silo.across = find(across);
    if (silo.across < 0) return Error{prefix + "no wall named '" + across + "'"};
    const Wall& a = walls[silo.wall];
    const Wall& b = walls[silo.across];
    if (a.shape != WallShape::Plane || b.shape != WallShape::Plane)
        return Error{prefix + "the side walls of a 2D bin are planes ('" + name + "', '" + across +
                     "')"};
    const Vec3 na = a.orientation * Vec3::UnitZ(), nb = b.orientation * Vec3::UnitZ();
    const Vec3 up = upOf(gravity);
    if (std::abs(na.dot(up)) > 1e-9 || na.dot(nb) > -1.0 + 1e-9 ||
        (b.position - a.position).dot(na) <= 0.0)
        return Error{prefix + "walls '" + name + "' and '" + across +
                     "' must be upright, parallel and facing each other (a 2D bin)"};
    return silo;
}

SiloFrame siloFrame(const SiloWalls& silo, const std::vector<Wall>& walls, const ParticleStore& p,
                    const Vec3& gravity, bool plane) {
    SiloFrame f;
    const Wall& wall = walls[static_cast<size_t>(silo.wall)];
    if (!plane) {
        f.base = wall.position;
        f.orientation = wall.orientation;
        f.radius = wall.radius;
        f.height = wall.height;
        return f;
    }
    f.plane = true;
    const Vec3 n = (wall.orientation * Vec3::UnitZ()).normalized();
    const double width = (walls[static_cast<size_t>(silo.across)].position - wall.position).dot(n);
    Vec3 axis = n.cross(Vec3::UnitY()), across = n;
    if (axis.dot(upOf(gravity)) < 0.0) {
        axis = -axis;
        across = -n;
    }
    Mat3 frame;
    frame.col(0) = across;
    frame.col(1) = Vec3::UnitY();
    frame.col(2) = axis;
    f.orientation = Quat(frame);
    f.radius = 0.5 * width;
    f.height = std::numeric_limits<double>::infinity();
    const Vec3 middle = wall.position + f.radius * n;
    double floor = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < p.size(); ++i) {
        if (p.invMass[i] <= 0.0) continue;
        const double off = (p.position[i] - middle).dot(across);
        if (std::abs(off) <= f.radius)
            floor = std::min(floor, (p.position[i] - middle).dot(axis) - p.radius[i]);
    }
    f.base = middle + (std::isfinite(floor) ? floor : 0.0) * axis;
    return f;
}

CylinderFill measureCylinderFill(const ParticleStore& p, const SiloFrame& silo) {
    CylinderFill fill;
    std::vector<double> heights;
    heights.reserve(p.size());
    double radii = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        if (p.invMass[i] <= 0.0) continue;
        const Vec3 local = silo.toLocal(p.position[i]);
        if (!silo.holds(local)) continue;
        heights.push_back(local.z());
        fill.mass += p.mass[i];
        radii += p.radius[i];
    }
    fill.count = static_cast<int>(heights.size());
    if (heights.empty()) return fill;
    fill.meanRadius = radii / fill.count;
    // The 99th percentile, not the top centre: one grain bouncing on the surface must not
    // lift H (and with it the hydrostatic reference) by a diameter.
    const size_t k = static_cast<size_t>(std::ceil(0.99 * fill.count)) - 1;
    std::nth_element(heights.begin(), heights.begin() + k, heights.end());
    fill.height = heights[k] + fill.meanRadius;
    return fill;
}

void CylinderFillAverage::archive(StateArchive& a) {
    a.field("heightSum", heightSum);
    a.field("massSum", massSum);
    a.field("gravitySum", gravitySum);
    a.field("cylinderRadius", cylinderRadius);
    a.field("samples", samples);
    // States from before the plane's bins: a cylinder's A and P.
    if (!a.loading() || a.has("crossSection")) {
        a.field("crossSection", crossSection);
        a.field("perimeter", perimeter);
    } else {
        crossSection = std::numbers::pi * cylinderRadius * cylinderRadius;
        perimeter = 2.0 * std::numbers::pi * cylinderRadius;
    }
}

}  // namespace ndem
