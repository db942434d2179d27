// FCLib files and the cross-check against Siconos Numerics (the field's reference solvers):
// a step's problem written and read back exactly (libfclib), handed to Siconos as read back
// (Debian builds it without its own FCLib reader, so as its dense matrix), solved by its NSGS and
// by ours, and measured by its error function and ours.
#include "bench_scenes.hpp"
#include "io/fclib_file.hpp"
#include "siconos_reference.hpp"
#include "solve/convex/coulomb_reference.hpp"
#include "solve/convex/interior_point.hpp"
#include "solve/convex/lcp_interior_point.hpp"
#include "solve/nscd/alart_curnier_newton.hpp"
#include "solve/nscd/nlgs.hpp"
#include "solve/pgs/local_gauss_seidel.hpp"
#include "solve/rows/contact_problem.hpp"
#include "solve/rows/contact_rows.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ndem {
namespace {

using test::siconosError;
using test::siconosNsgs;

/// The contact problem of a settled bed's next step, every contact with three rows (two for a
/// bed of disks in the plane), in FCLib's units (impulses, velocities).
LocalProblem bedProblem(int particles, double friction, int dimension = 3) {
    StepSettings s;
    s.timeStep = 5e-3;
    s.iterations = 40;
    s.warmStart = true;
    s.contactLaw = dimension == 2 ? ContactLaw::Linear : ContactLaw::Hertz;
    const Material grain = scenes::servinGrain();
    World world = test::makeWorld(dimension == 2 ? scenes::bed2d(particles, 0.01, grain, s, 3)
                                                 : scenes::bed(particles, 0.01, grain, s, 3));
    test::runUntil(world, 0.4);
    world.requestContactProblem();
    world.step();
    std::optional<ContactProblem> p = world.takeContactProblem();
    EXPECT_TRUE(p.has_value());
    LocalProblem l = p->physical();
    for (double& mu : l.mu)
        mu = friction;
    return l;
}

std::string tempFile(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("ndem-" + name)).string();
}

TEST(Fclib, AStepsProblemIsWrittenAndReadBackExactly) {
    const LocalProblem p = bedProblem(200, 0.5);
    ASSERT_GT(p.contacts(), 200);
    const std::string path = tempFile("roundtrip.hdf5");
    ASSERT_FALSE(writeFclibLocal(path, p, "bed", "a settled bed's step"));
    Expected<LocalProblem> back = readFclibLocal(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->contacts(), p.contacts());
    EXPECT_EQ((back->q - p.q).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(Eigen::MatrixXd(back->W - p.W).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(back->mu, p.mu);
    std::filesystem::remove(path);
}

TEST(Fclib, BadFilesAreOneClearError) {
    const std::string text = tempFile("not-hdf5.hdf5");
    { std::ofstream(text) << "not an HDF5 file\n"; }
    const auto notHdf5 = readFclibLocal(text);
    ASSERT_FALSE(notHdf5.ok());
    EXPECT_NE(notHdf5.error().message.find("not an HDF5 file"), std::string::npos);
    EXPECT_FALSE(readFclibLocal(tempFile("does-not-exist.hdf5")).ok());
    std::filesystem::remove(text);
}

/// Writes p as an FCLib file, reads it back and solves what was read with Siconos' NSGS, so
/// that the reference goes through the file as a user's problem would.
Eigen::VectorXd siconosThroughFile(const LocalProblem& p, const std::string& name,
                                   double tolerance) {
    const std::string path = tempFile(name);
    EXPECT_FALSE(writeFclibLocal(path, p, "bed", name));
    Expected<LocalProblem> read = readFclibLocal(path);
    std::filesystem::remove(path);
    if (!read.ok()) {
        ADD_FAILURE() << read.error().message;
        return Eigen::VectorXd::Zero(p.rows());
    }
    return siconosNsgs(*read, tolerance);
}

/// Our Gauss–Seidel on W from a cold start, required to reach the tolerance.
Eigen::VectorXd gaussSeidel(const LocalProblem& p, double tolerance) {
    Eigen::VectorXd r = Eigen::VectorXd::Zero(p.rows());
    LocalGaussSeidelOptions g;
    g.tolerance = tolerance;
    g.maxIterations = 200000;
    EXPECT_TRUE(solveLocalGaussSeidel(p, r, g).converged);
    return r;
}

TEST(Fclib, SiconosNsgsFindsOurReactionsOnAFrictionlessBed) {
    // Frictionless, the regularised W is positive definite: one solution, which Siconos'
    // NSGS, our Gauss–Seidel on W and our interior point must all find; and Siconos' error
    // function gives our measure's value.
    const LocalProblem p = bedProblem(120, 0.0);
    const Eigen::VectorXd reference = siconosThroughFile(p, "frictionless.hdf5", 1e-12);
    const Eigen::VectorXd gs = gaussSeidel(p, 1e-12);
    Eigen::VectorXd ip;
    InteriorPointSolver solver;
    InteriorPointOptions o;
    o.associated = false;
    o.maxIterations = 100;
    o.tolerance = 1e-14;
    EXPECT_TRUE(solver.solve(p, ip, o).converged);

    const double scale = reference.cwiseAbs().maxCoeff();
    ASSERT_GT(scale, 0.0);
    EXPECT_LT((gs - reference).cwiseAbs().maxCoeff(), 1e-6 * scale);
    EXPECT_LT((ip - reference).cwiseAbs().maxCoeff(), 1e-6 * scale);
    for (const Eigen::VectorXd* r : {&reference, &gs, static_cast<const Eigen::VectorXd*>(&ip)})
        EXPECT_NEAR(siconosError(p, *r), coulombError(p, *r), 1e-9 + 1e-6 * coulombError(p, *r));
}

TEST(Fclib, WithFrictionOurSolutionsPassSiconosErrorMeasure) {
    // Coulomb friction (μ = 0.5): the solution need not be unique in a packing, so each
    // solver's answer is judged by Siconos' own error function.
    const LocalProblem p = bedProblem(120, 0.5);
    const Eigen::VectorXd reference = siconosThroughFile(p, "frictional.hdf5", 1e-8);
    EXPECT_LT(siconosError(p, reference), 1e-8);
    const Eigen::VectorXd gs = gaussSeidel(p, 1e-8);
    EXPECT_LT(siconosError(p, gs), 1e-8);
    EXPECT_NEAR(siconosError(p, gs), coulombError(p, gs), 1e-10);
    // The normal reactions carry the same weight: their sums agree.
    double ours = 0.0, theirs = 0.0;
    for (int c = 0; c < p.contacts(); ++c) {
        ours += gs[3 * c];
        theirs += reference[3 * c];
    }
    EXPECT_NEAR(ours, theirs, 1e-4 * theirs);
}

TEST(Fclib, APlanarStepIsTwoRowsPerContactAndSiconosAgrees) {
    // Disks in the plane: FCLib's 2D problem (spacedim 2), through the file to Siconos' fc2d
    // NSGS; our Gauss–Seidel and interior point pass its error measure, and the normal
    // reactions carry the same weight.
    const LocalProblem p = bedProblem(120, 0.5, 2);
    ASSERT_GT(p.contacts(), 100);
    EXPECT_EQ(p.rows(), 2 * p.contacts());
    const Eigen::VectorXd reference = siconosThroughFile(p, "planar.hdf5", 1e-10);
    EXPECT_LT(siconosError(p, reference), 1e-8);
    const Eigen::VectorXd gs = gaussSeidel(p, 1e-10);
    EXPECT_LT(siconosError(p, gs), 1e-8);
    InteriorPointSolver solver;
    InteriorPointOptions o;
    o.associated = false;
    o.maxIterations = 300;
    Eigen::VectorXd ip;
    const InteriorPointResult done = solver.solve(p, ip, o);
    EXPECT_LT(coulombError(p, ip), 1e-6);
    EXPECT_LT(done.relative, 1e-6);
    // Stopped short, the fixed point's answer says how far from Coulomb's law it still is: the
    // last program converged, but its shift had not stopped moving.
    o.maxIterations = 30;
    Eigen::VectorXd early;
    const InteriorPointResult cut = solver.solve(p, early, o);
    EXPECT_FALSE(cut.converged);
    ASSERT_GT(coulombError(p, early), 1e-4);  // measured 1.8e-3 after 3 programs
    EXPECT_GT(cut.relative, 1e-4);            // 9.3e-3; the last program's own was ~1e-10
    double ours = 0.0, theirs = 0.0;
    for (int c = 0; c < p.contacts(); ++c) {
        ours += gs[2 * c];
        theirs += reference[2 * c];
    }
    EXPECT_NEAR(ours, theirs, 1e-4 * theirs);
    EXPECT_NEAR(siconosError(p, gs), coulombError(p, gs), 1e-12);
}

TEST(Fclib, NlgsOnTheDelassusOperatorPassesSiconosMeasureInSpaceAndInThePlane) {
    // Alart 2014's NLGS (exact local solves, Alg. 2) from a cold start to Siconos' error 10⁻⁸
    // on a bed of spheres and one of disks, μ = 0.5: its answer carries the weight Siconos'
    // NSGS carries.
    for (const int dimension : {3, 2}) {
        const LocalProblem p = bedProblem(120, 0.5, dimension);
        const Eigen::VectorXd reference = siconosNsgs(p, 1e-10);
        Eigen::VectorXd r;
        NlgsOptions o;
        o.tolerance = 1e-8;
        o.coulombStop = true;
        o.maxIterations = 200000;
        EXPECT_TRUE(solveNlgs(p, r, o).converged) << dimension;
        EXPECT_LT(siconosError(p, r), 1e-8) << dimension;
        double ours = 0.0, theirs = 0.0;
        for (int c = 0; c < p.contacts(); ++c) {
            ours += r[dimension * c];
            theirs += reference[dimension * c];
        }
        EXPECT_NEAR(ours, theirs, 1e-4 * theirs) << dimension;
    }
}

TEST(Fclib, TheAlartCurnierNewtonMethodFinishesQuadraticallyWhereGaussSeidelCreeps) {
    // From Gauss–Seidel's answer at 10⁻³ the Newton steps reach round-off in a handful, the
    // error at least squared-ish each step near the end; Gauss–Seidel's own sweeps from there
    // take far more to 10⁻¹⁰.
    const LocalProblem p = bedProblem(120, 0.5);
    Eigen::VectorXd start = Eigen::VectorXd::Zero(p.rows());
    LocalGaussSeidelOptions rough;
    rough.tolerance = 1e-3;
    rough.maxIterations = 100000;
    ASSERT_TRUE(solveLocalGaussSeidel(p, start, rough).converged);
    Eigen::VectorXd r = start;
    std::vector<double> history;
    AlartCurnierOptions options;
    options.tolerance = 1e-12;
    options.errorHistory = &history;
    const AlartCurnierResult res = solveAlartCurnierNewton(p, r, options);
    ASSERT_TRUE(res.converged) << res.error;
    EXPECT_LE(res.iterations, 12);
    EXPECT_LT(siconosError(p, r), 1e-12);
    ASSERT_GE(history.size(), 2u);
    const double before = history[history.size() - 2], last = history.back();
    EXPECT_LT(last, std::max(1e-13, 10.0 * before * before / 1e-3)) << before << " -> " << last;
    Eigen::VectorXd gs = start;
    LocalGaussSeidelOptions fine;
    fine.tolerance = 1e-10;
    fine.maxIterations = 100000;
    const LocalGaussSeidelResult sweeps = solveLocalGaussSeidel(p, gs, fine);
    std::printf("[ info ] Newton %d steps to %.2g; Gauss-Seidel %d sweeps to %.2g\n",
                res.iterations, res.error, sweeps.iterations, sweeps.error);
    EXPECT_GT(sweeps.iterations, 20 * res.iterations);
}

TEST(Fclib, GaussSeidelMeasuresAtItsOwnVelocitiesAndStopsWhereTheExactMeasureSays) {
    // The sweeps keep u = W r + q up to date and measure there; each sweep's error must be
    // the measure at u = W r + q of that sweep's iterate (replayed from the same cold start),
    // and a stop comes at the first sweep whose measure meets the tolerance.
    const LocalProblem p = bedProblem(120, 0.5);
    std::vector<double> history;
    LocalGaussSeidelOptions all;
    all.tolerance = 0.0;
    all.maxIterations = 60;
    all.errorHistory = &history;
    Eigen::VectorXd r = Eigen::VectorXd::Zero(p.rows());
    solveLocalGaussSeidel(p, r, all);
    ASSERT_EQ(history.size(), 60u);
    for (const int k : {1, 2, 7, 30, 60}) {
        Eigen::VectorXd replay = Eigen::VectorXd::Zero(p.rows());
        LocalGaussSeidelOptions some;
        some.tolerance = 0.0;
        some.maxIterations = k;
        const LocalGaussSeidelResult res = solveLocalGaussSeidel(p, replay, some);
        const double exact = coulombError(p, replay);
        EXPECT_NEAR(history[static_cast<size_t>(k - 1)], exact, 1e-12 * exact) << k;
        EXPECT_NEAR(res.error, exact, 1e-12 * exact) << k;
    }
    const double tolerance = history[40] * (1.0 + 1e-9);
    const size_t first = static_cast<size_t>(
        std::find_if(history.begin(), history.end(), [&](double e) { return e <= tolerance; }) -
        history.begin());
    Eigen::VectorXd stopped = Eigen::VectorXd::Zero(p.rows());
    LocalGaussSeidelOptions once;
    once.tolerance = tolerance;
    once.maxIterations = 60;
    const LocalGaussSeidelResult res = solveLocalGaussSeidel(p, stopped, once);
    EXPECT_TRUE(res.converged);
    EXPECT_EQ(res.iterations, static_cast<int>(first) + 1);
    EXPECT_LE(coulombError(p, stopped), tolerance);
}

TEST(Fclib, TheCoulombReferenceReachesRoundOffAndCarriesSiconosWeight) {
    const LocalProblem p = bedProblem(120, 0.5);
    Eigen::VectorXd r;
    CoulombReferenceOptions options;
    options.tolerance = 1e-12;
    const CoulombReferenceResult res = solveCoulombReference(p, r, options);
    EXPECT_TRUE(res.converged) << res.error;
    EXPECT_LT(siconosError(p, r), 1e-12);
    EXPECT_NEAR(siconosError(p, r), res.error, 1e-14);
    const Eigen::VectorXd reference = siconosNsgs(p, 1e-10);
    double ours = 0.0, theirs = 0.0;
    for (int c = 0; c < p.contacts(); ++c) {
        ours += r[3 * c];
        theirs += reference[3 * c];
    }
    EXPECT_NEAR(ours, theirs, 1e-6 * theirs);
}

TEST(Fclib, ThePlanarComplementarityProblemSolvesCoulombsLawAsSiconosDoes) {
    // In the plane Coulomb's law is the LCP of krabbenhoft-2012 Sec. 4.1 with ν = 0: solved by
    // its interior point in at most 50 Newton steps, it passes Siconos' fc2d measure and
    // carries the weight Siconos' NSGS carries.
    const LocalProblem p = bedProblem(120, 0.5, 2);
    const Eigen::VectorXd reference = siconosThroughFile(p, "planar-lcp.hdf5", 1e-10);
    LcpInteriorPoint lcp;
    Eigen::VectorXd r;
    const InteriorPointResult res = lcp.solve(p, r, {});
    EXPECT_LE(res.iterations, 50);
    EXPECT_LT(siconosError(p, r), 1e-6);
    double ours = 0.0, theirs = 0.0;
    for (int c = 0; c < p.contacts(); ++c) {
        ours += r[2 * c];
        theirs += reference[2 * c];
    }
    EXPECT_NEAR(ours, theirs, 1e-5 * theirs);
}

}  // namespace
}  // namespace ndem
