// The contact-solver interface (docs/architecture.md, "The solver family"): every method that
// answers a step's contact problem is a ContactSolver registered under its solver.method name
// (solve/method/solver_registry.hpp). The step offers its problem in the two views the family needs
// — the rows and bodies the matrix-free methods sweep, and the assembled Delassus / cone form the
// interior points, the static formulation and the NSCD methods factor or sweep — and every
// method answers with one SolveReport, whose fields mean the same for all.
#pragma once

#include "core/settings.hpp"
#include "core/settings_blocks.hpp"
#include "core/state_archive.hpp"
#include "solve/rows/contact_problem.hpp"
#include "solve/rows/local_problem.hpp"
#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"
#include "solve/rows/sweep_observer.hpp"

#include <Eigen/Core>

#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace ndem {

/// What every method reads of a solve, whatever its family; its own keys come in `blocks`.
struct SolveControls {
    int iterations = 100;    ///< budget, in the method's unit (SolverInfo::iterationUnit)
    double tolerance = 0.0;  ///< stop below this residual (the method's measure); 0: the budget
    int threads = 1;         ///< threads of the solve (the answer does not depend on them)
    SimdLevel simd = SimdLevel::Auto;  ///< the PGS kernel's instruction set
    int dimension = 3;                 ///< 2: contacts in the x–z plane (normal and t1 rows only)
    double timeStep = 0.0;             ///< h (s): the null-space predictions
    /// If set: the method's residual after each iteration (cleared first).
    std::vector<double>* residualHistory = nullptr;
    /// Called after each sweep of the NSCD methods with λ in the assembled problem's rows;
    /// returning true stops the solve.
    const SweepObserver* sweepObserver = nullptr;
    /// Per ContactSet contact: the overlap at the step's start (the gap's opposite, for the
    /// null-space predictions); empty: unknown.
    std::span<const double> overlaps;
    /// The methods' own keys (solve/method/solver_registry.hpp); null: every block's defaults.
    const SettingsBlocks* blocks = nullptr;

    template <class T>
    const T& block() const {
        static const SettingsBlocks none;
        return (blocks ? *blocks : none).get<T>();
    }
};

/// What one solve did, in the same terms for every method.
struct SolveReport {
    int iterations = 0;     ///< in SolverInfo::iterationUnit
    double residual = 0.0;  ///< the method's own measure at its answer (residualName)
    const char* residualName = "";
    bool converged = false;  ///< the residual reached the tolerance (none set: false)
    /// What the solve fell back to where its method could not answer, or nullptr.
    const char* fallback = nullptr;
    /// The answer's PGS row residual |Δλ_j| D_j (m/s), the one measure every method's answer is
    /// compared by: mean over all rows, the largest, mean over the normal rows.
    double rowResidual = 0.0, maxRowResidual = 0.0, normalRowResidual = 0.0;
    int predictionIterations = 0;  ///< NLGS sweeps of a null-space prediction (Alart 2014)
    /// A method made of stages: what each took (newton: its interior point's Newton steps,
    /// Gauss–Seidel sweeps, Alart–Curnier steps).
    std::vector<std::pair<const char*, int>> stages;
};

/// One step's contact problem. The rows and bodies are the step's own: a solve writes its
/// multipliers into the rows and the bodies' velocities after the contacts. The assembled form
/// is built from them on first use, unless the step assembled its own (the static formulation:
/// servo walls as unknowns, masses scaled).
class StepProblem {
  public:
    StepProblem(std::span<SolverContact> rows, std::span<SolverBody> bodies, int dimension);
    /// The static formulation's problem, assembled by the step.
    StepProblem(std::span<SolverContact> rows, std::span<SolverBody> bodies,
                ContactProblem assembled);

    std::span<SolverContact> rows() const { return m_rows; }
    std::span<SolverBody> bodies() const { return m_bodies; }
    bool staticForm() const { return m_static; }
    /// J, M, v*, Σ, b and the cones (ProblemForm{dimension, false, true}: rolling rows kept).
    const ContactProblem& assembled();

    /// Writes an assembled solve's answer back: λ into the rows, and into the bodies either the
    /// velocities λ gives or, where the method keeps them as unknowns of its own (StaticLcp),
    /// `velocities`. Returns the answer's row residual.
    ProblemResidual store(const Eigen::VectorXd& lambda,
                          const Eigen::VectorXd* velocities = nullptr);
    /// The unknowns' velocities of the last store (bodies, then the static servo walls).
    const Eigen::VectorXd& velocities() const { return m_velocities; }

  private:
    std::span<SolverContact> m_rows;
    std::span<SolverBody> m_bodies;
    int m_dimension = 3;
    bool m_static = false;
    std::optional<ContactProblem> m_assembled;
    Eigen::VectorXd m_velocities;
};

/// A method for the contact problem. One instance per method and world: it may keep buffers and
/// state between solves (what it keeps across a checkpoint, archive() saves).
class ContactSolver {
  public:
    virtual ~ContactSolver() = default;
    /// Answers one step's problem: multipliers into its rows, velocities into its bodies.
    virtual SolveReport solve(StepProblem& problem, const SolveControls& controls) = 0;
    /// Answers a local problem u = W r + q with Coulomb's law, as FCLib poses it (no bodies):
    /// r in (the start) and out. The same algorithm as solve(), on W.
    virtual SolveReport solveLocal(const LocalProblem& problem, Eigen::VectorXd& r,
                                   const SolveControls& controls) = 0;
    /// Saves or loads what carries from one solve to the next (APGD's Lipschitz estimate).
    virtual void archive(StateArchive&) {}
};

/// The report of a method that answered on the assembled form: its iterations, its own residual
/// and whether it converged, with the row residual of the answer it stored.
SolveReport assembledReport(const ProblemResidual& stored, int iterations, double residual,
                            const char* residualName, bool converged);

}  // namespace ndem
