#include "measure/continuum_sampling.hpp"

#include <algorithm>
#include <cmath>
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

double CylinderFill::bulkDensity(double radius) const {
    const double volume = std::numbers::pi * radius * radius * height;
    return volume > 0.0 ? mass / volume : 0.0;
}

CylinderFill measureCylinderFill(const ParticleStore& p, const Wall& cylinder) {
    CylinderFill fill;
    std::vector<double> heights;
    heights.reserve(p.size());
    double radii = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        if (p.invMass[i] <= 0.0) continue;
        const Vec3 local = cylinder.toLocal(p.position[i]);
        if (local.z() < 0.0 || local.z() > cylinder.height ||
            std::hypot(local.x(), local.y()) > cylinder.radius)
            continue;
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
}

Expected<int> findCylinderWall(const std::vector<Wall>& walls, const std::string& name,
                               const std::string& measurement) {
    for (size_t k = 0; k < walls.size(); ++k) {
        if (walls[k].name != name) continue;
        if (walls[k].shape != WallShape::Cylinder)
            return Error{"measurement '" + measurement + "': wall '" + name +
                         "' is not a cylinder (name the container's cylinder wall)"};
        return static_cast<int>(k);
    }
    return Error{"measurement '" + measurement + "': no wall named '" + name + "'"};
}

}  // namespace ndem
