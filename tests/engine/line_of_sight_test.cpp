// Potential contacts in line of sight (krabbenhoft-2012 Sec. 2.8): a speculative pair whose line
// of centres runs through a third grain is dropped; touching pairs, pairs beside a grain and wall
// contacts stay, in their order.
#include "collide/line_of_sight.hpp"
#include "collide/collider.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

namespace ndem {
namespace {

constexpr double kR = 0.005;

std::set<std::pair<Index, Index>> pairsOf(const ContactSet& c) {
    std::set<std::pair<Index, Index>> out;
    for (size_t k = 0; k < c.size(); ++k)
        if (!(c.flags[k] & kWallContact))
            out.emplace(std::min(c.bodyA[k], c.bodyB[k]), std::max(c.bodyA[k], c.bodyB[k]));
    return out;
}

TEST(LineOfSight, ARowOfGrainsRushingTogetherKeepsOnlyNeighboursAndTheGrainBesideIt) {
    // Five grains on the x axis, 0.2 r apart, closing at 1 m/s each towards the middle one:
    // at h = 20 ms every pair is within reach. Grain 5 sits above the gap between 0 and 1, its
    // centre 1.5 r off the axis: it hides nothing (no line of centres passes within its radius)
    // but the line from 0 to 2 passes through grain 1, so 0–2 goes, 0–1 and 1–2 stay.
    ParticleStore p;
    for (int i = 0; i < 5; ++i) {
        ParticleSpec s;
        s.radius = kR;
        s.position = Vec3(i * 2.2 * kR, 0.0, 0.0);
        s.velocity = Vec3(i < 2 ? 1.0 : (i > 2 ? -1.0 : 0.0), 0.0, 0.0);
        p.add(s, 2500.0);
    }
    ParticleSpec above;
    above.radius = kR;
    above.position = Vec3(1.1 * kR, 0.0, 2.6 * kR);
    p.add(above, 2500.0);
    Wall floor;
    floor.position = Vec3(0.0, 0.0, -kR);  // touching all five
    Collider collider;
    ContactSet contacts;
    CollisionParams params;
    params.timeStep = 0.02;
    collider.detect(p, {floor}, {}, params, contacts);
    const auto before = pairsOf(contacts);
    ASSERT_TRUE(before.count({0, 4})) << "every pair of the row within reach";
    const size_t walls =
        static_cast<size_t>(std::count_if(contacts.flags.begin(), contacts.flags.end(),
                                          [](std::uint8_t f) { return (f & kWallContact) != 0; }));
    ASSERT_GE(walls, 5u);

    const int dropped = dropHiddenPairs(p, params.timeStep, contacts);
    const auto after = pairsOf(contacts);
    // The row keeps its four neighbour pairs and loses the six that skip a grain.
    for (Index i = 0; i < 4; ++i)
        EXPECT_TRUE(after.count({i, i + 1})) << i;
    for (Index i = 0; i < 5; ++i)
        for (Index j = i + 2; j < 5; ++j)
            EXPECT_FALSE(after.count({i, j})) << i << "-" << j;
    // Grain 5, at rest, is within reach of the two moving grains below it and sees both.
    for (Index i : {0, 1}) {
        EXPECT_TRUE(before.count({i, 5})) << i;
        EXPECT_TRUE(after.count({i, 5})) << i;
    }
    EXPECT_EQ(dropped, static_cast<int>(before.size() - after.size()));
    EXPECT_EQ(dropped, 6);
    EXPECT_EQ(
        static_cast<size_t>(std::count_if(contacts.flags.begin(), contacts.flags.end(),
                                          [](std::uint8_t f) { return (f & kWallContact) != 0; })),
        walls);
    // The arrays stay consistent: each contact's key still names its own two grains.
    for (size_t k = 0; k < contacts.size(); ++k) {
        if (contacts.flags[k] & kWallContact) continue;
        const auto ida = p.id[contacts.bodyA[k]], idb = p.id[contacts.bodyB[k]];
        EXPECT_EQ(contacts.key[k], particlePairKey(std::min(ida, idb), std::max(ida, idb)));
    }
}

TEST(LineOfSight, AGrainLeavingTheLineWithinTheStepHidesNothing) {
    // Grains 0 and 2 close on each other over grain 1. At rest, grain 1 hides them; moving
    // across their line at 0.2 m/s it is 4 mm (0.8 r) off it after the 20 ms step, still inside:
    // hidden; at 1 m/s it is gone after 5 ms: the pair stays.
    for (const double across : {0.0, 0.2, 1.0}) {
        ParticleStore p;
        for (int i = 0; i < 3; ++i) {
            ParticleSpec s;
            s.radius = kR;
            s.position = Vec3(i * 2.2 * kR, 0.0, 0.0);
            s.velocity = i == 1 ? Vec3(0.0, 0.0, across) : Vec3(i == 0 ? 1.0 : -1.0, 0.0, 0.0);
            p.add(s, 2500.0);
        }
        Collider collider;
        ContactSet contacts;
        CollisionParams params;
        params.timeStep = 0.02;
        collider.detect(p, {}, {}, params, contacts);
        ASSERT_TRUE(pairsOf(contacts).count({0, 2})) << across;
        dropHiddenPairs(p, params.timeStep, contacts);
        EXPECT_EQ(pairsOf(contacts).count({0, 2}), across < 0.5 ? 0u : 1u) << across;
        EXPECT_TRUE(pairsOf(contacts).count({0, 1}) && pairsOf(contacts).count({1, 2})) << across;
    }
}

TEST(LineOfSight, TouchingPairsStayWhateverLiesBetween) {
    // Two large grains overlapping around a small one at their common point: touching, kept.
    ParticleStore p;
    for (const double x : {0.0, 1.9 * kR}) {
        ParticleSpec s;
        s.radius = kR;
        s.position = Vec3(x, 0.0, 0.0);
        p.add(s, 2500.0);
    }
    ParticleSpec small;
    small.radius = 0.2 * kR;
    small.position = Vec3(0.95 * kR, 0.0, 0.0);
    p.add(small, 2500.0);
    Collider collider;
    ContactSet contacts;
    collider.detect(p, {}, {}, CollisionParams{}, contacts);
    ASSERT_TRUE(pairsOf(contacts).count({0, 1}));
    EXPECT_EQ(dropHiddenPairs(p, 0.02, contacts), 0);
    EXPECT_TRUE(pairsOf(contacts).count({0, 1}));
}

}  // namespace
}  // namespace ndem
