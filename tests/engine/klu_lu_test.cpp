// The LU that refactors in its last pivot order (solve/convex/klu_lu.hpp): answers to round-off on
// an unsymmetric sparse system, a refactorisation where the pattern repeats, and a pivot order gone
// bad with the values caught by the solve's backward error and factored again with pivoting.
#include "solve/convex/klu_lu.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace ndem {
namespace {

/// A tridiagonal-plus-corner unsymmetric matrix of size n: `diagonal` on the diagonal,
/// off-diagonal entries in [−1, 1] (seeded), one entry coupling the first and last unknowns.
KluLu::Matrix matrix(int n, double diagonal, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<Eigen::Triplet<double>> entries;
    for (int i = 0; i < n; ++i) {
        entries.emplace_back(i, i, diagonal);
        if (i + 1 < n) {
            entries.emplace_back(i, i + 1, unit(rng));
            entries.emplace_back(i + 1, i, unit(rng));
        }
    }
    entries.emplace_back(0, n - 1, 0.5);
    KluLu::Matrix a(n, n);
    a.setFromTriplets(entries.begin(), entries.end());
    return a;
}

double relativeResidual(const KluLu::Matrix& a, const Eigen::VectorXd& x,
                        const Eigen::VectorXd& b) {
    return (a * x - b).norm() / b.norm();
}

TEST(KluLu, SolvesToRoundOffAndRefactorsWhileThePatternRepeats) {
    constexpr int n = 200;
    KluLu lu;
    KluLu::Matrix a = matrix(n, 4.0, 1);
    ASSERT_TRUE(lu.analyze(a));
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
    Eigen::VectorXd x;
    for (unsigned k = 0; k < 5; ++k) {  // the same pattern, new values: an interior point's run
        a = matrix(n, 4.0 + k, 10 + k);
        ASSERT_TRUE(lu.factor(a));
        ASSERT_TRUE(lu.solve(b, x));
        EXPECT_LT(relativeResidual(a, x, b), 1e-14) << "k = " << k;
        const Eigen::VectorXd dense = Eigen::MatrixXd(a).partialPivLu().solve(b);
        EXPECT_LT((x - dense).norm(), 1e-12 * dense.norm()) << "k = " << k;
    }
    EXPECT_EQ(lu.factorizations(), 1);
    EXPECT_EQ(lu.refactorizations(), 4);
}

TEST(KluLu, APivotOrderGoneBadIsFactoredAgainWithPivoting) {
    // Diagonally dominant first: KLU pivots on the diagonal. Then the diagonal falls to 10⁻¹⁴ of
    // the off-diagonal entries: in the old order the pivots are all but zero and the solve's
    // backward error is far above 10⁻¹⁰; the LU is factored again with pivoting and the answer
    // is the dense LU's.
    constexpr int n = 60;
    KluLu lu;
    KluLu::Matrix a = matrix(n, 10.0, 3);
    ASSERT_TRUE(lu.analyze(a));
    ASSERT_TRUE(lu.factor(a));
    const Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
    Eigen::VectorXd x;
    ASSERT_TRUE(lu.solve(b, x));
    a = matrix(n, 1e-14, 4);
    ASSERT_TRUE(lu.factor(a));
    EXPECT_EQ(lu.refactorizations(), 1);
    ASSERT_TRUE(lu.solve(b, x));
    EXPECT_EQ(lu.factorizations(), 2);
    const Eigen::VectorXd dense = Eigen::MatrixXd(a).partialPivLu().solve(b);
    EXPECT_LT(relativeResidual(a, x, b), 1e-12);
    EXPECT_LT((x - dense).norm(), 1e-9 * dense.norm());
}

TEST(KluLu, ANonSquareUncompressedOrStructurallySingularMatrixIsRefused) {
    KluLu lu;
    KluLu::Matrix rect(3, 4);
    rect.insert(0, 0) = 1.0;
    rect.makeCompressed();
    EXPECT_FALSE(lu.analyze(rect));
    KluLu::Matrix singular(3, 3);  // the last row and column empty
    singular.insert(0, 0) = 1.0;
    singular.insert(1, 1) = 1.0;
    EXPECT_FALSE(lu.analyze(singular));  // KLU reads compressed columns only
    singular.makeCompressed();
    ASSERT_TRUE(lu.analyze(singular));
    EXPECT_FALSE(lu.factor(singular));
    Eigen::VectorXd x;
    EXPECT_FALSE(lu.solve(Eigen::VectorXd::Ones(3), x));
}

}  // namespace
}  // namespace ndem
