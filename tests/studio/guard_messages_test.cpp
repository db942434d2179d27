// The guards' warnings as the window shows them: once each, those of one snapshot together.
#include "gui/guard_messages.hpp"

#include <gtest/gtest.h>

namespace ndem::app {
namespace {

RunWarning warning(const char* kind, const char* message) {
    RunWarning w;
    w.kind = kind;
    w.message = message;
    return w;
}

TEST(GuardMessages, WarningsOfOneSnapshotAreOneMessageCauseFirstAndEachIsGivenOnce) {
    GuardMessages messages;
    Snapshot s;
    s.warnings = {warning("static", "step 1: no static equilibrium"),
                  warning("escape", "step 1: grain 1 behind the floor")};
    const std::vector<std::string> first = messages.take(s);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0],
              "warning: step 1: no static equilibrium · then: step 1: grain 1 behind the floor");
    EXPECT_TRUE(messages.take(s).empty());  // given once
    s.warnings.push_back(warning("overlap", "step 2: overlap"));
    const std::vector<std::string> later = messages.take(s);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_EQ(later[0], "warning: step 2: overlap");
    ++s.worldGeneration;  // a new world gives its warnings again
    EXPECT_EQ(messages.take(s).size(), 1u);
}

}  // namespace
}  // namespace ndem::app
