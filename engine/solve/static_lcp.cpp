#include "solve/static_lcp.hpp"

#include "solve/lcp_facets.hpp"
#include "solve/newton_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {

InteriorPointResult StaticLcp::solve(const ContactProblem& p, Eigen::VectorXd& rOut,
                                     Eigen::VectorXd& vOut, const LcpOptions& options) {
    InteriorPointResult result;
    result.programs = 1;
    rOut.resize(0);
    vOut.resize(0);
    if (options.residualHistory) options.residualHistory->clear();
    const int n = static_cast<int>(p.vFree.size()), m = p.rows();
    std::vector<LcpFacet> facets;
    for (int c = 0; c < p.contacts(); ++c) {
        const size_t cc = static_cast<size_t>(c);
        if (p.dim[cc] > 2 || p.rolling[cc] > 0) return result;
        const int o = p.offset[cc];
        facets.push_back(LcpFacet{o, -1, -1.0, -1.0, 0.0});
        if (p.dim[cc] < 2) continue;
        const double mu = p.mu[cc];
        const double nu = std::min(options.dilation.empty() ? 0.0 : options.dilation[cc], mu);
        facets.push_back(LcpFacet{o, o + 1, -mu, -nu, 1.0});
        facets.push_back(LcpFacet{o, o + 1, -mu, -nu, -1.0});
    }
    const int k = static_cast<int>(facets.size());
    if (k == 0) {  // nothing touches: every body takes its free velocity
        rOut = Eigen::VectorXd::Zero(m);
        vOut = p.vFree;
        result.converged = true;
        return result;
    }
    setBlasThreads(options.threads);

    // Units of order one: impulses by the largest load, velocities by the largest bias.
    const Eigen::VectorXd load = p.M * p.vFree;  // h f, whatever the masses' scaling
    const double F = load.lpNorm<Eigen::Infinity>() > 0.0 ? load.lpNorm<Eigen::Infinity>() : 1.0;
    const double V =
        m > 0 && p.b.lpNorm<Eigen::Infinity>() > 0.0 ? p.b.lpNorm<Eigen::Infinity>() : 1.0;
    const Eigen::VectorXd f = load / F, bias = p.b / V, sigma = p.sigma * (F / V);
    const ContactProblem::Sparse mass = p.M * (V / F);
    const ContactProblem::Sparse& J = p.J;
    const double tolerance = options.tolerance > 0.0 ? options.tolerance / V : 1e-10;

    auto applyF = [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
        applyFacets(facets, x, out);
    };
    auto addG = [&](const Eigen::VectorXd& kappa, Eigen::VectorXd& out) {
        addFacetFlow(facets, kappa, out);
    };

    // The saddle point [M −Jᵀ; J Σ + G D Fᵀ] (D = diag(κ/s)), every entry in place each
    // time so that its pattern, and UMFPACK's analysis, stay the same through the solve.
    std::vector<Eigen::Triplet<double>> entries;
    auto assemble = [&](const Eigen::VectorXd& d) {
        entries.clear();
        for (int r = 0; r < mass.outerSize(); ++r)
            for (ContactProblem::Sparse::InnerIterator it(mass, r); it; ++it)
                entries.emplace_back(r, static_cast<int>(it.col()), it.value());
        for (int r = 0; r < m; ++r) {
            for (ContactProblem::Sparse::InnerIterator it(J, r); it; ++it) {
                entries.emplace_back(n + r, static_cast<int>(it.col()), it.value());
                entries.emplace_back(static_cast<int>(it.col()), n + r, -it.value());
            }
            entries.emplace_back(n + r, n + r, sigma[r]);
        }
        for (int j = 0; j < k; ++j) {
            const LcpFacet& fc = facets[static_cast<size_t>(j)];
            entries.emplace_back(n + fc.n, n + fc.n, fc.gN * d[j] * fc.fN);
            if (fc.t < 0) continue;
            entries.emplace_back(n + fc.n, n + fc.t, fc.gN * d[j] * fc.fT);
            entries.emplace_back(n + fc.t, n + fc.n, fc.fT * d[j] * fc.fN);
            entries.emplace_back(n + fc.t, n + fc.t, fc.fT * d[j] * fc.fT);
        }
        Sparse a(n + m, n + m);
        a.setFromTriplets(entries.begin(), entries.end());
        return a;
    };

    Eigen::VectorXd v = Eigen::VectorXd::Zero(n), x = Eigen::VectorXd::Zero(m);
    Eigen::VectorXd s = Eigen::VectorXd::Ones(k), kappa = Eigen::VectorXd::Ones(k);
    Eigen::VectorXd rP(m), rD(n), rF(k), rc(k), rhs(n + m), sol(n + m), tmp(k);
    Eigen::VectorXd dv(n), dx(m), ds(k), dk(k), dvA(n), dxA(m), dsA(k), dkA(k);
    Eigen::VectorXd bestV = v, bestX = x;
    double best = std::numeric_limits<double>::infinity(), bestGap = 0.0;
    int bestIteration = 0;
    constexpr int kStall = 6;
    auto residuals = [&]() {
        rP = J * v + sigma.cwiseProduct(x) - bias;
        addG(kappa, rP);
        rD = mass * v - f - J.transpose() * x;
        applyF(x, rF);
        rF += s;
        return std::max({rP.lpNorm<Eigen::Infinity>(), rD.lpNorm<Eigen::Infinity>(),
                         rF.lpNorm<Eigen::Infinity>(), s.dot(kappa) / std::max(k, 1)});
    };
    auto direction = [&](Eigen::VectorXd& ddv, Eigen::VectorXd& ddx, Eigen::VectorXd& dds,
                         Eigen::VectorXd& ddk) {
        rhs.head(n) = -rD;
        Eigen::VectorXd h1 = -rP;
        tmp = (rc - kappa.cwiseProduct(rF)).cwiseQuotient(s);
        addG(tmp, h1);
        rhs.tail(m) = h1;
        sol = m_lu.solve(rhs);
        ddv = sol.head(n);
        ddx = sol.tail(m);
        applyF(ddx, dds);
        dds = -rF - dds;
        ddk = -(rc + kappa.cwiseProduct(dds)).cwiseQuotient(s);
    };
    bool analysed = false;
    for (int it = 0; it <= options.maxIterations; ++it) {
        const double res = residuals();
        if (options.residualHistory) options.residualHistory->push_back(res);
        result.iterations = it;
        if (!std::isfinite(res)) break;
        if (res < best) {
            best = res;
            bestV = v;
            bestX = x;
            bestGap = s.dot(kappa);
            bestIteration = it;
        }
        if (res <= tolerance) {
            result.converged = true;
            break;
        }
        if (it == options.maxIterations || (best < 1e4 * tolerance && it - bestIteration >= kStall))
            break;
        const Sparse a = assemble(kappa.cwiseQuotient(s));
        if (!analysed) {
            m_lu.analyzePattern(a);
            analysed = true;
        }
        m_lu.factorize(a);
        if (m_lu.info() != Eigen::Success) break;
        const double gap = s.dot(kappa);
        rc = s.cwiseProduct(kappa);
        direction(dvA, dxA, dsA, dkA);
        const double alphaA =
            std::min(largestPositiveStep(s, dsA), largestPositiveStep(kappa, dkA));
        const double gapA = (s + alphaA * dsA).dot(kappa + alphaA * dkA);
        const double centring = std::pow(std::clamp(gapA / gap, 0.0, 1.0), 3.0);
        rc = s.cwiseProduct(kappa) + dsA.cwiseProduct(dkA);
        rc.array() -= centring * gap / k;
        direction(dv, dx, ds, dk);
        if (!dv.allFinite() || !dx.allFinite() || !ds.allFinite() || !dk.allFinite()) break;
        const double alpha = std::min(
            1.0, 0.99 * std::min(largestPositiveStep(s, ds), largestPositiveStep(kappa, dk)));
        v += alpha * dv;
        x += alpha * dx;
        s += alpha * ds;
        kappa += alpha * dk;
    }
    rOut = bestX * F;
    vOut = bestV * V;
    result.relative = best;
    result.residual = best * V;
    double normal = 0.0;
    for (int c = 0; c < p.contacts(); ++c)
        normal += rOut[p.offset[static_cast<size_t>(c)]];
    result.complementarity = normal > 0.0 ? bestGap * F * V / normal : 0.0;
    return result;
}

}  // namespace ndem
