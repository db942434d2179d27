// The ndem-studio command line: what it accepts and the one-line errors it gives.
#include "gui/studio_options.hpp"

#include <gtest/gtest.h>

namespace ndem::app {
namespace {

TEST(StudioOptions, ReadsSceneOverridesAndTheUnattendedModes) {
    StudioOptions o;
    ASSERT_FALSE(parseStudioOptions(
        {"a.json", "--set", "solver.iterations=50", "--record", "v.mp4", "--sim-seconds", "1.5",
         "--fps", "25", "--size", "800x600", "--colour", "pressure", "--forces", "--threads", "2"},
        o));
    ASSERT_EQ(o.overrides.size(), 2u);
    EXPECT_EQ(o.overrides[1].key, "threads");
    EXPECT_EQ(o.overrides[1].value, "2");
    EXPECT_EQ(o.scene, "a.json");
    EXPECT_EQ(o.overrides[0].key, "solver.iterations");
    EXPECT_EQ(o.record, "v.mp4");
    EXPECT_DOUBLE_EQ(o.simSeconds, 1.5);
    EXPECT_DOUBLE_EQ(o.videoFps, 25.0);
    EXPECT_EQ(o.width, 800);
    EXPECT_EQ(o.height, 600);
    EXPECT_EQ(o.colour, "pressure");
    EXPECT_TRUE(o.forces);
}

TEST(StudioOptions, RefusesBadValuesNamingFlagAndValue) {
    auto error = [](std::vector<std::string> args) {
        StudioOptions o;
        return parseStudioOptions(args, o).value_or("");
    };
    EXPECT_EQ(error({"--frames", "x"}), "--frames x: expected a whole number from 1 to 10^6");
    EXPECT_EQ(error({"--screenshot", "a.jpg"}), "--screenshot a.jpg: expected a .png file name");
    EXPECT_EQ(error({"--sim-seconds", "-1"}), "--sim-seconds -1: expected a time > 0 in seconds");
    EXPECT_EQ(error({"--fps", "nan"}),
              "--fps nan: expected frames per simulated second in (0, 240]");
    EXPECT_EQ(error({"--size", "10x10"}), "--size 10x10: expected WxH with 64 <= W, H <= 8192");
    EXPECT_EQ(error({"--size", "800"}), "--size 800: expected WxH with 64 <= W, H <= 8192");
    EXPECT_EQ(error({"--colour", "blue"}),
              "--colour blue: expected one of speed, co-rotation, height, contacts, pressure, "
              "aggregate, id");
    EXPECT_EQ(error({"--color", "blue"}).rfind("--colour blue:", 0), 0u);
    EXPECT_EQ(error({"--panel", "x"}).rfind("--panel x: expected one of simulation,", 0), 0u);
    EXPECT_EQ(error({"--record"}), "--record needs a value");
    EXPECT_EQ(error({"--bogus"}), "unknown option '--bogus' (try `ndem-studio --help`)");
    EXPECT_EQ(error({"--threads", "0"}),
              "--threads 0: expected a whole number of threads from 1 to 1024 (leave --threads "
              "out to use every core)");
    EXPECT_NE(error({"--threads", "1025"}), "");
    EXPECT_NE(error({"--threads", "-2"}), "");
    EXPECT_EQ(error({"--set", "nokeyvalue"}), "--set nokeyvalue: expected key=value");
    EXPECT_EQ(error({"a.json", "b.json"}),
              "unexpected argument 'b.json' (try `ndem-studio --help`)");
    EXPECT_EQ(error({"--screenshot", "a.png", "--record", "b.mp4"}),
              "--screenshot and --record: choose one");
}

TEST(StudioOptions, HelpListsEveryFlagWhateverElseIsGiven) {
    StudioOptions o;
    ASSERT_FALSE(parseStudioOptions({"--frames", "x", "-h"}, o));
    EXPECT_EQ(o.help.rfind("usage: ndem-studio [SCENE]", 0), 0u) << o.help;
    for (const char* flag :
         {"--set KEY=VALUE", "--threads N", "--screenshot FILE.png", "--record FILE.mp4",
          "--colour,--color MODE", "--panel NAME", "--size WxH", "xvfb-run -a"})
        EXPECT_NE(o.help.find(flag), std::string::npos) << flag << " not in:\n" << o.help;
}

}  // namespace
}  // namespace ndem::app
