// One cone program of the interior-point method (krabbenhoft-2012 Sec. 3.6–3.8, 4.2–4.4):
// its rows and cones, its units, the start, and the Newton steps — Nesterov–Todd scaling,
// Mehrotra's predictor–corrector and Gondzio's centrality correctors — as named steps of one
// Program (solveProgram reads as them).
#include "solve/convex/best_iterate.hpp"
#include "solve/convex/interior_point.hpp"
#include "solve/rows/second_order_cone.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

namespace ndem {

/// The program's state from its rows to its answer; it factors and solves through the solver.
struct InteriorPointSolver::Program {
    /// One cone of the program, led by its contact's normal row.
    struct Cone {
        int dim = 1, offset = 0, contact = 0;
        int row[3] = {0, 0, 0};  ///< program rows of its entries; row[0] the contact's normal
    };

    InteriorPointSolver& solver;
    std::vector<int> contactRows, contactOffsets, rowsUsed;
    std::vector<double> t;  ///< T: μ on a friction cone's normal row, μ/L on rolling rows, else 1
    std::vector<Cone> cones;
    int coneRows = 0, m = 0, contactCount = 0, coneCount = 0;
    Sparse w;                 ///< Ŵ = T⁻¹ W T⁻¹ · P/V, its mean diagonal one
    Eigen::VectorXd tv, qs;   ///< T's diagonal; q scaled
    double V = 1.0, P = 1.0;  ///< velocity and impulse units
    double tolerance = 1e-10;
    std::vector<int> blockStart;
    int blockSize = 0;
    std::vector<double> blocks;  ///< each contact's block of Gᵀ R⁻² G, row-major
    std::vector<cone::Scaling> scalings;
    // The iterate, the residual r = Ŵ x + q − Gᵀ z, and the Newton step's work vectors.
    Eigen::VectorXd x, s, z, r;
    Eigen::VectorXd ell, dsA, dzA, dsStep, dz, ds, es, dxA, dx, g, gz, dxC, dsC, dzC, dsTry;

    explicit Program(InteriorPointSolver& owner) : solver(owner) {}

    // -----------------------------------------------------------------------------------
    // Rows, cones and units
    // -----------------------------------------------------------------------------------

    void addCone(int c, int d, std::initializer_list<int> rows) {
        Cone k;
        k.dim = d;
        k.offset = coneRows;
        k.contact = c;
        std::copy(rows.begin(), rows.end(), k.row);
        cones.push_back(k);
        coneRows += d;
    }

    /// The program's rows, per contact: its friction rows (a contact without friction: its
    /// normal row; its tangential reactions are zero and its tangential velocity free), then its
    /// rolling rows. Its cones, each led by the contact's normal row: the friction cone, and
    /// with rolling the disc of the rolling moments and the interval of the twisting one (in the
    /// plane the rolling moment's interval only). In scaled rows x = T r / P (below) every cone
    /// is the unit one: x = (x_n, x₁…) with x_n ≥ ‖x₁‖. The cones' entries s = G x copy rows of
    /// x, so the program is min ½ xᵀŴx + qᵀx over G x ∈ K, whose Newton matrix is Ŵ + Gᵀ R⁻² G:
    /// one block per contact, as without rolling (where G = I). False: no row at all.
    bool selectRows(const LocalProblem& full) {
        for (int c = 0; c < full.contacts(); ++c) {
            const int o = full.offset[static_cast<size_t>(c)];
            const double mu = full.mu[static_cast<size_t>(c)];
            const int d = mu > 0.0 ? full.dim[static_cast<size_t>(c)] : 1;
            const int roll = full.rollingRows(c);
            const int n = static_cast<int>(rowsUsed.size());
            contactOffsets.push_back(n);
            contactRows.push_back(d + roll);
            for (int k = 0; k < d; ++k) {
                rowsUsed.push_back(o + k);
                t.push_back(k == 0 && d > 1 ? mu : 1.0);
            }
            const int rr = n + d;  // the first rolling row
            for (int k = 0; k < roll; ++k) {
                rowsUsed.push_back(o + full.dim[static_cast<size_t>(c)] + k);
                t.push_back((d > 1 ? mu : 1.0) / full.rollingLimit[static_cast<size_t>(c)]);
            }
            if (d == 1) addCone(c, 1, {n});
            if (d == 2) addCone(c, 2, {n, n + 1});
            if (d == 3) addCone(c, 3, {n, n + 1, n + 2});
            if (roll == 1) addCone(c, 2, {n, rr});
            if (roll == 3) {
                addCone(c, 3, {n, rr, rr + 1});
                addCone(c, 2, {n, rr + 2});
            }
        }
        m = static_cast<int>(rowsUsed.size());
        contactCount = static_cast<int>(contactRows.size());
        coneCount = static_cast<int>(cones.size());
        return m > 0;
    }

    /// Units of order one: x = T r / P and z = T⁻¹ û / V, V the largest free velocity, P/V the
    /// inverse of Ŵ's mean diagonal: Ŵ = T⁻¹ W T⁻¹ · P/V.
    void scale(const LocalProblem& full, const Eigen::VectorXd& shift,
               const InteriorPointOptions& options) {
        Sparse wUsed;
        Eigen::VectorXd q(m);
        for (int i = 0; i < m; ++i)
            q[i] =
                full.q[rowsUsed[static_cast<size_t>(i)]] + shift[rowsUsed[static_cast<size_t>(i)]];
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
        tv = Eigen::Map<const Eigen::VectorXd>(t.data(), m);
        const Eigen::VectorXd tinv = tv.cwiseInverse();
        w = Sparse(tinv.asDiagonal() * wUsed) * tinv.asDiagonal();
        const double a = m / std::max(w.diagonal().sum(), 1e-300);
        w *= a;
        V = std::max(q.cwiseQuotient(tv).lpNorm<Eigen::Infinity>(), 1e-300);
        P = a * V;
        qs = q.cwiseQuotient(tv) / V;
        tolerance = options.tolerance > 0.0 ? options.tolerance / V : 1e-10;
        blockStart.resize(static_cast<size_t>(contactCount));
        for (int c = 0; c < contactCount; ++c) {
            blockStart[static_cast<size_t>(c)] = blockSize;
            blockSize += contactRows[static_cast<size_t>(c)] * contactRows[static_cast<size_t>(c)];
        }
        scalings.resize(static_cast<size_t>(coneCount));
        for (Eigen::VectorXd* v :
             {&s, &z, &ell, &dsA, &dzA, &dsStep, &dz, &ds, &es, &dsC, &dzC, &dsTry})
            v->resize(coneRows);
        for (Eigen::VectorXd* v : {&r, &dxA, &dx, &g, &gz, &dxC})
            v->resize(m);
    }

    // -----------------------------------------------------------------------------------
    // The cones' algebra on the whole program
    // -----------------------------------------------------------------------------------

    /// s = G x.
    void gather(const Eigen::VectorXd& from, Eigen::VectorXd& out) const {
        for (const Cone& k : cones)
            for (int i = 0; i < k.dim; ++i)
                out[k.offset + i] = from[k.row[i]];
    }
    /// Gᵀ z.
    void scatter(const Eigen::VectorXd& from, Eigen::VectorXd& out) const {
        out.setZero();
        for (const Cone& k : cones)
            for (int i = 0; i < k.dim; ++i)
                out[k.row[i]] += from[k.offset + i];
    }
    /// Each contact's block of Gᵀ R⁻² G, or `diagonal` I without scalings (the start).
    void setBlocks(const std::vector<cone::Scaling>* with, double diagonal = 1.0) {
        blocks.assign(static_cast<size_t>(blockSize), 0.0);
        if (!with) {
            for (int c = 0; c < contactCount; ++c) {
                const int d = contactRows[static_cast<size_t>(c)];
                for (int i = 0; i < d; ++i)
                    blocks[static_cast<size_t>(blockStart[static_cast<size_t>(c)] + i * (d + 1))] =
                        diagonal;
            }
            return;
        }
        for (int j = 0; j < coneCount; ++j) {
            const Cone& k = cones[static_cast<size_t>(j)];
            double e[9] = {};
            (*with)[static_cast<size_t>(j)].inverseSquared(e);
            const int stride = contactRows[static_cast<size_t>(k.contact)];
            const int base = blockStart[static_cast<size_t>(k.contact)];
            const int first = contactOffsets[static_cast<size_t>(k.contact)];
            for (int i = 0; i < k.dim; ++i)
                for (int j2 = 0; j2 < k.dim; ++j2)
                    blocks[static_cast<size_t>(base + (k.row[i] - first) * stride +
                                               (k.row[j2] - first))] += e[i * k.dim + j2];
        }
    }
    double maxStep(const Eigen::VectorXd& from, const Eigen::VectorXd& step) const {
        double alpha = 1.0;
        for (const Cone& k : cones)
            alpha = cone::maxStep(k.dim, from.data() + k.offset, step.data() + k.offset, alpha);
        return alpha;
    }
    /// −(the least depth in a cone).
    double outside(const Eigen::VectorXd& v) const {
        double worst = -1e300;
        for (const Cone& k : cones)
            worst = std::max(worst, -cone::depth(k.dim, v.data() + k.offset));
        return worst;
    }
    /// r = Ŵ x + q − Gᵀ z.
    void residual(const Eigen::VectorXd& xx, const Eigen::VectorXd& zz) {
        scatter(zz, gz);
        r = w * xx + qs - gz;
    }

    // -----------------------------------------------------------------------------------
    // The start and the Newton step
    // -----------------------------------------------------------------------------------

    /// The least-squares point of (Ŵ + ρ I) x = −q and the velocities there, z = −ρ G x, both
    /// moved inside (x by raising each contact's normal row, which leads all its cones).
    /// ρ = 1 sets impulses and velocities on one scale. A jammed packing under load carries it
    /// with impulses far above that scale (biaxial test, first shear step: ‖x‖∞ ≈ 3·10³ against
    /// velocities ≈ 10⁻²), along Ŵ's soft collective modes, and from ρ = 1 the iterates spend a
    /// dozen Newton steps, more the larger the sample, growing into it. So ρ falls by decades
    /// while the start grows with it (at least twice a decade: soft modes answer ~1/ρ) and stays
    /// mostly inside the cones; a start that grows by leaving them (a rolling sphere asked to
    /// stop at once) is the unconstrained answer's, not the load's. To the paper's 10⁻⁶: 1 000
    /// disks 35 → 21 Newton steps, 5 000 disks 44 → 23; dynamic steps keep ρ = 1 (biaxial-2d
    /// findings). False: the first factorisation failed (λ = 0: nothing better to offer).
    bool start() {
        setBlocks(nullptr);
        if (!solver.factor(blocks)) return false;
        x = solver.solveNewton(-qs);
        double rho = 1.0;
        for (double next = 0.1; next >= kStartRegularisationFloor; next *= 0.1) {
            setBlocks(nullptr, next);
            if (!solver.factor(blocks)) break;
            const Eigen::VectorXd grown = solver.solveNewton(-qs);
            gather(grown, s);
            const double size = grown.lpNorm<Eigen::Infinity>();
            if (!(size >= 2.0 * x.lpNorm<Eigen::Infinity>()) || outside(s) > 0.5 * size) break;
            x = grown;
            rho = next;
        }
        gather(x, s);
        z = -rho * s;
        if (const double worst = outside(s); worst >= -1e-8) {
            for (int c = 0; c < contactCount; ++c)
                x[contactOffsets[static_cast<size_t>(c)]] += 1.0 + worst;
            gather(x, s);
        }
        if (const double worst = outside(z); worst >= -1e-8)
            for (const Cone& k : cones)
                z[k.offset] += 1.0 + worst;
        return true;
    }

    /// A direction for ds (the target of ℓ ∘ (R⁻¹Δs + RΔz) = −ds): solve
    /// (Ŵ + Gᵀ R⁻² G) Δx = −r − Gᵀ R⁻¹ (ℓ ⋄ ds), then Δs = G Δx, Δz = −R⁻¹ (ℓ ⋄ ds) − R⁻² Δs.
    void direction(Eigen::VectorXd& ddx, Eigen::VectorXd& dds, Eigen::VectorXd& ddz) {
        for (int j = 0; j < coneCount; ++j) {
            const Cone& k = cones[static_cast<size_t>(j)];
            double quotient[3] = {};
            cone::divide(k.dim, ell.data() + k.offset, ds.data() + k.offset, quotient);
            scalings[static_cast<size_t>(j)].apply(quotient, es.data() + k.offset, true);
        }
        scatter(es, g);
        g = -r - g;
        ddx = solver.solveNewton(g);
        gather(ddx, dds);
        for (int j = 0; j < coneCount; ++j) {
            const Cone& k = cones[static_cast<size_t>(j)];
            double a1[3] = {}, a2[3] = {};
            scalings[static_cast<size_t>(j)].apply(dds.data() + k.offset, a1, true);
            scalings[static_cast<size_t>(j)].apply(a1, a2, true);
            for (int i = 0; i < k.dim; ++i)
                ddz[k.offset + i] = -es[k.offset + i] - a2[i];
        }
    }

    /// The Nesterov–Todd scaling of each cone at the iterate, ℓ, and the Newton matrix with
    /// them factored. False: the factorisation failed (the last iterate stays, unconverged).
    bool scaleAndFactor() {
        for (int j = 0; j < coneCount; ++j) {
            const Cone& k = cones[static_cast<size_t>(j)];
            scalings[static_cast<size_t>(j)] =
                cone::Scaling::of(k.dim, s.data() + k.offset, z.data() + k.offset);
            scalings[static_cast<size_t>(j)].apply(z.data() + k.offset, ell.data() + k.offset);
        }
        setBlocks(&scalings);
        return solver.factor(blocks);
    }

    /// Mehrotra's predictor (affine scaling, ds = ℓ ∘ ℓ) and corrector (ds = ℓ ∘ ℓ +
    /// (R⁻¹Δs_a) ∘ (RΔz_a) − σ μ e): the direction (dx, dsStep, dz) and σ. False: a direction
    /// that is not finite.
    bool predictAndCorrect(double gap, double& sigma) {
        const double n = coneCount;
        for (const Cone& k : cones)
            cone::product(k.dim, ell.data() + k.offset, ell.data() + k.offset,
                          ds.data() + k.offset);
        direction(dxA, dsA, dzA);
        const double alphaA = std::min(maxStep(s, dsA), maxStep(z, dzA));
        const double gapA = (s + alphaA * dsA).dot(z + alphaA * dzA);
        sigma = std::pow(std::clamp(gapA / gap, 0.0, 1.0), 3.0);
        for (int j = 0; j < coneCount; ++j) {
            const Cone& k = cones[static_cast<size_t>(j)];
            const int o = k.offset;
            double sx[3] = {}, sz[3] = {}, prod[3] = {};
            scalings[static_cast<size_t>(j)].apply(dsA.data() + o, sx, true);
            scalings[static_cast<size_t>(j)].apply(dzA.data() + o, sz);
            cone::product(k.dim, sx, sz, prod);
            cone::product(k.dim, ell.data() + o, ell.data() + o, ds.data() + o);
            for (int i = 0; i < k.dim; ++i)
                ds[o + i] += prod[i];
            ds[o] -= sigma * gap / n;
        }
        direction(dx, dsStep, dz);
        return dx.allFinite() && dz.allFinite();
    }

    /// Centrality correctors (gondzio-1996): aim at a longer step, see which cones' products
    /// would leave the band around σμ there, ask the Newton system (factored already, one solve
    /// each) to keep them in, and keep the corrected direction while it reaches further. A
    /// jammed packing's iterates otherwise crawl at steps of 0.2–0.3 for a dozen Newton steps,
    /// a few cones at the boundary blocking the rest. Returns the reach of the direction kept.
    double correctCentrality(double reach, double centre) {
        for (int k = 0; k < kCorrectors && reach < 1.0; ++k) {
            const double aim = std::min(1.0, kAspiration * reach + kAspirationFloor);
            dsTry = ds;
            for (int j = 0; j < coneCount; ++j) {
                const Cone& cj = cones[static_cast<size_t>(j)];
                const int o = cj.offset;
                double sx[3] = {}, sz[3] = {}, u[3] = {}, v[3] = {}, prod[3] = {}, c[3] = {};
                scalings[static_cast<size_t>(j)].apply(dsStep.data() + o, sx, true);
                scalings[static_cast<size_t>(j)].apply(dz.data() + o, sz);
                for (int i = 0; i < cj.dim; ++i) {
                    u[i] = ell[o + i] + aim * sx[i];
                    v[i] = ell[o + i] + aim * sz[i];
                }
                cone::product(cj.dim, u, v, prod);
                cone::centralityCorrection(cj.dim, prod, kBand * centre, centre / kBand, c);
                for (int i = 0; i < cj.dim; ++i)
                    dsTry[o + i] -= c[i];
            }
            ds.swap(dsTry);  // direction() reads its target from ds
            direction(dxC, dsC, dzC);
            const double reached = dxC.allFinite() && dzC.allFinite()
                                       ? std::min(maxStep(s, dsC), maxStep(z, dzC))
                                       : 0.0;
            if (reached < reach + kAcceptance * (aim - reach)) {
                ds.swap(dsTry);
                break;
            }
            dx.swap(dxC);
            dsStep.swap(dsC);
            dz.swap(dzC);
            reach = reached;
        }
        return reach;
    }

    /// One Newton step from the iterate whose complementarity gap is `gap`. False: no step
    /// (a failed factorisation or a direction that is not finite; the iterate stays).
    bool newtonStep(double gap) {
        if (!scaleAndFactor()) return false;
        double sigma = 0.0;
        if (!predictAndCorrect(gap, sigma)) return false;
        double reach = std::min(maxStep(s, dsStep), maxStep(z, dz));
        reach = correctCentrality(reach, sigma * gap / coneCount);
        const double alpha = std::min(1.0, 0.99 * reach);
        x += alpha * dx;
        gather(x, s);
        z += alpha * dz;
        return true;
    }

    /// The answer in the problem's rows and units, and its residuals.
    void answer(double best, Eigen::VectorXd& rOut, InteriorPointResult& result) {
        const Eigen::VectorXd rUsed = P * x.cwiseQuotient(tv);
        for (int i = 0; i < m; ++i)
            rOut[rowsUsed[static_cast<size_t>(i)]] = rUsed[i];
        residual(x, z);
        result.residual = (r.cwiseProduct(tv)).lpNorm<Eigen::Infinity>() * V;
        result.relative = best;
        double normal = 0.0;
        for (int c = 0; c < contactCount; ++c)
            normal += rUsed[contactOffsets[static_cast<size_t>(c)]];
        result.complementarity = normal > 0.0 ? s.dot(z) * P * V / normal : 0.0;
    }
};

InteriorPointResult InteriorPointSolver::solveProgram(const LocalProblem& full,
                                                      const Eigen::VectorXd& shift, int budget,
                                                      const InteriorPointOptions& options,
                                                      Eigen::VectorXd& rOut) {
    InteriorPointResult result;
    result.programs = 1;
    rOut = Eigen::VectorXd::Zero(full.rows());
    Program p(*this);
    if (!p.selectRows(full)) {
        result.converged = true;
        return result;
    }
    p.scale(full, shift, options);
    result.reusedAnalysis = buildPattern(p.contactRows, p.contactOffsets, p.w);
    if (!p.start()) return result;

    BestIterate<Eigen::VectorXd, Eigen::VectorXd, Eigen::VectorXd> best(p.x, p.s, p.z);
    constexpr int kStall = 4;
    for (int it = 0; it < budget; ++it) {
        p.residual(p.x, p.z);
        const double gap = p.s.dot(p.z);
        const double res = std::max(p.r.lpNorm<Eigen::Infinity>(), gap / p.coneCount);
        if (options.residualHistory) options.residualHistory->push_back(res * p.V);
        result.iterations = it;
        if (!std::isfinite(res)) break;
        best.offer(it, res, p.x, p.s, p.z);
        if (res <= p.tolerance) {
            result.converged = true;
            break;
        }
        if (best.stalled(it, p.tolerance, kStall)) break;
        if (!p.newtonStep(gap)) break;
        result.iterations = it + 1;
    }
    std::tie(p.x, p.s, p.z) = best.point();
    p.answer(best.residual(), rOut, result);
    return result;
}

}  // namespace ndem
