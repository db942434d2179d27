// The non-associated sliding rule in the plane as a linear complementarity problem
// (krabbenhoft-2012 Sec. 4.1–4.4): one contact against its closed-form answer for the dilations
// 0 (Coulomb), between, and μ (the associated rule, where it must agree with the cone program).
#include "solve/convex/lcp_interior_point.hpp"
#include "solve/convex/interior_point.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ndem {
namespace {

constexpr double kA = 2.0, kB = 3.0, kMu = 0.5;

/// One contact, normal and tangent rows with W = diag(a, b).
LocalProblem oneContact(double qn, double qt) {
    LocalProblem p;
    p.W.resize(2, 2);
    p.W.insert(0, 0) = kA;
    p.W.insert(1, 1) = kB;
    p.W.makeCompressed();
    p.q = Eigen::Vector2d(qn, qt);
    p.dim = {2};
    p.offset = {0};
    p.mu = {kMu};
    return p;
}

Eigen::VectorXd solveLcp(const LocalProblem& p, double nu, InteriorPointResult* out = nullptr) {
    LcpInteriorPoint lcp;
    LcpOptions o;
    o.dilation = {nu};
    Eigen::VectorXd r;
    const InteriorPointResult res = lcp.solve(p, r, o);
    EXPECT_TRUE(res.converged) << "nu = " << nu;
    EXPECT_LE(res.iterations, 30) << "nu = " << nu;
    if (out) *out = res;
    return r;
}

/// Three contacts in the plane coupled by W, each with its own μ.
LocalProblem threeCoupledContacts() {
    LocalProblem p;
    const int n = 3;
    Eigen::MatrixXd dense = Eigen::MatrixXd::Identity(2 * n, 2 * n) * 2.0;
    for (int i = 0; i + 2 < 2 * n; ++i)
        dense(i, i + 2) = dense(i + 2, i) = 0.6;
    p.W = dense.sparseView();
    p.q.resize(2 * n);
    p.q << -1.0, 0.8, -0.5, -1.5, 0.3, 0.2;
    p.dim = {2, 2, 2};
    p.offset = {0, 2, 4};
    p.mu = {0.5, 0.3, 0.7};
    return p;
}

TEST(LcpInteriorPoint, ASlidingContactOpensAtItsDilation) {
    // q_t > 0 slides forward: r_t = −μ r_n and u_n = ν u_t, so r_n = (ν q_t − q_n)/(a + ν μ b).
    for (const double nu : {0.0, 0.25, kMu}) {
        const LocalProblem p = oneContact(-1.0, 2.0);
        const Eigen::VectorXd r = solveLcp(p, nu);
        const double rn = (nu * 2.0 + 1.0) / (kA + nu * kMu * kB);
        EXPECT_NEAR(r[0], rn, 1e-9) << "nu = " << nu;
        EXPECT_NEAR(r[1], -kMu * rn, 1e-9) << "nu = " << nu;
        const Eigen::VectorXd u = p.W * r + p.q;
        EXPECT_GT(u[1], 0.5);
        EXPECT_NEAR(u[0], nu * u[1], 1e-9) << "nu = " << nu;
    }
}

TEST(LcpInteriorPoint, DilationPushesApartWhatWouldSeparateSlowly) {
    // u_n = 0.05 < ν u_t at r = 0: with ν = 0.25 the contact must push the grains apart to
    // ν u_t; Coulomb's law (ν = 0) lets them separate with no force.
    const LocalProblem p = oneContact(0.05, 1.0);
    const Eigen::VectorXd dilatant = solveLcp(p, 0.25);
    const double rn = (0.25 * 1.0 - 0.05) / (kA + 0.25 * kMu * kB);
    EXPECT_NEAR(dilatant[0], rn, 1e-9);
    const Eigen::VectorXd coulomb = solveLcp(p, 0.0);
    EXPECT_NEAR(coulomb.norm(), 0.0, 1e-9);
    // Fast separation: no force under any rule.
    EXPECT_NEAR(solveLcp(oneContact(1.0, 1.0), 0.25).norm(), 0.0, 1e-9);
}

TEST(LcpInteriorPoint, AStickingContactIgnoresTheDilation) {
    // |q_t| small: stick, u = 0, r = −W⁻¹ q inside the cone whatever ν.
    for (const double nu : {0.0, 0.1, kMu}) {
        const Eigen::VectorXd r = solveLcp(oneContact(-1.0, 0.1), nu);
        EXPECT_NEAR(r[0], 1.0 / kA, 1e-9);
        EXPECT_NEAR(r[1], -0.1 / kB, 1e-9);
    }
}

TEST(LcpInteriorPoint, TheAssociatedRuleIsTheConeProgram) {
    // ν = μ: F = G, a quadratic program, the cone program's answer; contacts coupled by W.
    const LocalProblem p = threeCoupledContacts();
    LcpInteriorPoint lcp;
    LcpOptions lo;
    lo.dilation = p.mu;
    Eigen::VectorXd rl;
    EXPECT_TRUE(lcp.solve(p, rl, lo).converged);
    InteriorPointSolver cone;
    InteriorPointOptions co;
    co.tolerance = 1e-12;
    Eigen::VectorXd rc;
    EXPECT_TRUE(cone.solve(p, rc, co).converged);
    EXPECT_LT((rl - rc).norm(), 1e-8 * rc.norm()) << rl.transpose() << "\n" << rc.transpose();
    EXPECT_GT(rc.norm(), 0.1);
}

TEST(LcpInteriorPoint, AnIterationCutShortIsFinishedOnTheSameLaw) {
    // Three coupled contacts under the non-associated rule (ν = 0.1 < μ): the interior point cut
    // off after 3 Newton steps is far from the answer; the finish (Gauss–Seidel, then the
    // semismooth Newton method, solve/nscd/coulomb_finish.hpp) takes it to round-off, to the answer
    // the interior point reaches when let run.
    const LocalProblem p = threeCoupledContacts();
    LcpOptions o;
    o.dilation = {0.1, 0.1, 0.1};
    o.tolerance = 1e-12;
    LcpInteriorPoint lcp;
    Eigen::VectorXd full;
    ASSERT_TRUE(lcp.solve(p, full, o).converged);
    o.maxIterations = 3;
    o.polishSteps = 0;
    Eigen::VectorXd cut;
    const InteriorPointResult alone = lcp.solve(p, cut, o);
    EXPECT_FALSE(alone.converged);
    EXPECT_GT(alone.relative, 1e-4);
    o.polishSteps = 30;
    Eigen::VectorXd finished;
    const InteriorPointResult res = lcp.solve(p, finished, o);
    EXPECT_TRUE(res.converged);
    EXPECT_EQ(res.iterations, 3);
    EXPECT_GT(res.polishSteps, 0);
    EXPECT_LT(res.relative, 1e-12);
    EXPECT_LT(coulombError(p, finished, o.dilation), 1e-12);
    EXPECT_LT((finished - full).norm(), 1e-9 * full.norm()) << finished.transpose() << "\n"
                                                            << full.transpose();
}

TEST(LcpInteriorPoint, AFrictionlessContactIsItsNormalRowAndSpaceIsRefused) {
    LocalProblem p = oneContact(-1.0, 2.0);
    p.mu = {0.0};
    const Eigen::VectorXd r = solveLcp(p, 0.0);
    EXPECT_NEAR(r[0], 0.5, 1e-9);
    EXPECT_EQ(r[1], 0.0);
    // Three rows a contact: not this solver's problem; nothing is made up.
    LocalProblem space;
    space.W = Eigen::MatrixXd::Identity(3, 3).sparseView();
    space.q = Eigen::Vector3d(-1.0, 0.0, 0.0);
    space.dim = {3};
    space.offset = {0};
    space.mu = {0.5};
    LcpInteriorPoint lcp;
    Eigen::VectorXd rs;
    EXPECT_FALSE(lcp.solve(space, rs, {}).converged);
    EXPECT_EQ(rs.norm(), 0.0);
}

}  // namespace
}  // namespace ndem
