#include "solve/nscd/null_space_solvers.hpp"

#include "solve/nscd/nlgs.hpp"
#include "solve/nscd/null_space.hpp"

#include <Eigen/SparseCholesky>

#include <cmath>

namespace ndem {

namespace {

/// Alg. 4's and 6's D: the contacts overlapping at the step's start (where the gap is not
/// known, those whose free motion closes them).
bool active(const LocalProblem& p, const PredictionInputs& in, int c) {
    if (!in.gap.empty()) return in.gap[static_cast<size_t>(c)] < 0.0;
    return p.q[p.offset[static_cast<size_t>(c)]] < 0.0;
}

/// The linear or elastic prediction on the active normal rows A (p in impulses): the law
/// r_n = −k (g' + v_n) with v = W r + q is (W_AA + I/k) r_A = −(q_A + g'), k = h/η (linear,
/// g' = 0) or h²/ε (elastic, g' = g/h).
Eigen::VectorXd linearPrediction(const LocalProblem& p, const PredictionInputs& in,
                                 const NullSpaceSettings& s, bool elastic) {
    const double h = in.timeStep;
    // 0: scaled with the grains, 20 masses (the paper's ε = 10⁻⁵ regime on its disks).
    const double automatic = 20.0 * in.meanMass;
    const double k = elastic ? (s.compliance > 0.0 ? h * h / s.compliance : automatic)
                             : (s.eta > 0.0 ? h / s.eta : automatic);
    std::vector<int> rowOf, slot(static_cast<size_t>(p.rows()), -1);
    std::vector<double> right;
    for (int c = 0; c < p.contacts(); ++c) {
        if (!active(p, in, c)) continue;
        const int row = p.offset[static_cast<size_t>(c)];
        slot[static_cast<size_t>(row)] = static_cast<int>(rowOf.size());
        rowOf.push_back(row);
        const double g = elastic && !in.gap.empty() ? in.gap[static_cast<size_t>(c)] / h : 0.0;
        right.push_back(-(p.q[row] + g));
    }
    Eigen::VectorXd r = Eigen::VectorXd::Zero(p.rows());
    const int n = static_cast<int>(rowOf.size());
    if (n == 0 || !(k > 0.0) || !std::isfinite(k)) return r;
    std::vector<Eigen::Triplet<double>> t;
    for (int a = 0; a < n; ++a) {
        t.emplace_back(a, a, 1.0 / k);
        for (Eigen::SparseMatrix<double>::InnerIterator it(p.W, rowOf[static_cast<size_t>(a)]); it;
             ++it) {
            const int b = slot[static_cast<size_t>(it.row())];
            if (b >= 0) t.emplace_back(b, a, it.value());
        }
    }
    Eigen::SparseMatrix<double> m(n, n);
    m.setFromTriplets(t.begin(), t.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(m);
    if (ldlt.info() != Eigen::Success) return r;
    const Eigen::VectorXd x = ldlt.solve(Eigen::Map<const Eigen::VectorXd>(right.data(), n));
    for (int a = 0; a < n; ++a)
        if (std::isfinite(x[a])) r[rowOf[static_cast<size_t>(a)]] = x[a];
    return r;
}

/// W̃ = W + ωZ stored in full (the paper's NLGS on W̃; small problems).
Eigen::SparseMatrix<double> fullOperator(const LocalProblem& p, const NullSpace& n, double omega) {
    Eigen::MatrixXd w = Eigen::MatrixXd(p.W);
    w.noalias() += omega * n.projector();
    return w.sparseView();
}

}  // namespace

Eigen::VectorXd predictImpulses(const LocalProblem& p, const PredictionInputs& in,
                                const NullSpaceSettings& s, int maxIterations, double tolerance,
                                int* sweeps) {
    if (sweeps) *sweeps = 0;
    switch (s.prediction) {
        case Prediction::Zero:
            return Eigen::VectorXd::Zero(p.rows());
        case Prediction::Linear:
            return linearPrediction(p, in, s, false);
        case Prediction::Elastic:
            return linearPrediction(p, in, s, true);
        case Prediction::Unilateral: {
            LocalProblem frictionless = p;
            for (double& mu : frictionless.mu)
                mu = 0.0;
            Eigen::VectorXd r = Eigen::VectorXd::Zero(p.rows());
            NlgsOptions o;
            o.maxIterations = maxIterations;
            o.tolerance = tolerance;
            const NlgsResult result = solveNlgs(frictionless, r, o);
            if (sweeps) *sweeps = result.iterations;
            return r;
        }
    }
    return Eigen::VectorXd::Zero(p.rows());
}

double operatorNorm(const Eigen::SparseMatrix<double>& w, const Eigen::VectorXd& mask) {
    if (w.rows() == 0) return 0.0;
    const bool masked = mask.size() == w.rows();
    Eigen::VectorXd x = masked ? mask : Eigen::VectorXd::Ones(w.rows());
    if (x.norm() == 0.0) return 0.0;
    x.normalize();
    double norm = 0.0;
    for (int k = 0; k < 50; ++k) {
        Eigen::VectorXd y = w * x;
        if (masked) y = y.cwiseProduct(mask);
        const double next = y.norm();
        if (next == 0.0) return 0.0;
        x = y / next;
        if (std::abs(next - norm) <= 1e-6 * next) return next;
        norm = next;
    }
    return norm;
}

namespace {

NullSpaceResult solveRegularised(const LocalProblem& p, const NullSpace& n,
                                 const PredictionInputs& in, Eigen::VectorXd& r,
                                 const NullSpaceOptions& options) {
    NullSpaceResult result;
    if (options.errorHistory) options.errorHistory->clear();
    if (r.size() != p.rows()) r = Eigen::VectorXd::Zero(p.rows());
    // ‖W‖ over the friction rows (the rows the null space has).
    Eigen::VectorXd friction = Eigen::VectorXd::Zero(p.rows());
    for (int c = 0; c < p.contacts(); ++c)
        friction.segment(p.offset[static_cast<size_t>(c)], p.dim[static_cast<size_t>(c)]).setOnes();
    result.normW = operatorNorm(p.W, friction);
    const double omega = options.settings.weight * result.normW;
    result.omega = omega;
    const double scale = p.q.norm();
    Eigen::VectorXd predicted = predictImpulses(p, in, options.settings, options.maxIterations,
                                                options.tolerance, &result.predictionIterations);
    const bool memory = options.settings.prediction == Prediction::Zero &&
                        options.method != NullSpaceMethod::Iterated;
    if (!memory) r = predicted;

    // W̃: stored in full (Gauss–Seidel on all of it), or W with ωZ by Jacobi.
    result.jacobi = options.method == NullSpaceMethod::Jacobi || p.rows() > options.fullLimit;
    LocalProblem regularised = p;
    NlgsJacobiTerm term;
    Eigen::MatrixXd denseZ;
    if (result.jacobi) {
        const bool dense = options.settings.basis == NullSpaceBasis::Dense;
        if (dense) denseZ = n.projector();
        // By value what this block owns (dense): the sweeps call it after the block ends.
        term.times = [&n, &denseZ, omega, dense](const Eigen::VectorXd& x) -> Eigen::VectorXd {
            if (n.dimension() == 0) return Eigen::VectorXd::Zero(x.size());
            if (dense) return omega * (denseZ * x);
            return omega * n.project(x);
        };
        term.diagonal = n.diagonalBlocks(p.offset, p.dim);
        for (auto& b : term.diagonal)
            for (double& x : b)
                x *= omega;
    } else {
        regularised.W = fullOperator(p, n, omega);
    }
    NlgsSweeper sweeper(regularised, result.jacobi ? &term : nullptr);
    // True: the solve ends here (converged, or the observer stops it).
    auto record = [&](double error) {
        result.error = error;
        if (options.errorHistory) options.errorHistory->push_back(error);
        result.converged = error <= options.tolerance;
        return result.converged || (options.observe && (*options.observe)(r));
    };

    if (options.method == NullSpaceMethod::Iterated) {
        // Alg. 3: a sweep with the right-hand side −v^d + ωNλ, then λ. Only Nλ = m enters,
        // so the multiplier is kept as m (in the null space, in rows): version 2 is m = Zr.
        Eigen::VectorXd m = n.project(r);
        const double rho = options.settings.multiplierStep;
        for (int k = 0; k < options.maxIterations; ++k) {
            sweeper.start(r, p.q - omega * m);
            double error = sweeper.sweep(r, scale);
            const Eigen::VectorXd zr = n.project(r);
            // N Nᵀ(v − v^d) = Z(W̃ r − ωm) = ω(Zr − m) where W N = 0.
            const Eigen::VectorXd next =
                rho > 0.0 ? Eigen::VectorXd(m + rho * omega * (zr - m)) : zr;
            const Eigen::VectorXd moved = omega * (next - m);
            m = next;
            error += scale > 0.0 ? moved.norm() / scale : moved.norm();
            result.iterations = k + 1;
            if (record(error)) break;
        }
        return result;
    }

    // Alg. 5 (and 7): one NLGS on W̃ with the right-hand side −v^d + ωZr̃.
    const Eigen::VectorXd shifted = p.q - omega * n.project(predicted);
    sweeper.start(r, shifted);
    for (int k = 0; k < options.maxIterations; ++k) {
        const double error = sweeper.sweep(r, scale);
        result.iterations = k + 1;
        if (record(error)) break;
    }
    return result;
}

}  // namespace

NullSpaceResult solveNullSpace(const LocalProblem& p, const NullSpace& n,
                               const PredictionInputs& in, Eigen::VectorXd& r,
                               const NullSpaceOptions& options) {
    const Eigen::VectorXd start = r;
    NullSpaceResult result = solveRegularised(p, n, in, r, options);
    // A sweep that blew up (the Jacobi part at too large a weight, a prediction far off)
    // must not throw the grains: the step takes NLGS on W itself, from where it started.
    if (r.allFinite() && std::isfinite(result.error) && result.error < 1e3) return result;
    result.diverged = true;
    r = start.size() == p.rows() && start.allFinite() ? start : Eigen::VectorXd::Zero(p.rows());
    NlgsOptions o;
    o.maxIterations = options.maxIterations;
    o.tolerance = options.tolerance;
    o.errorHistory = options.errorHistory;
    o.observe = options.observe;
    const NlgsResult fallback = solveNlgs(p, r, o);
    result.iterations += fallback.iterations;
    result.error = fallback.error;
    result.converged = fallback.converged;
    return result;
}

}  // namespace ndem
