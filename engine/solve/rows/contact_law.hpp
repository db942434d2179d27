// Maps material parameters to the normal contact law of one contact (servin-2014 Sec. 2.2,
// 2.4; wang-servin-berglund Eq. 33–34). Shared by the NDEM rows, model-based warm starting, the
// smooth DEM stepper and the smooth-DEM stability limit.
#pragma once

#include "core/material.hpp"
#include "core/settings.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

struct NormalLaw {
    double exponent = 1.25;  ///< e_H: 5/4 Hertz, 1 linear (the force is k δ^{2 e_H − 1})
    double stiffness = 0.0;  ///< k: Hertz k_n (N/m^{3/2}) or linear k (N/m)
    double damping = 0.0;    ///< c (s), f = k(δ^{2e_H−1} + c δ^{2e_H−2} δ̇)

    /// Stiffness of the contact force linearised at overlap δ (N/m).
    double tangentStiffness(double overlap) const {
        return exponent > 1.0 ? 1.5 * stiffness * std::sqrt(std::max(overlap, 0.0)) : stiffness;
    }
    // Powers of the overlap δ ≥ 0 the laws need. The two exponents in use, e_H = 5/4 and 1,
    // take square roots instead of pow (a third of the row building's time went to pow).
    bool hertz() const { return exponent == 1.25; }
    /// δ^{2e_H−1}: the force is k times this.
    double forcePower(double overlap) const {
        if (hertz()) return overlap * std::sqrt(overlap);
        return exponent == 1.0 ? overlap : std::pow(overlap, 2.0 * exponent - 1.0);
    }
    /// δ^{2e_H−2}: the viscous force is k c δ̇ times this.
    double dampingPower(double overlap) const {
        if (hertz()) return std::sqrt(overlap);
        return exponent == 1.0 ? 1.0 : std::pow(overlap, 2.0 * exponent - 2.0);
    }
    /// δ^{e_H−1}: the Hertz row's scale is e_H times this.
    double scalePower(double overlap) const {
        if (hertz()) return std::sqrt(std::sqrt(overlap));
        return exponent == 1.0 ? 1.0 : std::pow(overlap, exponent - 1.0);
    }
    /// The overlap δ whose scale is s = e_H δ^{e_H−1} (e_H > 1).
    double overlapOfScale(double scale) const {
        const double x = scale / exponent;
        if (hertz()) return (x * x) * (x * x);
        return std::pow(x, 1.0 / (exponent - 1.0));
    }
};

/// The law for a contact with effective diameter dStar and characteristic diameter d (m).
inline NormalLaw normalLaw(const ContactMaterial& m, ContactLaw law, double dStar, double d,
                           double referenceOverlap) {
    NormalLaw out;
    out.damping = m.damping;
    const double kHertz = hertzStiffness(m, dStar);
    if (law == ContactLaw::Hertz) {
        out.exponent = 1.25;
        out.stiffness = kHertz;
    } else {
        out.exponent = 1.0;
        // Without a given k, linearise Hertz at the reference overlap (documented in
        // docs/scene-format.md): k = (3/2) k_n √(δ_ref d).
        out.stiffness = m.linearStiffness > 0.0 ? m.linearStiffness
                                                : 1.5 * kHertz * std::sqrt(referenceOverlap * d);
    }
    return out;
}

/// SPOOK parameters of the normal row (servin-2014 Eq. 30 with τ_n = max(n_s h, c/e_H)).
struct SpookNormal {
    double epsilon = 0.0;  ///< ε_n = e_H / k (compliance)
    double tau = 0.0;      ///< τ_n (s)
    double upsilon = 0.0;  ///< Υ = 1 / (1 + 4 τ/h)
    double sigma = 0.0;    ///< Σ_n = (4/h²) ε Υ
};

inline SpookNormal spookNormal(const NormalLaw& law, double h, double stabilizationSteps,
                               bool hard) {
    SpookNormal s;
    s.epsilon = hard ? 0.0 : law.exponent / law.stiffness;
    s.tau = std::max(stabilizationSteps * h, law.damping / law.exponent);
    s.upsilon = 1.0 / (1.0 + 4.0 * s.tau / h);
    s.sigma = 4.0 / (h * h) * s.epsilon * s.upsilon;
    return s;
}

/// The nonlinear (Hertz) normal row: constraint value δ̄ and Jacobian scale s, Ḡ_n = s G_n.
struct HertzRow {
    double scale = 1.0;     ///< s (m^{e_H−1}): normal force = s λ_n / h
    double deltaBar = 0.0;  ///< δ̄ (m^{e_H}): Σ_n λ = (4/h) Υ δ̄ at rest
};

/// servin-2014 Eq. 26–29 linearise δ̄ = δ^{e_H} at the start-of-step overlap: s = e_H δ^{e_H−1}.
/// At δ → 0 that slope vanishes and a contact offers no resistance for a whole step: with a
/// large h, bodies placed in contact (a column at zero overlap) fall g h² into each other
/// before any force builds. Here s is the slope at `reach` ≥ δ, the overlap the contact is
/// expected to work at during the step (see buildContinuousRows), and δ̄ = e_H δ^{2e_H−1} / s
/// so that the static force s δ̄/ε = k δ^{2e_H−1} stays exact whatever s is. At rest reach = δ
/// and as h → 0 reach → δ: the row is the paper's (and smooth DEM's) there.
inline HertzRow hertzRow(const NormalLaw& law, double overlap, double diameter, double reach) {
    HertzRow row;
    if (law.exponent == 1.0) {
        row.deltaBar = overlap;
        return row;
    }
    const double slopeAt = std::max({overlap, reach, 1e-12 * diameter});
    row.scale = law.exponent * law.scalePower(slopeAt);
    row.deltaBar = law.exponent * law.forcePower(overlap) / row.scale;
    return row;
}

}  // namespace ndem
