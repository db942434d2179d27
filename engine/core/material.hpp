// Bulk materials and the per-pair contact materials the solvers read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ndem {

using MaterialId = std::uint16_t;

/// A bulk material. Contact properties of a pair are combined from two of these unless the
/// scene gives the pair explicitly (ContactMaterialOverride).
struct Material {
    std::string name = "default";
    double density = 2500.0;         ///< ρ (kg/m³)
    double youngsModulus = 5.0e6;    ///< E (Pa)
    double poissonRatio = 0.3;       ///< ν (–), in [0, 0.5)
    double friction = 0.7;           ///< μ (–), Coulomb friction coefficient
    double rollingResistance = 0.0;  ///< μ_r (–), rolling/twisting resistance coefficient
    double restitution = 0.0;        ///< e (–), Newton restitution in the impact stage, [0, 1]
    double damping = 0.0;  ///< c (s), Hertz viscous coefficient of f = k(δ^{3/2} + c δ^{1/2} δ̇)
    double linearStiffness = 0.0;  ///< k (N/m) for the linear contact law; 0 = derive from Hertz
};

/// Properties of one material pair that override the combined defaults. Unset fields combine.
struct ContactMaterialOverride {
    std::string first, second;  ///< material names
    std::optional<double> youngsModulus, poissonRatio, friction, rollingResistance, restitution,
        damping, linearStiffness;
};

/// What the contact laws need for one material pair, combined once per scene.
struct ContactMaterial {
    double elasticModulus = 0.0;  ///< E/(1−ν²) of the pair (Pa); k_n = E √(2d*)/(3(1−ν²))
    double shearModulus = 0.0;    ///< G* (Pa) of Mindlin's tangential stiffness 8 G* √(R* δ)
    double friction = 0.0;        ///< μ (–)
    double rollingResistance = 0.0;  ///< μ_r (–)
    double restitution = 0.0;        ///< e (–)
    double damping = 0.0;            ///< c (s)
    double linearStiffness = 0.0;    ///< k (N/m), 0 = linearised Hertz at the reference overlap
};

/// Dense table of contact materials indexed by the two material ids (symmetric).
class MaterialTable {
  public:
    /// Combines every pair: moduli in series (Hertz' E* rule), the other properties as the
    /// arithmetic mean, then applies the overrides; every friction coefficient is then
    /// multiplied by frictionScale (settings contact.frictionScale). Returns false with a message
    /// for an override naming an unknown material.
    bool build(const std::vector<Material>& materials,
               const std::vector<ContactMaterialOverride>& overrides, std::string* error,
               double frictionScale = 1.0);

    const ContactMaterial& pair(MaterialId a, MaterialId b) const {
        return m_pairs[static_cast<size_t>(a) * m_count + b];
    }
    const std::vector<Material>& materials() const { return m_materials; }
    std::optional<MaterialId> find(const std::string& name) const;

  private:
    std::vector<Material> m_materials;
    std::vector<ContactMaterial> m_pairs;
    size_t m_count = 0;
};

/// Hertz stiffness k_n = E √(2 d*) / (3 (1 − ν²)) with the pair's E/(1−ν²) (servin-2014 Sec. 2.2)
/// and effective diameter d* = (1/d_a + 1/d_b)⁻¹ (N/m^{3/2}).
double hertzStiffness(const ContactMaterial& m, double effectiveDiameter);

}  // namespace ndem
