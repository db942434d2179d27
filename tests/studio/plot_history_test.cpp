// The live plots' history: bounded memory, equal columns, and the step time split by whether
// model reduction was on (the Model reduction panel's resolved-vs-reduced plot).
#include "gui/plot_history.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ndem::app {
namespace {

StepStats stepTaking(double seconds, double solveSeconds, bool reduced) {
    StepStats s;
    s.time = seconds;
    s.seconds.solve = solveSeconds;
    s.reductionEnabled = reduced;
    return s;
}

TEST(PlotHistory, StepTimeGoesToTheResolvedOrReducedColumnByTheSwitch) {
    PlotHistory h;
    h.add(stepTaking(0.01, 0.200, false));
    h.add(stepTaking(0.02, 0.025, true));
    ASSERT_EQ(h.size(), 2u);
    EXPECT_FLOAT_EQ(h.stepMsResolved[0], 200.0f);
    EXPECT_TRUE(std::isnan(h.stepMsReduced[0]));
    EXPECT_FLOAT_EQ(h.stepMsReduced[1], 25.0f);
    EXPECT_TRUE(std::isnan(h.stepMsResolved[1]));
    EXPECT_FLOAT_EQ(h.stepMs[1], 25.0f);
}

TEST(PlotHistory, ALongRunKeepsItsWholeSpanInBoundedEqualColumns) {
    PlotHistory h(100);
    for (int i = 1; i <= 1000; ++i)
        h.add(stepTaking(0.01 * i, 0.001, i % 2 == 0));
    EXPECT_LT(h.size(), 100u);
    EXPECT_GT(h.size(), 25u);
    EXPECT_EQ(h.stepMsReduced.size(), h.size());
    EXPECT_EQ(h.stepMsResolved.size(), h.size());
    EXPECT_EQ(h.reductionLevel.size(), h.size());
    EXPECT_FLOAT_EQ(h.time.front(), 0.01f);
    EXPECT_GT(h.time.back(), 9.0f);  // halving resolution, not truncation
    h.clear();
    EXPECT_EQ(h.size(), 0u);
    EXPECT_TRUE(h.stepMsReduced.empty());
}

}  // namespace
}  // namespace ndem::app
