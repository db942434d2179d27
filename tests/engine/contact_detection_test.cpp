// Contact detection finds exactly the pairs within reach, listed by smaller storage index, then
// in the order of a hashed grid walk over the 27 cells around it (that order is the PGS sweep
// order, so it fixes the trajectories), and the neighbour lists behind it never miss a pair however
// the grains move.
#include "collide/collider.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
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
        s.velocity =
            dir * (unit(rng) < fastShare ? fastSpeed * (0.5 + unit(rng)) : 0.02 * unit(rng));
        p.add(s, 2500.0);
    }
    return p;
}

bool withinReach(const ParticleStore& p, size_t i, size_t j) {
    const double dist2 = (p.position[j] - p.position[i]).squaredNorm();
    const double reach = p.radius[i] + p.radius[j] + kMargin * std::min(p.radius[i], p.radius[j]) +
                         kStep * (p.velocity[i].norm() + p.velocity[j].norm());
    return dist2 < reach * reach && dist2 > 0.0;
}

/// The pairs (smaller storage index first) as the collider lists them.
std::vector<std::pair<Index, Index>> detected(const ParticleStore& p, int threads = 1) {
    Collider collider;
    ContactSet contacts;
    collider.detect(p, {}, {}, CollisionParams{kMargin, kStep, 0.5, threads}, contacts);
    std::vector<std::pair<Index, Index>> pairs;
    for (size_t c = 0; c < contacts.size(); ++c)
        pairs.emplace_back(std::min(contacts.bodyA[c], contacts.bodyB[c]),
                           std::max(contacts.bodyA[c], contacts.bodyB[c]));
    return pairs;
}

std::vector<std::pair<Index, Index>> allPairsWithinReach(const ParticleStore& p) {
    std::vector<std::pair<Index, Index>> pairs;
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = i + 1; j < p.size(); ++j)
            if (withinReach(p, i, j)) pairs.emplace_back(Index(i), Index(j));
    return pairs;
}

/// The reference order: one hashed grid with cells as wide as the fastest pair's reach, walked
/// particle by particle through the buckets of the 27 cells around it.
std::vector<std::pair<Index, Index>> gridWalkOrder(const ParticleStore& p) {
    double rMax = 0.0, vMax = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        rMax = std::max(rMax, p.radius[i]);
        vMax = std::max(vMax, p.velocity[i].norm());
    }
    BroadPhase grid;
    grid.build(p.position, 2.0 * rMax * (1.0 + kMargin) + 2.0 * vMax * kStep);
    std::vector<std::pair<Index, Index>> pairs;
    std::array<std::uint32_t, 27> buckets{};
    for (Index i = 0; i < static_cast<Index>(p.size()); ++i) {
        const int count = grid.neighbourBuckets(p.position[i], buckets);
        for (int s = 0; s < count; ++s)
            grid.forEachInBucket(buckets[s], [&](Index j) {
                if (j > i && withinReach(p, i, j)) pairs.emplace_back(i, j);
            });
    }
    return pairs;
}

TEST(ContactDetection, FindsEveryPairWithinReachInTheGridWalkOrder) {
    for (unsigned seed : {11u, 12u, 13u}) {
        const ParticleStore p = cloud(3000, 0.03, 2.0 + seed % 10, seed);
        const auto expected = gridWalkOrder(p);
        ASSERT_GT(expected.size(), 3000u);
        EXPECT_EQ(detected(p), expected) << "seed " << seed;
        EXPECT_EQ(detected(p, 2), expected) << "two threads, seed " << seed;
        EXPECT_EQ(detected(p, 3), expected) << "three threads, seed " << seed;
    }
}

TEST(ContactDetection, OneVeryFastGrainStillFindsItsPairs) {
    // Its search box covers more cells than the grid has buckets: it tests every grain.
    ParticleStore p = cloud(500, 0.0, 0.0, 5);
    p.velocity[17] = Vec3(400.0, 0.0, 0.0);  // reaches 2 m in one step
    const auto found = detected(p);
    EXPECT_EQ(found, gridWalkOrder(p));
    EXPECT_GT(std::count_if(found.begin(), found.end(),
                            [](const auto& q) { return q.first == 17 || q.second == 17; }),
              400);
}

TEST(ContactDetection, WithoutATimeStepOnlyTheMarginCounts) {
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

/// The pairs within the reach of contact.speculativeReach = largest, found by testing all.
std::vector<std::pair<Index, Index>> allPairsWithinLargestReach(const ParticleStore& p) {
    std::vector<std::pair<Index, Index>> pairs;
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = i + 1; j < p.size(); ++j) {
            const double closing = std::max({(p.velocity[j] - p.velocity[i]).norm(),
                                             p.velocity[i].norm(), p.velocity[j].norm()});
            const double reach = p.radius[i] + p.radius[j] +
                                 kMargin * std::min(p.radius[i], p.radius[j]) + kStep * closing;
            const double dist2 = (p.position[j] - p.position[i]).squaredNorm();
            if (dist2 < reach * reach) pairs.emplace_back(Index(i), Index(j));
        }
    return pairs;
}

std::vector<std::pair<Index, Index>> sorted(std::vector<std::pair<Index, Index>> pairs) {
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

TEST(ContactDetection, LargestReachDropsGrainsFallingTogetherKeepsStoppingAndHeadOnPairs) {
    // Gap g between two grains of radius 5 mm; h·v = 0.5 mm for v = 0.1 m/s, h = 5 ms.
    const double r = 0.005, v = 0.1, gap = 1.5 * kStep * v + kMargin * r;
    auto pair = [&](const Vec3& vi, const Vec3& vj) {
        ParticleStore p;
        ParticleSpec s;
        s.radius = r;
        s.position = Vec3::Zero();
        s.velocity = vi;
        p.add(s, 2500.0);
        s.position = Vec3(2.0 * r + gap, 0.0, 0.0);
        s.velocity = vj;
        p.add(s, 2500.0);
        return p;
    };
    auto count = [](const ParticleStore& p, SpeculativeReach reach) {
        Collider collider;
        ContactSet contacts;
        collider.detect(p, {}, {}, CollisionParams{kMargin, kStep, 0.5, 1, reach}, contacts);
        return contacts.size();
    };
    const Vec3 down(0.0, 0.0, -v), towards(v, 0.0, 0.0);
    // Falling side by side: within h(|v_i| + |v_j|) = 2hv, beyond h·max(...) = hv.
    EXPECT_EQ(count(pair(down, down), SpeculativeReach::Sum), 1u);
    EXPECT_EQ(count(pair(down, down), SpeculativeReach::Largest), 0u);
    // Head-on at v each: |v_i − v_j| = 2v, kept by both.
    EXPECT_EQ(count(pair(towards, -towards), SpeculativeReach::Largest), 1u);
    // One at rest, the other flying at it at 2v: kept by both.
    EXPECT_EQ(count(pair(2.0 * towards, Vec3::Zero()), SpeculativeReach::Largest), 1u);
    // A cloud: the same pairs as testing all, a subset of the sum's.
    for (unsigned seed : {21u, 22u}) {
        const ParticleStore p = cloud(2000, 0.05, 3.0, seed);
        Collider collider;
        ContactSet contacts;
        collider.detect(p, {}, {},
                        CollisionParams{kMargin, kStep, 0.5, 2, SpeculativeReach::Largest},
                        contacts);
        std::vector<std::pair<Index, Index>> found;
        for (size_t c = 0; c < contacts.size(); ++c)
            found.emplace_back(std::min(contacts.bodyA[c], contacts.bodyB[c]),
                               std::max(contacts.bodyA[c], contacts.bodyB[c]));
        const auto expected = allPairsWithinLargestReach(p);
        EXPECT_EQ(sorted(found), expected) << "seed " << seed;
        EXPECT_LT(expected.size(), allPairsWithinReach(p).size()) << "seed " << seed;
    }
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
        if (a.flags[c] & kWallContact) {
            ASSERT_EQ(a.wallVelocity[c], b.wallVelocity[c]) << c;
        }
    }
}

/// A packing of n grains at rest (no grain moves during a step).
ParticleStore restingCloud(int n, unsigned seed) {
    ParticleStore p = cloud(n, 0.0, 0.0, seed);
    for (Vec3& v : p.velocity)
        v.setZero();
    return p;
}

/// Detects with the kept lists and with a fresh search, and expects the same contacts.
void expectListsFindWhatASearchFinds(Collider& kept, const ParticleStore& p,
                                     const std::vector<Wall>& walls,
                                     const CollisionParams& params) {
    ContactSet listed, fresh;
    kept.detect(p, walls, {}, params, listed);
    Collider().detect(p, walls, {}, params, fresh);
    expectSameContacts(listed, fresh);
}

/// Walls of every listed kind in and around the cloud of cloud(2500, …) (0.16 m wide): a floor,
/// a tilted plane that cuts through it, an oblique box inside it, a cylinder around it and a
/// plane moving into it. Wall contacts come after the pairs.
std::vector<Wall> wallsThroughTheCloud() {
    std::vector<Wall> walls(5);
    walls[1].position = Vec3(0.12, 0.0, 0.0);
    walls[1].orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3(-1.0, 0.2, 0.3).normalized());
    walls[2].shape = WallShape::Box;
    walls[2].position = Vec3(0.08, 0.08, 0.08);
    walls[2].orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1.0, 1.0, 0.0).normalized()));
    walls[2].halfExtents = Vec3(0.02, 0.015, 0.03);
    walls[3].shape = WallShape::Cylinder;
    walls[3].position = Vec3(0.08, 0.08, 0.01);
    walls[3].radius = 0.075;
    walls[3].height = 0.12;
    walls[4].position = Vec3(0.0, 0.16, 0.0);
    walls[4].orientation = Quat::FromTwoVectors(Vec3::UnitZ(), -Vec3::UnitY());
    walls[4].linearVelocity = Vec3(0.0, -0.05, 0.0);
    return walls;
}

TEST(ContactDetection, ListsKeptAcrossStepsFindWhatAFreshSearchFinds) {
    // Grains creep, a few fly, some are struck (the impact stage) or stopped, some jump (an
    // aggregate re-formed, a user dragged one). The lists are searched again only when needed,
    // and every step lists exactly what a fresh detection lists.
    for (double skin : {0.0, 0.5, 2.0}) {
        ParticleStore p = cloud(2500, 0.02, 2.0, 31);
        std::vector<Wall> walls = wallsThroughTheCloud();
        const CollisionParams params{kMargin, kStep, skin};
        Collider kept;
        ContactSet listed, fresh;
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const int steps = 60;
        for (int step = 0; step < steps; ++step) {
            kept.detect(p, walls, {}, params, listed);
            Collider().detect(p, walls, {}, params, fresh);
            ASSERT_GT(fresh.size(), 1500u);
            expectSameContacts(listed, fresh);
            // Still walls keep candidates with the lists: edits must reach them.
            if (step == 20) walls[3].radius -= 0.01;
            if (step == 30) walls[2].position.x() += 0.004;
            if (step == 40) walls[0].surfaceVelocity = Vec3(0.5, 0.0, 0.0);
            if (step == 45) walls[4].linearVelocity.setZero();  // stops: still from now on
            for (Wall& w : walls)
                w.move(kStep);
            for (size_t i = 0; i < p.size(); ++i) {
                p.position[i] += kStep * p.velocity[i];
                if (step % 10 != 5) continue;
                const double u = unit(rng);
                if (u < 0.004)
                    p.velocity[i] = Vec3(0.0, 0.0, 3.0 * unit(rng));  // struck
                else if (u < 0.008)
                    p.velocity[i] *= 0.1;  // stopped
                else if (u < 0.010)
                    p.position[i].x() += 0.5 * p.radius[i];  // jumped
            }
        }
        const long builds = kept.neighbours().builds();
        if (skin > 0.0) {
            EXPECT_LT(builds, steps / 2) << "skin " << skin;
        }
    }
}

TEST(ContactDetection, TouchingOnlyKeepsTheTouchingWallContactsInTheirOrder) {
    // The smooth DEM's wall detection: the touching wall contacts of the full one (walls of
    // every kind), in the same order and with the same geometry, so its force sums, taken in
    // contact order, are the same bit for bit; the gaps, which carry nothing, are gone. The
    // pairs of grains are not affected (the smooth DEM tests them on the lists itself).
    ParticleStore p = cloud(2500, 0.02, 2.0, 17);
    const std::vector<Wall> walls = wallsThroughTheCloud();
    ContactSet full, touching;
    Collider a, b;
    CollisionParams params{kMargin, kStep, 0.5, 2};
    a.detect(p, walls, {}, params, full);
    params.touchingOnly = true;
    b.detect(p, walls, {}, params, touching);
    auto wallContacts = [](const ContactSet& c, bool touchingOnly) {
        std::vector<size_t> kept;
        for (size_t k = 0; k < c.size(); ++k)
            if ((c.flags[k] & kWallContact) && (!touchingOnly || (c.flags[k] & kTouching)))
                kept.push_back(k);
        return kept;
    };
    const std::vector<size_t> expected = wallContacts(full, true);
    const std::vector<size_t> got = wallContacts(touching, false);
    ASSERT_GT(expected.size(), 20u);
    ASSERT_LT(expected.size(), wallContacts(full, false).size());
    ASSERT_EQ(got.size(), expected.size());
    for (size_t k = 0; k < expected.size(); ++k) {
        const size_t c = expected[k], t = got[k];
        ASSERT_EQ(touching.key[t], full.key[c]) << k;
        ASSERT_EQ(touching.normal[t], full.normal[c]) << k;
        ASSERT_EQ(touching.leverA[t], full.leverA[c]) << k;
        ASSERT_EQ(touching.overlap[t], full.overlap[c]) << k;
        ASSERT_EQ(touching.flags[t], full.flags[c]) << k;
    }
}

TEST(ContactDetection, AnAddedGrainAndAJumpingOneDoNotSearchEverything) {
    // They escape the lists and find their pairs by themselves, until there are too many.
    ParticleStore p = restingCloud(2000, 4);
    const CollisionParams params{kMargin, kStep, 0.5};
    Collider kept;
    expectListsFindWhatASearchFinds(kept, p, {}, params);
    ParticleSpec added;
    added.radius = 0.005;
    for (int k = 0; k < 12; ++k) {
        added.position = p.position[37 * k] + Vec3(0.0, 0.0, 0.008);  // on a grain, touching
        added.velocity = Vec3(0.0, 0.0, -0.5);
        p.add(added, 2500.0);
        p.position[101 * k].x() += 0.6 * p.radius[101 * k];  // a rattler jumps
        p.velocity[151 * k] = Vec3(3.0, 0.0, 0.0);           // one is struck
        expectListsFindWhatASearchFinds(kept, p, {}, params);
    }
    EXPECT_EQ(kept.neighbours().builds(), 1);
    // Past a few hundred escaped grains, one search is cheaper.
    for (size_t i = 0; i < p.size(); i += 5)
        p.velocity[i] = Vec3(0.0, 2.0, 0.0);
    expectListsFindWhatASearchFinds(kept, p, {}, params);
    EXPECT_EQ(kept.neighbours().builds(), 2);
}

TEST(ContactDetection, GrainsThatStayOutOfTheirListsAddUpToASearch) {
    // One rattler more jumps every step and none comes back: step k handles k escaped grains.
    // Once the escaped grains of all steps add up to the grains, one search was cheaper.
    ParticleStore p = restingCloud(2000, 6);
    const CollisionParams params{kMargin, kStep, 0.5};
    Collider kept;
    ContactSet listed;
    kept.detect(p, {}, {}, params, listed);
    size_t escapedSteps = 0;
    for (size_t k = 1; k <= 70; ++k) {
        p.position[29 * k].x() += 0.6 * p.radius[29 * k];
        escapedSteps += k;
        kept.detect(p, {}, {}, params, listed);
        ASSERT_EQ(kept.neighbours().builds(), escapedSteps <= p.size() ? 1 : 2) << "step " << k;
        if (escapedSteps > p.size()) break;
    }
    EXPECT_EQ(kept.neighbours().builds(), 2);
    ContactSet fresh;
    Collider().detect(p, {}, {}, params, fresh);
    expectSameContacts(listed, fresh);
}

TEST(ContactDetection, RemovedGrainsDoNotMakeEveryGrainSearchAgain) {
    // A sink removes grains (the last one moves into the slot): the moved grains and the
    // slots past the new end escape the lists; the rest keep theirs. Floor contacts included.
    ParticleStore p = restingCloud(2000, 5);
    const std::vector<Wall> floor{Wall{}};
    const CollisionParams params{kMargin, kStep, 0.5};
    Collider kept;
    expectListsFindWhatASearchFinds(kept, p, floor, params);
    for (int k = 0; k < 10; ++k) {
        p.remove(static_cast<Index>(53 * k + 7));
        p.remove(static_cast<Index>(p.size() - 1 - k));  // the last slots go too
        expectListsFindWhatASearchFinds(kept, p, floor, params);
    }
    EXPECT_EQ(kept.neighbours().builds(), 1);
    EXPECT_EQ(p.size(), 1980u);
}

TEST(ContactDetection, ARestingPackingIsSearchedOnce) {
    ParticleStore p = restingCloud(2000, 3);
    Collider collider;
    ContactSet contacts;
    const std::vector<Wall> floor{Wall{}};
    for (int step = 0; step < 20; ++step) {
        for (size_t i = 0; i < p.size(); i += 3)
            p.position[i].z() += 1e-6;  // settling creep
        collider.detect(p, floor, {}, CollisionParams{kMargin, kStep, 0.5}, contacts);
    }
    EXPECT_EQ(collider.neighbours().builds(), 1);
    // Only the grains near the floor are tested against it: those within reach plus skin.
    size_t nearFloor = 0;
    for (size_t i = 0; i < p.size(); ++i)
        nearFloor += p.position[i].z() < 1.05 * p.radius[i] + 0.5 * 0.5 * p.radius[i];
    EXPECT_GE(collider.wallTests(), nearFloor);
    EXPECT_LT(collider.wallTests(), p.size() / 5);
    std::vector<std::pair<Index, Index>> pairs;
    for (size_t c = 0; c < contacts.size(); ++c) {
        if (contacts.flags[c] & kWallContact) continue;
        pairs.emplace_back(std::min(contacts.bodyA[c], contacts.bodyB[c]),
                           std::max(contacts.bodyA[c], contacts.bodyB[c]));
    }
    std::sort(pairs.begin(), pairs.end());
    EXPECT_EQ(pairs, allPairsWithinReach(p));
}

}  // namespace
}  // namespace ndem
