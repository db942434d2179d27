#include "solve/nscd/alart_curnier_newton.hpp"

#include "solve/rows/second_order_cone.hpp"

#include <Eigen/SparseCore>
#include <Eigen/UmfPackSupport>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>

namespace ndem {

namespace {

using Sparse = Eigen::SparseMatrix<double>;

/// ρ of each row: the inverse of W's diagonal, one value for a contact's tangent rows (the
/// disc's projection must stay a Euclidean one), so that ρ u and r share their scale.
Eigen::VectorXd rowScales(const LocalProblem& p) {
    const Eigen::VectorXd diagonal = p.W.diagonal();
    const double largest = diagonal.size() > 0 ? diagonal.maxCoeff() : 1.0;
    auto inverse = [&](double w) { return 1.0 / (w > 0.0 ? w : (largest > 0.0 ? largest : 1.0)); };
    Eigen::VectorXd rho(p.rows());
    for (int c = 0; c < p.contacts(); ++c) {
        const int o = p.offset[static_cast<size_t>(c)];
        const int d = p.dim[static_cast<size_t>(c)];
        rho[o] = inverse(diagonal[o]);
        if (d == 1) continue;
        const double tangent = inverse(diagonal.segment(o + 1, d - 1).mean());
        for (int k = 1; k < d; ++k)
            rho[o + k] = tangent;
    }
    return rho;
}

/// A contact's share of the Jacobian: the projection's derivative D (row-major 3 × 3, the
/// first dim × dim entries used) and, under a dilation ν, the tilt ν u_t/‖u_t‖ by which the
/// normal velocity the law sees, u_n − ν‖u_t‖, follows the tangent rows.
struct Block {
    std::array<double, 9> D{};
    std::array<double, 3> tilt{};
};

/// φ(r), and where `blocks` is given, each contact's Block.
double evaluate(const LocalProblem& p, const std::vector<double>& nu, const Eigen::VectorXd& rho,
                const Eigen::VectorXd& r, Eigen::VectorXd& phi, std::vector<Block>* blocks) {
    const Eigen::VectorXd u = p.W * r + p.q;
    phi.resize(p.rows());
    for (int c = 0; c < p.contacts(); ++c) {
        const int o = p.offset[static_cast<size_t>(c)];
        const int d = p.dim[static_cast<size_t>(c)];
        Block block;
        std::array<double, 9>& D = block.D;
        const double dilation =
            nu.empty() ? 0.0 : std::min(nu[static_cast<size_t>(c)], p.mu[static_cast<size_t>(c)]);
        double un = u[o];
        if (d > 1 && dilation > 0.0) {
            const double ut = cone::tangentNorm(d, u.data() + o);
            un -= dilation * ut;
            for (int k = 1; k < d && ut > 0.0; ++k)
                block.tilt[static_cast<size_t>(k)] = dilation * u[o + k] / ut;
        }
        const double yn = r[o] - rho[o] * un;
        const double pn = std::max(0.0, yn);
        phi[o] = r[o] - pn;
        D[0] = yn > 0.0 ? 1.0 : 0.0;
        if (d > 1) {
            const double mu = p.mu[static_cast<size_t>(c)];
            const double radius = mu * pn;
            double y[3] = {0.0, 0.0, 0.0};
            for (int k = 1; k < d; ++k)
                y[k] = r[o + k] - rho[o + k] * u[o + k];
            const double s = cone::tangentNorm(d, y);
            if (s <= radius && radius > 0.0) {  // sticking: the projection is the identity
                block.tilt = {};  // u_t → 0 here: the kink of ‖u_t‖ is not the step's to follow
                for (int k = 1; k < d; ++k) {
                    phi[o + k] = r[o + k] - y[k];
                    D[static_cast<size_t>(k * d + k)] = 1.0;
                }
            } else if (s > 0.0) {  // sliding (or open): onto the disc's rim
                const double f = radius / s;
                for (int k = 1; k < d; ++k) {
                    phi[o + k] = r[o + k] - f * y[k];
                    for (int l = 1; l < d; ++l)
                        D[static_cast<size_t>(k * d + l)] =
                            f * ((k == l ? 1.0 : 0.0) - y[k] * y[l] / (s * s));
                    D[static_cast<size_t>(k * d)] = yn > 0.0 ? mu * y[k] / s : 0.0;
                }
            } else {
                for (int k = 1; k < d; ++k)
                    phi[o + k] = r[o + k];
            }
        }
        if (blocks) (*blocks)[static_cast<size_t>(c)] = block;
    }
    return 0.5 * phi.squaredNorm();
}

/// J = I − D + D ρ T W (T: the identity with the tilt, −ν u_t/‖u_t‖, in each normal row's
/// tangent columns), every block entry stored (zeros too) so that the pattern is the same at
/// every step and UMFPACK's analysis is kept.
Sparse jacobian(const LocalProblem& p, const Eigen::VectorXd& rho, const std::vector<Block>& blocks,
                double shift) {
    std::vector<Eigen::Triplet<double>> dRho, identityMinusD;
    for (int c = 0; c < p.contacts(); ++c) {
        const int o = p.offset[static_cast<size_t>(c)];
        const int d = p.dim[static_cast<size_t>(c)];
        const std::array<double, 9>& D = blocks[static_cast<size_t>(c)].D;
        const std::array<double, 3>& tilt = blocks[static_cast<size_t>(c)].tilt;
        for (int a = 0; a < d; ++a)
            for (int b = 0; b < d; ++b) {
                const double dab = D[static_cast<size_t>(a * d + b)];
                const double tilted =
                    b > 0 ? D[static_cast<size_t>(a * d)] * rho[o] * tilt[static_cast<size_t>(b)]
                          : 0.0;
                dRho.emplace_back(o + a, o + b, dab * rho[o + b] - tilted);
                identityMinusD.emplace_back(o + a, o + b, (a == b ? 1.0 + shift : 0.0) - dab);
            }
    }
    Sparse A(p.rows(), p.rows()), B(p.rows(), p.rows());
    A.setFromTriplets(dRho.begin(), dRho.end());
    B.setFromTriplets(identityMinusD.begin(), identityMinusD.end());
    Sparse J = B + Sparse(A * p.W);
    J.makeCompressed();
    return J;
}

}  // namespace

AlartCurnierResult solveAlartCurnierNewton(const LocalProblem& p, Eigen::VectorXd& r,
                                           const AlartCurnierOptions& options) {
    AlartCurnierResult result;
    if (options.errorHistory) options.errorHistory->clear();
    if (r.size() != p.rows()) r = Eigen::VectorXd::Zero(p.rows());
    if (!p.rolling.empty()) {
        result.error = coulombError(p, r);
        return result;
    }
    const Eigen::VectorXd rho = rowScales(p);
    const std::vector<double>& nu = options.dilation;
    std::vector<Block> blocks(static_cast<size_t>(p.contacts()));
    Eigen::VectorXd phi, trialPhi;
    double merit = evaluate(p, nu, rho, r, phi, &blocks);
    result.error = coulombError(p, r, nu);
    Eigen::VectorXd best = r;
    double bestError = result.error;
    // The non-monotone reference: the largest merit of the last few steps.
    std::deque<double> recent{merit};
    constexpr size_t kMemory = 5;
    constexpr double kArmijo = 1e-4;
    constexpr int kHalvings = 30;
    Eigen::UmfPackLU<Sparse> lu;
    bool analysed = false;
    for (int k = 0; k < options.maxIterations && bestError > options.tolerance; ++k) {
        // λ with the error: no bias near the answer, a well-posed step far from it.
        const double shift = std::min(1e-4, result.error) + 1e-12;
        const Sparse J = jacobian(p, rho, blocks, shift);
        if (!analysed) {
            lu.analyzePattern(J);
            analysed = true;
        }
        lu.factorize(J);
        if (lu.info() != Eigen::Success) break;
        const Eigen::VectorXd rhs = -phi;  // UMFPACK's solve takes a plain vector
        const Eigen::VectorXd step = lu.solve(rhs);
        if (!step.allFinite()) break;
        const double reference = *std::max_element(recent.begin(), recent.end());
        double t = 1.0;
        bool accepted = false;
        Eigen::VectorXd trial;
        for (int h = 0; h < kHalvings; ++h, t *= 0.5) {
            trial = r + t * step;
            const double m = evaluate(p, nu, rho, trial, trialPhi, nullptr);
            if (m <= reference - 2.0 * kArmijo * t * merit) {
                accepted = true;
                break;
            }
        }
        if (!accepted) break;  // no descent along the Newton direction: the best iterate stands
        result.iterations = k + 1;
        r = trial;
        merit = evaluate(p, nu, rho, r, phi, &blocks);
        recent.push_back(merit);
        if (recent.size() > kMemory) recent.pop_front();
        result.error = coulombError(p, r, nu);
        if (options.errorHistory) options.errorHistory->push_back(result.error);
        if (result.error < bestError) {
            bestError = result.error;
            best = r;
        }
    }
    r = best;
    result.error = bestError;
    result.converged = bestError <= options.tolerance;
    return result;
}

}  // namespace ndem
