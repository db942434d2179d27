#include "solve/convex/lcp_interior_point.hpp"

#include "solve/convex/best_iterate.hpp"
#include "solve/convex/lcp_facets.hpp"
#include "solve/convex/newton_lu.hpp"
#include "solve/nscd/coulomb_finish.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {

/// The program's state from its rows to its answer; it factors through the solver's LU.
struct LcpInteriorPoint::Program {
    LcpInteriorPoint& solver;
    std::vector<int> dims, offsets, rowsUsed;
    std::vector<double> unitOf;  ///< per program row: its unit (L on a rolling row, else 1)
    std::vector<LcpFacet> facets;
    int blockSize = 0, m = 0, k = 0;
    Eigen::VectorXd unit, q, qs;  ///< q in the program's rows, and scaled
    Sparse w;                     ///< W in the program's rows and units
    double V = 0.0, wbar = 1.0;   ///< velocity unit; W's mean diagonal
    double tolerance = 1e-10;
    std::vector<double> blocks;  ///< each contact's block of G D Fᵀ, row-major
    // The iterate, its residuals and the Newton step's work vectors.
    Eigen::VectorXd x, s, kappa, rP, rF, d, rc, rhs, tmp, dx, ds, dk, dxA, dsA, dkA;

    explicit Program(LcpInteriorPoint& owner) : solver(owner) {}

    /// The program's rows (a frictionless contact: its normal row; then its rolling row) and
    /// facets. A rolling row is taken in units of its limit, x_r = m / L (and W, q scaled to
    /// match), so that its facets ±x_r − x_n ≤ 0 are the friction facets' with μ = 1; they
    /// dilate by the same share ν/μ of the associated rule's opening as the sliding does.
    /// False: a contact of three rows or two rolling rows, which this method does not take.
    bool selectRows(const LocalProblem& full, const LcpOptions& options) {
        for (int c = 0; c < full.contacts(); ++c) {
            const size_t cc = static_cast<size_t>(c);
            const int roll = full.rollingRows(c);
            if (full.dim[cc] > 2 || roll > 1) return false;
            const int o = full.offset[cc];
            const double mu = full.mu[cc];
            const int dd = mu > 0.0 ? full.dim[cc] : 1;
            const int n = static_cast<int>(rowsUsed.size());
            const int rows = dd + roll;
            dims.push_back(rows);
            offsets.push_back(n);
            for (int j = 0; j < dd; ++j) {
                rowsUsed.push_back(o + j);
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
            if (dd == 2) {
                facet(n + 1, -mu, -nu, 1.0, 1);
                facet(n + 1, -mu, -nu, -1.0, 1);
            }
            if (roll) {
                const double share = mu > 0.0 ? nu / mu : 0.0;
                facet(n + dd, -1.0, -share, 1.0, dd);
                facet(n + dd, -1.0, -share, -1.0, dd);
            }
            blockSize += rows * rows;
        }
        m = static_cast<int>(rowsUsed.size());
        k = static_cast<int>(facets.size());
        return true;
    }

    /// q and W in the program's rows and units of order one: velocities by V, impulses by V /
    /// mean diagonal of W. False: nothing to solve (no row, or no load: V = 0).
    bool scale(const LocalProblem& full, const LcpOptions& options) {
        unit = Eigen::Map<const Eigen::VectorXd>(unitOf.data(), m);
        q.resize(m);
        for (int i = 0; i < m; ++i)
            q[i] = full.q[rowsUsed[static_cast<size_t>(i)]] * unit[i];
        V = q.lpNorm<Eigen::Infinity>();
        if (m == 0 || !(V > 0.0)) return false;
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
        wbar = std::max(w.diagonal().sum() / m, 1e-300);
        w /= wbar;
        qs = q / V;
        tolerance = options.tolerance > 0.0 ? options.tolerance / V : 1e-10;
        blocks.assign(static_cast<size_t>(blockSize), 0.0);
        for (Eigen::VectorXd* v : {&rP, &rhs, &dx, &dxA})
            v->resize(m);
        for (Eigen::VectorXd* v : {&s, &rF, &d, &rc, &tmp, &ds, &dk, &dsA, &dkA})
            v->resize(k);
        return true;
    }

    /// The LU's symbolic analysis, kept while the contacts' structure stays the same; true
    /// when it was reused.
    bool analyse() {
        if (!solver.m_pattern.build(dims, offsets, w) || !solver.m_analysed) {
            withoutRefinement(solver.m_lu);
            solver.m_lu.analyzePattern(solver.m_pattern.matrix());
            solver.m_analysed = true;
            return false;
        }
        return true;
    }

    /// W + G D Fᵀ (D = diag(d_j) per facet) factored. False: the factorisation failed.
    bool factor(const Eigen::VectorXd& dd) {
        std::fill(blocks.begin(), blocks.end(), 0.0);
        for (int j = 0; j < k; ++j) {
            const LcpFacet& f = facets[static_cast<size_t>(j)];
            double* b = blocks.data() + f.block;
            b[0] += f.gN * dd[j] * f.fN;
            if (f.t < 0) continue;
            b[f.lt] += f.gN * dd[j] * f.fT;
            b[f.lt * f.stride] += f.fT * dd[j] * f.fN;
            b[f.lt * f.stride + f.lt] += f.fT * dd[j] * f.fT;
        }
        solver.m_lu.factorize(solver.m_pattern.assemble(blocks));
        return solver.m_lu.info() == Eigen::Success;
    }

    /// x from (W + I) x = −q; the slacks made positive, the multipliers one.
    void start() {
        x = Eigen::VectorXd::Zero(m);
        kappa = Eigen::VectorXd::Ones(k);
        std::vector<double> identity(blocks.size(), 0.0);
        size_t next = 0;
        for (const int dc : dims) {
            for (int i = 0; i < dc; ++i)
                identity[next + static_cast<size_t>(i * (dc + 1))] = 1.0;
            next += static_cast<size_t>(dc * dc);
        }
        solver.m_lu.factorize(solver.m_pattern.assemble(identity));
        const Eigen::VectorXd minusQ = -qs;
        if (solver.m_lu.info() == Eigen::Success) x = solver.m_lu.solve(minusQ);
        applyFacets(facets, x, s);
        s = (-s).cwiseMax(0.0).array() + 1.0;
    }

    /// r_P = W x + q + G κ, r_F = Fᵀ x + s, and the largest of them and the mean gap.
    double residuals() {
        rP = w * x + qs;
        addFacetFlow(facets, kappa, rP);
        applyFacets(facets, x, rF);
        rF += s;
        return std::max(
            {rP.lpNorm<Eigen::Infinity>(), rF.lpNorm<Eigen::Infinity>(), s.dot(kappa) / k});
    }

    /// The direction for complementarity target rc (S κ + K s − rc → the step makes s∘κ = rc's
    /// complement): (W + G S⁻¹K Fᵀ) Δx = −r_P + G S⁻¹ (rc − K r_F), then Δs and Δκ.
    void direction(Eigen::VectorXd& ddx, Eigen::VectorXd& dds, Eigen::VectorXd& ddk) {
        rhs = -rP;
        tmp = (rc - kappa.cwiseProduct(rF)).cwiseQuotient(s);
        addFacetFlow(facets, tmp, rhs);
        ddx = solver.m_lu.solve(rhs);
        applyFacets(facets, ddx, dds);
        dds = -rF - dds;
        ddk = -(rc + kappa.cwiseProduct(dds)).cwiseQuotient(s);
    }

    /// One Newton step: Mehrotra's predictor (the target s ∘ κ = 0) and corrector (Eq. 54: the
    /// second-order term and the centring σ μ). False: no step (a failed factorisation or a
    /// direction that is not finite; the iterate stays).
    bool newtonStep() {
        d = kappa.cwiseQuotient(s);
        if (!factor(d)) return false;
        const double gap = s.dot(kappa);
        rc = s.cwiseProduct(kappa);
        direction(dxA, dsA, dkA);
        const double alphaA =
            std::min(largestPositiveStep(s, dsA), largestPositiveStep(kappa, dkA));
        const double gapA = (s + alphaA * dsA).dot(kappa + alphaA * dkA);
        const double sigma = std::pow(std::clamp(gapA / gap, 0.0, 1.0), 3.0);
        rc = s.cwiseProduct(kappa) + dsA.cwiseProduct(dkA);
        rc.array() -= sigma * gap / k;
        direction(dx, ds, dk);
        if (!dx.allFinite() || !ds.allFinite() || !dk.allFinite()) return false;
        const double alpha = std::min(
            1.0, 0.99 * std::min(largestPositiveStep(s, ds), largestPositiveStep(kappa, dk)));
        x += alpha * dx;
        s += alpha * ds;
        kappa += alpha * dk;
        return true;
    }

    /// Where the iteration stalled (Sec. 4.5), the same law finished from its best iterate by
    /// Gauss–Seidel and the semismooth Newton method (solve/nscd/coulomb_finish.hpp); that
    /// answer is judged by this method's own residual, with s and κ read off r and W r + q,
    /// and taken (r, best, bestGap) where that is smaller.
    void polish(const LocalProblem& full, const LcpOptions& options, Eigen::VectorXd& r,
                double& best, double& bestGap, InteriorPointResult& result) {
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
        applyFacets(facets, xp, f);
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
};

InteriorPointResult LcpInteriorPoint::solve(const LocalProblem& full, Eigen::VectorXd& rOut,
                                            const LcpOptions& options) {
    InteriorPointResult result;
    result.programs = 1;
    rOut = Eigen::VectorXd::Zero(full.rows());
    if (options.residualHistory) options.residualHistory->clear();
    setBlasThreads(options.threads);
    Program p(*this);
    if (!p.selectRows(full, options)) return result;
    if (!p.scale(full, options)) {
        result.converged = p.m == 0 || p.q.allFinite();
        return result;
    }
    result.reusedAnalysis = p.analyse();
    p.start();

    BestIterate<Eigen::VectorXd, Eigen::VectorXd, Eigen::VectorXd> best(p.x, p.s, p.kappa);
    constexpr int kStall = 6;
    for (int it = 0; it <= options.maxIterations; ++it) {
        const double res = p.residuals();
        if (options.residualHistory) options.residualHistory->push_back(res * p.V);
        result.iterations = it;
        if (!std::isfinite(res)) break;
        best.offer(it, res, p.x, p.s, p.kappa);
        if (res <= p.tolerance) {
            result.converged = true;
            break;
        }
        // Far from the answer the complementarity may grow for a while (the residuals still
        // fall); near it, steps that no longer improve are the stall of Sec. 4.5.
        if (it == options.maxIterations || best.stalled(it, p.tolerance, kStall)) break;
        if (!p.newtonStep()) break;
    }

    const auto& [bestX, bestS, bestKappa] = best.point();
    Eigen::VectorXd r = bestX.cwiseProduct(p.unit) * (p.V / p.wbar);
    double bestResidual = best.residual(), bestGap = bestS.dot(bestKappa);
    if (!result.converged && options.polishSteps > 0 && full.rolling.empty())
        p.polish(full, options, r, bestResidual, bestGap, result);
    for (int i = 0; i < p.m; ++i)
        rOut[p.rowsUsed[static_cast<size_t>(i)]] = r[i];
    result.relative = bestResidual;
    double normal = 0.0;
    for (size_t c = 0; c < p.dims.size(); ++c)
        normal += r[p.offsets[c]];
    result.residual = bestResidual * p.V;
    // sᵀκ: impulse × velocity, per unit of normal impulse (m/s).
    result.complementarity = normal > 0.0 ? bestGap * (p.V / p.wbar) * p.V / normal : 0.0;
    return result;
}

}  // namespace ndem
