// The solver probe: the convergence of one real step's problem, recorded on a copy.
#include "world/world.hpp"

#include "solve/method/solver_registry.hpp"

#include <cmath>
#include <limits>

namespace ndem {

void World::requestSolverProbe(int referenceIterations, int iterations) {
    m_probe = SolverProbe{};
    m_probe.referenceIterations = std::max(1, referenceIterations);
    m_probe.iterations = std::max(1, iterations);
    m_probe.requested = true;
}

void World::runSolverProbe(const StepContext& ctx) {
    // Copies of the problem as the real solve is about to see it (after the warm start).
    const std::vector<SolverContact> initialRows = m_rows;
    const std::vector<SolverBody> initialBodies = m_bodies;
    std::vector<SolverContact> rows = initialRows;
    std::vector<SolverBody> bodies = initialBodies;
    // A fresh instance of the step's method, the same for the reference and the sweeps.
    const std::unique_ptr<ContactSolver> solver = findSolver(m_settings.method)->make();
    auto solveOnCopy = [&](int iterations) {
        StepProblem problem(rows, bodies, m_settings.dimension);
        return solver->solve(problem, solveControls(ctx, iterations));
    };
    solveOnCopy(m_probe.referenceIterations);
    std::vector<double> reference(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        reference[i] = rows[i].scale * rows[i].lambda[0];

    rows = initialRows;
    bodies = initialBodies;
    auto record = [&](double residual, double normalResidual) {
        double sum = 0.0;
        int loaded = 0;
        for (size_t i = 0; i < rows.size(); ++i) {
            if (reference[i] <= 0.0) continue;
            sum += std::abs(reference[i] - rows[i].scale * rows[i].lambda[0]) / reference[i];
            ++loaded;
        }
        m_probe.residual.push_back(residual);
        m_probe.normalResidual.push_back(normalResidual);
        m_probe.multiplierError.push_back(loaded ? sum / loaded : 0.0);
    };
    record(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN());
    for (int k = 0; k < m_probe.iterations; ++k) {
        const SolveReport r = solveOnCopy(1);
        record(r.rowResidual, r.normalRowResidual);
    }
    m_probe.time = m_time;
    m_probe.requested = false;
    m_probe.done = true;
}

}  // namespace ndem
