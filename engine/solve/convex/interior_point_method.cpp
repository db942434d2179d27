// The interior-point method as a contact solver (krabbenhoft-2012): the step's assembled problem
// as a cone program (the associated rule) or, with the non-associated rule in the plane, as a
// complementarity problem — in the static formulation in its mixed form (StaticLcp), where the
// velocities are unknowns of their own.
#include "solve/convex/convex_methods.hpp"

#include "solve/convex/interior_point.hpp"
#include "solve/convex/interior_point_settings.hpp"
#include "solve/convex/lcp_interior_point.hpp"
#include "solve/convex/static_lcp.hpp"
#include "solve/method/solver_registry.hpp"

#include <algorithm>
#include <memory>

namespace ndem {

namespace {

/// One BLAS thread whatever the step's count: CHOLMOD's and UMFPACK's dense kernels on two
/// OpenBLAS threads do not round as on one (a 6 195-contact program's answer moved by
/// 3·10⁻¹⁵; the non-associated biaxial test, where a stalled step amplifies the last bit,
/// parted at its eighth static step: biaxial-2d findings); on two cores the step was no
/// faster with two within its noise (docs/PERFORMANCE.md).
constexpr int kBlasThreads = 1;

constexpr const char* kResidualName = "relative optimality residual (krabbenhoft-2012 Eq. 52)";
constexpr const char* kAssociatedFallback =
    "the non-associated rule stalled far from an answer: the associated rule's answer";

class InteriorPointMethod final : public ContactSolver {
  public:
    SolveReport solve(StepProblem& step, const SolveControls& c) override {
        const InteriorPointSettings& s = c.block<InteriorPointSettings>();
        const ContactProblem& problem = step.assembled();
        const bool associated = s.slidingRule == SlidingRule::Associated;
        // ν in row units: a normal row scaled by s opens at ν s |u_t| (μ' = μ s likewise).
        std::vector<double> nu;
        if (!associated)
            for (int k = 0; k < problem.contacts(); ++k)
                nu.push_back(std::min(s.dilation * problem.scale[static_cast<size_t>(k)],
                                      problem.mu[static_cast<size_t>(k)]));
        Eigen::VectorXd lambda, velocities;
        InteriorPointResult r;
        const char* fallback = nullptr;
        bool mixed = false;
        if (!associated && c.dimension == 2) {
            LcpOptions o = lcpOptions(c, nu);
            if (!s.finishStalls) o.polishSteps = 0;
            mixed =
                step.staticForm() && std::none_of(problem.rolling.begin(), problem.rolling.end(),
                                                  [](int k) { return k > 0; });
            if (mixed) {
                if (!m_staticLcp) m_staticLcp = std::make_unique<StaticLcp>();
                r = m_staticLcp->solve(problem, lambda, velocities, o);
            } else {
                if (!m_lcp) m_lcp = std::make_unique<LcpInteriorPoint>();
                r = m_lcp->solve(problem.local(), lambda, o);
            }
            // A static step's stall far from any answer would throw the grains about
            // (docs/physics-notes.md): the step takes the associated rule's answer, which
            // always exists, and says so.
            const double ruleFallback = step.staticForm() ? s.staticFallback : 0.0;
            if (ruleFallback > 0.0 && !(r.relative <= ruleFallback)) {
                r = conic(problem.local(), lambda, c, {}, true);
                fallback = kAssociatedFallback;
                mixed = false;
            }
        } else {
            r = conic(problem.local(), lambda, c, nu, associated);
        }
        const ProblemResidual stored = step.store(lambda, mixed ? &velocities : nullptr);
        SolveReport report =
            assembledReport(stored, r.iterations, r.relative, kResidualName, r.converged);
        report.fallback = fallback;
        return report;
    }

    SolveReport solveLocal(const LocalProblem& p, Eigen::VectorXd& r,
                           const SolveControls& controls) override {
        // Coulomb's law, as FCLib poses it: in the plane the complementarity problem with ν = 0
        // (krabbenhoft-2012 Sec. 4.1), in space the fixed point of cone programs; each to its
        // own 10⁻¹⁰ (the tolerance is Siconos' error, which it does not follow step by step).
        SolveControls c = controls;
        c.tolerance = 0.0;
        const bool plane = std::all_of(p.dim.begin(), p.dim.end(), [](int d) { return d <= 2; });
        InteriorPointResult result;
        if (plane) {
            LcpOptions o = lcpOptions(c, {});
            if (!c.block<InteriorPointSettings>().finishStalls) o.polishSteps = 0;
            if (!m_lcp) m_lcp = std::make_unique<LcpInteriorPoint>();
            result = m_lcp->solve(p, r, o);
        } else {
            result = conic(p, r, c, {}, false);
        }
        SolveReport report;
        report.iterations = result.iterations;
        report.residual = result.relative;
        report.residualName = kResidualName;
        report.converged = result.converged;
        return report;
    }

  private:
    static LcpOptions lcpOptions(const SolveControls& c, std::vector<double> nu) {
        LcpOptions o;
        o.maxIterations = c.iterations;
        o.tolerance = c.tolerance;
        o.residualHistory = c.residualHistory;
        o.dilation = std::move(nu);
        o.threads = kBlasThreads;
        return o;
    }
    InteriorPointResult conic(const LocalProblem& local, Eigen::VectorXd& lambda,
                              const SolveControls& c, std::vector<double> nu, bool associated) {
        if (!m_interiorPoint) m_interiorPoint = std::make_unique<InteriorPointSolver>();
        InteriorPointOptions o;
        o.maxIterations = c.iterations;
        o.tolerance = c.tolerance;
        o.residualHistory = c.residualHistory;
        o.threads = kBlasThreads;
        o.associated = associated;
        if (!associated) o.dilation = std::move(nu);
        return m_interiorPoint->solve(local, lambda, o);
    }

    std::unique_ptr<InteriorPointSolver> m_interiorPoint;
    std::unique_ptr<LcpInteriorPoint> m_lcp;  ///< the non-associated rule in the plane
    std::unique_ptr<StaticLcp> m_staticLcp;   ///< and in the static formulation
};

}  // namespace

void registerInteriorPoint(SolverRegistry& registry) {
    registry.addBlock<InteriorPointSettings>();
    SolverInfo info;
    info.name = "interior-point";
    info.summary =
        "the primal-dual interior-point method on the step's problem as a cone program "
        "(krabbenhoft-2012; solver.slidingRule: the associated rule, or the non-associated "
        "one as a complementarity problem in the plane); iterations are Newton steps";
    info.iterationUnit = "Newton steps";
    info.residualName = kResidualName;
    info.blocks = {InteriorPointSettings::kBlock};
    info.staticForm = true;
    // Coulomb's law in space is the fixed point of cone programs, which stalls at 1–2 % of a
    // packing's load (the conformance suite's bed at rest; the associated rule converges).
    info.accuracy = 1e-8;
    info.packingAccuracy = 3e-2;
    info.localIterations = 200;
    info.make = [] { return std::make_unique<InteriorPointMethod>(); };
    registry.add(std::move(info));
}

}  // namespace ndem
