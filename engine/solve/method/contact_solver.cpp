#include "solve/method/contact_solver.hpp"

#include <utility>

namespace ndem {

StepProblem::StepProblem(std::span<SolverContact> rows, std::span<SolverBody> bodies, int dimension)
    : m_rows(rows), m_bodies(bodies), m_dimension(dimension) {}

StepProblem::StepProblem(std::span<SolverContact> rows, std::span<SolverBody> bodies,
                         ContactProblem assembled)
    : m_rows(rows), m_bodies(bodies), m_static(true), m_assembled(std::move(assembled)) {}

const ContactProblem& StepProblem::assembled() {
    if (!m_assembled)
        m_assembled =
            ContactProblem::fromRows(m_rows, m_bodies, ProblemForm{m_dimension, false, true});
    return *m_assembled;
}

ProblemResidual StepProblem::store(const Eigen::VectorXd& lambda,
                                   const Eigen::VectorXd* velocities) {
    const ContactProblem& p = assembled();
    m_velocities = velocities ? *velocities : p.velocities(lambda);
    p.store(lambda, m_velocities, m_rows, m_bodies);
    return pgsResidual(p, lambda);
}

SolveReport assembledReport(const ProblemResidual& stored, int iterations, double residual,
                            const char* residualName, bool converged) {
    SolveReport r;
    r.iterations = iterations;
    r.residual = residual;
    r.residualName = residualName;
    r.converged = converged;
    r.rowResidual = stored.mean;
    r.maxRowResidual = stored.max;
    r.normalRowResidual = stored.normal;
    return r;
}

}  // namespace ndem
