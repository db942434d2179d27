#include "solve/convex/lcp_interior_point.hpp"

#include "solve/convex/lcp_facets.hpp"
#include "solve/convex/newton_lu.hpp"
#include "solve/nscd/coulomb_finish.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {

InteriorPointResult LcpInteriorPoint::solve(const LocalProblem& full, Eigen::VectorXd& rOut,
                                            const LcpOptions& options) {
    InteriorPointResult result;
    result.programs = 1;
    rOut = Eigen::VectorXd::Zero(full.rows());
    if (options.residualHistory) options.residualHistory->clear();
    setBlasThreads(options.threads);
    // The program's rows (a frictionless contact: its normal row; then its rolling row) and
    // facets. A rolling row is taken in units of its limit, x_r = m / L (and W, q scaled to
    // match), so that its facets ±x_r − x_n ≤ 0 are the friction facets' with μ = 1; they
    // dilate by the same share ν/μ of the associated rule's opening as the sliding does.
    std::vector<int> dims, offsets, rowsUsed;
    std::vector<double> unitOf;  // per program row: its unit (L on a rolling row, else 1)
    std::vector<LcpFacet> facets;
    int blockSize = 0;
    for (int c = 0; c < full.contacts(); ++c) {
        const size_t cc = static_cast<size_t>(c);
        const int roll = full.rollingRows(c);
        if (full.dim[cc] > 2 || roll > 1) return result;
        const int o = full.offset[cc];
        const double mu = full.mu[cc];
        const int d = mu > 0.0 ? full.dim[cc] : 1;
        const int n = static_cast<int>(rowsUsed.size());
        const int rows = d + roll;
        dims.push_back(rows);
        offsets.push_back(n);
        for (int k = 0; k < d; ++k) {
            rowsUsed.push_back(o + k);
            unitOf.push_back(1.0);
        }
        if (roll) {
            rowsUsed.push_back(o + full.dim[cc]);
            unitOf.push_back(full.rollingLimit[cc]);
        }
        const double nu = std::min(options.dilation.empty() ? 0.0 : options.dilation[cc], mu);
        auto facet = [&](int t, double fN, double gN, double fT, int lt) {
            facets.push_back(LcpFacet{n, t, fN, gN, fT, blockSize, rows, lt});
        };
        facet(-1, -1.0, -1.0, 0.0, 0);
        if (d == 2) {
            facet(n + 1, -mu, -nu, 1.0, 1);
            facet(n + 1, -mu, -nu, -1.0, 1);
        }
        if (roll) {
            const double share = mu > 0.0 ? nu / mu : 0.0;
            facet(n + d, -1.0, -share, 1.0, d);
            facet(n + d, -1.0, -share, -1.0, d);
        }
        blockSize += rows * rows;
    }
    const int m = static_cast<int>(rowsUsed.size());
    const int k = static_cast<int>(facets.size());
    const Eigen::VectorXd unit = Eigen::Map<const Eigen::VectorXd>(unitOf.data(), m);
    Eigen::VectorXd q(m);
    for (int i = 0; i < m; ++i)
        q[i] = full.q[rowsUsed[static_cast<size_t>(i)]] * unit[i];
    const double V = q.lpNorm<Eigen::Infinity>();
    if (m == 0 || !(V > 0.0)) {
        result.converged = m == 0 || q.allFinite();
        return result;
    }
    Sparse w;
    if (m == full.rows()) {
        w = full.W;
    } else {
        std::vector<Eigen::Triplet<double>> pick;
        for (int i = 0; i < m; ++i)
            pick.emplace_back(rowsUsed[static_cast<size_t>(i)], i, 1.0);
        Sparse select(full.rows(), m);
        select.setFromTriplets(pick.begin(), pick.end());
        w = Sparse(select.transpose() * full.W) * select;
    }
    if (!unit.isOnes()) w = Sparse(unit.asDiagonal() * w) * unit.asDiagonal();
    // Units of order one: velocities by V, impulses by V / mean diagonal of W.
    const double wbar = std::max(w.diagonal().sum() / m, 1e-300);
    w /= wbar;
    const Eigen::VectorXd qs = q / V;
    const double tolerance = options.tolerance > 0.0 ? options.tolerance / V : 1e-10;
    if (!m_pattern.build(dims, offsets, w) || !m_analysed) {
        withoutRefinement(m_lu);
        m_lu.analyzePattern(m_pattern.matrix());
        m_analysed = true;
    } else {
        result.reusedAnalysis = true;
    }

    // Each contact's block of G D Fᵀ (D = diag(d_j) per facet), row-major, in contact order.
    std::vector<double> blocks(static_cast<size_t>(blockSize), 0.0);
    auto factor = [&](const Eigen::VectorXd& d) {
        std::fill(blocks.begin(), blocks.end(), 0.0);
        for (int j = 0; j < k; ++j) {
            const LcpFacet& f = facets[static_cast<size_t>(j)];
            double* b = blocks.data() + f.block;
            b[0] += f.gN * d[j] * f.fN;
            if (f.t < 0) continue;
            b[f.lt] += f.gN * d[j] * f.fT;
            b[f.lt * f.stride] += f.fT * d[j] * f.fN;
            b[f.lt * f.stride + f.lt] += f.fT * d[j] * f.fT;
        }
        m_lu.factorize(m_pattern.assemble(blocks));
        return m_lu.info() == Eigen::Success;
    };
    auto applyF = [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
        applyFacets(facets, x, out);
    };
    auto addG = [&](const Eigen::VectorXd& kappa, Eigen::VectorXd& out) {
        addFacetFlow(facets, kappa, out);
    };

    // Start: x from (W + I) x = −q; the slacks made positive, the multipliers one.
    Eigen::VectorXd x = Eigen::VectorXd::Zero(m), s(k), kappa = Eigen::VectorXd::Ones(k);
    {
        std::vector<double> identity(blocks.size(), 0.0);
        size_t next = 0;
        for (const int dc : dims) {
            for (int i = 0; i < dc; ++i)
                identity[next + static_cast<size_t>(i * (dc + 1))] = 1.0;
            next += static_cast<size_t>(dc * dc);
        }
        m_lu.factorize(m_pattern.assemble(identity));
        const Eigen::VectorXd minusQ = -qs;
        if (m_lu.info() == Eigen::Success) x = m_lu.solve(minusQ);
    }
    applyF(x, s);
    s = (-s).cwiseMax(0.0).array() + 1.0;

    Eigen::VectorXd rP(m), rF(k), d(k), rc(k), rhs(m), tmp(k);
    Eigen::VectorXd dx(m), ds(k), dk(k), dxA(m), dsA(k), dkA(k);
    Eigen::VectorXd bestX = x, bestS = s, bestKappa = kappa;
    double best = std::numeric_limits<double>::infinity();
    int bestIteration = 0;
    constexpr int kStall = 6;
    auto residuals = [&]() {
        rP = w * x + qs;
        addG(kappa, rP);
        applyF(x, rF);
        rF += s;
        return std::max(
            {rP.lpNorm<Eigen::Infinity>(), rF.lpNorm<Eigen::Infinity>(), s.dot(kappa) / k});
    };
    // The direction for complementarity target rc (S κ + K s − rc → the step makes s∘κ = rc's
    // complement): (W + G S⁻¹K Fᵀ) Δx = −r_P + G S⁻¹ (rc − K r_F), then Δs and Δκ.
    auto direction = [&](Eigen::VectorXd& ddx, Eigen::VectorXd& dds, Eigen::VectorXd& ddk) {
        rhs = -rP;
        tmp = (rc - kappa.cwiseProduct(rF)).cwiseQuotient(s);
        addG(tmp, rhs);
        ddx = m_lu.solve(rhs);
        applyF(ddx, dds);
        dds = -rF - dds;
        ddk = -(rc + kappa.cwiseProduct(dds)).cwiseQuotient(s);
    };
    for (int it = 0; it <= options.maxIterations; ++it) {
        const double res = residuals();
        if (options.residualHistory) options.residualHistory->push_back(res * V);
        result.iterations = it;
        if (!std::isfinite(res)) break;
        if (res < best) {
            best = res;
            bestX = x;
            bestS = s;
            bestKappa = kappa;
            bestIteration = it;
        }
        if (res <= tolerance) {
            result.converged = true;
            break;
        }
        // Far from the answer the complementarity may grow for a while (the residuals still
        // fall); near it, steps that no longer improve are the stall of Sec. 4.5.
        if (it == options.maxIterations || (best < 1e4 * tolerance && it - bestIteration >= kStall))
            break;
        d = kappa.cwiseQuotient(s);
        if (!factor(d)) break;
        const double gap = s.dot(kappa);
        // Predictor (affine scaling): the target s ∘ κ = 0.
        rc = s.cwiseProduct(kappa);
        direction(dxA, dsA, dkA);
        const double alphaA =
            std::min(largestPositiveStep(s, dsA), largestPositiveStep(kappa, dkA));
        const double gapA = (s + alphaA * dsA).dot(kappa + alphaA * dkA);
        const double sigma = std::pow(std::clamp(gapA / gap, 0.0, 1.0), 3.0);
        // Corrector (Eq. 54): the second-order term and the centring σ μ.
        rc = s.cwiseProduct(kappa) + dsA.cwiseProduct(dkA);
        rc.array() -= sigma * gap / k;
        direction(dx, ds, dk);
        if (!dx.allFinite() || !ds.allFinite() || !dk.allFinite()) break;
        const double alpha = std::min(
            1.0, 0.99 * std::min(largestPositiveStep(s, ds), largestPositiveStep(kappa, dk)));
        x += alpha * dx;
        s += alpha * ds;
        kappa += alpha * dk;
    }

    Eigen::VectorXd r = bestX.cwiseProduct(unit) * (V / wbar);
    double bestGap = bestS.dot(bestKappa);
    // Where the iteration stalled (Sec. 4.5), the same law finished from its best iterate by
    // Gauss–Seidel and the semismooth Newton method (solve/nscd/coulomb_finish.hpp); that answer is
    // judged by this method's own residual, with s and κ read off r and W r + q.
    if (!result.converged && options.polishSteps > 0 && full.rolling.empty()) {
        Eigen::VectorXd polished = Eigen::VectorXd::Zero(full.rows());
        for (int i = 0; i < m; ++i)
            polished[rowsUsed[static_cast<size_t>(i)]] = r[i];
        CoulombFinishOptions finish;
        finish.tolerance = 1e-12;
        finish.sweepTolerance = 1e-6;
        finish.sweeps = options.polishSweeps;
        finish.newtonSteps = options.polishSteps;
        finish.dilation = options.dilation;
        const CoulombFinishResult finished = finishCoulomb(full, polished, finish);
        result.polishSteps = finished.newtonSteps;
        result.polishSweeps = finished.sweeps;
        Eigen::VectorXd xp(m);
        for (int i = 0; i < m; ++i)
            xp[i] = polished[rowsUsed[static_cast<size_t>(i)]] * (wbar / V);
        const Eigen::VectorXd u = w * xp + qs;
        Eigen::VectorXd f(k), kappaP(k), opening = Eigen::VectorXd::Zero(m);
        applyF(xp, f);
        double violation = 0.0;
        for (int j = 0; j < k; ++j) {  // the tangent facets first: their κ opens the normal
            const LcpFacet& fc = facets[static_cast<size_t>(j)];
            if (fc.t < 0) continue;
            kappaP[j] = std::max(0.0, -fc.fT * u[fc.t]);
            opening[fc.n] -= fc.gN * kappaP[j];
        }
        for (int j = 0; j < k; ++j) {
            const LcpFacet& fc = facets[static_cast<size_t>(j)];
            if (fc.t >= 0) continue;
            kappaP[j] = u[fc.n] - opening[fc.n];
            if (kappaP[j] < 0.0) violation = std::max(violation, -kappaP[j]);
            kappaP[j] = std::max(0.0, kappaP[j]);
        }
        const Eigen::VectorXd sP = (-f).cwiseMax(0.0);
        violation = std::max(violation, f.cwiseMax(0.0).maxCoeff());
        const double gap = sP.dot(kappaP);
        const double res = std::max(violation, gap / k);
        if (res < best) {
            best = res;
            bestGap = gap;
            r = xp.cwiseProduct(unit) * (V / wbar);
            result.converged = res <= tolerance;
        }
    }
    for (int i = 0; i < m; ++i)
        rOut[rowsUsed[static_cast<size_t>(i)]] = r[i];
    result.relative = best;
    double normal = 0.0;
    for (size_t c = 0; c < dims.size(); ++c)
        normal += r[offsets[c]];
    result.residual = best * V;
    // sᵀκ: impulse × velocity, per unit of normal impulse (m/s).
    result.complementarity = normal > 0.0 ? bestGap * (V / wbar) * V / normal : 0.0;
    return result;
}

}  // namespace ndem
