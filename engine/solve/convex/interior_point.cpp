#include "solve/convex/interior_point.hpp"

#include "solve/convex/anderson_mixing.hpp"
#include "solve/rows/second_order_cone.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

namespace ndem {

bool InteriorPointSolver::buildPattern(const std::vector<int>& dim, const std::vector<int>& offset,
                                       const Sparse& w) {
    const bool same = m_pattern.build(dim, offset, w) && m_analysed;
    if (same) return true;
    const Sparse& k = m_pattern.matrix();
    m_cholmod = k.rows() >= kCholmodRows;
    const SerialOpenMpRegions serial;
    // A factorisation that fails is the caller's to handle (the start's smallest ρ on a
    // singular Ŵ, round-off near the answer), through info(): CHOLMOD prints nothing. At its
    // print level 1 it still writes such a warning, as "CHOLMOD error: matrix not positive
    // definite", into a run's output (the 26 000-disk biaxial test's start).
    m_supernodal.cholmod().print = 0;
    if (m_cholmod)
        m_supernodal.analyzePattern(k);
    else
        m_ldlt.analyzePattern(k);
    m_analysed = true;
    return false;
}

Eigen::VectorXd InteriorPointSolver::solveNewton(const Eigen::VectorXd& rhs) {
    const SerialOpenMpRegions serial;
    return m_cholmod ? Eigen::VectorXd(m_supernodal.solve(rhs))
                     : Eigen::VectorXd(m_ldlt.solve(rhs));
}

bool InteriorPointSolver::factor(const std::vector<double>& d) {
    const Sparse& k = m_pattern.assemble(d);
    const SerialOpenMpRegions serial;
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
    // The answer the rule is nearest: a last program cut short by the budget ends far from
    // the fixed point the converged one before it had nearly reached.
    Eigen::VectorXd best;
    double bestRelative = std::numeric_limits<double>::infinity();
    InteriorPointResult bestProgram;
    const double scale = std::max(p.q.lpNorm<Eigen::Infinity>(), 1e-300);
    const double tolerance = options.tolerance > 0.0 ? options.tolerance : 1e-10 * scale;
    constexpr int kPrograms = 30;
    AndersonMixing anderson(kAndersonMemory);
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
        Eigen::VectorXd next = shift;
        double moved = 0.0;
        for (int c = 0; c < p.contacts(); ++c) {
            const int o = p.offset[static_cast<size_t>(c)];
            const int d = p.dim[static_cast<size_t>(c)];
            const int roll = p.rollingRows(c);
            if (d == 1 && roll == 0) continue;
            const double mu = p.mu[static_cast<size_t>(c)];
            const double nu =
                options.dilation.empty() ? 0.0 : options.dilation[static_cast<size_t>(c)];
            // The part of the associated opening the rule takes back: 1 − ν/μ of it, for the
            // rolling rows' (L ‖u_r‖ + L |u_twist|) as for the sliding's μ ‖u_t‖.
            const double keep = mu > 0.0 ? std::min(nu, mu) / mu : 0.0;
            double open = d > 1 ? mu * cone::tangentNorm(d, u.data() + o) : 0.0;
            if (roll > 0) {
                const double* ur = u.data() + o + d;
                const double rolled =
                    roll == 1 ? std::abs(ur[0]) : std::hypot(ur[0], ur[1]) + std::abs(ur[2]);
                open += p.rollingLimit[static_cast<size_t>(c)] * rolled;
            }
            const double s = (1.0 - keep) * open;
            moved = std::max(moved, std::abs(s - shift[o]));
            next[o] = s;
        }
        // Unconverged, the answer is as far from the rule as the shift still moves.
        total.relative = std::max(one.relative, moved / scale);
        if (!std::isfinite(moved)) break;
        if (total.relative < bestRelative) {
            bestRelative = total.relative;
            best = r;
            bestProgram = one;
        }
        if (moved <= tolerance) {
            total.converged = one.converged;
            break;
        }
        shift = anderson.next(shift, next).cwiseMax(0.0);  // openings
    }
    if (best.size() == r.size() && bestRelative < total.relative) {
        r = best;
        total.relative = bestRelative;
        total.residual = bestProgram.residual;
        total.complementarity = bestProgram.complementarity;
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
    // The program's rows, per contact: its friction rows (a contact without friction: its normal
    // row; its tangential reactions are zero and its tangential velocity free), then its rolling
    // rows. Its cones, each led by the contact's normal row: the friction cone, and with rolling
    // the disc of the rolling moments and the interval of the twisting one (in the plane the
    // rolling moment's interval only). In scaled rows x = T r / P (below) every cone is the unit
    // one: x = (x_n, x₁…) with x_n ≥ ‖x₁‖. The cones' entries s = G x copy rows of x, so the
    // program is min ½ xᵀŴx + qᵀx over G x ∈ K, whose Newton matrix is Ŵ + Gᵀ R⁻² G: one
    // block per contact, as without rolling (where G = I).
    struct Cone {
        int dim = 1, offset = 0, contact = 0;
        int row[3] = {0, 0, 0};  ///< program rows of its entries; row[0] the contact's normal
    };
    std::vector<int> contactRows, contactOffsets, rowsUsed;
    std::vector<double> t;  // T: μ on a friction cone's normal row, μ/L on rolling rows, else 1
    std::vector<Cone> cones;
    int coneRows = 0;
    auto addCone = [&](int c, int d, std::initializer_list<int> rows) {
        Cone k;
        k.dim = d;
        k.offset = coneRows;
        k.contact = c;
        std::copy(rows.begin(), rows.end(), k.row);
        cones.push_back(k);
        coneRows += d;
    };
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
    const int m = static_cast<int>(rowsUsed.size());
    if (m == 0) {
        result.converged = true;
        return result;
    }
    const int contactCount = static_cast<int>(contactRows.size());
    const int coneCount = static_cast<int>(cones.size());
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

    // Units of order one: x = T r / P and z = T⁻¹ û / V, V the largest free velocity, P/V the
    // inverse of Ŵ's mean diagonal: Ŵ = T⁻¹ W T⁻¹ · P/V.
    const Eigen::VectorXd tv = Eigen::Map<const Eigen::VectorXd>(t.data(), m);
    const Eigen::VectorXd tinv = tv.cwiseInverse();
    Sparse w = Sparse(tinv.asDiagonal() * wUsed) * tinv.asDiagonal();
    const double a = m / std::max(w.diagonal().sum(), 1e-300);
    w *= a;
    const double V = std::max(q.cwiseQuotient(tv).lpNorm<Eigen::Infinity>(), 1e-300);
    const double P = a * V;
    const Eigen::VectorXd qs = q.cwiseQuotient(tv) / V;
    const double tolerance = options.tolerance > 0.0 ? options.tolerance / V : 1e-10;
    result.reusedAnalysis = buildPattern(contactRows, contactOffsets, w);

    // s = G x, and Gᵀ z.
    auto gather = [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
        for (const Cone& k : cones)
            for (int i = 0; i < k.dim; ++i)
                out[k.offset + i] = x[k.row[i]];
    };
    auto scatter = [&](const Eigen::VectorXd& z, Eigen::VectorXd& out) {
        out.setZero();
        for (const Cone& k : cones)
            for (int i = 0; i < k.dim; ++i)
                out[k.row[i]] += z[k.offset + i];
    };
    // Each contact's block of Gᵀ R⁻² G (ρ I for the start), row-major, in contact order.
    std::vector<int> blockStart(static_cast<size_t>(contactCount));
    int blockSize = 0;
    for (int c = 0; c < contactCount; ++c) {
        blockStart[static_cast<size_t>(c)] = blockSize;
        blockSize += contactRows[static_cast<size_t>(c)] * contactRows[static_cast<size_t>(c)];
    }
    std::vector<double> blocks;
    auto setBlocks = [&](const std::vector<cone::Scaling>* scalings, double diagonal = 1.0) {
        blocks.assign(static_cast<size_t>(blockSize), 0.0);
        if (!scalings) {
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
            (*scalings)[static_cast<size_t>(j)].inverseSquared(e);
            const int stride = contactRows[static_cast<size_t>(k.contact)];
            const int base = blockStart[static_cast<size_t>(k.contact)];
            const int first = contactOffsets[static_cast<size_t>(k.contact)];
            for (int i = 0; i < k.dim; ++i)
                for (int j2 = 0; j2 < k.dim; ++j2)
                    blocks[static_cast<size_t>(base + (k.row[i] - first) * stride +
                                               (k.row[j2] - first))] += e[i * k.dim + j2];
        }
    };
    auto maxStep = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& dx) {
        double alpha = 1.0;
        for (const Cone& k : cones)
            alpha = cone::maxStep(k.dim, x.data() + k.offset, dx.data() + k.offset, alpha);
        return alpha;
    };
    auto outside = [&](const Eigen::VectorXd& v) {  // −(the least depth in a cone)
        double worst = -1e300;
        for (const Cone& k : cones)
            worst = std::max(worst, -cone::depth(k.dim, v.data() + k.offset));
        return worst;
    };

    // Start: the least-squares point of (Ŵ + ρ I) x = −q and the velocities there, z = −ρ G x,
    // both moved inside (x by raising each contact's normal row, which leads all its cones).
    // ρ = 1 sets impulses and velocities on one scale. A jammed packing under load carries it
    // with impulses far above that scale (biaxial test, first shear step: ‖x‖∞ ≈ 3·10³ against
    // velocities ≈ 10⁻²), along Ŵ's soft collective modes, and from ρ = 1 the iterates spend a
    // dozen Newton steps, more the larger the sample, growing into it. So ρ falls by decades
    // while the start grows with it (at least twice a decade: soft modes answer ~1/ρ) and stays
    // mostly inside the cones; a start that grows by leaving them (a rolling sphere asked to stop
    // at once) is the unconstrained answer's, not the load's. To the paper's 10⁻⁶: 1 000 disks
    // 35 → 21 Newton steps, 5 000 disks 44 → 23; dynamic steps keep ρ = 1 (biaxial-2d findings).
    setBlocks(nullptr);
    if (!factor(blocks)) return result;  // λ = 0: nothing better to offer
    Eigen::VectorXd x = solveNewton(-qs), s(coneRows), z(coneRows);
    double rho = 1.0;
    for (double next = 0.1; next >= kStartRegularisationFloor; next *= 0.1) {
        setBlocks(nullptr, next);
        if (!factor(blocks)) break;
        const Eigen::VectorXd grown = solveNewton(-qs);
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

    std::vector<cone::Scaling> scalings(static_cast<size_t>(coneCount));
    Eigen::VectorXd ell(coneRows), dsA(coneRows), dzA(coneRows), dsStep(coneRows), dz(coneRows),
        ds(coneRows), es(coneRows);
    Eigen::VectorXd dxA(m), dx(m), g(m), gz(m), dxC(m), dsC(coneRows), dzC(coneRows),
        dsTry(coneRows);
    const double n = coneCount;
    // The best iterate is kept: near the solution round-off can stall the steps or, in a
    // degenerate packing, blow them up; the answer is then the best point reached.
    Eigen::VectorXd bestX = x, bestS = s, bestZ = z;
    double best = std::numeric_limits<double>::infinity();
    int bestIteration = 0;
    constexpr int kStall = 4;
    Eigen::VectorXd r(m);
    auto residual = [&](const Eigen::VectorXd& xx, const Eigen::VectorXd& zz) {
        scatter(zz, gz);
        r = w * xx + qs - gz;
    };
    for (int it = 0; it < budget; ++it) {
        residual(x, z);
        const double gap = s.dot(z);
        const double res = std::max(r.lpNorm<Eigen::Infinity>(), gap / n);
        if (options.residualHistory) options.residualHistory->push_back(res * V);
        result.iterations = it;
        if (!std::isfinite(res)) break;
        if (res < best) {
            best = res;
            bestX = x;
            bestS = s;
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
        for (int j = 0; j < coneCount; ++j) {
            const Cone& k = cones[static_cast<size_t>(j)];
            scalings[static_cast<size_t>(j)] =
                cone::Scaling::of(k.dim, s.data() + k.offset, z.data() + k.offset);
            scalings[static_cast<size_t>(j)].apply(z.data() + k.offset, ell.data() + k.offset);
        }
        setBlocks(&scalings);
        if (!factor(blocks)) break;  // keep the last iterate, unconverged

        // A direction for ds (the target of ℓ ∘ (R⁻¹Δs + RΔz) = −ds): solve
        // (Ŵ + Gᵀ R⁻² G) Δx = −r − Gᵀ R⁻¹ (ℓ ⋄ ds), then Δs = G Δx, Δz = −R⁻¹ (ℓ ⋄ ds) − R⁻² Δs.
        auto direction = [&](Eigen::VectorXd& ddx, Eigen::VectorXd& dds, Eigen::VectorXd& ddz) {
            for (int j = 0; j < coneCount; ++j) {
                const Cone& k = cones[static_cast<size_t>(j)];
                double quotient[3] = {};
                cone::divide(k.dim, ell.data() + k.offset, ds.data() + k.offset, quotient);
                scalings[static_cast<size_t>(j)].apply(quotient, es.data() + k.offset, true);
            }
            scatter(es, g);
            g = -r - g;
            ddx = solveNewton(g);
            gather(ddx, dds);
            for (int j = 0; j < coneCount; ++j) {
                const Cone& k = cones[static_cast<size_t>(j)];
                double a1[3] = {}, a2[3] = {};
                scalings[static_cast<size_t>(j)].apply(dds.data() + k.offset, a1, true);
                scalings[static_cast<size_t>(j)].apply(a1, a2, true);
                for (int i = 0; i < k.dim; ++i)
                    ddz[k.offset + i] = -es[k.offset + i] - a2[i];
            }
        };

        // Predictor (affine scaling): ds = ℓ ∘ ℓ.
        for (const Cone& k : cones)
            cone::product(k.dim, ell.data() + k.offset, ell.data() + k.offset,
                          ds.data() + k.offset);
        direction(dxA, dsA, dzA);
        const double alphaA = std::min(maxStep(s, dsA), maxStep(z, dzA));
        const double gapA = (s + alphaA * dsA).dot(z + alphaA * dzA);
        const double sigma = std::pow(std::clamp(gapA / gap, 0.0, 1.0), 3.0);

        // Corrector: ds = ℓ ∘ ℓ + (R⁻¹Δs_a) ∘ (RΔz_a) − σ μ e.
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
        if (!dx.allFinite() || !dz.allFinite()) break;
        double reach = std::min(maxStep(s, dsStep), maxStep(z, dz));

        // Centrality correctors (gondzio-1996): aim at a longer step, see which cones' products
        // would leave the band around σμ there, ask the Newton system (factored already, one
        // solve each) to keep them in, and keep the corrected direction while it reaches
        // further. A jammed packing's iterates otherwise crawl at steps of 0.2–0.3 for a
        // dozen Newton steps, a few cones at the boundary blocking the rest.
        for (int k = 0; k < kCorrectors && reach < 1.0; ++k) {
            const double aim = std::min(1.0, kAspiration * reach + kAspirationFloor);
            const double centre = sigma * gap / n;
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
        const double alpha = std::min(1.0, 0.99 * reach);
        x += alpha * dx;
        gather(x, s);
        z += alpha * dz;
        result.iterations = it + 1;
    }

    x = bestX;
    s = bestS;
    z = bestZ;
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
    return result;
}

}  // namespace ndem
