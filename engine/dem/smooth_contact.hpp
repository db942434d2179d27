// The smooth DEM's law for one contact (servin-2014 Eq. 11–12 with Mindlin's tangential
// spring and an elastic–plastic rolling spring), shared by the pass over a ContactSet and the
// pass straight over the neighbour lists (dem/smooth_pairs.hpp).
#pragma once

#include "core/material.hpp"
#include "core/settings.hpp"
#include "core/types.hpp"
#include "solve/rows/contact_law.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace smooth_detail {

/// Keeps a spring vector in the current tangent plane with its length (the contact frame
/// turns between steps; Luding 2008 rotates the spring instead of cutting it short).
inline Vec3 rotateIntoPlane(const Vec3& spring, const Vec3& n) {
    const double length2 = spring.squaredNorm();
    if (length2 == 0.0) return Vec3::Zero();
    const Vec3 t = spring - spring.dot(n) * n;
    const double t2 = t.squaredNorm();
    return t2 > 0.0 ? Vec3(t * std::sqrt(length2 / t2)) : Vec3::Zero();
}

/// Caps a spring force at `limit` and shortens the spring to match (Coulomb slip).
inline void capSpring(Vec3& f, Vec3& spring, double stiffness, const Vec3& damping, double limit) {
    // Squared first: most springs stick, and then no square root is taken.
    const double m2 = f.squaredNorm();
    if (m2 <= limit * limit || m2 == 0.0) return;
    f *= limit / std::sqrt(m2);
    spring = stiffness > 0.0 ? Vec3(-(f + damping) / stiffness) : Vec3::Zero();
}

}  // namespace smooth_detail

/// What one touching contact puts on body B (A takes the opposite force).
struct SmoothPush {
    double normalForce = 0.0;  ///< f_n ≥ 0 (N)
    Vec3 tangentialForce;      ///< f_t (N)
    Vec3 moment;               ///< rolling and twisting moment (N m)
};

/// The force of a contact with overlap δ > 0 along n (A to B) between grains of effective
/// diameter d* and characteristic diameter d, with relative velocity u of B against A at the
/// contact point and relative spin ω_B − ω_A; `xi` and `theta` come in as last step's springs
/// (zero for a new contact) and leave as this step's.
///   normal:      f_n = k (δ^{2e_H−1} + c δ^{2e_H−2} δ̇), clamped ≥ 0
///   tangential:  f_t = proj_{μ f_n}(−k_t ξ − c k_t u_t), k_t = 8 G* √(R* δ) (Mindlin) or
///                (2/7) k for the linear law, ξ integrated from the slip velocity
///   rolling:     elastic–plastic spring M_r = proj_{μ_r R* f_n}(−k_t R*² θ_r)
[[gnu::always_inline]] inline SmoothPush smoothContactForce(const ContactMaterial& m,
                                                            ContactLaw contactLaw,
                                                            double referenceOverlap, double dStar,
                                                            double d, const Vec3& n, double delta,
                                                            const Vec3& u, const Vec3& spin,
                                                            double h, Vec3& xi, Vec3& theta) {
    using smooth_detail::capSpring;
    const double rStar = 0.5 * dStar;
    const double overlapRate = -u.dot(n);
    SmoothPush push;
    double kt = 0.0;
    if (contactLaw == ContactLaw::Hertz) {
        // k = E* √(2d*)/3 = (2/3) E* √R* and k_t = 8 G* √R* √δ: two square roots per contact.
        const double rootR = std::sqrt(rStar), rootDelta = std::sqrt(delta);
        const double k = (2.0 / 3.0) * m.elasticModulus * rootR;
        push.normalForce = std::max(0.0, k * rootDelta * (delta + m.damping * overlapRate));
        kt = 8.0 * m.shearModulus * rootR * rootDelta;
    } else {
        const NormalLaw law = normalLaw(m, contactLaw, dStar, d, referenceOverlap);
        push.normalForce =
            std::max(0.0, law.stiffness * (law.forcePower(delta) +
                                           law.damping * law.dampingPower(delta) * overlapRate));
        kt = law.exponent > 1.0 ? 8.0 * m.shearModulus * std::sqrt(rStar * delta)
                                : 2.0 / 7.0 * law.stiffness;
    }

    xi = smooth_detail::rotateIntoPlane(xi, n);
    const Vec3 ut = u - u.dot(n) * n;
    xi += h * ut;
    const Vec3 tangentialDamping = m.damping * kt * ut;
    push.tangentialForce = -kt * xi - tangentialDamping;
    capSpring(push.tangentialForce, xi, kt, tangentialDamping, m.friction * push.normalForce);

    // Rolling (tangent-plane part) and twisting (normal part) springs on ω_B − ω_A.
    push.moment.setZero();
    if (m.rollingResistance > 0.0) {
        theta += h * spin;
        const double kr = kt * rStar * rStar;
        Vec3 rollTheta = theta - theta.dot(n) * n;
        Vec3 twistTheta = theta.dot(n) * n;
        Vec3 roll = -kr * rollTheta, twist = -kr * twistTheta;
        const double limit = m.rollingResistance * rStar * push.normalForce;
        capSpring(roll, rollTheta, kr, Vec3::Zero(), limit);
        capSpring(twist, twistTheta, kr, Vec3::Zero(), limit);
        theta = rollTheta + twistTheta;
        push.moment = roll + twist;
    }
    return push;
}

}  // namespace ndem
