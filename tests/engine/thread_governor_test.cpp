// The thread count of "every core" chosen by measurement (core/parallel.hpp).
#include "core/parallel.hpp"

#include <gtest/gtest.h>

namespace ndem {
namespace {

/// Runs `steps` steps with the given cost per thread count; returns how many used one thread.
int stepsOnOneThread(ThreadGovernor& g, int steps, double costOne, double costAll) {
    int one = 0;
    for (int k = 0; k < steps; ++k) {
        const int t = g.threads(0);
        one += t == 1;
        g.record(t, t == 1 ? costOne : costAll);
    }
    return one;
}

TEST(ThreadGovernor, AnExplicitCountIsKept) {
    ThreadGovernor g;
    for (int k = 0; k < 50; ++k) {
        EXPECT_EQ(g.threads(3), 3);
        g.record(3, 1.0);
    }
    EXPECT_EQ(g.threads(5000), kMaxThreads);
}

TEST(ThreadGovernor, EveryCoreChoosesTheFasterCountAndProbesTheOtherRarely) {
    if (hardwareThreads() < 2) GTEST_SKIP() << "one core: nothing to choose";
    ThreadGovernor busy;  // a loaded machine: one thread is 20× faster
    EXPECT_GT(stepsOnOneThread(busy, 2000, 1.0, 20.0), 1985);
    ThreadGovernor quiet;  // two threads 1.6× faster
    EXPECT_LT(stepsOnOneThread(quiet, 2000, 1.6, 1.0), 100);
}

TEST(ThreadGovernor, FollowsALoadThatComesAndGoes) {
    if (hardwareThreads() < 2) GTEST_SKIP() << "one core: nothing to choose";
    ThreadGovernor g;
    stepsOnOneThread(g, 300, 1.6, 1.0);                   // quiet: every core
    EXPECT_GT(stepsOnOneThread(g, 500, 1.6, 20.0), 400);  // loaded: back to one thread
    EXPECT_LT(stepsOnOneThread(g, 2000, 1.6, 1.0), 900);  // quiet again: every core again
}

TEST(ThreadGovernor, ABriefSlowSpellOfEveryCoreDoesNotKeepItOnOneThread) {
    if (hardwareThreads() < 2) GTEST_SKIP() << "one core: nothing to choose";
    // Long quiet: every core wins by far, so the other count is probed more and more rarely.
    // Then the host slows the team for a few steps (a neighbour's burst): one thread takes
    // over, and must try every core again soon, not after the long interval of before.
    ThreadGovernor g;
    stepsOnOneThread(g, 3000, 2.0, 1.0);
    stepsOnOneThread(g, 10, 2.0, 5.0);
    EXPECT_LT(stepsOnOneThread(g, 200, 2.0, 1.0), 40);
}

}  // namespace
}  // namespace ndem
