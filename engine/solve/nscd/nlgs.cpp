#include "solve/nscd/nlgs.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

/// The local problem of one contact: u = B r + w over its friction rows (B row-major, d × d).
struct Block {
    int d = 1;
    double B[9] = {};
    double w[3] = {};
    double mu = 0.0;
    double at(int i, int j) const { return B[3 * i + j]; }
};

/// Coulomb's law on a block by Gauss–Seidel between the normal reaction and the tangential
/// one, the latter by projected gradient on the disc μ r_n (Coulomb's sliding direction is the
/// disc-constrained minimum of ½ r_tᵀ B_tt r_t + (w_t + B_tn r_n)ᵀ r_t). Used in space, and in
/// the plane where no case of the enumeration fits (B singular on the contact's rows).
void alternate(const Block& b, double* r) {
    double step = 0.0;  // 1 / the largest eigenvalue bound of B_tt (Gershgorin)
    for (int i = 1; i < b.d; ++i) {
        double row = 0.0;
        for (int j = 1; j < b.d; ++j)
            row += std::abs(b.at(i, j));
        step = std::max(step, row);
    }
    step = step > 0.0 ? 1.0 / step : 0.0;
    for (int outer = 0; outer < 50; ++outer) {
        const double before[3] = {r[0], r[1], r[2]};
        double un = b.w[0];
        for (int j = 1; j < b.d; ++j)
            un += b.at(0, j) * r[j];
        r[0] = b.at(0, 0) > 0.0 ? std::max(0.0, -un / b.at(0, 0)) : 0.0;
        const double limit = b.mu * r[0];
        for (int inner = 0; inner < 20; ++inner) {
            double t[3] = {};
            for (int i = 1; i < b.d; ++i) {
                double u = b.w[i] + b.at(i, 0) * r[0];
                for (int j = 1; j < b.d; ++j)
                    u += b.at(i, j) * r[j];
                t[i] = r[i] - step * u;
            }
            double mag = 0.0;
            for (int i = 1; i < b.d; ++i)
                mag += t[i] * t[i];
            mag = std::sqrt(mag);
            const double f = mag > limit ? (mag > 0.0 ? limit / mag : 0.0) : 1.0;
            for (int i = 1; i < b.d; ++i)
                r[i] = f * t[i];
        }
        double change = 0.0, size = 0.0;
        for (int i = 0; i < b.d; ++i) {
            change = std::max(change, std::abs(r[i] - before[i]));
            size = std::max(size, std::abs(r[i]));
        }
        if (change <= 1e-14 * size) break;
    }
}

/// The exact answer in the plane (rows n, t): separation, sticking, or sliding either way,
/// whichever satisfies its conditions.
void planar(const Block& b, double* r) {
    const double a = b.at(0, 0), c = b.at(0, 1), e = b.at(1, 1);
    const double wn = b.w[0], wt = b.w[1], mu = b.mu;
    if (wn >= 0.0) {  // free flight keeps the contact open
        r[0] = r[1] = 0.0;
        return;
    }
    const double det = a * e - c * c;
    if (det > 1e-14 * a * e) {  // sticking: u = 0
        const double rn = (-wn * e + wt * c) / det;
        const double rt = (-wt * a + wn * c) / det;
        if (rn >= 0.0 && std::abs(rt) <= mu * rn * (1.0 + 1e-12)) {
            r[0] = rn;
            r[1] = rt;
            return;
        }
    }
    for (const double s : {1.0, -1.0}) {  // sliding with u_t of sign s: r_t = −s μ r_n
        const double lean = a - s * mu * c;
        if (!(lean > 0.0)) continue;
        const double rn = -wn / lean;
        const double ut = (c - s * mu * e) * rn + wt;
        if (rn >= 0.0 && s * ut >= 0.0) {
            r[0] = rn;
            r[1] = -s * mu * rn;
            return;
        }
    }
    alternate(b, r);
}

}  // namespace

struct NlgsSweeper::Blocks {
    std::vector<Block> of;
};

NlgsSweeper::NlgsSweeper(const LocalProblem& p, const NlgsJacobiTerm* jacobi)
    : m_p(p), m_w(p.W), m_jacobi(jacobi), m_blocks(std::make_unique<Blocks>()) {
    m_w.makeCompressed();  // columns are rows too: W is symmetric
    // Each contact's block of W (and of ωZ, swept by Jacobi), once.
    m_blocks->of.resize(static_cast<size_t>(p.contacts()));
    for (int c = 0; c < p.contacts(); ++c) {
        Block& b = m_blocks->of[static_cast<size_t>(c)];
        const int o = p.offset[static_cast<size_t>(c)];
        b.d = p.dim[static_cast<size_t>(c)];
        b.mu = p.mu[static_cast<size_t>(c)];
        for (int i = 0; i < b.d; ++i)
            for (int j = 0; j < b.d; ++j) {
                b.B[3 * i + j] = m_w.coeff(o + i, o + j);
                if (jacobi)
                    b.B[3 * i + j] +=
                        jacobi->diagonal[static_cast<size_t>(c)][static_cast<size_t>(3 * i + j)];
            }
    }
}

NlgsSweeper::~NlgsSweeper() = default;

void NlgsSweeper::start(const Eigen::VectorXd& r, const Eigen::VectorXd& q) {
    m_u = m_w * r + q;
    m_seen = m_u;
    m_z = m_jacobi ? m_jacobi->times(r) : Eigen::VectorXd::Zero(r.size());
}

double NlgsSweeper::sweep(Eigen::VectorXd& r, double scale) {
    const LocalProblem& p = m_p;
    Eigen::VectorXd& u = m_u;
    // r_j += d, and u follows: u += W(:, j) d.
    auto move = [&](int j, double d) {
        if (d == 0.0) return;
        for (Eigen::SparseMatrix<double>::InnerIterator it(m_w, j); it; ++it)
            u[it.row()] += it.value() * d;
        r[j] += d;
    };
    // Jacobi on ωZ: each contact sees z = ωZ r^{k−1} less its own block's part of it.
    Eigen::VectorXd jumped = Eigen::VectorXd::Zero(r.size());  // ωZ_αα (r^k − r^{k−1})
    for (int c = 0; c < p.contacts(); ++c) {
        Block& b = m_blocks->of[static_cast<size_t>(c)];
        const int o = p.offset[static_cast<size_t>(c)];
        double x[3] = {}, before[3] = {};
        for (int i = 0; i < b.d; ++i) {
            x[i] = before[i] = r[o + i];
            double own = 0.0;
            for (int j = 0; j < b.d; ++j)
                own += b.at(i, j) * r[o + j];
            b.w[i] = u[o + i] + m_z[o + i] - own;
        }
        if (b.d == 1)
            x[0] = b.at(0, 0) > 0.0 ? std::max(0.0, -b.w[0] / b.at(0, 0)) : 0.0;
        else if (b.d == 2)
            planar(b, x);
        else
            alternate(b, x);
        for (int i = 0; i < b.d; ++i)
            move(o + i, x[i] - r[o + i]);
        if (m_jacobi)
            for (int i = 0; i < b.d; ++i)
                for (int j = 0; j < b.d; ++j)
                    jumped[o + i] +=
                        m_jacobi->diagonal[static_cast<size_t>(c)][static_cast<size_t>(3 * i + j)] *
                        (x[j] - before[j]);
        // Rolling rows: each row's own update, onto the limit L r_n (a disc over the
        // first two in space, an interval for the twist and in the plane).
        const int roll = p.rollingRows(c);
        const double limit = roll ? p.rollingLimit[static_cast<size_t>(c)] * r[o] : 0.0;
        double m[3] = {};
        for (int i = 0; i < roll; ++i) {
            const int j = o + b.d + i;
            const double diagonal = m_w.coeff(j, j);
            m[i] = diagonal > 0.0 ? r[j] - (u[j] + m_z[j]) / diagonal : 0.0;
        }
        if (roll == 3) {
            const double mag = std::hypot(m[0], m[1]);
            const double f = mag > limit ? (mag > 0.0 ? limit / mag : 0.0) : 1.0;
            m[0] *= f;
            m[1] *= f;
        }
        for (int i = roll == 3 ? 2 : 0; i < roll; ++i)
            m[i] = std::clamp(m[i], -limit, limit);
        for (int i = 0; i < roll; ++i)
            move(o + b.d + i, m[i] - r[o + b.d + i]);
        for (int i = 0; i < p.rowsOf(c); ++i)
            m_seen[o + i] = u[o + i];
    }
    // Eq. 10: the velocities of the sweep's answer, W̃ r^k + q, against those each contact saw.
    Eigen::VectorXd gap = u - m_seen;
    if (m_jacobi) {
        const Eigen::VectorXd z = m_jacobi->times(r);
        gap += z - m_z - jumped;
        m_z = z;
    }
    return scale > 0.0 ? gap.norm() / scale : gap.norm();
}

NlgsResult solveNlgs(const LocalProblem& p, Eigen::VectorXd& r, const NlgsOptions& options) {
    NlgsResult result;
    if (r.size() != p.rows()) r = Eigen::VectorXd::Zero(p.rows());
    if (options.errorHistory) options.errorHistory->clear();
    NlgsSweeper sweeper(p, options.jacobi);
    sweeper.start(r, p.q);
    const double scale = p.q.norm();
    for (int k = 0; k < options.maxIterations; ++k) {
        const double error = sweeper.sweep(r, scale);
        result.iterations = k + 1;
        result.error = options.coulombStop ? coulombError(p, r) : error;
        if (options.errorHistory) options.errorHistory->push_back(result.error);
        if (result.error <= options.tolerance) {
            result.converged = true;
            break;
        }
        if (options.observe && (*options.observe)(r)) break;
    }
    return result;
}

}  // namespace ndem
