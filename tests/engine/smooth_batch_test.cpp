// The smooth DEM's batch kernels (solve/smooth_batch.hpp) against the per-contact law they
// vectorise (solve/smooth_contact.hpp), on every instruction set this CPU runs.
#include "solve/smooth_batch.hpp"
#include "core/cpu_features.hpp"
#include "core/random.hpp"
#include "solve/smooth_contact.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace ndem {
namespace {

struct Pair {
    Vec3 d, dv, wa, wb, xi, theta;
    double ra, rb, mu, muR, c;
};

/// Pairs that stick and slip, roll and twist, with and without springs, and a few that touch
/// only within round-off (δ ≤ 0: no force, no springs).
std::vector<Pair> randomPairs(int n) {
    Random random(7);
    auto vec = [&](double scale) {
        return Vec3(random.uniform(-scale, scale), random.uniform(-scale, scale),
                    random.uniform(-scale, scale));
    };
    std::vector<Pair> pairs;
    for (int k = 0; k < n; ++k) {
        Pair p;
        p.ra = 0.005 * random.uniform(0.9, 1.1);
        p.rb = 0.005 * random.uniform(0.9, 1.1);
        const double overlap = k % 13 == 0 ? -1e-12 : random.uniform(0.0, 2e-4);
        p.d = vec(1.0).normalized() * (p.ra + p.rb - overlap);
        p.dv = vec(k % 3 == 0 ? 1.0 : 1e-3);
        p.wa = vec(10.0);
        p.wb = vec(10.0);
        p.xi = k % 4 == 0 ? Vec3::Zero() : vec(k % 5 == 0 ? 1e-4 : 1e-7);
        p.theta = k % 4 == 1 ? Vec3::Zero() : vec(k % 7 == 0 ? 1e-1 : 1e-5);
        p.mu = random.uniform(0.1, 0.9);
        p.muR = k % 2 == 0 ? 0.0 : random.uniform(0.01, 0.3);
        p.c = random.uniform(0.0, 1e-3);
        pairs.push_back(p);
    }
    return pairs;
}

TEST(SmoothBatch, EveryKernelRunsTheContactLaw) {
    constexpr double h = 1e-5, E = 5e6 / (1.0 - 0.09) / 2.0, G = 1e6;
    const std::vector<Pair> pairs = randomPairs(SmoothBatch::kCapacity);
    for (SimdLevel level : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!cpuSupports(level)) continue;
        const SmoothBatchKernel kernel = smoothBatchKernel(level);
        auto b = std::make_unique<SmoothBatch>();
        const int count = static_cast<int>(pairs.size());
        for (int k = 0; k < count; ++k) {
            const Pair& p = pairs[k];
            b->dx[k] = p.d.x(), b->dy[k] = p.d.y(), b->dz[k] = p.d.z();
            b->radiusA[k] = p.ra, b->radiusB[k] = p.rb;
            b->dvx[k] = p.dv.x(), b->dvy[k] = p.dv.y(), b->dvz[k] = p.dv.z();
            b->wax[k] = p.wa.x(), b->way[k] = p.wa.y(), b->waz[k] = p.wa.z();
            b->wbx[k] = p.wb.x(), b->wby[k] = p.wb.y(), b->wbz[k] = p.wb.z();
            b->elastic[k] = E, b->shear[k] = G, b->friction[k] = p.mu;
            b->rolling[k] = p.muR, b->damping[k] = p.c;
            b->xix[k] = p.xi.x(), b->xiy[k] = p.xi.y(), b->xiz[k] = p.xi.z();
            b->thx[k] = p.theta.x(), b->thy[k] = p.theta.y(), b->thz[k] = p.theta.z();
        }
        kernel.pairs(*b, count, h);
        int slipping = 0, rolling = 0;
        for (int k = 0; k < count; ++k) {
            const Pair& p = pairs[k];
            const double dist = p.d.norm();
            const Vec3 n = p.d / dist;
            const double delta = p.ra + p.rb - dist;
            const Vec3 la = (p.ra - 0.5 * delta) * n, lb = -(p.rb - 0.5 * delta) * n;
            const Vec3 u = p.dv + p.wb.cross(lb) - p.wa.cross(la);
            ContactMaterial m;
            m.elasticModulus = E, m.shearModulus = G, m.friction = p.mu;
            m.rollingResistance = p.muR, m.damping = p.c;
            Vec3 xi = p.xi, theta = p.theta;
            SmoothPush push;
            push.tangentialForce.setZero();
            push.moment.setZero();
            if (delta > 0.0) {
                const double da = 2.0 * p.ra, db = 2.0 * p.rb;
                push = smoothContactForce(m, ContactLaw::Hertz, 0.0, da * db / (da + db),
                                          0.5 * (da + db), n, delta, u, p.wb - p.wa, h, xi, theta);
            } else {
                xi.setZero();
                theta.setZero();
            }
            const Vec3 f = push.normalForce * n + push.tangentialForce;
            slipping += push.tangentialForce.norm() >= p.mu * push.normalForce * (1 - 1e-9) &&
                        push.normalForce > 0.0;
            rolling += !push.moment.isZero();
            // Relative to the contact's own scale: the kernel may fuse multiply-adds.
            const double fScale = 1e-12 + push.normalForce;
            const char* name = kernel.name;
            EXPECT_NEAR(b->normalForce[k], push.normalForce, 1e-10 * fScale)
                << name << " pair " << k;
            EXPECT_NEAR((Vec3(b->ftx[k], b->fty[k], b->ftz[k]) - push.tangentialForce).norm(), 0.0,
                        1e-9 * fScale)
                << name << " pair " << k;
            EXPECT_NEAR((Vec3(b->fx[k], b->fy[k], b->fz[k]) - f).norm(), 0.0, 1e-9 * fScale)
                << name;
            EXPECT_NEAR((Vec3(b->mx[k], b->my[k], b->mz[k]) - push.moment).norm(), 0.0,
                        1e-9 * fScale * p.ra)
                << name << " pair " << k;
            EXPECT_NEAR(
                (Vec3(b->tax[k], b->tay[k], b->taz[k]) - (la.cross(f) + push.moment)).norm(), 0.0,
                1e-9 * fScale * p.ra)
                << name << " pair " << k;
            EXPECT_NEAR(
                (Vec3(b->tbx[k], b->tby[k], b->tbz[k]) - (lb.cross(f) + push.moment)).norm(), 0.0,
                1e-9 * fScale * p.ra)
                << name << " pair " << k;
            EXPECT_NEAR((Vec3(b->xix[k], b->xiy[k], b->xiz[k]) - xi).norm(), 0.0,
                        1e-9 * (1e-12 + xi.norm()))
                << name << " pair " << k;
            EXPECT_NEAR((Vec3(b->thx[k], b->thy[k], b->thz[k]) - theta).norm(), 0.0,
                        1e-9 * (1e-12 + theta.norm()))
                << name << " pair " << k;
            EXPECT_NEAR(b->overlap[k], delta, 1e-14 * p.ra) << name << " pair " << k;
        }
        // The cases the law branches on all occur.
        EXPECT_GT(slipping, 5) << kernel.name;
        EXPECT_LT(slipping, count - 10) << kernel.name;
        EXPECT_GT(rolling, 10) << kernel.name;
    }
}

}  // namespace
}  // namespace ndem

namespace ndem {
namespace {

TEST(SmoothBatch, EveryWallKernelRunsTheContactLaw) {
    // A grain on a wall: normal, overlap and lever from the detection, the wall surface's
    // velocity and spin given; the wall counts as a sphere of infinite diameter (R* = r).
    constexpr double h = 1e-5, E = 3e6, G = 1.2e6;
    const std::vector<Pair> pairs = randomPairs(SmoothBatch::kCapacity);
    for (SimdLevel level : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!cpuSupports(level)) continue;
        const SmoothBatchKernel kernel = smoothBatchKernel(level);
        auto b = std::make_unique<SmoothBatch>();
        const int count = static_cast<int>(pairs.size());
        for (int k = 0; k < count; ++k) {
            const Pair& p = pairs[k];
            const Vec3 n = p.d.normalized();
            const double delta = p.rb - p.d.norm() + p.ra;  // as for the pair: ±2e-4
            const Vec3 la = (p.ra - 0.5 * delta) * n;
            b->nx[k] = n.x(), b->ny[k] = n.y(), b->nz[k] = n.z();
            b->overlap[k] = delta;
            b->dx[k] = la.x(), b->dy[k] = la.y(), b->dz[k] = la.z();
            b->radiusA[k] = p.ra;
            b->dvx[k] = p.dv.x(), b->dvy[k] = p.dv.y(), b->dvz[k] = p.dv.z();
            b->wax[k] = p.wa.x(), b->way[k] = p.wa.y(), b->waz[k] = p.wa.z();
            b->wbx[k] = p.wb.x(), b->wby[k] = p.wb.y(), b->wbz[k] = p.wb.z();
            b->elastic[k] = E, b->shear[k] = G, b->friction[k] = p.mu;
            b->rolling[k] = p.muR, b->damping[k] = p.c;
            b->xix[k] = p.xi.x(), b->xiy[k] = p.xi.y(), b->xiz[k] = p.xi.z();
            b->thx[k] = p.theta.x(), b->thy[k] = p.theta.y(), b->thz[k] = p.theta.z();
        }
        kernel.walls(*b, count, h);
        for (int k = 0; k < count; ++k) {
            const Pair& p = pairs[k];
            const Vec3 n(b->nx[k], b->ny[k], b->nz[k]);
            const double delta = b->overlap[k];
            const Vec3 la(b->dx[k], b->dy[k], b->dz[k]);
            const Vec3 u = p.dv - p.wa.cross(la);
            ContactMaterial m;
            m.elasticModulus = E, m.shearModulus = G, m.friction = p.mu;
            m.rollingResistance = p.muR, m.damping = p.c;
            Vec3 xi = p.xi, theta = p.theta;
            SmoothPush push;
            push.tangentialForce.setZero();
            push.moment.setZero();
            if (delta > 0.0)
                push = smoothContactForce(m, ContactLaw::Hertz, 0.0, 2.0 * p.ra, 2.0 * p.ra, n,
                                          delta, u, p.wb - p.wa, h, xi, theta);
            else
                xi.setZero(), theta.setZero();
            const Vec3 f = push.normalForce * n + push.tangentialForce;
            const double scale = 1e-12 + push.normalForce;
            EXPECT_NEAR(b->normalForce[k], push.normalForce, 1e-10 * scale) << kernel.name << k;
            EXPECT_NEAR((Vec3(b->fx[k], b->fy[k], b->fz[k]) - f).norm(), 0.0, 1e-9 * scale)
                << kernel.name << " contact " << k;
            EXPECT_NEAR(
                (Vec3(b->tax[k], b->tay[k], b->taz[k]) - (la.cross(f) + push.moment)).norm(), 0.0,
                1e-9 * scale * p.ra)
                << kernel.name << " contact " << k;
            EXPECT_NEAR((Vec3(b->xix[k], b->xiy[k], b->xiz[k]) - xi).norm(), 0.0,
                        1e-9 * (1e-12 + xi.norm()))
                << kernel.name << " contact " << k;
            EXPECT_NEAR((Vec3(b->thx[k], b->thy[k], b->thz[k]) - theta).norm(), 0.0,
                        1e-9 * (1e-12 + theta.norm()))
                << kernel.name << " contact " << k;
        }
    }
}

}  // namespace
}  // namespace ndem
