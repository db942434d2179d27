// The semismooth Newton method on the Alart–Curnier function (alart-curnier-1991) against
// Coulomb's law solved by hand, and the three-stage reference against Siconos.
#include "solve/convex/coulomb_reference.hpp"
#include "solve/nscd/alart_curnier_newton.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ndem {
namespace {

/// One contact of a point mass m against a fixed plane: W = I / m, the free velocity
/// (v_n, v_t) (v_n < 0 approaching), in space (rows n, t1, t2) or in the plane (n, t).
LocalProblem pointMass(double m, double vn, double vt, double mu, int dimension) {
    LocalProblem p;
    const int n = dimension;
    Eigen::MatrixXd w = Eigen::MatrixXd::Identity(n, n) / m;
    p.W = w.sparseView();
    p.q = Eigen::VectorXd::Zero(n);
    p.q[0] = vn;
    p.q[1] = vt;
    p.dim = {n};
    p.offset = {0};
    p.mu = {mu};
    return p;
}

TEST(AlartCurnier, SolvesAPointMassStickingSlidingAndLeavingAsCoulombSays) {
    const double m = 2.0, mu = 0.5;
    for (int dimension : {2, 3}) {
        // Approaching at 1 m/s: the normal impulse stops it, m v_n = 2 N s, whatever the slip.
        // Slow tangentially (0.3 < μ v_n): the friction stops it too, r_t = −m v_t.
        // Fast (3 > μ v_n): it slides on with v_t − μ v_n, r_t = −μ r_n.
        struct Case {
            double vn, vt, rn, rt;
        };
        for (const Case& c : {Case{-1.0, 0.3, 2.0, -0.6}, Case{-1.0, 3.0, 2.0, -1.0},
                              Case{-1.0, -3.0, 2.0, 1.0}, Case{0.5, 3.0, 0.0, 0.0}}) {
            const LocalProblem p = pointMass(m, c.vn, c.vt, mu, dimension);
            Eigen::VectorXd r;  // cold
            AlartCurnierOptions options;
            options.tolerance = 1e-14;
            const AlartCurnierResult res = solveAlartCurnierNewton(p, r, options);
            EXPECT_TRUE(res.converged) << "v_n " << c.vn << ", v_t " << c.vt;
            // Piecewise linear with the right piece found: a couple of steps.
            EXPECT_LE(res.iterations, 3) << "v_n " << c.vn << ", v_t " << c.vt;
            EXPECT_NEAR(r[0], c.rn, 1e-12);
            EXPECT_NEAR(r[1], c.rt, 1e-12);
            if (dimension == 3) {
                EXPECT_NEAR(r[2], 0.0, 1e-12);
            }
        }
    }
}

TEST(AlartCurnier, SlidesAlongTheFreeVelocitysDirectionInSpace) {
    // Free tangential velocity (3, 4) m/s, |v_t| = 5 > μ v_n: the friction opposes it at
    // μ r_n, r_t = −μ m |v_n| (0.6, 0.8), and the mass slides on along it at 5 − μ |v_n|.
    LocalProblem p = pointMass(1.0, -2.0, 3.0, 0.5, 3);
    p.q[2] = 4.0;
    Eigen::VectorXd r;
    AlartCurnierOptions options;
    options.tolerance = 1e-14;
    const AlartCurnierResult res = solveAlartCurnierNewton(p, r, options);
    ASSERT_TRUE(res.converged);
    EXPECT_NEAR(r[0], 2.0, 1e-12);
    EXPECT_NEAR(r[1], -0.6, 1e-12);
    EXPECT_NEAR(r[2], -0.8, 1e-12);
    const Eigen::VectorXd u = p.W * r + p.q;
    EXPECT_NEAR(u[0], 0.0, 1e-12);
    EXPECT_NEAR(std::hypot(u[1], u[2]), 4.0, 1e-12);
}

TEST(AlartCurnier, OpensASlidingContactAtItsDilation) {
    // krabbenhoft-2012 Sec. 4.1: sliding, r_t = −μ r_n along the slip and u_n = ν ‖u_t‖. With
    // W = diag(a, b, b) and a free slip of 2 m/s: r_n = (ν · 2 − q_n)/(a + ν μ b); ν = 0 is
    // Coulomb's law, ν = μ the associated rule.
    const double a = 2.0, b = 3.0, mu = 0.5, qn = -1.0;
    for (int dimension : {2, 3}) {
        for (const double nu : {0.0, 0.01, 0.25, mu}) {
            LocalProblem p = pointMass(1.0, qn, 2.0, mu, dimension);
            Eigen::VectorXd diagonal = Eigen::VectorXd::Constant(dimension, b);
            diagonal[0] = a;
            p.W = Eigen::MatrixXd(diagonal.asDiagonal()).sparseView();
            if (dimension == 3) p.q.tail<2>() = Eigen::Vector2d(1.2, 1.6);  // ‖q_t‖ = 2
            AlartCurnierOptions options;
            options.tolerance = 1e-14;
            options.dilation = {nu};
            Eigen::VectorXd r;
            const AlartCurnierResult res = solveAlartCurnierNewton(p, r, options);
            EXPECT_TRUE(res.converged) << "nu " << nu;
            EXPECT_LE(res.iterations, 6) << "nu " << nu;
            const double rn = (nu * 2.0 - qn) / (a + nu * mu * b);
            EXPECT_NEAR(r[0], rn, 1e-12) << "nu " << nu;
            const Eigen::VectorXd u = p.W * r + p.q;
            const double ut = u.tail(dimension - 1).norm();
            EXPECT_NEAR(u[0], nu * ut, 1e-12) << "nu " << nu;
            EXPECT_NEAR(r.tail(dimension - 1).norm(), mu * rn, 1e-12) << "nu " << nu;
            EXPECT_LT(coulombError(p, r, options.dilation), 1e-13);
            if (nu > 0.0) {  // the answer is not Coulomb's
                EXPECT_GT(coulombError(p, r), 1e-3);
            }
        }
    }
}

TEST(AlartCurnier, AProblemWithRollingRowsIsLeftAloneUnconverged) {
    LocalProblem p = pointMass(1.0, -1.0, 0.0, 0.5, 2);
    p.W = Eigen::MatrixXd(Eigen::MatrixXd::Identity(3, 3)).sparseView();
    p.q = Eigen::Vector3d(-1.0, 0.0, 0.0);
    p.rolling = {1};
    p.rollingLimit = {0.01};
    Eigen::VectorXd r;
    EXPECT_FALSE(solveAlartCurnierNewton(p, r, {}).converged);
    EXPECT_EQ(r, Eigen::VectorXd::Zero(3));
}

}  // namespace
}  // namespace ndem
