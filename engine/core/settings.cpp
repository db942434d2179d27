#include "core/settings.hpp"

#include "core/material_properties.hpp"
#include "core/range_check.hpp"

#include <algorithm>

namespace ndem {

Vec3 StepSettings::gravityAt(double t) const {
    if (gravityRampTime <= 0.0 || t >= gravityRampTime) return gravity;
    const double full = gravity.norm();
    if (full <= 0.0) return gravity;
    const double start = std::min(gravityRampStart, full);
    const double magnitude = start + (full - start) * (t / gravityRampTime);
    return gravity * (magnitude / full);
}

std::optional<Error> validate(const Material& m) {
    RangeCheck check{"materials." + m.name + ".", std::nullopt};
    visitMaterialProperties(m, check);
    return check.error;
}

}  // namespace ndem
