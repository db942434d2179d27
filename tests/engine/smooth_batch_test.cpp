// The smooth DEM's batch kernels (dem/smooth_batch.hpp) against the per-contact law they
// vectorise (dem/smooth_contact.hpp), on every instruction set this CPU runs.
#include "dem/smooth_batch.hpp"
#include "core/cpu_features.hpp"
#include "core/random.hpp"
#include "dem/smooth_contact.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace ndem {
namespace {

constexpr double kStep = 1e-5, kElastic = 3e6, kShear = 1.2e6;

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

ContactMaterial materialOf(const Pair& p) {
    ContactMaterial m;
    m.elasticModulus = kElastic, m.shearModulus = kShear, m.friction = p.mu;
    m.rollingResistance = p.muR, m.damping = p.c;
    return m;
}

/// What pairs and walls stage alike: the material and last step's springs.
void stageMotion(SmoothBatch& b, int k, const Pair& p) {
    b.elastic[k] = kElastic, b.shear[k] = kShear, b.friction[k] = p.mu;
    b.rolling[k] = p.muR, b.damping[k] = p.c;
    b.xix[k] = p.xi.x(), b.xiy[k] = p.xi.y(), b.xiz[k] = p.xi.z();
    b.thx[k] = p.theta.x(), b.thy[k] = p.theta.y(), b.thz[k] = p.theta.z();
}

/// The per-contact law's answer for lane k (zero forces and springs where δ ≤ 0).
struct Reference {
    SmoothPush push;
    Vec3 f, xi, theta;
};
Reference lawOf(const ContactMaterial& m, const Pair& p, const Vec3& n, double delta, double dStar,
                const Vec3& u) {
    Reference r;
    r.xi = p.xi;
    r.theta = p.theta;
    r.push.tangentialForce.setZero();
    r.push.moment.setZero();
    if (delta > 0.0)
        r.push = smoothContactForce(m, ContactLaw::Hertz, 0.0, dStar, dStar, n, delta, u,
                                    p.wb - p.wa, kStep, r.xi, r.theta);
    else
        r.xi.setZero(), r.theta.setZero();
    r.f = r.push.normalForce * n + r.push.tangentialForce;
    return r;
}

/// The kernel's lane k against the reference: forces relative to the contact's own scale
/// (the kernel may fuse multiply-adds), the torque about A with lever la.
void expectLane(const SmoothBatch& b, int k, const Reference& r, const Vec3& la, double radius,
                const char* name) {
    const double scale = 1e-12 + r.push.normalForce;
    EXPECT_NEAR(b.normalForce[k], r.push.normalForce, 1e-10 * scale) << name << " lane " << k;
    EXPECT_NEAR((Vec3(b.ftx[k], b.fty[k], b.ftz[k]) - r.push.tangentialForce).norm(), 0.0,
                1e-9 * scale)
        << name << " lane " << k;
    EXPECT_NEAR((Vec3(b.fx[k], b.fy[k], b.fz[k]) - r.f).norm(), 0.0, 1e-9 * scale)
        << name << " lane " << k;
    EXPECT_NEAR((Vec3(b.mx[k], b.my[k], b.mz[k]) - r.push.moment).norm(), 0.0,
                1e-9 * scale * radius)
        << name << " lane " << k;
    EXPECT_NEAR((Vec3(b.tax[k], b.tay[k], b.taz[k]) - (la.cross(r.f) + r.push.moment)).norm(), 0.0,
                1e-9 * scale * radius)
        << name << " lane " << k;
    EXPECT_NEAR((Vec3(b.xix[k], b.xiy[k], b.xiz[k]) - r.xi).norm(), 0.0,
                1e-9 * (1e-12 + r.xi.norm()))
        << name << " lane " << k;
    EXPECT_NEAR((Vec3(b.thx[k], b.thy[k], b.thz[k]) - r.theta).norm(), 0.0,
                1e-9 * (1e-12 + r.theta.norm()))
        << name << " lane " << k;
}

TEST(SmoothBatch, EveryKernelRunsTheContactLaw) {
    // Each lane with its own material, then the whole batch with the first pair's (no rolling
    // resistance) and with the second pair's (rolling resistance): the loops the pass runs
    // for a scene of one material.
    std::vector<Pair> pairs = randomPairs(SmoothBatch::kCapacity);
    const int count = static_cast<int>(pairs.size());
    // The kernel reads the grains by index: pair k joins grain 2k + 1 (A) and grain 2k (B),
    // in records of five doubles (x, y, z, r and a spare), as the pass's grains are.
    constexpr int kStride = 5;
    std::vector<double> grain(2 * count * kStride), velocity(6 * count), spin(6 * count);
    Random random(11);
    for (int k = 0; k < count; ++k) {
        Pair& p = pairs[k];
        const int a = 2 * k + 1, b = 2 * k;
        auto put = [](double* at, const Vec3& v) { at[0] = v.x(), at[1] = v.y(), at[2] = v.z(); };
        auto get = [](const double* at) { return Vec3(at[0], at[1], at[2]); };
        const Vec3 xa(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
        put(&grain[a * kStride], xa);
        put(&grain[b * kStride], xa + p.d);
        grain[a * kStride + 3] = p.ra, grain[b * kStride + 3] = p.rb;
        const Vec3 va(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
        put(&velocity[3 * a], va);
        put(&velocity[3 * b], va + p.dv);
        put(&spin[3 * a], p.wa), put(&spin[3 * b], p.wb);
        // What the kernel sees, after the round-off of the positions and velocities.
        p.d = get(&grain[b * kStride]) - get(&grain[a * kStride]);
        p.dv = get(&velocity[3 * b]) - get(&velocity[3 * a]);
    }
    for (SimdLevel level : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!cpuSupports(level)) continue;
        const SmoothBatchKernel kernel = smoothBatchKernel(level);
        for (int shared : {-1, 0, 1}) {
            const bool uniform = shared >= 0;
            auto b = std::make_unique<SmoothBatch>();
            const ContactMaterial one = materialOf(pairs[std::max(shared, 0)]);
            b->uniform = uniform;
            const double constants[5] = {one.elasticModulus, one.shearModulus, one.friction,
                                         one.rollingResistance, one.damping};
            std::copy(constants, constants + 5, b->material);
            b->grains = {grain.data(), grain.data() + 3, kStride, velocity.data(), spin.data()};
            for (int k = 0; k < count; ++k) {
                b->indexA[k] = 2 * k + 1, b->indexB[k] = 2 * k;
                stageMotion(*b, k, pairs[k]);
            }
            kernel.pairs(*b, count, kStep);
            int slipping = 0, rolling = 0;
            for (int k = 0; k < count; ++k) {
                const Pair& p = pairs[k];
                const double dist = p.d.norm();
                const Vec3 n = p.d / dist;
                const double delta = p.ra + p.rb - dist;
                const Vec3 la = (p.ra - 0.5 * delta) * n, lb = -(p.rb - 0.5 * delta) * n;
                const Vec3 u = p.dv + p.wb.cross(lb) - p.wa.cross(la);
                const double da = 2.0 * p.ra, db = 2.0 * p.rb;
                const ContactMaterial m = uniform ? one : materialOf(p);
                const Reference r = lawOf(m, p, n, delta, da * db / (da + db), u);
                expectLane(*b, k, r, la, p.ra, kernel.name);
                EXPECT_NEAR(
                    (Vec3(b->tbx[k], b->tby[k], b->tbz[k]) - (lb.cross(r.f) + r.push.moment))
                        .norm(),
                    0.0, 1e-9 * (1e-12 + r.push.normalForce) * p.ra)
                    << kernel.name << " lane " << k;
                EXPECT_NEAR(b->overlap[k], delta, 1e-14 * p.ra) << kernel.name << " lane " << k;
                slipping +=
                    r.push.tangentialForce.norm() >= m.friction * r.push.normalForce * (1 - 1e-9) &&
                    r.push.normalForce > 0.0;
                rolling += !r.push.moment.isZero();
            }
            // The cases the law branches on all occur.
            EXPECT_GT(slipping, 5) << kernel.name;
            EXPECT_LT(slipping, count - 10) << kernel.name;
            if (one.rollingResistance > 0.0 || !uniform) {
                EXPECT_GT(rolling, 10) << kernel.name;
            } else {
                EXPECT_EQ(rolling, 0) << kernel.name;
            }
        }
    }
}

TEST(SmoothBatch, EveryWallKernelRunsTheContactLaw) {
    // A grain on a wall: normal, overlap and lever from the detection, the wall surface's
    // velocity and spin given; the wall counts as a sphere of infinite diameter (R* = r).
    const std::vector<Pair> pairs = randomPairs(SmoothBatch::kCapacity);
    const int count = static_cast<int>(pairs.size());
    for (SimdLevel level : {SimdLevel::Scalar, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!cpuSupports(level)) continue;
        const SmoothBatchKernel kernel = smoothBatchKernel(level);
        auto b = std::make_unique<SmoothBatch>();
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
            stageMotion(*b, k, p);
        }
        kernel.walls(*b, count, kStep);
        for (int k = 0; k < count; ++k) {
            const Pair& p = pairs[k];
            const Vec3 n(b->nx[k], b->ny[k], b->nz[k]);
            const Vec3 la(b->dx[k], b->dy[k], b->dz[k]);
            const Reference r =
                lawOf(materialOf(p), p, n, b->overlap[k], 2.0 * p.ra, p.dv - p.wa.cross(la));
            expectLane(*b, k, r, la, p.ra, kernel.name);
        }
    }
}

}  // namespace
}  // namespace ndem
