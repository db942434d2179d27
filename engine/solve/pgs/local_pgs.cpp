#include "solve/pgs/local_pgs.hpp"

#include "solve/pgs/local_gauss_seidel.hpp"
#include "solve/rows/second_order_cone.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

/// Tangential impulses t[1..d) onto the disc (or box) of radius `limit`.
void projectTangents(double* t, int d, double limit, bool cone) {
    if (cone) {
        const double mag = cone::tangentNorm(d, t);
        const double f = mag > limit ? (mag > 0.0 ? limit / mag : 0.0) : 1.0;
        for (int k = 1; k < d; ++k)
            t[k] *= f;
    } else {
        for (int k = 1; k < d; ++k)
            t[k] = std::clamp(t[k], -limit, limit);
    }
}

/// Contact c's rows of x projected as the PGS projects its rows: the normal onto r_n ≥ 0, the
/// tangential ones onto the disc (or box) of μ r_n.
void project(const LocalProblem& p, int c, Eigen::VectorXd& x, bool cone) {
    const int o = p.offset[static_cast<size_t>(c)], d = p.dim[static_cast<size_t>(c)];
    x[o] = std::max(0.0, x[o]);
    double t[3] = {0.0, d > 1 ? x[o + 1] : 0.0, d > 2 ? x[o + 2] : 0.0};
    projectTangents(t, d, p.mu[static_cast<size_t>(c)] * x[o], cone);
    for (int k = 1; k < d; ++k)
        x[o + k] = t[k];
}

/// Gauss–Seidel on W contact after contact, keeping u = W r + q up to date: the rows' update
/// with D = W_jj, each contact's tangential rows from the same u, then projected together.
class Sweeper {
  public:
    Sweeper(const LocalProblem& p, const Eigen::VectorXd& r, bool cone)
        : m_p(p), m_w(p.W), m_cone(cone) {
        m_w.makeCompressed();  // columns are rows too: W is symmetric
        m_diagonal = m_w.diagonal();
        m_u = m_w * r + p.q;
    }
    void sweep(Eigen::VectorXd& r) {
        for (int c = 0; c < m_p.contacts(); ++c) {
            const int o = m_p.offset[static_cast<size_t>(c)], d = m_p.dim[static_cast<size_t>(c)];
            if (m_diagonal[o] > 0.0)
                move(r, o, std::max(0.0, r[o] - m_u[o] / m_diagonal[o]) - r[o]);
            if (d == 1) continue;
            double t[3] = {0.0, 0.0, 0.0};
            for (int k = 1; k < d; ++k)
                t[k] = m_diagonal[o + k] > 0.0 ? r[o + k] - m_u[o + k] / m_diagonal[o + k] : 0.0;
            projectTangents(t, d, m_p.mu[static_cast<size_t>(c)] * r[o], m_cone);
            for (int k = 1; k < d; ++k)
                move(r, o + k, t[k] - r[o + k]);
        }
    }
    /// r += Δ, u follows.
    void add(Eigen::VectorXd& r, const Eigen::VectorXd& delta) {
        r += delta;
        m_u += m_w * delta;
    }
    const Eigen::VectorXd& velocities() const { return m_u; }
    const Eigen::VectorXd& diagonal() const { return m_diagonal; }

  private:
    void move(Eigen::VectorXd& r, int j, double d) {
        if (d == 0.0) return;
        for (Eigen::SparseMatrix<double>::InnerIterator it(m_w, j); it; ++it)
            m_u[it.row()] += it.value() * d;
        r[j] += d;
    }
    const LocalProblem& m_p;
    Eigen::SparseMatrix<double> m_w;
    bool m_cone;
    Eigen::VectorXd m_diagonal, m_u;
};

/// Records the error of an iterate; true when it meets the tolerance (confirmed at u = W r + q,
/// so that round-off in a kept-up-to-date u cannot end the iteration early).
bool record(const LocalProblem& p, const Eigen::VectorXd& r, const Eigen::VectorXd* u,
            const LocalPgsOptions& o, LocalPgsResult& result) {
    result.error = u ? coulombErrorAt(p, r, *u) : coulombError(p, r);
    if (o.tolerance > 0.0 && result.error <= o.tolerance && u) result.error = coulombError(p, r);
    if (o.errorHistory) o.errorHistory->push_back(result.error);
    result.converged = o.tolerance > 0.0 && result.error <= o.tolerance;
    return result.converged;
}

/// NNCG on W: each sweep's change Δ_k, weighted by D, sets Fletcher–Reeves' β_k = ‖DΔ_k‖² /
/// ‖DΔ_{k−1}‖² (restarting at β > 1), and r takes β_k p_{k−1}, p_k = Δ_k + β_k p_{k−1} — after
/// every sweep but the last, so that the answer is a sweep's (feasible).
LocalPgsResult nncg(const LocalProblem& p, Eigen::VectorXd& r, const LocalPgsOptions& o) {
    LocalPgsResult result;
    Sweeper sweeper(p, r, o.cone);
    Eigen::VectorXd direction = Eigen::VectorXd::Zero(p.rows());
    double squaresBefore = 0.0;
    for (int k = 0; k < o.maxIterations; ++k) {
        const Eigen::VectorXd start = r;
        sweeper.sweep(r);
        result.iterations = k + 1;
        if (record(p, r, &sweeper.velocities(), o, result)) break;
        const Eigen::VectorXd change = r - start;
        const double squares = change.cwiseProduct(sweeper.diagonal()).squaredNorm();
        double beta = k > 0 && squaresBefore > 0.0 ? squares / squaresBefore : 0.0;
        if (beta > 1.0) beta = 0.0;
        squaresBefore = squares;
        if (k + 1 < o.maxIterations && beta > 0.0) sweeper.add(r, beta * direction);
        direction = change + beta * direction;
    }
    return result;
}

/// APGD on W (mazhar-2015 Alg. 1) with the rows' Jacobi preconditioning: γ' = Π(y − (1/L) D⁻¹
/// (W y + q)), L doubled until dᵀ W d ≤ L ‖d‖²_D (d = γ' − y), Nesterov's extrapolation with
/// the gradient restart, L × 0.9 after each accepted step.
LocalPgsResult apgd(const LocalProblem& p, Eigen::VectorXd& r, const LocalPgsOptions& o) {
    LocalPgsResult result;
    Eigen::SparseMatrix<double> w = p.W;
    w.makeCompressed();
    const Eigen::VectorXd diagonal = w.diagonal();
    Eigen::VectorXd inverse(p.rows());
    for (int j = 0; j < p.rows(); ++j)
        inverse[j] = diagonal[j] > 0.0 ? 1.0 / diagonal[j] : 0.0;
    Eigen::VectorXd previous = r, y = r, next;
    double lipschitz = 1.0, theta = 1.0;
    for (int k = 0; k < o.maxIterations; ++k) {
        const Eigen::VectorXd gradient = w * y + p.q;
        for (;;) {
            next = y - (1.0 / lipschitz) * inverse.cwiseProduct(gradient);
            for (int c = 0; c < p.contacts(); ++c)
                project(p, c, next, o.cone);
            const Eigen::VectorXd d = next - y;
            const double energy = d.dot(w * d);
            const double squares = d.cwiseProduct(d).dot(diagonal);
            if (!(energy > lipschitz * squares * (1.0 + 1e-12) && lipschitz < 1e6)) break;
            lipschitz *= 2.0;
        }
        result.iterations = k + 1;
        if (record(p, next, nullptr, o, result)) break;
        const double thetaNext = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
        double beta = theta * (1.0 - theta) / (theta * theta + thetaNext);
        theta = thetaNext;
        if (gradient.dot(next - previous) > 0.0) {
            beta = 0.0;
            theta = 1.0;
        }
        lipschitz *= 0.9;
        y = next + beta * (next - previous);
        previous = next;
    }
    r = next.size() == r.size() ? next : r;
    return result;
}

}  // namespace

LocalPgsResult solveLocalPgs(const LocalProblem& p, Eigen::VectorXd& r, const LocalPgsOptions& o) {
    if (r.size() != p.rows()) r = Eigen::VectorXd::Zero(p.rows());
    if (o.errorHistory) o.errorHistory->clear();
    if (o.variant == PgsVariant::Apgd) return apgd(p, r, o);
    if (o.variant == PgsVariant::Nncg || !o.cone) {
        // Plain sweeps in the box: NNCG without its momentum.
        if (o.variant == PgsVariant::Plain) {
            LocalPgsResult result;
            Sweeper sweeper(p, r, o.cone);
            for (int k = 0; k < o.maxIterations; ++k) {
                sweeper.sweep(r);
                result.iterations = k + 1;
                if (record(p, r, &sweeper.velocities(), o, result)) break;
            }
            return result;
        }
        return nncg(p, r, o);
    }
    LocalGaussSeidelOptions g;
    g.maxIterations = o.maxIterations;
    g.tolerance = o.tolerance;
    g.errorHistory = o.errorHistory;
    const LocalGaussSeidelResult res = solveLocalGaussSeidel(p, r, g);
    return LocalPgsResult{res.iterations, res.error, res.converged};
}

}  // namespace ndem
