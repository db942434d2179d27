// The projected Gauss–Seidel family as contact solvers: pgs, nncg and apgd sweep the step's rows
// (PgsSolver), and a local problem's W with the same iterations (solve/pgs/local_pgs.hpp).
#include "solve/pgs/pgs_methods.hpp"

#include "solve/method/solver_registry.hpp"
#include "solve/pgs/local_pgs.hpp"
#include "solve/pgs/pgs_solver.hpp"

#include <memory>

namespace ndem {

namespace {

constexpr const char* kRowResidual = "mean row residual |dlambda| D (m/s)";

class PgsMethod final : public ContactSolver {
  public:
    explicit PgsMethod(PgsVariant variant) : m_variant(variant) {}

    SolveReport solve(StepProblem& step, const SolveControls& c) override {
        const PgsSettings& s = c.block<PgsSettings>();
        PgsOptions o;
        o.iterations = c.iterations;
        o.tolerance = c.tolerance;
        o.friction = s.friction;
        o.residualHistory = c.residualHistory;
        o.threads = c.threads;
        o.simd = c.simd;
        o.precision = s.precision;
        o.variant = m_variant;
        o.order = s.order;
        const PgsResult r = m_pgs.solve(step.rows(), step.bodies(), o);
        SolveReport report;
        report.iterations = r.iterations;
        report.residual = r.residual;
        report.residualName = kRowResidual;
        report.converged = c.tolerance > 0.0 && r.residual < c.tolerance;
        report.rowResidual = r.residual;
        report.maxRowResidual = r.maxResidual;
        report.normalRowResidual = r.normalResidual;
        return report;
    }

    SolveReport solveLocal(const LocalProblem& p, Eigen::VectorXd& r,
                           const SolveControls& c) override {
        LocalPgsOptions o;
        o.variant = m_variant;
        o.maxIterations = c.iterations;
        o.tolerance = c.tolerance;
        o.errorHistory = c.residualHistory;
        o.cone = c.block<PgsSettings>().friction == FrictionModel::Cone;
        const LocalPgsResult res = solveLocalPgs(p, r, o);
        SolveReport report;
        report.iterations = res.iterations;
        report.residual = res.error;
        report.residualName = "Siconos error";
        report.converged = res.converged;
        return report;
    }

    // APGD's Lipschitz estimate carries from step to step; only APGD saves it (one "lipschitz"
    // entry, as checkpoints have always had it).
    void archive(StateArchive& a) override {
        if (m_variant == PgsVariant::Apgd) m_pgs.archive(a);
    }

  private:
    PgsVariant m_variant;
    PgsSolver m_pgs;
};

}  // namespace

void registerPgsMethods(SolverRegistry& registry) {
    registry.addBlock<PgsSettings>();
    // Accuracies: the conformance suite's, at its 5 000 sweeps (tests/engine/
    // solver_conformance_test.cpp); the bed at rest converges slowest under APGD.
    auto add = [&](const char* name, const char* summary, PgsVariant variant,
                   double packingAccuracy) {
        SolverInfo info;
        info.name = name;
        info.summary = summary;
        info.accuracy = 1e-9;
        info.packingAccuracy = packingAccuracy;
        info.iterationUnit = "sweeps";
        info.residualName = kRowResidual;
        info.blocks = {PgsSettings::kBlock};
        info.make = [variant] { return std::make_unique<PgsMethod>(variant); };
        registry.add(std::move(info));
    };
    add("pgs",
        "projected Gauss-Seidel over the SPOOK rows (servin-2014 App. B), by graph colour in "
        "SIMD blocks or (solver.order sequential) in contact order",
        PgsVariant::Plain, 1e-8);
    add("nncg", "PGS with the nonsmooth nonlinear conjugate gradient's momentum (silcowitz-2010)",
        PgsVariant::Nncg, 1e-8);
    add("apgd",
        "Nesterov-accelerated projected gradient descent over the same rows, Jacobi "
        "preconditioned (mazhar-2015)",
        PgsVariant::Apgd, 1e-5);
}

}  // namespace ndem
