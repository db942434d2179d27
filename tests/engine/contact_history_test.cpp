// The contact memory finds each contact's record of the last step by its key, whatever the order
// the contacts come in, the thread count, or a key seen twice.
#include "collide/contact_set.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

namespace ndem {
namespace {

void addPair(ContactSet& c, std::uint32_t idA, std::uint32_t idB, double impulse, bool touching) {
    const size_t k = c.add(0, 1, Vec3::UnitZ(), Vec3::Zero(), Vec3::Zero(), touching ? 1e-4 : -1e-3,
                           0.01, 0.005, 0, 0, particlePairKey(idA, idB), touching ? kTouching : 0);
    c.normalImpulse[k] = impulse;
}

/// A set of `owners` grains with `perOwner` partners each; impulse = 1000 a + b.
ContactSet pairs(std::uint32_t owners, std::uint32_t perOwner) {
    ContactSet c;
    for (std::uint32_t a = 0; a < owners; ++a)
        for (std::uint32_t b = 1; b <= perOwner; ++b)
            addPair(c, a, a + b, 1000.0 * a + (a + b), (a + b) % 3 != 0);
    return c;
}

TEST(ContactHistory, FindsEveryKeyInAnyOrderAndMarksWhatTouched) {
    const ContactSet last = pairs(50, 4);
    ContactHistory history;
    history.store(last, 60);

    // The next step: the same pairs shuffled, some gone, some new.
    ContactSet next;
    std::vector<int> order(last.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    for (int k : order)
        if (k % 5 != 0)
            addPair(next, keyOwner(last.key[k]), static_cast<std::uint32_t>(last.key[k]), 0.0,
                    false);
    addPair(next, 3, 59, 0.0, false);   // new partner of a known owner
    addPair(next, 55, 56, 0.0, false);  // owner without records
    history.match(next);

    int matched = 0;
    for (size_t i = 0; i < next.size(); ++i) {
        const std::uint32_t a = keyOwner(next.key[i]), b = static_cast<std::uint32_t>(next.key[i]);
        const bool known = b > a && b - a <= 4 && a < 50;
        if (!known) {
            EXPECT_EQ(next.memory[i], -1) << a << "-" << b;
            continue;
        }
        ASSERT_GE(next.memory[i], 0) << a << "-" << b;
        const ContactMemory& m = history[next.memory[i]];
        EXPECT_EQ(m.key, next.key[i]);
        EXPECT_DOUBLE_EQ(m.normalImpulse, 1000.0 * a + b);
        // Every stored contact carried an impulse (1000 a + b > 0), so each was loaded.
        EXPECT_TRUE(next.flags[i] & kWasTouching);
        ++matched;
    }
    EXPECT_EQ(matched, static_cast<int>(next.size()) - 2);
}

TEST(ContactHistory, UnloadedGapsAreNotRememberedAsTouching) {
    ContactSet last;
    addPair(last, 1, 2, 0.0, false);  // a gap that carried nothing
    addPair(last, 1, 3, 0.0, true);   // touching without load
    addPair(last, 2, 4, 0.5, false);  // a gap the solve closed
    ContactHistory history;
    history.store(last, 5);
    ContactSet next;
    for (auto [a, b] : {std::pair{1u, 2u}, {1u, 3u}, {2u, 4u}})
        addPair(next, a, b, 0.0, false);
    history.match(next);
    EXPECT_FALSE(next.flags[0] & kWasTouching);
    EXPECT_TRUE(next.flags[1] & kWasTouching);
    EXPECT_TRUE(next.flags[2] & kWasTouching);
}

TEST(ContactHistory, AKeyStoredTwiceMatchesItsFirstRecord) {
    ContactSet last;
    addPair(last, 1, 2, 1.0, true);
    addPair(last, 1, 3, 2.0, true);
    addPair(last, 1, 2, 3.0, true);
    ContactHistory history;
    history.store(last, 4);
    ContactSet next;
    addPair(next, 1, 3, 0.0, false);  // matched to record 1: record 2 would be tried next
    addPair(next, 1, 2, 0.0, false);
    history.match(next);
    EXPECT_EQ(next.memory[0], 1);
    EXPECT_EQ(next.memory[1], 0);
}

TEST(ContactHistory, TheSameRecordsForAnyThreadCount) {
    const ContactSet last = pairs(3000, 5);  // 15 000 contacts: the store splits them
    std::vector<std::int32_t> memory[2];
    for (int threads : {1, 2}) {
        ContactHistory history;
        history.store(last, 3010, threads);
        ContactSet next = pairs(3000, 5);
        history.match(next, threads);
        memory[threads - 1] = next.memory;
        for (size_t i = 0; i < next.size(); ++i)
            ASSERT_EQ(history[next.memory[i]].key, next.key[i]);
    }
    EXPECT_EQ(memory[0], memory[1]);
}

TEST(ContactSet, KeepOnlyKeepsEveryArrayInStep) {
    // Five contacts, each array holding the contact's number; keeping 0, 2 and 3 leaves every
    // array three long with those numbers in order (the springs, unsized, stay empty).
    ContactSet c;
    for (int k = 0; k < 5; ++k) {
        const double v = k;
        c.add(k, k + 10, Vec3(v, 0, 0), Vec3(v, 1, 0), Vec3(v, 2, 0), v, v + 1, v + 2,
              static_cast<MaterialId>(k), static_cast<MaterialId>(k + 1), 100u + k,
              static_cast<std::uint8_t>(k));
        c.memory[k] = k;
        c.normalImpulse[k] = v;
        c.frictionImpulse[k] = Vec3(v, v, v);
        c.rollingImpulse[k] = Vec3(v, 0, v);
        c.impactImpulse[k] = v;
        c.hertzScale[k] = v;
        c.wallVelocity[k] = Vec3(0, v, 0);
        c.wallAngularVelocity[k] = Vec3(0, 0, v);
    }
    c.keepOnly({1, 0, 1, 1, 0});
    ASSERT_EQ(c.size(), 3u);
    const int kept[3] = {0, 2, 3};
    for (size_t i = 0; i < 3; ++i) {
        const int k = kept[i];
        const double v = k;
        EXPECT_EQ(c.bodyA[i], k);
        EXPECT_EQ(c.bodyB[i], k + 10);
        EXPECT_EQ(c.normal[i], Vec3(v, 0, 0));
        EXPECT_EQ(c.leverA[i], Vec3(v, 1, 0));
        EXPECT_EQ(c.leverB[i], Vec3(v, 2, 0));
        EXPECT_EQ(c.overlap[i], v);
        EXPECT_EQ(c.diameter[i], v + 1);
        EXPECT_EQ(c.effectiveDiameter[i], v + 2);
        EXPECT_EQ(c.materialA[i], k);
        EXPECT_EQ(c.materialB[i], k + 1);
        EXPECT_EQ(c.key[i], 100u + k);
        EXPECT_EQ(c.flags[i], k);
        EXPECT_EQ(c.memory[i], k);
        EXPECT_EQ(c.normalImpulse[i], v);
        EXPECT_EQ(c.frictionImpulse[i], Vec3(v, v, v));
        EXPECT_EQ(c.rollingImpulse[i], Vec3(v, 0, v));
        EXPECT_EQ(c.impactImpulse[i], v);
        EXPECT_EQ(c.hertzScale[i], v);
        EXPECT_EQ(c.wallVelocity[i], Vec3(0, v, 0));
        EXPECT_EQ(c.wallAngularVelocity[i], Vec3(0, 0, v));
    }
    EXPECT_TRUE(c.tangentialSpring.empty());
    EXPECT_TRUE(c.rollingSpring.empty());
}

}  // namespace
}  // namespace ndem
