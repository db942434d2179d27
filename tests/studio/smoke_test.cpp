// The app as a person runs it: open the silo, play, save a screenshot; record a video.
#include "studio_support.hpp"

#include <QImage>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <regex>

namespace ndem::test {
namespace {

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("ndem-studio-" + std::to_string(getpid()) + "-" + name))
        .string();
}

/// Share of pixels in a rectangle that satisfy `pred`.
template <class Pred>
double share(const QImage& image, int x0, int y0, int x1, int y1, Pred pred) {
    long hits = 0, all = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x, ++all)
            hits += pred(QColor(image.pixel(x, y))) ? 1 : 0;
    return all ? static_cast<double>(hits) / static_cast<double>(all) : 0.0;
}

TEST(StudioSmoke, SiloScreenshotShowsParticlesAndPanelsAndSnapshotsAdvance) {
    const std::string png = tempPath("silo.png");
    const RunResult r =
        run(studio("assets/scenes/silo.json --set particles.0.count=800 --size 1000x800 "
                   "--screenshot " +
                   png + " --frames 40"));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::smatch m;
    ASSERT_TRUE(
        std::regex_search(r.output, m, std::regex(R"(after (\d+) frames, (\d+) snapshots)")))
        << r.output;
    EXPECT_GE(std::stoi(m[1]), 40);
    EXPECT_GE(std::stoi(m[2]), 5) << "the sim thread published too few snapshots";

    QImage image(QString::fromStdString(png));
    ASSERT_FALSE(image.isNull());
    const int w = image.width(), h = image.height();
    // Particles: colour-map pixels in the middle of the view, where the silo stands, between the
    // Simulation panel and the Plots panel (from 57 % of the width; its tabs are ImGui blues).
    // The background, walls and floor are greys. The colour map's dark end (viridis' purple,
    // max − min ≈ 80) counts too: how far the bed has settled after 40 frames depends on how
    // fast the machine steps, and a settled bed is mostly dark. Measured: 0.16-0.20 with the
    // 800 grains, 0.016 with a single grain in view.
    const double particles =
        share(image, w * 35 / 100, h / 10, w * 56 / 100, h * 95 / 100, [](const QColor& c) {
            return std::max({c.red(), c.green(), c.blue()}) -
                       std::min({c.red(), c.green(), c.blue()}) >
                   60;
        });
    EXPECT_GT(particles, 0.05) << "no particles drawn";
    // The Simulation panel at the top left: ImGui's dark window background (darker than the
    // viewport's clear colour) with light label text on it.
    const double panel = share(image, 15, 40, 300, 300, [](const QColor& c) {
        return c.red() < 24 && c.green() < 24 && c.blue() < 26;
    });
    const double text = share(image, 15, 40, 300, 300, [](const QColor& c) {
        return c.red() > 180 && c.green() > 180 && c.blue() > 180;
    });
    EXPECT_GT(panel, 0.3) << "no panel background";
    EXPECT_GT(text, 0.005) << "no panel text";
    std::filesystem::remove(png);
}

TEST(StudioSmoke, TwoSimulatedSecondsAt30FpsGiveA60FrameH264Video) {
    const std::string mp4 = tempPath("drum.mp4");
    const RunResult r =
        run(studio("assets/scenes/drum.json --set solver.iterations=15 --size 640x480 "
                   "--record " +
                   mp4 + " --sim-seconds 2 --fps 30"));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(\((\d+)x(\d+), (\d+) frames\))")))
        << r.output;
    const std::string width = m[1], height = m[2];
    EXPECT_EQ(std::stoi(m[3]), 60);
    const RunResult probe =
        run("ffprobe -v error -select_streams v:0 -count_frames -show_entries "
            "stream=codec_name,width,height,nb_read_frames -of csv=p=0 " +
            mp4);
    ASSERT_EQ(probe.exitCode, 0) << probe.output;
    EXPECT_EQ(probe.output, "h264," + width + "," + height + ",60\n");
    EXPECT_EQ(std::stoi(width) % 2, 0);
    EXPECT_GT(std::stoi(width), 500);
    std::filesystem::remove(mp4);
}

TEST(StudioSmoke, BadInputIsOneClearErrorAndExitCode2) {
    RunResult r = run(studio("--frames 0 --screenshot x.png"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("ndem-studio: --frames 0: expected a whole number from 1 to 10^6"),
              std::string::npos)
        << r.output;
    r = run(studio("assets/scenes/silo.json --set solver.iterations=-3 --screenshot x.png"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("solver.iterations"), std::string::npos) << r.output;
    r = run(studio("no/such/scene.json --screenshot x.png"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("no/such/scene.json"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(std::string(NDEM_SOURCE_DIR) + "/x.png"));
    r = run(std::string("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM ") + NDEM_STUDIO);
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.output.find("xvfb-run -a"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ndem::test
