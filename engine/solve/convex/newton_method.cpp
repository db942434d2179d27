// "newton": the most accurate answer of Coulomb's law the engine gives, as a contact solver (the
// interior point, Gauss–Seidel, then the semismooth Newton method on Alart–Curnier, each from
// the one before: solve/convex/coulomb_reference.hpp). A reference more than a step's method:
// it serves `ndem fclib solve --solver newton` and the solver race's exact answer.
#include "solve/convex/convex_methods.hpp"

#include "solve/convex/coulomb_reference.hpp"
#include "solve/method/solver_registry.hpp"

#include <memory>

namespace ndem {

namespace {

constexpr const char* kSiconosError = "Siconos error";

/// The budget is the Newton steps of both stages together.
CoulombReferenceOptions referenceOptions(const SolveControls& c) {
    CoulombReferenceOptions o;
    if (c.tolerance > 0.0) o.tolerance = c.tolerance;
    o.newtonSteps = c.iterations;
    o.alartCurnierSteps = c.iterations;
    o.totalNewtonSteps = c.iterations;
    o.threads = 1;
    return o;
}

SolveReport reportOf(const CoulombReferenceResult& r) {
    SolveReport report;
    report.iterations = r.interiorPointSteps + r.alartCurnierSteps;
    report.residual = r.error;
    report.residualName = kSiconosError;
    report.converged = r.converged;
    report.stages = {{"interiorPointSteps", r.interiorPointSteps},
                     {"sweeps", r.sweeps},
                     {"alartCurnierSteps", r.alartCurnierSteps}};
    return report;
}

class NewtonMethod final : public ContactSolver {
  public:
    SolveReport solve(StepProblem& step, const SolveControls& c) override {
        const ContactProblem& problem = step.assembled();
        Eigen::VectorXd lambda;
        const CoulombReferenceResult r =
            solveCoulombReference(problem.local(), lambda, referenceOptions(c));
        const ProblemResidual stored = step.store(lambda);
        SolveReport report = reportOf(r);
        report.rowResidual = stored.mean;
        report.maxRowResidual = stored.max;
        report.normalRowResidual = stored.normal;
        return report;
    }
    SolveReport solveLocal(const LocalProblem& p, Eigen::VectorXd& r,
                           const SolveControls& c) override {
        return reportOf(solveCoulombReference(p, r, referenceOptions(c)));
    }
};

}  // namespace

void registerNewton(SolverRegistry& registry) {
    SolverInfo info;
    info.name = "newton";
    info.summary =
        "Coulomb's law to round-off: the interior point, Gauss-Seidel, then the semismooth "
        "Newton method on the Alart-Curnier function (alart-curnier-1991), each from the one "
        "before; iterations are the Newton steps of both (a reference, not a fast method)";
    info.iterationUnit = "Newton steps";
    info.residualName = kSiconosError;
    info.localIterations = 300;
    info.accuracy = 1e-8;
    info.packingAccuracy = 1e-6;
    info.make = [] { return std::make_unique<NewtonMethod>(); };
    registry.add(std::move(info));
}

}  // namespace ndem
