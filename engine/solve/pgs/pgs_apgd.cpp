// APGD: Nesterov-accelerated projected gradient descent over the PGS solver's rows
// (mazhar-2015, Algorithm 1; Project Chrono's ChSolverAPGD), with Jacobi preconditioning:
// the gradient step of each row is scaled by its 1/D_j, so a step of 1 is the row's PGS update
// taken by all rows at once. Keys: docs/references.md.
#include "core/parallel.hpp"
#include "solve/pgs/pgs_solver.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

namespace {

/// Bodies per chunk of the energy sum: fixed, so that the sum is the same for any thread count.
constexpr int kEnergyChunk = 512;

/// The eight lanes of row j (normal, t1, t2, rolling t1, t2, n) of a block's multipliers.
double* blockRow(ContactBlock& c, RollingBlock* roll, int j) {
    switch (j) {
        case 0:
            return c.normal;
        case 1:
            return c.tangent1;
        case 2:
            return c.tangent2;
        default:
            return roll ? roll->impulse[j - 3] : nullptr;
    }
}

/// ½ Δvᵀ M Δv of one body times two: Δvᵀ M Δv + Δωᵀ I Δω (I from the inverse inertia).
double bodyEnergy(const SolverBody& b, const std::array<double, 6>& before) {
    const Vec3 dv = b.v - Vec3(before[0], before[1], before[2]);
    const Vec3 dw = b.w - Vec3(before[3], before[4], before[5]);
    double e = b.invMass > 0.0 ? dv.squaredNorm() / b.invMass : 0.0;
    if (b.isotropic()) {
        if (b.invInertia[0] > 0.0) e += dw.squaredNorm() / b.invInertia[0];
    } else {
        const double* k = b.invInertia;
        Mat3 inv;
        inv << k[0], k[3], k[4], k[3], k[1], k[5], k[4], k[5], k[2];
        bool invertible = false;
        Mat3 inertia;
        inv.computeInverseWithCheck(inertia, invertible);
        if (invertible) e += dw.dot(inertia * dw);
    }
    return e;
}

/// y ← γ' + b (γ' − γ_k) for the eight lanes of a row; Δ = y − γ' (what the bodies take), γ_k ← γ'.
/// Restrict pointers: the arrays never overlap, so the lanes vectorise.
void extrapolate(const double* __restrict next, double* __restrict previous,
                 double* __restrict delta, double* __restrict y, double b) {
    for (int l = 0; l < kBlockLanes; ++l) {
        const double extrapolated = next[l] + b * (next[l] - previous[l]);
        delta[l] = extrapolated - next[l];
        previous[l] = next[l];
        y[l] = extrapolated;
    }
}

/// The velocities of bodies [begin, end) before a trial step (to measure it and to undo it).
void saveVelocities(const SolverBody* __restrict bodies, std::array<double, 6>* __restrict start,
                    int begin, int end) {
    for (int i = begin; i < end; ++i)
        start[i] = {bodies[i].v.x(), bodies[i].v.y(), bodies[i].v.z(),
                    bodies[i].w.x(), bodies[i].w.y(), bodies[i].w.z()};
}

}  // namespace

/// One APGD solve's state, shared by the threads of its team, and its steps.
struct PgsSolver::Apgd {
    PgsSolver& pgs;
    std::span<SolverBody> bodies;
    const PgsOptions& o;
    const PgsKernel& kernel;
    const bool cone;
    const BlockSweepFunction gradient;
    const int blocks, bodyCount, chunks;
    BlockSweep base;
    // The Lipschitz constant of D⁻¹N in the D-norm; kept from the last solve (the contact
    // network changes little between steps), halved back by the 0.9 per accepted step.
    double lipschitz, theta = 1.0, beta = 0.0;
    PgsResult result;
    bool stop = false, retry = false, last = false;
    RowSums general, total;

    Apgd(PgsSolver& solver, std::span<SolverBody> b, const PgsOptions& options, const PgsKernel& k,
         bool isCone)
        : pgs(solver),
          bodies(b),
          o(options),
          kernel(k),
          cone(isCone),
          gradient(isCone ? k.gradientCone : k.gradientBox),
          blocks(solver.m_stageStart.back()),
          bodyCount(static_cast<int>(b.size())),
          chunks((bodyCount + kEnergyChunk - 1) / kEnergyChunk),
          lipschitz(solver.m_lipschitz) {}

    /// γ_0: the (warm) multipliers the rows hold; y_0 = γ_0.
    void start() {
        if (o.residualHistory) o.residualHistory->clear();
        pgs.m_previous.resize(blocks);
        pgs.m_next.resize(blocks);
        pgs.m_delta.resize(blocks);
        for (int k = 0; k < blocks; ++k)
            for (int j = 0; j < 6; ++j) {
                const double* row =
                    blockRow(pgs.m_blocks[k], pgs.m_hasRolling[k] ? &pgs.m_rolling[k] : nullptr, j);
                for (int l = 0; l < kBlockLanes; ++l)
                    pgs.m_previous[k].row[j][l] = row ? row[l] : 0.0;
            }
        pgs.m_generalPrevious.resize(pgs.m_general.size());
        pgs.m_generalNext.resize(pgs.m_general.size());
        for (size_t g = 0; g < pgs.m_general.size(); ++g)
            std::copy(pgs.m_general[g].lambda, pgs.m_general[g].lambda + 6,
                      pgs.m_generalPrevious[g].begin());
        pgs.m_bodyStart.resize(bodies.size());
        pgs.m_chunkEnergy.assign(chunks, 0.0);
        base.blocks = pgs.m_blocks.data();
        base.rolling = pgs.m_rolling.empty() ? nullptr : pgs.m_rolling.data();
        base.hasRolling = pgs.m_hasRolling.data();
        base.bodies = reinterpret_cast<double*>(bodies.data());
        base.residual = pgs.m_blockResidual.data();
        base.previous = pgs.m_previous.data();
        base.next = pgs.m_next.data();
    }

    /// Applies m_delta (blocks) and the general rows' deltas to the bodies, colour by colour.
    void applyDelta(int t, int n) {
        BlockSweep s = base;
        s.impulse = pgs.m_delta.data();
        for (int c = 0; c < pgs.m_sharedStages; ++c) {
            std::tie(s.begin, s.end) =
                parallel::share(pgs.m_stageStart[c], pgs.m_stageStart[c + 1], t, n);
            if (s.begin < s.end) kernel.applyImpulses(s);
            if (n > 1) parallel::barrier();
        }
        if (t == 0) {
            s.begin = pgs.m_stageStart[pgs.m_sharedStages];
            s.end = blocks;
            if (s.begin < s.end) kernel.applyImpulses(s);
            for (size_t g = 0; g < pgs.m_general.size(); ++g) {
                std::array<double, 6> d;
                for (int j = 0; j < 6; ++j)
                    d[j] = pgs.m_generalNext[g][j] - pgs.m_general[g].lambda[j];
                applyGeneralImpulse(pgs.m_general[g], d, bodies.data());
            }
        }
        if (n > 1) parallel::barrier();
    }

    /// γ' = Π(y + step (z − y)) at the velocities of y, until the step is short enough for the
    /// quadratic's sufficient decrease (mazhar-2015 Alg. 1, lines 6-9): dᵀNd ≤ L ‖d‖²_D,
    /// d = γ' − y, else a shorter step from y. The bodies leave with γ'.
    void findStep(int t, int n, int blockBegin, int blockEnd, int chunkBegin, int chunkEnd) {
        const SolverBody* bodyData = bodies.data();
        std::array<double, 6>* startData = pgs.m_bodyStart.data();
        do {
            BlockSweep s = base;
            s.step = 1.0 / lipschitz;
            s.begin = blockBegin;
            s.end = blockEnd;
            s.delta = pgs.m_delta.data();
            if (s.begin < s.end) gradient(s);  // writes γ' and γ' − y
            saveVelocities(bodyData, startData, chunkBegin * kEnergyChunk,
                           std::min(bodyCount, chunkEnd * kEnergyChunk));
            if (t == 0) {
                general = RowSums{};
                gradientGeneralRows(pgs.m_general, bodies.data(), cone, 1.0 / lipschitz,
                                    pgs.m_generalPrevious, pgs.m_generalNext, general);
            }
            if (n > 1) parallel::barrier();
            applyDelta(t, n);  // the bodies now move with γ'
            for (int c = chunkBegin; c < chunkEnd; ++c) {
                double e = 0.0;
                for (int i = c * kEnergyChunk; i < std::min(bodyCount, (c + 1) * kEnergyChunk); ++i)
                    e += bodyEnergy(bodies[i], pgs.m_bodyStart[i]);
                pgs.m_chunkEnergy[c] = e;
            }
            if (n > 1) parallel::barrier();
            if (t == 0) checkDecrease();
            if (n > 1) parallel::barrier();
            if (retry) {
                for (int i = chunkBegin * kEnergyChunk;
                     i < std::min(bodyCount, chunkEnd * kEnergyChunk); ++i) {
                    bodies[i].v =
                        Vec3(pgs.m_bodyStart[i][0], pgs.m_bodyStart[i][1], pgs.m_bodyStart[i][2]);
                    bodies[i].w =
                        Vec3(pgs.m_bodyStart[i][3], pgs.m_bodyStart[i][4], pgs.m_bodyStart[i][5]);
                }
                if (n > 1) parallel::barrier();
            }
        } while (retry);
    }

    /// The trial step's sums in block order (the same for any thread count), and whether its
    /// energy asks for a shorter step.
    void checkDecrease() {
        total = general;
        for (int b = 0; b < blocks; ++b) {
            const BlockResidual& r = pgs.m_blockResidual[b];
            total.all += r.all;
            total.normal += r.normal;
            total.max = std::max(total.max, r.max);
            total.squares += r.squares;
            total.inner += r.inner;
            total.sigma += r.sigma;
        }
        double energy = total.sigma;
        for (double e : pgs.m_chunkEnergy)
            energy += e;
        retry = energy > lipschitz * total.squares * (1.0 + 1e-12) && lipschitz < 1e6;
        if (retry) lipschitz *= 2.0;
    }

    /// Accepted: the residual of this iterate, then Nesterov's extrapolation factor with the
    /// gradient restart (lines 10-16; O'Donoghue & Candès' adaptive restart).
    void accept(int k) {
        result.iterations = k + 1;
        result.residual = pgs.m_rowsCounted ? total.all / pgs.m_rowsCounted : 0.0;
        result.maxResidual = total.max;
        result.normalResidual =
            pgs.m_normalRowsCounted ? total.normal / pgs.m_normalRowsCounted : 0.0;
        if (o.residualHistory) o.residualHistory->push_back(result.residual);
        if (o.tolerance > 0.0 && result.residual < o.tolerance) stop = true;
        last = stop || k + 1 == o.iterations;
        const double thetaNext = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
        beta = theta * (1.0 - theta) / (theta * theta + thetaNext);
        theta = thetaNext;
        if (total.inner > 0.0) {
            beta = 0.0;
            theta = 1.0;
        }
        lipschitz *= 0.9;
    }

    /// y ← γ' + β (γ' − γ_k), γ_k ← γ'; the bodies, at γ', take y − γ'. After the last
    /// iterate: λ = γ' (feasible, with its velocities).
    void extrapolateAll(int t, int n, int blockBegin, int blockEnd) {
        const double b = last ? 0.0 : beta;
        // A block without rolling rows neither has nor applies rows 3-5.
        for (int blk = blockBegin; blk < blockEnd; ++blk) {
            RollingBlock* roll = pgs.m_hasRolling[blk] ? &pgs.m_rolling[blk] : nullptr;
            for (int j = 0; j < (roll ? 6 : 3); ++j)
                extrapolate(pgs.m_next[blk].row[j], pgs.m_previous[blk].row[j],
                            pgs.m_delta[blk].row[j], blockRow(pgs.m_blocks[blk], roll, j), b);
        }
        if (t == 0)
            for (size_t g = 0; g < pgs.m_general.size(); ++g)
                for (int j = 0; j < 6; ++j) {
                    const double next = pgs.m_generalNext[g][j];
                    const double extrapolated = next + b * (next - pgs.m_generalPrevious[g][j]);
                    pgs.m_generalPrevious[g][j] = next;
                    pgs.m_general[g].lambda[j] = next;  // applyDelta adds extrapolated − next
                    pgs.m_generalNext[g][j] = extrapolated;
                }
        if (n > 1) parallel::barrier();
        if (b != 0.0) applyDelta(t, n);
        if (t == 0)
            for (size_t g = 0; g < pgs.m_general.size(); ++g)
                std::copy(pgs.m_generalNext[g].begin(), pgs.m_generalNext[g].end(),
                          pgs.m_general[g].lambda);
        if (n > 1) parallel::barrier();
    }
};

template <bool kCone>
PgsResult PgsSolver::runApgd(std::span<SolverBody> bodies, const PgsOptions& o,
                             const PgsKernel& kernel) {
    Apgd run(*this, bodies, o, kernel, kCone);
    run.start();
    parallel::team(std::max(1, o.threads), [&] {
        const int t = parallel::threadIndex(), n = parallel::teamSize();
        const auto [blockBegin, blockEnd] = parallel::share(0, run.blocks, t, n);
        const auto [chunkBegin, chunkEnd] = parallel::share(0, run.chunks, t, n);
        for (int k = 0; k < o.iterations && !run.stop; ++k) {
            run.findStep(t, n, blockBegin, blockEnd, chunkBegin, chunkEnd);
            if (t == 0) run.accept(k);
            if (n > 1) parallel::barrier();
            run.extrapolateAll(t, n, blockBegin, blockEnd);
        }
    });
    m_lipschitz = std::max(run.lipschitz, 1e-3);
    return run.result;
}

template PgsResult PgsSolver::runApgd<true>(std::span<SolverBody>, const PgsOptions&,
                                            const PgsKernel&);
template PgsResult PgsSolver::runApgd<false>(std::span<SolverBody>, const PgsOptions&,
                                             const PgsKernel&);

}  // namespace ndem
