// Nonlinear Gauss–Seidel on the Delassus operator (Alart 2014 Alg. 2): each contact's local
// problem solved exactly, so that one contact alone is answered in one sweep in every regime,
// and a loaded stack settles to its weight with or without memory.
#include "solve/nscd/nlgs.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ndem {
namespace {

/// One contact with the rows of `w` (2 or 3), free velocity q, friction μ.
LocalProblem oneContact(const Eigen::MatrixXd& w, const Eigen::VectorXd& q, double mu) {
    LocalProblem p;
    p.W = w.sparseView();
    p.W.makeCompressed();
    p.q = q;
    p.dim = {static_cast<int>(q.size())};
    p.offset = {0};
    p.mu = {mu};
    return p;
}

TEST(Nlgs, OneContactInThePlaneIsAnsweredExactlyInEveryRegime) {
    // W couples the rows (a disk's contact off its centre line): separation, sticking and
    // sliding either way, each checked against Coulomb's law and Siconos' error measure.
    Eigen::Matrix2d w;
    w << 2.0, 0.6, 0.6, 1.5;
    const double mu = 0.4;
    struct Case {
        double qn, qt;
        const char* regime;
        bool sticks;
    };
    for (const Case& c :
         {Case{0.3, 1.0, "separating", false}, Case{-1.0, -0.5, "sticking", true},
          Case{-1.0, 2.0, "sliding forward", false}, Case{-1.0, -2.0, "sliding back", false}}) {
        const LocalProblem p = oneContact(w, Eigen::Vector2d(c.qn, c.qt), mu);
        Eigen::VectorXd r;
        NlgsOptions o;
        o.tolerance = 1e-14;
        const NlgsResult res = solveNlgs(p, r, o);
        EXPECT_TRUE(res.converged) << c.regime;
        EXPECT_EQ(res.iterations, 1) << c.regime;
        const Eigen::VectorXd u = p.W * r + p.q;
        EXPECT_LT(coulombError(p, r), 1e-14) << c.regime;
        if (c.qn > 0.0) {
            EXPECT_EQ(r.norm(), 0.0);
        } else if (c.sticks) {
            EXPECT_NEAR(u.norm(), 0.0, 1e-14) << c.regime;
            EXPECT_LT(std::abs(r[1]), mu * r[0]);
        } else {
            EXPECT_NEAR(u[0], 0.0, 1e-14) << c.regime;
            EXPECT_NEAR(r[1], -std::copysign(mu * r[0], u[1]), 1e-14) << c.regime;
            EXPECT_GT(r[0], 0.0);
        }
    }
}

TEST(Nlgs, OneContactInSpaceSlidesAgainstItsVelocity) {
    // An anisotropic tangential block: the reaction lies on the cone's edge opposite to the
    // sliding velocity, the normal velocity is zero.
    Eigen::Matrix3d w;
    w << 2.0, 0.3, -0.2, 0.3, 1.5, 0.4, -0.2, 0.4, 0.8;
    const LocalProblem p = oneContact(w, Eigen::Vector3d(-1.0, 2.0, -1.0), 0.3);
    Eigen::VectorXd r;
    NlgsOptions o;
    o.tolerance = 1e-12;
    EXPECT_TRUE(solveNlgs(p, r, o).converged);
    const Eigen::VectorXd u = p.W * r + p.q;
    EXPECT_NEAR(u[0], 0.0, 1e-10);
    EXPECT_NEAR(r.tail<2>().norm(), 0.3 * r[0], 1e-10);
    EXPECT_NEAR(r.tail<2>().normalized().dot(u.tail<2>().normalized()), -1.0, 1e-8);
    EXPECT_LT(coulombError(p, r), 1e-10);
}

/// A column of disks on a floor in the plane, NLGS with or without memory.
World diskColumn(int disks, bool memory) {
    StepSettings s;
    s.dimension = 2;
    s.mode = StepMode::Nonsmooth;
    s.timeStep = 0.01;
    s.method = "nlgs";
    s.iterations = 10000;
    // Eq. 10 measures what a sweep still changes: on a column, where Gauss–Seidel creeps, a
    // loose tolerance stops it early (10⁻⁸ left the floor 0.4 % short).
    s.solverBlocks.edit<NlgsSettings>().relativeTolerance = 1e-12;
    s.warmStart = memory;
    s.warmStartBeta = 1.0;  // Alart's memory: last step's impulses as they were
    s.impactEnabled = false;
    Scene scene;
    scene.settings = s;
    Material m;
    m.name = "grain";
    m.density = 1000.0;
    m.friction = 0.5;
    m.restitution = 0.0;
    scene.materials.push_back(m);
    for (int k = 0; k < disks; ++k) {
        ParticleSpec p;
        p.position = Vec3(0.0, 0.0, 0.01 + 0.02 * k);
        p.radius = 0.01;
        scene.particles.push_back(p);
    }
    Wall floor;
    floor.name = "floor";
    floor.shape = WallShape::Plane;
    scene.walls.push_back(floor);
    return test::makeWorld(scene);
}

TEST(Nlgs, AColumnAtRestCarriesItsWeightAndMemoryNeedsFewerSweeps) {
    // Ten disks: the floor carries the column's weight to the tolerance; with memory the sweeps
    // at rest fall to a few, without it each step starts over (Alart 2014 Sec. 2.3).
    World cold = diskColumn(10, false), warm = diskColumn(10, true);
    test::runUntil(cold, 0.5);
    test::runUntil(warm, 0.5);
    const double weight = 10 * 1000.0 * std::acos(-1.0) * 1e-4 * 9.81;
    for (World* w : {&cold, &warm}) {
        const StepStats st = w->step();
        EXPECT_LT(st.solverResidual, 1e-8);
        EXPECT_NEAR(-w->walls()[0].force.z(), weight, 1e-6 * weight);
    }
    const int coldSweeps = cold.step().iterations, warmSweeps = warm.step().iterations;
    EXPECT_GT(coldSweeps, 20);
    EXPECT_LE(warmSweeps, 3);
}

}  // namespace
}  // namespace ndem
