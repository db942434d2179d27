#include "solve/convex/static_lcp.hpp"

#include "solve/convex/best_iterate.hpp"
#include "solve/convex/lcp_facets.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem {

namespace {

/// The unknowns no contact row reaches and the mass matrix does not tie to one it reaches (in
/// the plane a disk's y, ω_x, ω_z, and a grain that touches nothing) take their free velocity
/// exactly — M (v − v*) = Jᵀ r = 0 on them — so the saddle point leaves them out: a disk keeps
/// 3 of its 6 unknowns (the biaxial sample's static step 5.2× faster, PERFORMANCE.md).
class IdleReduction {
  public:
    using Sparse = ContactProblem::Sparse;

    explicit IdleReduction(const ContactProblem& p) : m_column(p.vFree.size(), -1) {
        std::vector<char> kept(m_column.size(), 0);
        for (int r = 0; r < p.J.outerSize(); ++r)
            for (Sparse::InnerIterator it(p.J, r); it; ++it)
                if (it.value() != 0.0)
                    kept[static_cast<size_t>(it.col())] = 1;  // not y in the plane
        for (bool grew = true; grew;) {  // whatever the masses couple to a kept unknown
            grew = false;
            for (int r = 0; r < p.M.outerSize(); ++r)
                for (Sparse::InnerIterator it(p.M, r); it; ++it) {
                    const size_t a = static_cast<size_t>(r), b = static_cast<size_t>(it.col());
                    if (it.value() != 0.0 && kept[a] != kept[b]) {
                        kept[a] = kept[b] = 1;
                        grew = true;
                    }
                }
        }
        for (size_t j = 0; j < kept.size(); ++j)
            if (kept[j]) {
                m_column[j] = static_cast<int>(m_unknown.size());
                m_unknown.push_back(static_cast<int>(j));
            }
    }

    int unknowns() const { return static_cast<int>(m_unknown.size()); }

    Eigen::VectorXd restrict(const Eigen::VectorXd& full) const {
        Eigen::VectorXd out(unknowns());
        for (int j = 0; j < unknowns(); ++j)
            out[j] = full[m_unknown[static_cast<size_t>(j)]];
        return out;
    }

    Eigen::VectorXd expand(const Eigen::VectorXd& kept, const Eigen::VectorXd& idle) const {
        Eigen::VectorXd out = idle;
        for (int j = 0; j < unknowns(); ++j)
            out[m_unknown[static_cast<size_t>(j)]] = kept[j];
        return out;
    }

    Sparse mass(const Sparse& M) const { return pick(M, true); }
    Sparse jacobian(const Sparse& J) const { return pick(J, false); }

  private:
    Sparse pick(const Sparse& a, bool rowsToo) const {
        std::vector<Eigen::Triplet<double>> entries;
        for (int r = 0; r < a.outerSize(); ++r) {
            const int row = rowsToo ? m_column[static_cast<size_t>(r)] : r;
            if (row < 0) continue;
            for (Sparse::InnerIterator it(a, r); it; ++it) {
                const int col = m_column[static_cast<size_t>(it.col())];
                if (col >= 0) entries.emplace_back(row, col, it.value());
            }
        }
        Sparse out(rowsToo ? unknowns() : a.rows(), unknowns());
        out.setFromTriplets(entries.begin(), entries.end());
        return out;
    }

    std::vector<int> m_column;   ///< per unknown of the problem: its column here, or −1
    std::vector<int> m_unknown;  ///< per column here: the problem's unknown
};

}  // namespace

/// The saddle point's state from its facets to its answer; it factors through the solver's KLU.
struct StaticLcp::Program {
    StaticLcp& solver;
    const ContactProblem& p;
    std::vector<LcpFacet> facets;
    int m = 0, k = 0, n = 0;  ///< contact rows, facets, unknowns kept
    double F = 1.0, V = 1.0;  ///< impulse and velocity units
    double tolerance = 1e-10;
    Eigen::VectorXd bias, sigma, f;  ///< b, Σ and the load h f in those units
    ContactProblem::Sparse mass, J;  ///< M and J on the kept unknowns, in those units
    std::vector<Eigen::Triplet<double>> entries;
    // The iterate, its residuals and the Newton step's work vectors.
    Eigen::VectorXd v, x, s, kappa, rP, rD, rF, rc, rhs, sol, tmp;
    Eigen::VectorXd dv, dx, ds, dk, dvA, dxA, dsA, dkA;

    Program(StaticLcp& owner, const ContactProblem& problem) : solver(owner), p(problem) {}

    /// Each contact's facets (LcpInteriorPoint's). False: a contact of three rows or with a
    /// rolling row, which this method does not take.
    bool selectFacets(const LcpOptions& options) {
        m = p.rows();
        for (int c = 0; c < p.contacts(); ++c) {
            const size_t cc = static_cast<size_t>(c);
            if (p.dim[cc] > 2 || p.rolling[cc] > 0) return false;
            const int o = p.offset[cc];
            facets.push_back(LcpFacet{o, -1, -1.0, -1.0, 0.0});
            if (p.dim[cc] < 2) continue;
            const double mu = p.mu[cc];
            const double nu = std::min(options.dilation.empty() ? 0.0 : options.dilation[cc], mu);
            facets.push_back(LcpFacet{o, o + 1, -mu, -nu, 1.0});
            facets.push_back(LcpFacet{o, o + 1, -mu, -nu, -1.0});
        }
        k = static_cast<int>(facets.size());
        return true;
    }

    /// Units of order one: impulses by the largest load, velocities by the largest bias; the
    /// unknowns no row reaches left out (IdleReduction).
    void scale(const IdleReduction& idle, const LcpOptions& options) {
        const Eigen::VectorXd load = p.M * p.vFree;  // h f, whatever the masses' scaling
        F = load.lpNorm<Eigen::Infinity>() > 0.0 ? load.lpNorm<Eigen::Infinity>() : 1.0;
        V = m > 0 && p.b.lpNorm<Eigen::Infinity>() > 0.0 ? p.b.lpNorm<Eigen::Infinity>() : 1.0;
        bias = p.b / V;
        sigma = p.sigma * (F / V);
        n = idle.unknowns();
        f = idle.restrict(load) / F;
        mass = idle.mass(p.M) * (V / F);
        J = idle.jacobian(p.J);
        tolerance = options.tolerance > 0.0 ? options.tolerance / V : 1e-10;
        v = Eigen::VectorXd::Zero(n);
        x = Eigen::VectorXd::Zero(m);
        s = Eigen::VectorXd::Ones(k);
        kappa = Eigen::VectorXd::Ones(k);
        for (Eigen::VectorXd* w : {&rP, &dx, &dxA})
            w->resize(m);
        for (Eigen::VectorXd* w : {&rD, &dv, &dvA})
            w->resize(n);
        for (Eigen::VectorXd* w : {&rF, &rc, &tmp, &ds, &dk, &dsA, &dkA})
            w->resize(k);
        rhs.resize(n + m);
        sol.resize(n + m);
    }

    /// The saddle point [M −Jᵀ; J Σ + G D Fᵀ] (D = diag(κ/s)), every entry in place each time
    /// so that its pattern, and KLU's analysis and pivot order, stay the same through the solve.
    Sparse assemble(const Eigen::VectorXd& d) {
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
    }

    /// r_P (the flow rule), r_D (the balance), r_F (the facets), and the largest of them and
    /// the mean gap.
    double residuals() {
        rP = J * v + sigma.cwiseProduct(x) - bias;
        addFacetFlow(facets, kappa, rP);
        rD = mass * v - f - J.transpose() * x;
        applyFacets(facets, x, rF);
        rF += s;
        return std::max({rP.lpNorm<Eigen::Infinity>(), rD.lpNorm<Eigen::Infinity>(),
                         rF.lpNorm<Eigen::Infinity>(), s.dot(kappa) / std::max(k, 1)});
    }

    /// The direction for complementarity target rc, from the factored saddle point.
    void direction(Eigen::VectorXd& ddv, Eigen::VectorXd& ddx, Eigen::VectorXd& dds,
                   Eigen::VectorXd& ddk) {
        rhs.head(n) = -rD;
        Eigen::VectorXd h1 = -rP;
        tmp = (rc - kappa.cwiseProduct(rF)).cwiseQuotient(s);
        addFacetFlow(facets, tmp, h1);
        rhs.tail(m) = h1;
        if (!solver.m_lu.solve(rhs, sol)) sol.setConstant(std::numeric_limits<double>::quiet_NaN());
        ddv = sol.head(n);
        ddx = sol.tail(m);
        applyFacets(facets, ddx, dds);
        dds = -rF - dds;
        ddk = -(rc + kappa.cwiseProduct(dds)).cwiseQuotient(s);
    }

    /// One Newton step, Mehrotra's predictor and corrector on the saddle point, analysed by KLU
    /// at the first. False: no step (the analysis or the factorisation failed, or the
    /// direction is not finite; the iterate stays).
    bool newtonStep(bool& analysed) {
        const Sparse a = assemble(kappa.cwiseQuotient(s));
        if (!analysed) {
            if (!solver.m_lu.analyze(a)) return false;
            analysed = true;
        }
        if (!solver.m_lu.factor(a)) return false;
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
        if (!dv.allFinite() || !dx.allFinite() || !ds.allFinite() || !dk.allFinite()) return false;
        const double alpha = std::min(
            1.0, 0.99 * std::min(largestPositiveStep(s, ds), largestPositiveStep(kappa, dk)));
        v += alpha * dv;
        x += alpha * dx;
        s += alpha * ds;
        kappa += alpha * dk;
        return true;
    }
};

InteriorPointResult StaticLcp::solve(const ContactProblem& problem, Eigen::VectorXd& rOut,
                                     Eigen::VectorXd& vOut, const LcpOptions& options) {
    InteriorPointResult result;
    result.programs = 1;
    rOut.resize(0);
    vOut.resize(0);
    if (options.residualHistory) options.residualHistory->clear();
    Program p(*this, problem);
    if (!p.selectFacets(options)) return result;
    if (p.k == 0) {  // nothing touches: every body takes its free velocity
        rOut = Eigen::VectorXd::Zero(p.m);
        vOut = problem.vFree;
        result.converged = true;
        return result;
    }
    const IdleReduction idle(problem);
    p.scale(idle, options);

    BestIterate<Eigen::VectorXd, Eigen::VectorXd, double> best(p.v, p.x, 0.0);
    constexpr int kStall = 6;
    bool analysed = false;
    for (int it = 0; it <= options.maxIterations; ++it) {
        const double res = p.residuals();
        if (options.residualHistory) options.residualHistory->push_back(res);
        result.iterations = it;
        if (!std::isfinite(res)) break;
        best.offer(it, res, p.v, p.x, p.s.dot(p.kappa));
        if (res <= p.tolerance) {
            result.converged = true;
            break;
        }
        if (it == options.maxIterations || best.stalled(it, p.tolerance, kStall)) break;
        if (!p.newtonStep(analysed)) break;
    }
    const auto& [bestV, bestX, bestGap] = best.point();
    rOut = bestX * p.F;
    vOut = idle.expand(bestV * p.V, problem.vFree);
    result.relative = best.residual();
    result.residual = best.residual() * p.V;
    double normal = 0.0;
    for (int c = 0; c < problem.contacts(); ++c)
        normal += rOut[problem.offset[static_cast<size_t>(c)]];
    result.complementarity = normal > 0.0 ? bestGap * p.F * p.V / normal : 0.0;
    return result;
}

}  // namespace ndem
