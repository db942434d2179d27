// The null space of H (Alart 2014 Sec. 3.1, 5.3) and the solvers built on it (Alg. 3–7): the
// basis against configurations whose self-equilibrated networks are known by hand, the
// predictions against their laws on one contact, the Jacobi sweep against Gauss–Seidel on the
// stored operator, and the multiplier version against the original problem.
#include "solve/nscd/null_space.hpp"
#include "io/scene_file.hpp"
#include "solve/nscd/nlgs.hpp"
#include "solve/nscd/null_space_solvers.hpp"
#include "solve/rows/contact_problem.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ndem {
namespace {

constexpr double kR = 0.005;  ///< disk radius (m)
constexpr double kIn = 1e-6;  ///< how far each contact starts closed (m)

/// Disks in the plane at `centres`, between walls at x = 0 and x = width (and a floor when
/// asked), everything touching where placed so; the first step's contact problem.
ContactProblem firstProblem(const std::vector<Vec3>& centres, double width, bool floor,
                            double gravity) {
    Scene scene;
    StepSettings& s = scene.settings;
    s.dimension = 2;
    s.mode = StepMode::Nonsmooth;
    s.timeStep = 0.01;
    s.gravity = Vec3(0.0, 0.0, -gravity);
    s.impactEnabled = false;
    Material m;
    m.name = "grain";
    m.density = 2600.0;
    m.friction = 0.5;
    scene.materials.push_back(m);
    for (const Vec3& c : centres) {
        ParticleSpec p;
        p.position = c;
        p.radius = kR;
        scene.particles.push_back(p);
    }
    scene.walls.push_back(test::plane("left", Vec3::Zero(), Vec3::UnitX()));
    scene.walls.push_back(test::plane("right", Vec3(width, 0.0, 0.0), -Vec3::UnitX()));
    if (floor) scene.walls.push_back(test::plane("floor", Vec3::Zero(), Vec3::UnitZ()));
    World world = test::makeWorld(scene);
    world.requestContactProblem();
    world.step();
    return world.takeContactProblem().value();
}

/// The five-disk scene's first step, in local form.
LocalProblem fiveDisks(ContactProblem* problem = nullptr) {
    auto scene = loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/alart-five-disks.json");
    EXPECT_TRUE(scene) << scene.error().message;
    World world = test::makeWorld(scene.value());
    world.requestContactProblem();
    world.step();
    ContactProblem p = world.takeContactProblem().value();
    if (problem) *problem = p;
    return p.local();
}

TEST(NullSpace, ADiskBetweenTwoWallsCarriesOneSelfEquilibratedPairOfThrusts) {
    // Weightless, touching both walls: its four rows (normal and tangent at each wall) act on
    // three unknowns (x, z, rotation); the one network that moves nothing is an equal thrust
    // from each wall, v = (1, 0, 1, 0)/√2, and Z = v vᵀ.
    const ContactProblem p =
        firstProblem({Vec3(kR - kIn, 0.0, 0.02)}, 2 * kR - 2 * kIn, false, 0.0);
    ASSERT_EQ(p.rows(), 4);
    const NullSpace n = NullSpace::ofContacts(p);
    EXPECT_EQ(n.rank(), 3);
    ASSERT_EQ(n.dimension(), 1);
    const Eigen::MatrixXd z = n.projector();
    Eigen::Vector4d v(1.0, 0.0, 1.0, 0.0);
    v /= std::sqrt(2.0);
    // (To δ = 10⁻¹⁰ of H Hᵀ + δI, null_space.cpp.)
    EXPECT_LT((z - v * v.transpose()).norm(), 1e-8);
    EXPECT_LT((p.J.transpose() * z).norm(), 1e-8);
    // W sees nothing of it.
    EXPECT_LT((p.delassus() * z).norm(), 1e-8 * p.delassus().norm());
}

TEST(NullSpace, FloatingGrainsLeaveHAndWsNullSpaceIsTheSame) {
    // A disk in the corner of the floor and the left wall (two contacts, four rows on three
    // unknowns: one network), one resting alone on the floor (one contact: it carries no
    // network and leaves with its rows), one in the air (none).
    const ContactProblem p = firstProblem(
        {Vec3(kR - kIn, 0.0, kR - kIn), Vec3(0.05, 0.0, kR - kIn), Vec3(0.08, 0.0, 0.05)}, 0.1,
        true, 9.81);
    const NullSpace n = NullSpace::ofContacts(p);
    EXPECT_EQ(n.floatingBodies(), 1);
    EXPECT_EQ(n.singleContactBodies(), 1);
    EXPECT_EQ(n.keptRows(), 4);
    EXPECT_EQ(n.rank(), 3);
    ASSERT_EQ(n.dimension(), 1);
    // A projector of rank 1 onto what H does not see.
    const Eigen::MatrixXd basis = n.projector();
    EXPECT_LT((basis * basis - basis).norm(), 1e-8);
    EXPECT_NEAR(basis.trace(), 1.0, 1e-8);
    EXPECT_LT((p.J.transpose() * basis).norm(), 1e-8);
    // The lone disk's rows are not in it.
    for (int c = 0; c < p.contacts(); ++c) {
        if (p.bodyA[static_cast<size_t>(c)] == 1 || p.bodyB[static_cast<size_t>(c)] == 1) {
            EXPECT_EQ(basis.row(p.offset[static_cast<size_t>(c)]).norm(), 0.0);
        }
    }
    // Taken from W instead (a problem without H): the same dimension, and W N = 0.
    const NullSpace fromW = NullSpace::ofOperator(p.delassus());
    EXPECT_EQ(fromW.dimension(), 1);
    EXPECT_LT((p.delassus() * fromW.projector()).norm(), 1e-9 * p.delassus().norm());
    EXPECT_LT((fromW.projector() - basis).norm(), 1e-6);
}

/// One contact in the plane, W diagonal.
LocalProblem oneContact(double w, double qn, double qt) {
    LocalProblem p;
    Eigen::Matrix2d m;
    m << w, 0.0, 0.0, 2.0 * w;
    p.W = m.sparseView();
    p.q = Eigen::Vector2d(qn, qt);
    p.dim = {2};
    p.offset = {0};
    p.mu = {0.5};
    return p;
}

TEST(NullSpaceSolvers, EachPredictionIsItsLawOnOneContact) {
    const double w = 4.0, qn = -0.1, qt = 0.3, h = 0.01, g = -2e-4;
    const LocalProblem p = oneContact(w, qn, qt);
    PredictionInputs in;
    in.timeStep = h;
    in.gap = {g};
    NullSpaceSettings s;
    s.eta = 1e-3;
    s.compliance = 1e-5;
    // Linear (Alg. 4): r_n = −(h/η) v_n with v_n = q_n + W r_n.
    s.prediction = Prediction::Linear;
    Eigen::VectorXd r = predictImpulses(p, in, s, 100, 1e-12);
    const double k = h / s.eta;
    EXPECT_NEAR(r[0], -k * qn / (1.0 + k * w), 1e-14);
    EXPECT_EQ(r[1], 0.0);
    // Elastic (Alg. 6): r_n = −(h/ε)(g + h v_n).
    s.prediction = Prediction::Elastic;
    r = predictImpulses(p, in, s, 100, 1e-12);
    const double e = h / s.compliance;
    EXPECT_NEAR(r[0], -e * (g + h * qn) / (1.0 + e * h * w), 1e-12);
    // Unilateral: the frictionless answer, v_n = 0.
    s.prediction = Prediction::Unilateral;
    r = predictImpulses(p, in, s, 100, 1e-12);
    EXPECT_NEAR(r[0], -qn / w, 1e-14);
    EXPECT_EQ(r[1], 0.0);
    // An open contact (g > 0) is no spring and no damper.
    in.gap = {1e-4};
    for (const Prediction kind : {Prediction::Linear, Prediction::Elastic}) {
        s.prediction = kind;
        EXPECT_EQ(predictImpulses(p, in, s, 100, 1e-12).norm(), 0.0);
    }
}

TEST(NullSpaceSolvers, JacobiOnZReachesTheAnswerOfGaussSeidelOnTheStoredOperator) {
    // Frictionless, W̃ = W + ωZ is positive definite on the kept rows: one answer, which
    // NLGS on the stored W̃ (Alg. 5) and NLGS-Jac (Alg. 7, Z sparse or dense) must all reach.
    ContactProblem cp;
    LocalProblem p = fiveDisks(&cp);
    for (double& mu : p.mu)
        mu = 0.0;
    const NullSpace n = NullSpace::ofContacts(cp);
    ASSERT_GT(n.dimension(), 0);
    // Z's diagonal blocks by the rows' leverages (sparse solves) are Z's own.
    const Eigen::MatrixXd z = n.projector();
    const auto blocks = n.diagonalBlocks(p.offset, p.dim);
    for (size_t c = 0; c < p.dim.size(); ++c)
        for (int i = 0; i < p.dim[c]; ++i)
            for (int j = 0; j < p.dim[c]; ++j)
                EXPECT_NEAR(blocks[c][static_cast<size_t>(3 * i + j)],
                            z(p.offset[c] + i, p.offset[c] + j), 1e-12);
    PredictionInputs in;
    in.timeStep = 0.01;
    NullSpaceOptions o;
    o.settings.prediction = Prediction::Zero;
    o.settings.weight = 0.05;
    o.maxIterations = 20000;
    o.tolerance = 1e-12;
    Eigen::VectorXd full, sparse, dense;
    o.method = NullSpaceMethod::Predicted;
    const NullSpaceResult a = solveNullSpace(p, n, in, full, o);
    o.method = NullSpaceMethod::Jacobi;
    const NullSpaceResult b = solveNullSpace(p, n, in, sparse, o);
    o.settings.basis = NullSpaceBasis::Dense;
    const NullSpaceResult c = solveNullSpace(p, n, in, dense, o);
    EXPECT_TRUE(a.converged && b.converged && c.converged);
    EXPECT_FALSE(a.jacobi);
    EXPECT_TRUE(b.jacobi);
    EXPECT_LT((full - sparse).norm(), 1e-8 * full.norm());
    EXPECT_LT((sparse - dense).norm(), 1e-10 * full.norm());
    EXPECT_EQ(b.iterations, c.iterations);
    EXPECT_NEAR(a.omega, 0.05 * operatorNorm(p.W), 1e-9 * a.omega);
}

TEST(NullSpaceSolvers, TheMultiplierVersionAnswersTheOriginalProblem) {
    // NLKerGS-I, version 2 (λ = Nᵀr): at its fixed point W̃r − ωNλ = W r, so its answer
    // satisfies the unregularised problem's law (frictionless here: with the five disks'
    // friction it creeps as NLGS does, as Alart 2014 Sec. 3.3 finds).
    ContactProblem cp;
    LocalProblem p = fiveDisks(&cp);
    for (double& mu : p.mu)
        mu = 0.0;
    const NullSpace n = NullSpace::ofContacts(cp);
    PredictionInputs in;
    in.timeStep = 0.01;
    NullSpaceOptions o;
    o.method = NullSpaceMethod::Iterated;
    o.settings.prediction = Prediction::Unilateral;
    o.maxIterations = 100000;
    o.tolerance = 1e-10;
    Eigen::VectorXd r;
    const NullSpaceResult res = solveNullSpace(p, n, in, r, o);
    EXPECT_TRUE(res.converged) << res.error;
    EXPECT_LT(coulombError(p, r), 1e-6);
}

TEST(NullSpaceSolvers, ADivergingJacobiSweepFallsBackToNlgsOnW) {
    // Alart 2014 Table 3: on 500 disks NLGS-Jac diverges at ω = 5 (a weight of 5/20.4). The
    // step must not take that answer: it takes NLGS's on W, finite, and says so.
    auto scene = loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/alart-500-disks.json");
    ASSERT_TRUE(scene) << scene.error().message;
    World world = test::makeWorld(scene.value());
    world.requestContactProblem();
    world.step();
    const ContactProblem cp = world.takeContactProblem().value();
    const LocalProblem p = cp.local();
    const NullSpace n = NullSpace::ofContacts(cp);
    NullSpaceOptions o;
    o.method = NullSpaceMethod::Jacobi;
    o.settings.prediction = Prediction::Zero;
    o.settings.weight = 5.0 / 20.4;
    o.maxIterations = 400;
    o.tolerance = 1e-4;
    Eigen::VectorXd r;
    const NullSpaceResult res = solveNullSpace(p, n, PredictionInputs{}, r, o);
    EXPECT_TRUE(res.diverged);
    EXPECT_TRUE(r.allFinite());
    EXPECT_LT(res.error, 1.0);
    // At a weight where it converges, no fallback.
    o.settings.weight = 1.0 / 20.4;
    r.setZero();
    EXPECT_FALSE(solveNullSpace(p, n, PredictionInputs{}, r, o).diverged);
}

/// The five-disk scene run with the given method and prediction: mean sweeps a step and the
/// largest mean overlap δ/d.
std::pair<double, double> fiveDiskRun(const char* method, const char* prediction) {
    auto scene = loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/alart-five-disks.json",
                               {{"solver.method", method}, {"solver.prediction", prediction}});
    EXPECT_TRUE(scene) << scene.error().message;
    World world = test::makeWorld(scene.value());
    double sweeps = 0.0, overlap = 0.0;
    int steps = 0;
    while (world.time() < 0.25 - 1e-9) {
        const StepStats s = world.step();
        sweeps += s.iterations;
        overlap = std::max(overlap, s.meanOverlap);
        ++steps;
    }
    return {sweeps / steps, overlap};
}

TEST(NullSpaceSolvers, PredictionCorrectionUnwedgesTheFiveDisksInFewSweeps) {
    // Alart 2014 Figs. 7, 9, 10: NLGS without memory sits at its cap of 150 sweeps on the
    // wedged disks; NLKerGS-P converges in under a third of that, and with the unilateral
    // prediction its overlaps stay near NLGS's, where the zero prediction's drift.
    const auto [nlgsSweeps, nlgsOverlap] = fiveDiskRun("nlgs", "zero");
    const auto [unilateralSweeps, unilateralOverlap] = fiveDiskRun("nlkergs-p", "unilateral");
    const auto [zeroSweeps, zeroOverlap] = fiveDiskRun("nlkergs-p", "zero");
    EXPECT_GT(nlgsSweeps, 140.0);
    EXPECT_LT(unilateralSweeps, 0.3 * nlgsSweeps);
    EXPECT_LT(zeroSweeps, 0.25 * nlgsSweeps);
    EXPECT_LT(unilateralOverlap, 2.5 * nlgsOverlap);
    EXPECT_GT(zeroOverlap, 2.0 * unilateralOverlap);
}

}  // namespace
}  // namespace ndem
