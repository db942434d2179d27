// Contact detection finds exactly the pairs within reach, in the order of the single grid
// (that order is the PGS sweep order, so it fixes the trajectories).
#include "collide/collider.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace ndem {
namespace {

constexpr double kMargin = 0.05;
constexpr double kStep = 0.005;

/// A loose cloud of bi-disperse grains, mostly creeping, a few flying fast.
ParticleStore cloud(int n, double fastShare, double fastSpeed, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    ParticleStore p;
    const double side = 0.012 * std::cbrt(double(n));  // about one grain per (1.2 d)³
    for (int i = 0; i < n; ++i) {
        ParticleSpec s;
        s.radius = unit(rng) < 0.5 ? 0.005 : 0.0035;
        s.position = Vec3(unit(rng), unit(rng), unit(rng)) * side;
        const Vec3 dir = Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5).normalized();
        s.velocity = dir * (unit(rng) < fastShare ? fastSpeed * (0.5 + unit(rng)) : 0.02 * unit(rng));
        p.add(s, 2500.0);
    }
    return p;
}

bool withinReach(const ParticleStore& p, size_t i, size_t j) {
    const double dist2 = (p.position[j] - p.position[i]).squaredNorm();
    const double reach = p.radius[i] + p.radius[j] +
                         kMargin * std::min(p.radius[i], p.radius[j]) +
                         kStep * (p.velocity[i].norm() + p.velocity[j].norm());
    return dist2 < reach * reach && dist2 > 0.0;
}

/// The pairs (smaller storage index first) as the collider lists them.
std::vector<std::pair<Index, Index>> detected(const ParticleStore& p) {
    Collider collider;
    ContactSet contacts;
    collider.detect(p, {}, {}, CollisionParams{kMargin, kStep}, contacts);
    std::vector<std::pair<Index, Index>> pairs;
    for (size_t c = 0; c < contacts.size(); ++c)
        pairs.emplace_back(std::min(contacts.bodyA[c], contacts.bodyB[c]),
                           std::max(contacts.bodyA[c], contacts.bodyB[c]));
    return pairs;
}

/// The reference: one grid with cells as wide as the fastest pair's reach, walked in order.
std::vector<std::pair<Index, Index>> singleGridWalk(const ParticleStore& p) {
    double rMax = 0.0, vMax = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        rMax = std::max(rMax, p.radius[i]);
        vMax = std::max(vMax, p.velocity[i].norm());
    }
    BroadPhase grid;
    grid.build(p.position, 2.0 * rMax * (1.0 + kMargin) + 2.0 * vMax * kStep);
    std::vector<std::pair<Index, Index>> pairs;
    grid.forEachCandidatePair(p.position, [&](Index i, Index j) {
        if (withinReach(p, i, j)) pairs.emplace_back(i, j);
    });
    return pairs;
}

std::vector<std::pair<Index, Index>> allPairsWithinReach(const ParticleStore& p) {
    std::vector<std::pair<Index, Index>> pairs;
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = i + 1; j < p.size(); ++j)
            if (withinReach(p, i, j)) pairs.emplace_back(Index(i), Index(j));
    return pairs;
}

TEST(ContactDetection, FindsEveryPairWithinReachAndNoOther) {
    const ParticleStore p = cloud(3000, 0.03, 3.0, 11);
    auto found = detected(p);
    std::sort(found.begin(), found.end());
    const auto expected = allPairsWithinReach(p);  // already sorted
    ASSERT_GT(expected.size(), 3000u);
    EXPECT_EQ(found, expected);
}

TEST(ContactDetection, ListsContactsInTheSingleGridOrder) {
    // Fast grains widen the single grid's cells; the collider searches a finer grid but must
    // list the contacts exactly as the wide one walks them.
    for (unsigned seed : {1u, 2u, 3u}) {
        const ParticleStore p = cloud(2000, 0.05, 2.0 + seed, seed);
        const auto expected = singleGridWalk(p);
        ASSERT_GT(expected.size(), 1000u);
        EXPECT_EQ(detected(p), expected) << "seed " << seed;
    }
}

TEST(ContactDetection, OneVeryFastGrainStillFindsItsPairs) {
    // Its search box covers more cells than the grid has buckets: it tests every grain.
    ParticleStore p = cloud(500, 0.0, 0.0, 5);
    p.velocity[17] = Vec3(400.0, 0.0, 0.0);  // reaches 2 m in one step
    EXPECT_EQ(detected(p), singleGridWalk(p));
    auto found = detected(p);
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, allPairsWithinReach(p));
    EXPECT_GT(std::count_if(found.begin(), found.end(),
                            [](const auto& q) { return q.first == 17 || q.second == 17; }),
              400);
}

TEST(ContactDetection, NoFastGrainsAndNoTimeStepKeepTheOneGrid) {
    ParticleStore p = cloud(1000, 0.0, 0.0, 9);
    Collider collider;
    ContactSet contacts;
    collider.detect(p, {}, {}, CollisionParams{kMargin, 0.0}, contacts);
    size_t touching = 0;
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = i + 1; j < p.size(); ++j) {
            const double rSum = p.radius[i] + p.radius[j];
            const double reach = rSum + kMargin * std::min(p.radius[i], p.radius[j]);
            touching += (p.position[j] - p.position[i]).squaredNorm() < reach * reach;
        }
    EXPECT_EQ(contacts.size(), touching);
}

/// Every field detect() writes, contact by contact.
void expectSameContacts(const ContactSet& a, const ContactSet& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t c = 0; c < a.size(); ++c) {
        ASSERT_EQ(a.key[c], b.key[c]) << c;
        ASSERT_EQ(a.bodyA[c], b.bodyA[c]) << c;
        ASSERT_EQ(a.bodyB[c], b.bodyB[c]) << c;
        ASSERT_EQ(a.normal[c], b.normal[c]) << c;
        ASSERT_EQ(a.leverA[c], b.leverA[c]) << c;
        ASSERT_EQ(a.leverB[c], b.leverB[c]) << c;
        ASSERT_EQ(a.overlap[c], b.overlap[c]) << c;
        ASSERT_EQ(a.flags[c], b.flags[c]) << c;
        ASSERT_EQ(a.wallVelocity[c], b.wallVelocity[c]) << c;
    }
}

TEST(ContactDetection, RedetectAfterVelocityChangesEqualsAFreshDetection) {
    // The impact stage changes some velocities (struck grains speed up, landing ones stop) and
    // re-formed aggregates may move members by an ulp (any move must be handled); the top
    // speed stays or changes.
    for (int variant = 0; variant < 3; ++variant) {
        ParticleStore p = cloud(2500, 0.04, 2.5, 21 + variant);
        const std::vector<Wall> walls{Wall{}};  // a floor at z = 0 (wall contacts come last)
        Collider incremental;
        ContactSet first, again, fresh;
        const CollisionParams params{kMargin, kStep};
        incremental.detect(p, walls, {}, params, first);

        std::mt19937 rng(variant);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        size_t fastest = 0;  // kept as it is, so that the top speed stays (variants 0, 1)
        for (size_t i = 0; i < p.size(); ++i)
            if (p.velocity[i].norm() > p.velocity[fastest].norm()) fastest = i;
        const double vMax = p.velocity[fastest].norm();
        for (size_t i = 0; i < p.size(); ++i) {
            if (i == fastest) continue;
            const double u = unit(rng);
            if (u < 0.05) p.velocity[i] *= 0.2;  // stopped by an impact
            else if (u < 0.10) p.velocity[i] = Vec3(0.0, 0.0, 0.5 * vMax * unit(rng));  // struck
            else if (u < 0.12) p.position[i].x() = std::nextafter(p.position[i].x(), 1.0);
            else if (u < 0.13) p.position[i].y() += 0.4 * p.radius[i];  // moved for real
        }
        if (variant == 2) p.velocity[fastest] *= 2.0;  // a new top speed: everything again
        incremental.redetect(p, walls, {}, params, again);
        Collider().detect(p, walls, {}, params, fresh);
        ASSERT_GT(fresh.size(), 2000u);
        expectSameContacts(again, fresh);
        // And once more: the remembered pairs after a redetect serve the next one.
        for (size_t i = 0; i < p.size(); i += 7)
            if (i != fastest) p.velocity[i] *= 0.5;
        incremental.redetect(p, walls, {}, params, again);
        Collider().detect(p, walls, {}, params, fresh);
        expectSameContacts(again, fresh);
    }
}

}  // namespace
}  // namespace ndem
