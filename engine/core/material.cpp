#include "core/material.hpp"

#include <cmath>

namespace ndem {

namespace {

ContactMaterial combine(const Material& a, const Material& b) {
    ContactMaterial c;
    // Hertz: 1/E* = (1−ν_a²)/E_a + (1−ν_b²)/E_b and k_n = (4/3) E* √R*. Writing k_n with
    // servin-2014's E/(1−ν²) means that quantity is 2 E* (identical materials: E/(1−ν²)).
    const double compliance = (1.0 - a.poissonRatio * a.poissonRatio) / a.youngsModulus +
                              (1.0 - b.poissonRatio * b.poissonRatio) / b.youngsModulus;
    c.elasticModulus = 2.0 / compliance;
    const double shearA = a.youngsModulus / (2.0 * (1.0 + a.poissonRatio));
    const double shearB = b.youngsModulus / (2.0 * (1.0 + b.poissonRatio));
    c.shearModulus = 1.0 / ((2.0 - a.poissonRatio) / shearA + (2.0 - b.poissonRatio) / shearB);
    c.friction = 0.5 * (a.friction + b.friction);
    c.rollingResistance = 0.5 * (a.rollingResistance + b.rollingResistance);
    c.restitution = 0.5 * (a.restitution + b.restitution);
    c.damping = 0.5 * (a.damping + b.damping);
    c.linearStiffness =
        (a.linearStiffness > 0.0 && b.linearStiffness > 0.0)
            ? a.linearStiffness * b.linearStiffness / (a.linearStiffness + b.linearStiffness) * 2.0
            : 0.0;
    return c;
}

}  // namespace

bool MaterialTable::build(const std::vector<Material>& materials,
                          const std::vector<ContactMaterialOverride>& overrides, std::string* error,
                          double frictionScale) {
    m_materials = materials;
    if (m_materials.empty()) m_materials.push_back(Material{});
    m_count = m_materials.size();
    m_pairs.assign(m_count * m_count, ContactMaterial{});
    for (size_t i = 0; i < m_count; ++i)
        for (size_t j = 0; j < m_count; ++j)
            m_pairs[i * m_count + j] = combine(m_materials[i], m_materials[j]);

    for (const ContactMaterialOverride& o : overrides) {
        const auto a = find(o.first);
        const auto b = find(o.second);
        if (!a || !b) {
            if (error)
                *error = "unknown material '" + (a ? o.second : o.first) + "' in a contact pair";
            return false;
        }
        for (auto [i, j] : {std::pair{*a, *b}, std::pair{*b, *a}}) {
            ContactMaterial& c = m_pairs[static_cast<size_t>(i) * m_count + j];
            if (o.youngsModulus || o.poissonRatio) {
                const double e = o.youngsModulus.value_or(m_materials[i].youngsModulus);
                const double nu = o.poissonRatio.value_or(m_materials[i].poissonRatio);
                c.elasticModulus = e / (1.0 - nu * nu);
                c.shearModulus = e / (2.0 * (1.0 + nu)) / (2.0 * (2.0 - nu));
            }
            if (o.friction) c.friction = *o.friction;
            if (o.rollingResistance) c.rollingResistance = *o.rollingResistance;
            if (o.restitution) c.restitution = *o.restitution;
            if (o.damping) c.damping = *o.damping;
            if (o.linearStiffness) c.linearStiffness = *o.linearStiffness;
        }
    }
    for (ContactMaterial& c : m_pairs)
        c.friction *= frictionScale;
    return true;
}

std::optional<MaterialId> MaterialTable::find(const std::string& name) const {
    for (size_t i = 0; i < m_materials.size(); ++i)
        if (m_materials[i].name == name) return static_cast<MaterialId>(i);
    return std::nullopt;
}

double hertzStiffness(const ContactMaterial& m, double effectiveDiameter) {
    return m.elasticModulus * std::sqrt(2.0 * effectiveDiameter) / 3.0;
}

}  // namespace ndem
