// The PGS kernel on real rows: the SIMD block kernels against the general rows and against
// each other, thread counts, warm solutions and the rows that must stay general.
#include "solve/pgs/pgs_solver.hpp"
#include "bed_problem.hpp"
#include "core/cpu_features.hpp"
#include "test_util.hpp"

#include <cmath>

namespace ndem {
namespace {

using test::settledBedProblem;
using Problem = test::SolverProblem;

struct Solved {
    Problem problem;
    PgsResult result;
    PgsLayout layout;
};

Solved solve(Problem p, const PgsOptions& o) {
    PgsSolver solver;
    Solved out;
    out.result = solver.solve(p.rows, p.bodies, o);
    out.layout = solver.layout();
    out.problem = std::move(p);
    return out;
}

Solved solve(Problem p, int iterations, SimdLevel simd, int threads = 1, bool blocks = true,
             FrictionModel friction = FrictionModel::Cone,
             SolverPrecision precision = SolverPrecision::Double) {
    PgsOptions o;
    o.iterations = iterations;
    o.simd = simd;
    o.threads = threads;
    o.blocks = blocks;
    o.friction = friction;
    o.precision = precision;
    return solve(std::move(p), o);
}

/// Largest difference of any multiplier or velocity component, relative to the largest value.
double maxRelativeDifference(const Problem& a, const Problem& b) {
    double diff = 0.0, scale = 1e-300;
    for (size_t i = 0; i < a.rows.size(); ++i)
        for (int j = 0; j < 6; ++j) {
            diff = std::max(diff, std::abs(a.rows[i].lambda[j] - b.rows[i].lambda[j]));
            scale = std::max(scale, std::abs(a.rows[i].lambda[j]));
        }
    double vdiff = 0.0, vscale = 1e-300;
    for (size_t i = 0; i < a.bodies.size(); ++i) {
        vdiff = std::max({vdiff, (a.bodies[i].v - b.bodies[i].v).cwiseAbs().maxCoeff(),
                          (a.bodies[i].w - b.bodies[i].w).cwiseAbs().maxCoeff()});
        vscale = std::max(
            {vscale, a.bodies[i].v.cwiseAbs().maxCoeff(), a.bodies[i].w.cwiseAbs().maxCoeff()});
    }
    return std::max(diff / scale, vdiff / vscale);
}

TEST(PgsKernel, ScalarBlocksEqualTheGeneralRowsInTheSameOrder) {
    // The block kernel's reduced sphere rows (r × n = 0, D_t1 = D_t2, angular parts as
    // scalars) against the general rows with their full Jacobians, same sweep order: equal
    // up to round-off, with and without rolling resistance, cone and box.
    for (double rolling : {0.0, 0.1}) {
        const Problem p = settledBedProblem(rolling);
        ASSERT_GT(p.rows.size(), 500u);
        for (FrictionModel f : {FrictionModel::Cone, FrictionModel::Box}) {
            const Solved blocks = solve(p, 30, SimdLevel::Scalar, 1, true, f);
            const Solved general = solve(p, 30, SimdLevel::Scalar, 1, false, f);
            EXPECT_EQ(blocks.layout.generalRows, 0);
            EXPECT_EQ(general.layout.blocks, 0);
            EXPECT_LT(maxRelativeDifference(blocks.problem, general.problem), 1e-10)
                << "rolling " << rolling << ", friction " << int(f);
            EXPECT_NEAR(blocks.result.residual, general.result.residual,
                        1e-8 * general.result.residual);
        }
    }
}

TEST(PgsKernel, SimdKernelsAgreeWithTheScalarOne) {
    const Problem p = settledBedProblem(0.1);
    const Solved scalar = solve(p, 50, SimdLevel::Scalar);
    EXPECT_STREQ(scalar.layout.kernel, "scalar");
    int tested = 0;
    for (SimdLevel level : {SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!cpuSupports(level)) continue;
        const Solved simd = solve(p, 50, level);
        EXPECT_STREQ(simd.layout.kernel, kSimdLevelNames[int(level)]);
        // Fused multiply-adds round differently; nothing else may differ.
        EXPECT_LT(maxRelativeDifference(scalar.problem, simd.problem), 1e-9) << simd.layout.kernel;
        ++tested;
    }
    if (tested == 0) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512";
}

TEST(PgsKernel, ResultDoesNotDependOnTheThreadCount) {
    const Problem p = settledBedProblem(0.1, 1500);
    const Solved one = solve(p, 40, SimdLevel::Auto, 1);
    for (int threads : {2, 3}) {
        const Solved many = solve(p, 40, SimdLevel::Auto, threads);
        ASSERT_GT(many.layout.sharedColours, 0) << "the bed must have colours to share";
        for (size_t i = 0; i < p.rows.size(); ++i)
            for (int j = 0; j < 6; ++j)
                ASSERT_EQ(one.problem.rows[i].lambda[j], many.problem.rows[i].lambda[j]);
        for (size_t i = 0; i < p.bodies.size(); ++i) {
            ASSERT_EQ(one.problem.bodies[i].v, many.problem.bodies[i].v);
            ASSERT_EQ(one.problem.bodies[i].w, many.problem.bodies[i].w);
        }
        EXPECT_EQ(one.result.residual, many.result.residual);
    }
}

Solved solveFloat(Problem p, int iterations, SimdLevel simd, int threads = 1,
                  FrictionModel friction = FrictionModel::Cone) {
    return solve(std::move(p), iterations, simd, threads, true, friction, SolverPrecision::Float);
}

TEST(PgsKernel, FloatBlocksAgreeWithDoubleOnesToFloatPrecision) {
    // The same rows in the same order in sixteen float lanes: every kernel this CPU runs
    // against the double scalar one, with and without rolling rows, cone and box. Float's
    // 6e-8 grows over the sweeps to 0.5-4e-6 of the largest value here (measured); 3e-5 is
    // far below what a different sweep order or a lane mixed up gives.
    for (double rolling : {0.0, 0.1}) {
        const Problem p = settledBedProblem(rolling);
        for (FrictionModel f : {FrictionModel::Cone, FrictionModel::Box}) {
            const Solved reference = solve(p, 50, SimdLevel::Scalar, 1, true, f);
            for (SimdLevel level : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
                if (!cpuSupports(level)) continue;
                const Solved single = solveFloat(p, 50, level, 1, f);
                EXPECT_STREQ(single.layout.kernel, kSimdLevelNames[int(level)]);
                EXPECT_EQ(single.layout.blockRows, reference.layout.blockRows);
                EXPECT_GE(2 * single.layout.blocks, reference.layout.blocks);
                EXPECT_LT(single.layout.blocks, reference.layout.blocks);
                const double diff = maxRelativeDifference(reference.problem, single.problem);
                EXPECT_LT(diff, 3e-5) << single.layout.kernel << ", rolling " << rolling;
                EXPECT_GT(diff, 0.0) << "floats round differently from doubles";
                EXPECT_NEAR(single.result.residual, reference.result.residual,
                            1e-3 * reference.result.residual);
            }
        }
    }
}

TEST(PgsKernel, FloatResultDoesNotDependOnTheThreadCount) {
    const Problem p = settledBedProblem(0.1, 1500);
    const Solved one = solveFloat(p, 40, SimdLevel::Auto, 1);
    const Solved two = solveFloat(p, 40, SimdLevel::Auto, 2);
    ASSERT_GT(two.layout.sharedColours, 0);
    for (size_t i = 0; i < p.rows.size(); ++i)
        for (int j = 0; j < 6; ++j)
            ASSERT_EQ(one.problem.rows[i].lambda[j], two.problem.rows[i].lambda[j]);
    for (size_t i = 0; i < p.bodies.size(); ++i) {
        ASSERT_EQ(one.problem.bodies[i].v, two.problem.bodies[i].v);
        ASSERT_EQ(one.problem.bodies[i].w, two.problem.bodies[i].w);
    }
}

TEST(PgsKernel, FloatSolveKeepsUntouchedBodiesInDoubleAndSweepsGeneralRowsWithTheBlocks) {
    // A body no row touches keeps its double velocity bit for bit (the solve adds the float
    // sweeps' change, which is zero); rows of an anisotropic body stay general rows in double
    // and see the blocks' velocities: the result agrees with the double solve.
    Problem p = settledBedProblem();
    p.bodies[0].invInertia[3] = 0.1 * p.bodies[0].invInertia[0];
    SolverBody free;
    free.v = Vec3(0.1234567890123, -0.3, 0.7);
    free.invMass = 1.0;
    free.setIsotropicInvInertia(2.0);
    p.bodies.insert(p.bodies.end() - 1, free);  // the static body stays last
    const int freeIndex = static_cast<int>(p.bodies.size()) - 2;
    for (SolverContact& r : p.rows) {
        if (r.a == freeIndex) r.a = freeIndex + 1;
        if (r.b == freeIndex) r.b = freeIndex + 1;
    }
    const Solved reference = solve(p, 50, SimdLevel::Scalar);
    const Solved single = solveFloat(p, 50, SimdLevel::Auto);
    ASSERT_GT(single.layout.generalRows, 0);
    EXPECT_EQ(single.layout.generalRows, reference.layout.generalRows);
    EXPECT_EQ(single.problem.bodies[freeIndex].v, free.v);
    EXPECT_LT(maxRelativeDifference(reference.problem, single.problem), 1e-4);
    // The double solve's general rows moved body 0 the same way.
    EXPECT_LT((single.problem.bodies[0].v - reference.problem.bodies[0].v).norm(),
              1e-4 * reference.problem.bodies[0].v.norm() + 1e-9);
}

TEST(PgsKernel, ConvergedSolutionNeedsNoFurtherCorrection) {
    // MuJoCo's WarmstartZeroIterations idea: solve far, then solve the same problem again
    // from the solution (multipliers, and velocities = start + M⁻¹ Gᵀ λ as the warm start
    // applies them) — the first sweep finds only what the last sweep of the long solve did.
    Problem p = settledBedProblem();
    const Problem cold = p;
    PgsOptions o;
    o.iterations = 1;
    PgsSolver solver;
    Problem once = p;
    const PgsResult first = solver.solve(once.rows, once.bodies, o);
    o.iterations = 3000;
    const PgsResult converged = solver.solve(p.rows, p.bodies, o);
    ASSERT_LT(converged.residual, 1e-3 * first.residual);
    std::vector<SolverBody> warm = cold.bodies;
    applyRowImpulses(p.rows, warm);
    o.iterations = 1;
    const PgsResult again = solver.solve(p.rows, warm, o);
    EXPECT_LT(again.residual, 2.0 * converged.residual);
    EXPECT_LT(again.maxResidual, 2.0 * converged.maxResidual + 1e-12);
}

TEST(PgsKernel, SequentialOrderIsThePapersSweepInContactOrder) {
    // One contact after the other in contact order: the coloured order reaches another point
    // after a few sweeps (they differ), the same solution after many (they agree).
    const Problem p = settledBedProblem();
    PgsOptions o;
    o.order = SweepOrder::Sequential;
    o.iterations = 5;
    PgsSolver solver;
    Problem few = p;
    solver.solve(few.rows, few.bodies, o);
    EXPECT_EQ(solver.layout().generalRows, static_cast<int>(p.rows.size()));
    EXPECT_EQ(solver.layout().blocks, 0);
    const Solved coloured = solve(p, 5, SimdLevel::Scalar);
    EXPECT_GT(maxRelativeDifference(few, coloured.problem), 1e-3);
    o.iterations = 6000;
    Problem many = p;
    solver.solve(many.rows, many.bodies, o);
    const Solved colouredMany = solve(p, 6000, SimdLevel::Auto);
    double err = 0.0, sum = 0.0;
    for (size_t i = 0; i < p.rows.size(); ++i) {
        err +=
            std::abs(many.rows[i].scale * many.rows[i].lambda[0] -
                     colouredMany.problem.rows[i].scale * colouredMany.problem.rows[i].lambda[0]);
        sum += std::abs(many.rows[i].scale * many.rows[i].lambda[0]);
    }
    EXPECT_LT(err / sum, 0.01);
}

TEST(PgsKernel, RowsOfAnisotropicBodiesOrOffCentreLeversStayGeneral) {
    Problem p = settledBedProblem();
    const size_t rows = p.rows.size();
    // Body 0 becomes anisotropic (an aggregate's inertia); one contact of body 1 gets a lever
    // off the normal (a member of an aggregate).
    p.bodies[0].invInertia[3] = 0.1 * p.bodies[0].invInertia[0];
    size_t offCentre = rows;
    for (size_t i = 0; i < rows && offCentre == rows; ++i)
        if (p.rows[i].a != 0 && p.rows[i].b != 0) offCentre = i;
    ASSERT_LT(offCentre, rows);
    SolverContact& r = p.rows[offCentre];
    r.leverA += Vec3(0.0, 0.0, 1e-3);
    int touchingBody0 = 0;
    for (const SolverContact& c : p.rows)
        touchingBody0 += (c.a == 0 || c.b == 0);
    const Solved s = solve(p, 10, SimdLevel::Auto);
    EXPECT_EQ(s.layout.generalRows, touchingBody0 + 1);
    EXPECT_EQ(s.layout.blockRows + s.layout.generalRows, static_cast<int>(rows));
}

}  // namespace
}  // namespace ndem

namespace ndem {
namespace {

Solved solveWith(Problem p, int iterations, PgsVariant variant, int threads = 1) {
    PgsOptions o;
    o.iterations = iterations;
    o.variant = variant;
    o.threads = threads;
    return solve(std::move(p), o);
}

/// Mean relative error of the normal impulses s λ_n against a reference solution.
double normalImpulseError(const Problem& p, const Problem& reference) {
    double err = 0.0, sum = 0.0;
    for (size_t i = 0; i < p.rows.size(); ++i) {
        const double ref = reference.rows[i].scale * reference.rows[i].lambda[0];
        err += std::abs(p.rows[i].scale * p.rows[i].lambda[0] - ref);
        sum += std::abs(ref);
    }
    return err / sum;
}

TEST(Nncg, ReachesThePgsSolutionInFewerIterations) {
    // Silcowitz, Niebe & Erleben 2010: the same fixed point as PGS (their Fig. 6-8: fewer
    // iterations for the same merit). Cold start on a settled bed, reference 8 000 sweeps.
    const Problem p = settledBedProblem(0.0, 1500);
    const Solved reference = solveWith(p, 8000, PgsVariant::Plain);
    const Solved pgs = solveWith(p, 600, PgsVariant::Plain);
    const Solved nncg = solveWith(p, 600, PgsVariant::Nncg);
    const double pgsError = normalImpulseError(pgs.problem, reference.problem);
    const double nncgError = normalImpulseError(nncg.problem, reference.problem);
    EXPECT_LT(nncgError, 0.7 * pgsError) << "PGS " << pgsError << ", NNCG " << nncgError;
    EXPECT_LT(nncg.result.residual, 0.7 * pgs.result.residual);
    // Both leave λ and v consistent: v = v₀ + M⁻¹ Jᵀ λ.
    for (const Solved* s : {&pgs, &nncg}) {
        std::vector<SolverBody> rebuilt = p.bodies;
        applyRowImpulses(s->problem.rows, rebuilt);
        double worst = 0.0;
        for (size_t i = 0; i < rebuilt.size(); ++i)
            worst = std::max(worst, (rebuilt[i].v - s->problem.bodies[i].v).norm());
        EXPECT_LT(worst, 1e-12);
    }
}

TEST(Nncg, ResultDoesNotDependOnTheThreadCount) {
    const Problem p = settledBedProblem(0.1, 1500);
    for (PgsVariant m : {PgsVariant::Nncg, PgsVariant::Apgd}) {
        const Solved one = solveWith(p, 60, m, 1);
        const Solved two = solveWith(p, 60, m, 2);
        for (size_t i = 0; i < p.rows.size(); ++i)
            for (int j = 0; j < 6; ++j)
                ASSERT_EQ(one.problem.rows[i].lambda[j], two.problem.rows[i].lambda[j]) << int(m);
        EXPECT_EQ(one.result.residual, two.result.residual);
    }
}

TEST(Apgd, ReachesThePgsSolutionInFewerIterationsAndEndsFeasible) {
    // mazhar-2015: Nesterov's method converges in far fewer iterations than the Gauss-Seidel
    // and Jacobi iterations on granular problems. Cold start, reference 8 000 PGS sweeps; with
    // and without rolling resistance, where the rolling rows join the cone of each contact.
    // How much better APGD(300) does than PGS(600) depends on the bed: 0.35 to 1.16 of PGS's
    // error over the beds of seeds 3–5 after 0.6 s. So three beds, settled 1.2 s: APGD at half
    // the iterations is never less accurate, and on average clearly more (measured: largest
    // ratio 0.87, mean 0.63).
    double ratios = 0.0;
    int problems = 0;
    for (unsigned seed : {3u, 4u, 5u})
        for (double rolling : {0.0, 0.1}) {
            const Problem p = settledBedProblem(rolling, 1500, seed, 1.2);
            const Solved reference = solveWith(p, 8000, PgsVariant::Plain);
            const Solved pgs = solveWith(p, 600, PgsVariant::Plain);
            const Solved apgd = solveWith(p, 300, PgsVariant::Apgd);
            const double pgsError = normalImpulseError(pgs.problem, reference.problem);
            const double apgdError = normalImpulseError(apgd.problem, reference.problem);
            EXPECT_LT(apgdError, pgsError)
                << "seed " << seed << ", rolling " << rolling << ": PGS(600) " << pgsError
                << ", APGD(300) " << apgdError;
            ratios += apgdError / pgsError;
            ++problems;
            // λ inside its cones, and v = v₀ + M⁻¹ Jᵀ λ.
            std::vector<SolverBody> rebuilt = p.bodies;
            applyRowImpulses(apgd.problem.rows, rebuilt);
            double worst = 0.0;
            for (size_t i = 0; i < rebuilt.size(); ++i)
                worst = std::max(worst, (rebuilt[i].v - apgd.problem.bodies[i].v).norm());
            EXPECT_LT(worst, 1e-12);
            for (const SolverContact& r : apgd.problem.rows) {
                ASSERT_GE(r.lambda[0], 0.0);
                EXPECT_LE(std::hypot(r.lambda[1], r.lambda[2]),
                          r.friction * r.scale * r.lambda[0] * (1.0 + 1e-12) + 1e-300);
            }
        }
    EXPECT_LT(ratios / problems, 0.75)
        << "mean APGD(300) / PGS(600) error over " << problems << " problems";
}

}  // namespace
}  // namespace ndem
