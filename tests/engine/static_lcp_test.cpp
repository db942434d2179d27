// The non-associated rule in the plane in the mixed form (krabbenhoft-2012 Sec. 4.1, Eq. 44–46,
// the bodies' velocities as unknowns): the contact-space form's answer where both converge, and
// where the iteration is cut short, velocities that keep to the flow rule.
#include "solve/convex/static_lcp.hpp"
#include "solve/convex/lcp_interior_point.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace ndem {
namespace {

constexpr double kMu = 0.5;

/// A row of `bodies` disks (radius 5 mm, 0.2 kg) side by side on a fixed floor in the x–z
/// plane, six unknowns each as ContactProblem has them; each touches the floor and its
/// neighbours. One step of h = 10 ms under gravity and random sideways loads up to `push`
/// times the weight, masses scaled by `inertia` as the static formulation scales them.
ContactProblem diskRow(int bodies, double inertia, double push, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    constexpr double r = 0.005, m = 0.2, in = 0.5 * m * r * r, h = 0.01, g = 9.81;
    ContactProblem p;
    const int n = 6 * bodies;
    std::vector<Eigen::Triplet<double>> mass, inv, jac;
    p.vFree = Eigen::VectorXd::Zero(n);
    for (int u = 0; u < bodies; ++u) {
        p.movableBody.push_back(u);
        p.unknownOf.push_back(u);
        for (int d = 0; d < 6; ++d) {
            const double md = inertia * (d < 3 ? m : in);
            mass.emplace_back(6 * u + d, 6 * u + d, md);
            inv.emplace_back(6 * u + d, 6 * u + d, 1.0 / md);
        }
        p.vFree[6 * u] = push * unit(rng) * h * g / inertia;
        p.vFree[6 * u + 2] = -h * g / inertia;
    }
    p.M.resize(n, n);
    p.M.setFromTriplets(mass.begin(), mass.end());
    p.invM.resize(n, n);
    p.invM.setFromTriplets(inv.begin(), inv.end());
    // Contact rows n·(v_a − v_b) and t·(v_a − v_b) + r (ω_a + ω_b), n from b to a, t = ŷ × n.
    auto contact = [&](int a, int b, const Eigen::Vector3d& normal) {
        const Eigen::Vector3d tangent(-normal.z(), 0.0, normal.x());
        const int c = p.contacts(), row = 2 * c;
        p.contactRow.push_back(c);
        p.bodyA.push_back(a);
        p.bodyB.push_back(b);
        p.dim.push_back(2);
        p.offset.push_back(row);
        p.mu.push_back(kMu);
        p.scale.push_back(1.0);
        p.rolling.push_back(0);
        p.rollingLimit.push_back(0.0);
        for (const auto& [body, sign] : {std::pair{a, 1.0}, std::pair{b, -1.0}}) {
            if (body < 0) continue;
            for (int d = 0; d < 3; ++d) {
                jac.emplace_back(row, 6 * body + d, sign * normal[d]);
                jac.emplace_back(row + 1, 6 * body + d, sign * tangent[d]);
            }
            jac.emplace_back(row + 1, 6 * body + 4, r);
        }
    };
    for (int u = 0; u < bodies; ++u) {
        contact(u, -1, Eigen::Vector3d::UnitZ());
        if (u > 0) contact(u, u - 1, Eigen::Vector3d::UnitX());
    }
    const int rows = 2 * p.contacts();
    p.J.resize(rows, n);
    p.J.setFromTriplets(jac.begin(), jac.end());
    p.b = Eigen::VectorXd::Zero(rows);
    p.sigma = Eigen::VectorXd::Zero(rows);
    p.invD = Eigen::VectorXd::Ones(rows);
    return p;
}

/// How far y = J v + Σ r − b breaks the flow rule's normal part, y_n ≥ ν|y_t| (m/s).
double flowViolation(const ContactProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd& v,
                     double nu) {
    const Eigen::VectorXd y = p.J * v + p.sigma.cwiseProduct(r) - p.b;
    double worst = 0.0;
    for (int c = 0; c < p.contacts(); ++c) {
        const int o = p.offset[static_cast<size_t>(c)];
        worst = std::max(worst, nu * std::abs(y[o + 1]) - y[o]);
    }
    return worst;
}

TEST(StaticLcp, TheMixedFormHasTheContactFormsAnswer) {
    // Both forms solve the same KKT conditions; where both converge, the same motion, and the
    // mixed form's velocities are the ones its impulses give (the balance holds).
    for (const double nu : {0.01, 0.1, kMu}) {
        const ContactProblem p = diskRow(6, 1.0, 1.5, 7);
        StaticLcp mixed;
        LcpOptions so;
        so.dilation.assign(11, nu);
        so.tolerance = 1e-12;
        Eigen::VectorXd r, v;
        const InteriorPointResult rm = mixed.solve(p, r, v, so);
        ASSERT_TRUE(rm.converged) << nu << " " << rm.relative;
        EXPECT_LE(rm.iterations, 40) << nu;
        LcpInteriorPoint contactForm;
        LcpOptions lo;
        lo.dilation = so.dilation;
        lo.tolerance = 1e-12;
        lo.polishSteps = 0;
        Eigen::VectorXd rc;
        ASSERT_TRUE(contactForm.solve(p.local(), rc, lo).converged) << nu;
        // The row's forces are indeterminate (side by side on a floor), its motion is not.
        const Eigen::VectorXd vc = p.velocities(rc);
        EXPECT_GT(vc.norm(), 1e-2) << nu;  // some disks slide
        EXPECT_LT((v - vc).norm(), 1e-7 * vc.norm()) << nu << "\n"
                                                     << v.transpose() << "\n"
                                                     << vc.transpose();
        EXPECT_LT((v - p.velocities(r)).norm(), 1e-7 * v.norm()) << nu;
        EXPECT_LT(flowViolation(p, r, v, nu), 1e-9) << nu;
    }
}

TEST(StaticLcp, CutShortItsVelocitiesKeepTheFlowRule) {
    // The static formulation's masses (ε = 10⁻⁴): an answer cut off after a few Newton
    // steps. The contact form's velocities are v* + M⁻¹ Jᵀ r, so its impulse error becomes a
    // velocity error 10⁴ times larger; the mixed form's are unknowns of their own and break
    // the flow rule only by what the iteration left of its kinematic residual.
    const ContactProblem p = diskRow(6, 1e-4, 1.5, 7);
    const double nu = 0.01;
    StaticLcp mixed;
    LcpOptions so;
    so.dilation.assign(11, nu);
    so.maxIterations = 6;
    Eigen::VectorXd r, v;
    const InteriorPointResult rm = mixed.solve(p, r, v, so);
    EXPECT_FALSE(rm.converged);
    LcpInteriorPoint contactForm;
    LcpOptions lo;
    lo.dilation = so.dilation;
    lo.maxIterations = 6;
    lo.polishSteps = 0;
    Eigen::VectorXd rc;
    EXPECT_FALSE(contactForm.solve(p.local(), rc, lo).converged);
    const double mixedError = flowViolation(p, r, v, nu);
    const double contactError = flowViolation(p, rc, p.velocities(rc), nu);
    EXPECT_LT(mixedError, 2.0 * rm.residual);
    EXPECT_LT(mixedError, 1e-2 * contactError) << mixedError << " " << contactError;
}

TEST(StaticLcp, UnknownsNoRowReachesKeepTheirFreeVelocityUnlessTheMassesTieThem) {
    // A disk's y, ω_x and ω_z: no row reaches them (the rows hold zeros there), so they take
    // v* exactly, left out of the saddle point. Tie body 0's y to its x through the masses and
    // it is an unknown again: the balance M (v − v*) = Jᵀ r holds on it too.
    ContactProblem p = diskRow(4, 1.0, 1.5, 3);
    for (int u = 0; u < 4; ++u) {
        p.vFree[6 * u + 1] = 0.1 * (u + 1);
        p.vFree[6 * u + 3] = -2.0;
    }
    LcpOptions o;
    o.dilation.assign(static_cast<size_t>(p.contacts()), 0.1);
    o.tolerance = 1e-12;
    StaticLcp mixed;
    Eigen::VectorXd r, v;
    ASSERT_TRUE(mixed.solve(p, r, v, o).converged);
    for (int u = 0; u < 4; ++u) {
        EXPECT_EQ(v[6 * u + 1], p.vFree[6 * u + 1]) << u;
        EXPECT_EQ(v[6 * u + 3], p.vFree[6 * u + 3]) << u;
        EXPECT_EQ(v[6 * u + 5], p.vFree[6 * u + 5]) << u;
    }
    const double coupling = 0.3 * p.M.coeff(0, 0);
    p.M.coeffRef(0, 1) = coupling;
    p.M.coeffRef(1, 0) = coupling;
    ASSERT_TRUE(mixed.solve(p, r, v, o).converged);
    const Eigen::VectorXd balance = p.M * (v - p.vFree) - p.J.transpose() * r;
    EXPECT_LT(balance.lpNorm<Eigen::Infinity>(), 1e-9 * (p.M * p.vFree).lpNorm<Eigen::Infinity>());
    EXPECT_GT(std::abs(v[1] - p.vFree[1]), 1e-3 * std::abs(v[0]));  // y moved with x
    EXPECT_EQ(v[6 + 1], p.vFree[6 + 1]);
}

TEST(StaticLcp, NothingTouchingLeavesEveryBodyItsFreeVelocity) {
    ContactProblem p = diskRow(2, 1.0, 0.5, 3);
    p.J.resize(0, p.J.cols());
    p.b.resize(0);
    p.sigma.resize(0);
    p.dim.clear();
    p.offset.clear();
    p.mu.clear();
    p.rolling.clear();
    p.contactRow.clear();
    StaticLcp mixed;
    Eigen::VectorXd r, v;
    EXPECT_TRUE(mixed.solve(p, r, v, LcpOptions{}).converged);
    EXPECT_EQ(r.size(), 0);
    EXPECT_EQ(v, p.vFree);
}

}  // namespace
}  // namespace ndem
