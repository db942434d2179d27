// The editable properties of a bulk material, with units and ranges: one list for the app's
// material panel and the validation of live material changes.
#pragma once

#include "core/material.hpp"
#include "core/settings.hpp"

namespace ndem {

/// Visits the properties a running simulation may change (density is not among them: particle
/// masses are fixed when they are created). Ranges are the scene file's.
template <class M, class V>
void visitMaterialProperties(M& m, V&& v) {
    v(SettingInfo{"youngsModulus", "Pa", "Young's modulus E", 0.0, 1e15, true}, m.youngsModulus);
    v(SettingInfo{"poissonRatio", "", "Poisson ratio nu", 0.0, 0.4999}, m.poissonRatio);
    v(SettingInfo{"friction", "", "Coulomb friction coefficient mu", 0.0, 100.0}, m.friction);
    v(SettingInfo{"rollingResistance", "", "rolling resistance coefficient mu_r", 0.0, 100.0},
      m.rollingResistance);
    v(SettingInfo{"restitution", "", "Newton restitution e of the impact stage", 0.0, 1.0},
      m.restitution);
    v(SettingInfo{"damping", "s", "Hertz viscous coefficient c", 0.0, 1e3}, m.damping);
    v(SettingInfo{"linearStiffness", "N/m", "k of the linear law (0 = linearised Hertz)", 0.0,
                  1e15},
      m.linearStiffness);
}

/// Checks the properties against their ranges; the error names "materials.<name>.<key>".
std::optional<Error> validate(const Material& m);

}  // namespace ndem
