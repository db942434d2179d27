#include "solve/interior_point.hpp"

#include "solve/second_order_cone.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {


bool InteriorPointSolver::buildPattern(const std::vector<int>& dim,
                                       const std::vector<int>& offset, const Sparse& w) {
    const bool same = m_pattern.build(dim, offset, w) && m_analysed;
    if (same) return true;
    const Sparse& k = m_pattern.matrix();
    m_cholmod = k.rows() >= kCholmodRows;
    if (m_cholmod)
        m_supernodal.analyzePattern(k);
    else
        m_ldlt.analyzePattern(k);
    m_analysed = true;
    return false;
}

Eigen::VectorXd InteriorPointSolver::solveNewton(const Eigen::VectorXd& rhs) {
    return m_cholmod ? Eigen::VectorXd(m_supernodal.solve(rhs))
                     : Eigen::VectorXd(m_ldlt.solve(rhs));
}

bool InteriorPointSolver::factor(const std::vector<double>& d) {
    const Sparse& k = m_pattern.assemble(d);
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
    const double scale = std::max(p.q.lpNorm<Eigen::Infinity>(), 1e-300);
    const double tolerance = options.tolerance > 0.0 ? options.tolerance : 1e-10 * scale;
    constexpr int kPrograms = 30;
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
        double moved = 0.0;
        for (int c = 0; c < p.contacts(); ++c) {
            const int o = p.offset[static_cast<size_t>(c)];
            const int d = p.dim[static_cast<size_t>(c)];
            if (d == 1) continue;
            const double mu = p.mu[static_cast<size_t>(c)];
            const double nu =
                options.dilation.empty() ? 0.0 : options.dilation[static_cast<size_t>(c)];
            const double s = (mu - std::min(nu, mu)) * cone::tangentNorm(d, u.data() + o);
            moved = std::max(moved, std::abs(s - shift[o]));
            shift[o] = s;
        }
        if (!std::isfinite(moved)) break;
        if (moved <= tolerance) {
            total.converged = one.converged;
            break;
        }
    }
    return total;
}

InteriorPointResult InteriorPointSolver::solveProgram(const LocalProblem& full,
                                                      const Eigen::VectorXd& shift, int budget,
                                                      const InteriorPointOptions& options,
                                                      Eigen::VectorXd& rOut) {
    InteriorPointResult result;
    result.programs = 1;
    rOut = Eigen::VectorXd::Zero(full.rows());
    // The cones: a contact with friction keeps its rows (three in space, two in the plane), one
    // without its normal row (its tangential reactions are zero and its tangential velocity free).
    std::vector<int> dims, offsets, rowsUsed;
    std::vector<double> mus;
    for (int c = 0; c < full.contacts(); ++c) {
        const int o = full.offset[static_cast<size_t>(c)];
        const double mu = full.mu[static_cast<size_t>(c)];
        const int d = mu > 0.0 ? full.dim[static_cast<size_t>(c)] : 1;
        dims.push_back(d);
        offsets.push_back(static_cast<int>(rowsUsed.size()));
        mus.push_back(d > 1 ? mu : 0.0);
        for (int k = 0; k < d; ++k)
            rowsUsed.push_back(o + k);
    }
    const int m = static_cast<int>(rowsUsed.size());
    if (m == 0) {
        result.converged = true;
        return result;
    }
    const int coneCount = static_cast<int>(dims.size());
    Sparse wUsed;
    Eigen::VectorXd q(m);
    for (int i = 0; i < m; ++i)
        q[i] = full.q[rowsUsed[static_cast<size_t>(i)]] + shift[rowsUsed[static_cast<size_t>(i)]];
    if (m == full.rows()) {
        wUsed = full.W;
    } else {
        std::vector<Eigen::Triplet<double>> pick;
        for (int i = 0; i < m; ++i)
            pick.emplace_back(rowsUsed[static_cast<size_t>(i)], i, 1.0);
        Sparse select(full.rows(), m);
        select.setFromTriplets(pick.begin(), pick.end());
        wUsed = Sparse(select.transpose() * full.W) * select;
    }

    // Unit cones and units of order one: x = T r / P and z = T⁻¹ û / V, T = diag(μ, 1, 1) per
    // friction cone, V the largest free velocity, P/V the inverse of Ŵ's mean diagonal.
    Eigen::VectorXd t = Eigen::VectorXd::Ones(m);
    for (int c = 0; c < coneCount; ++c)
        if (dims[static_cast<size_t>(c)] > 1)
            t[offsets[static_cast<size_t>(c)]] = mus[static_cast<size_t>(c)];
    // Ŵ = T⁻¹ W T⁻¹ · P/V with P/V = 1 / mean diagonal.
    const Eigen::VectorXd tinv = t.cwiseInverse();
    Sparse w = Sparse(tinv.asDiagonal() * wUsed) * tinv.asDiagonal();
    const double a = m / std::max(w.diagonal().sum(), 1e-300);
    w *= a;
    const double V = std::max(q.cwiseQuotient(t).lpNorm<Eigen::Infinity>(), 1e-300);
    const double P = a * V;
    const Eigen::VectorXd qs = q.cwiseQuotient(t) / V;
    const double tolerance = options.tolerance > 0.0 ? options.tolerance / V : 1e-10;
    result.reusedAnalysis = buildPattern(dims, offsets, w);

    // Each contact's R⁻² block (identity for the start), in the slots' order.
    std::vector<double> blocks;
    auto setBlocks = [&](const std::vector<cone::Scaling>* scalings) {
        blocks.clear();
        for (int c = 0; c < coneCount; ++c) {
            const int d = dims[static_cast<size_t>(c)];
            double e[9] = {};
            if (scalings)
                (*scalings)[static_cast<size_t>(c)].inverseSquared(e);
            else
                for (int i = 0; i < d; ++i)
                    e[i * (d + 1)] = 1.0;
            blocks.insert(blocks.end(), e, e + d * d);
        }
    };
    auto unit = [&](Eigen::VectorXd& v, double f) {
        for (int c = 0; c < coneCount; ++c)
            v[offsets[static_cast<size_t>(c)]] += f;
    };
    auto maxStep = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& dx) {
        double alpha = 1.0;
        for (int c = 0; c < coneCount; ++c) {
            const int o = offsets[static_cast<size_t>(c)];
            alpha = cone::maxStep(dims[static_cast<size_t>(c)], x.data() + o, dx.data() + o, alpha);
        }
        return alpha;
    };
    auto intoInterior = [&](Eigen::VectorXd& v) {
        double worst = -1e300;
        for (int c = 0; c < coneCount; ++c)
            worst = std::max(worst, -cone::depth(dims[static_cast<size_t>(c)],
                                                 v.data() + offsets[static_cast<size_t>(c)]));
        if (worst >= -1e-8) unit(v, 1.0 + worst);
    };

    // Start: the least-squares point of (Ŵ + I) x = −q, z = Ŵ x + q = −x, both moved inside.
    setBlocks(nullptr);
    if (!factor(blocks)) return result;  // λ = 0: nothing better to offer
    Eigen::VectorXd x = solveNewton(-qs), z;
    z = -x;
    intoInterior(x);
    intoInterior(z);

    std::vector<cone::Scaling> scalings(static_cast<size_t>(coneCount));
    Eigen::VectorXd ell(m), dxA(m), dzA(m), dx(m), dz(m), ds(m), es(m), g(m), tmp(m);
    const double n = coneCount;
    // The best iterate is kept: near the solution round-off can stall the steps or, in a
    // degenerate packing, blow them up; the answer is then the best point reached.
    Eigen::VectorXd bestX = x, bestZ = z;
    double best = std::numeric_limits<double>::infinity();
    int bestIteration = 0;
    constexpr int kStall = 4;
    for (int it = 0; it < budget; ++it) {
        const Eigen::VectorXd r = w * x + qs - z;
        const double gap = x.dot(z);
        const double res = std::max(r.lpNorm<Eigen::Infinity>(), gap / n);
        if (options.residualHistory) options.residualHistory->push_back(res * V);
        result.iterations = it;
        if (!std::isfinite(res)) break;
        if (res < best) {
            best = res;
            bestX = x;
            bestZ = z;
            bestIteration = it;
        }
        if (res <= tolerance) {
            result.converged = true;
            break;
        }
        // Far from the solution the residual may rise for a few steps (a tall column's
        // first steps); near it, steps that no longer improve are round-off.
        if (best < 1e4 * tolerance && it - bestIteration >= kStall) break;
        for (int c = 0; c < coneCount; ++c) {
            const int d = dims[static_cast<size_t>(c)], o = offsets[static_cast<size_t>(c)];
            scalings[static_cast<size_t>(c)] = cone::Scaling::of(d, x.data() + o, z.data() + o);
            scalings[static_cast<size_t>(c)].apply(z.data() + o, ell.data() + o);
        }
        setBlocks(&scalings);
        if (!factor(blocks)) break;  // keep the last iterate, unconverged

        // A direction for ds (the target of ℓ ∘ (R⁻¹Δx + RΔz) = −ds): solve
        // (Ŵ + R⁻²) Δx = −r − R⁻¹ (ℓ ⋄ ds), then Δz = −R⁻¹ (ℓ ⋄ ds) − R⁻² Δx.
        auto direction = [&](Eigen::VectorXd& ddx, Eigen::VectorXd& ddz) {
            for (int c = 0; c < coneCount; ++c) {
                const int d = dims[static_cast<size_t>(c)], o = offsets[static_cast<size_t>(c)];
                double quotient[3] = {};
                cone::divide(d, ell.data() + o, ds.data() + o, quotient);
                scalings[static_cast<size_t>(c)].apply(quotient, es.data() + o, true);
            }
            g = -r - es;
            ddx = solveNewton(g);
            for (int c = 0; c < coneCount; ++c) {
                const int d = dims[static_cast<size_t>(c)], o = offsets[static_cast<size_t>(c)];
                double a1[3] = {}, a2[3] = {};
                scalings[static_cast<size_t>(c)].apply(ddx.data() + o, a1, true);
                scalings[static_cast<size_t>(c)].apply(a1, a2, true);
                for (int k = 0; k < d; ++k)
                    ddz[o + k] = -es[o + k] - a2[k];
            }
        };

        // Predictor (affine scaling): ds = ℓ ∘ ℓ.
        for (int c = 0; c < coneCount; ++c) {
            const int o = offsets[static_cast<size_t>(c)];
            cone::product(dims[static_cast<size_t>(c)], ell.data() + o, ell.data() + o,
                          ds.data() + o);
        }
        direction(dxA, dzA);
        const double alphaA = std::min(maxStep(x, dxA), maxStep(z, dzA));
        const double gapA = (x + alphaA * dxA).dot(z + alphaA * dzA);
        const double sigma = std::pow(std::clamp(gapA / gap, 0.0, 1.0), 3.0);

        // Corrector: ds = ℓ ∘ ℓ + (R⁻¹Δx_a) ∘ (RΔz_a) − σ μ e.
        for (int c = 0; c < coneCount; ++c) {
            const int d = dims[static_cast<size_t>(c)], o = offsets[static_cast<size_t>(c)];
            double sx[3] = {}, sz[3] = {}, prod[3] = {};
            scalings[static_cast<size_t>(c)].apply(dxA.data() + o, sx, true);
            scalings[static_cast<size_t>(c)].apply(dzA.data() + o, sz);
            cone::product(d, sx, sz, prod);
            cone::product(d, ell.data() + o, ell.data() + o, ds.data() + o);
            for (int k = 0; k < d; ++k)
                ds[o + k] += prod[k];
            ds[o] -= sigma * gap / n;
        }
        direction(dx, dz);
        if (!dx.allFinite() || !dz.allFinite()) break;
        const double alpha = std::min(1.0, 0.99 * std::min(maxStep(x, dx), maxStep(z, dz)));
        x += alpha * dx;
        z += alpha * dz;
        result.iterations = it + 1;
    }

    x = bestX;
    z = bestZ;
    const Eigen::VectorXd rUsed = P * x.cwiseQuotient(t);
    for (int i = 0; i < m; ++i)
        rOut[rowsUsed[static_cast<size_t>(i)]] = rUsed[i];
    const Eigen::VectorXd res = w * x + qs - z;
    result.residual = (res.cwiseProduct(t)).lpNorm<Eigen::Infinity>() * V;
    result.relative = best;
    double normal = 0.0;
    for (int c = 0; c < coneCount; ++c)
        normal += rUsed[offsets[static_cast<size_t>(c)]];
    result.complementarity = normal > 0.0 ? x.dot(z) * P * V / normal : 0.0;
    return result;
}

}  // namespace ndem
