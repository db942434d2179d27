#include "solve/convex/interior_point.hpp"

#include "solve/convex/anderson_mixing.hpp"
#include "solve/rows/second_order_cone.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

namespace ndem {

bool InteriorPointSolver::buildPattern(const std::vector<int>& dim, const std::vector<int>& offset,
                                       const Sparse& w) {
    const bool same = m_pattern.build(dim, offset, w) && m_analysed;
    if (same) return true;
    const Sparse& k = m_pattern.matrix();
    m_cholmod = k.rows() >= kCholmodRows;
    const SerialOpenMpRegions serial;
    // A factorisation that fails is the caller's to handle (the start's smallest ρ on a
    // singular Ŵ, round-off near the answer), through info(): CHOLMOD prints nothing. At its
    // print level 1 it still writes such a warning, as "CHOLMOD error: matrix not positive
    // definite", into a run's output (the 26 000-disk biaxial test's start).
    m_supernodal.cholmod().print = 0;
    if (m_cholmod)
        m_supernodal.analyzePattern(k);
    else
        m_ldlt.analyzePattern(k);
    m_analysed = true;
    return false;
}

Eigen::VectorXd InteriorPointSolver::solveNewton(const Eigen::VectorXd& rhs) {
    const SerialOpenMpRegions serial;
    return m_cholmod ? Eigen::VectorXd(m_supernodal.solve(rhs))
                     : Eigen::VectorXd(m_ldlt.solve(rhs));
}

bool InteriorPointSolver::factor(const std::vector<double>& d) {
    const Sparse& k = m_pattern.assemble(d);
    const SerialOpenMpRegions serial;
    if (m_cholmod) {
        m_supernodal.factorize(k);
        return m_supernodal.info() == Eigen::Success;
    }
    m_ldlt.factorize(k);
    return m_ldlt.info() == Eigen::Success;
}

InteriorPointResult InteriorPointSolver::solve(const LocalProblem& p, Eigen::VectorXd& r,
                                               const InteriorPointOptions& options) {
    if (options.residualHistory) options.residualHistory->clear();
    setBlasThreads(options.threads);
    Eigen::VectorXd shift = Eigen::VectorXd::Zero(p.rows());
    if (options.associated) return solveProgram(p, shift, options.maxIterations, options, r);
    // Programs with the normal velocity shifted by (μ − ν)‖u_t‖ until the shift holds still.
    InteriorPointResult total;
    // The answer the rule is nearest: a last program cut short by the budget ends far from
    // the fixed point the converged one before it had nearly reached.
    Eigen::VectorXd best;
    double bestRelative = std::numeric_limits<double>::infinity();
    InteriorPointResult bestProgram;
    const double scale = std::max(p.q.lpNorm<Eigen::Infinity>(), 1e-300);
    const double tolerance = options.tolerance > 0.0 ? options.tolerance : 1e-10 * scale;
    constexpr int kPrograms = 30;
    AndersonMixing anderson(kAndersonMemory);
    for (int k = 0; k < kPrograms && total.iterations < options.maxIterations; ++k) {
        const InteriorPointResult one =
            solveProgram(p, shift, options.maxIterations - total.iterations, options, r);
        total.iterations += one.iterations;
        total.programs = k + 1;
        total.residual = one.residual;
        total.complementarity = one.complementarity;
        total.relative = one.relative;
        total.reusedAnalysis = one.reusedAnalysis;
        const Eigen::VectorXd u = p.W * r + p.q;
        Eigen::VectorXd next = shift;
        double moved = 0.0;
        for (int c = 0; c < p.contacts(); ++c) {
            const int o = p.offset[static_cast<size_t>(c)];
            const int d = p.dim[static_cast<size_t>(c)];
            const int roll = p.rollingRows(c);
            if (d == 1 && roll == 0) continue;
            const double mu = p.mu[static_cast<size_t>(c)];
            const double nu =
                options.dilation.empty() ? 0.0 : options.dilation[static_cast<size_t>(c)];
            // The part of the associated opening the rule takes back: 1 − ν/μ of it, for the
            // rolling rows' (L ‖u_r‖ + L |u_twist|) as for the sliding's μ ‖u_t‖.
            const double keep = mu > 0.0 ? std::min(nu, mu) / mu : 0.0;
            double open = d > 1 ? mu * cone::tangentNorm(d, u.data() + o) : 0.0;
            if (roll > 0) {
                const double* ur = u.data() + o + d;
                const double rolled =
                    roll == 1 ? std::abs(ur[0]) : std::hypot(ur[0], ur[1]) + std::abs(ur[2]);
                open += p.rollingLimit[static_cast<size_t>(c)] * rolled;
            }
            const double s = (1.0 - keep) * open;
            moved = std::max(moved, std::abs(s - shift[o]));
            next[o] = s;
        }
        // Unconverged, the answer is as far from the rule as the shift still moves.
        total.relative = std::max(one.relative, moved / scale);
        if (!std::isfinite(moved)) break;
        if (total.relative < bestRelative) {
            bestRelative = total.relative;
            best = r;
            bestProgram = one;
        }
        if (moved <= tolerance) {
            total.converged = one.converged;
            break;
        }
        shift = anderson.next(shift, next).cwiseMax(0.0);  // openings
    }
    if (best.size() == r.size() && bestRelative < total.relative) {
        r = best;
        total.relative = bestRelative;
        total.residual = bestProgram.residual;
        total.complementarity = bestProgram.complementarity;
    }
    return total;
}

}  // namespace ndem
