// Rows built by hand for problems with answers known on paper: a sphere's body, a contact's
// rows with D from its bodies, a column of spheres on the floor. Shared by the interior-point
// tests and the solver conformance suite.
#pragma once

#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"

#include <cmath>
#include <span>
#include <vector>

namespace ndem::test {

inline SolverBody sphereBody(double mass, double radius, bool rotates = true) {
    SolverBody b;
    b.invMass = 1.0 / mass;
    b.setIsotropicInvInertia(rotates ? 1.0 / (0.4 * mass * radius * radius) : 0.0);
    return b;
}

/// A contact between bodies a and b (n from a to b) with the rows' D_j from the bodies.
inline SolverContact contactRow(int a, int b, const Vec3& n, const Vec3& leverA, const Vec3& leverB,
                                std::span<const SolverBody> bodies, double friction,
                                double normalBias) {
    SolverContact c;
    for (int k = 0; k < 3; ++k)  // the general rows' Jacobians, filled where a sweep needs them
        c.angularA[k] = c.angularB[k] = c.responseA[k] = c.responseB[k] = Vec3::Zero();
    c.a = a;
    c.b = b;
    c.n = n;
    c.t1 = (std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(n).normalized();
    c.t2 = n.cross(c.t1);
    c.leverA = leverA;
    c.leverB = leverB;
    c.friction = friction;
    c.bias[0] = normalBias;
    const Vec3* dirs[3] = {&c.n, &c.t1, &c.t2};
    for (int k = 0; k < 3; ++k) {
        const SolverBody& A = bodies[static_cast<size_t>(a)];
        const SolverBody& B = bodies[static_cast<size_t>(b)];
        const Vec3 ra = leverA.cross(*dirs[k]), rb = leverB.cross(*dirs[k]);
        const double d =
            A.invMass + B.invMass + ra.dot(A.applyInvInertia(ra)) + rb.dot(B.applyInvInertia(rb));
        c.invD[k] = d > 0.0 ? 1.0 / d : 0.0;
    }
    return c;
}

/// n spheres stacked on the floor, each moving down at g h: contact k from the bottom carries
/// the weight of the n − k spheres above it.
struct Column {
    std::vector<SolverBody> bodies;
    std::vector<SolverContact> rows;
};

inline Column column(int n, double friction) {
    const double m = 0.01, r = 0.005, h = 0.01, g = 9.81;
    Column c;
    c.bodies.resize(static_cast<size_t>(n) + 1);
    for (int i = 0; i < n; ++i) {
        c.bodies[static_cast<size_t>(i)] = sphereBody(m, r);
        c.bodies[static_cast<size_t>(i)].v = Vec3(0.0, 0.0, -g * h);
    }
    c.bodies[static_cast<size_t>(n)] = SolverBody{};  // the floor
    c.rows.push_back(
        contactRow(n, 0, Vec3::UnitZ(), Vec3::Zero(), Vec3(0, 0, -r), c.bodies, friction, 0.0));
    for (int i = 1; i < n; ++i)
        c.rows.push_back(contactRow(i - 1, i, Vec3::UnitZ(), Vec3(0, 0, r), Vec3(0, 0, -r),
                                    c.bodies, friction, 0.0));
    return c;
}

}  // namespace ndem::test
