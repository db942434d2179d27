// The session behind the panels and menus: edits are checked before they reach the engine,
// saved states reopen where they were, exports report back.
#include "gui/session.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace ndem::app {
namespace {

using namespace std::chrono_literals;

const std::string kSilo = NDEM_SOURCE_DIR "/assets/scenes/silo.json";

template <class Pred>
bool waitUntil(Session& s, Pred pred) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        s.loop().takeNewest();
        if (pred(s.loop().snapshot())) return true;
        std::this_thread::sleep_for(2ms);
    }
    return false;
}

std::string waitForMessage(Session& s) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        auto messages = s.takeMessages();
        if (!messages.empty()) return messages.front();
        std::this_thread::sleep_for(2ms);
    }
    return "";
}

TEST(Session, BadEditsAreRefusedWithTheKeyAndNeverPosted) {
    Session s({});
    ASSERT_FALSE(s.open(kSilo, {{"particles.0.count", "100"}}));
    StepSettings bad = s.scene().settings;
    bad.iterations = 0;
    EXPECT_EQ(s.applySettings(bad).value_or(""),
              "settings.solver.iterations: must be >= 1 and <= 1e+06 (got 0)");
    Material m = s.scene().materials[0];
    m.restitution = 2.0;
    EXPECT_NE(s.applyMaterial(0, m).value_or("").find("restitution"), std::string::npos);
    EXPECT_TRUE(s.setBeltSpeed(99, 1.0));
    EXPECT_TRUE(s.setEmitterRate(0, 10.0));  // the silo has no emitter
    EXPECT_EQ(s.open("/no/such.json", {}).value_or("").find("/no/such.json"), 0u);
    EXPECT_EQ(s.path(), kSilo) << "a failed open keeps the open scene";
    // The engine knows one limit only it can check: smooth DEM above its stable step.
    StepSettings smooth = s.scene().settings;
    smooth.mode = StepMode::Smooth;
    smooth.timeStep = 0.01;
    ASSERT_FALSE(s.applySettings(smooth));
    EXPECT_NE(waitForMessage(s).find("stability limit"), std::string::npos);
}

TEST(Session, SavedStateReopensWithEveryBitOfTheParticles) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("ndem-session-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "state.h5").string();
    Session s({});
    ASSERT_FALSE(s.open(kSilo, {{"particles.0.count", "150"}}));
    s.loop().play();
    ASSERT_TRUE(waitUntil(s, [](const Snapshot& x) { return x.time > 0.3; }));
    s.loop().pause();
    // A split sensor, moved and turned, travels with the state.
    const size_t k = s.addSensor(SensorShape::Cylinder, Vec3(0.01, 0.02, 0.05), 0.04);
    SplitSensor sensor = s.sensors()[k];
    sensor.orientation = Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX()));
    sensor.velocity = Vec3(0.0, 0.0, 0.1);
    ASSERT_FALSE(s.setSensor(k, sensor));
    sensor.radius = -1.0;
    ASSERT_TRUE(s.setSensor(k, sensor)) << "a negative radius must be refused";
    s.saveState(path);
    const std::string said = waitForMessage(s);
    ASSERT_NE(said.find("state saved"), std::string::npos) << said;
    s.loop().takeNewest();
    const Snapshot before = s.loop().snapshot();

    ASSERT_FALSE(s.open(path, {})) << "the saved state must load";
    ASSERT_TRUE(waitUntil(s, [](const Snapshot& x) { return x.worldGeneration == 1; }));
    const Snapshot& after = s.loop().snapshot();
    ASSERT_EQ(after.particleCount(), before.particleCount());
    EXPECT_EQ(after.time, before.time);
    for (size_t i = 0; i < 3 * after.particleCount(); ++i) {
        EXPECT_EQ(after.position[i], before.position[i]);
        EXPECT_EQ(after.velocity[i], before.velocity[i]);
    }
    // The same file goes on in `ndem run --restart` (tests/cli) and refuses overrides here.
    EXPECT_TRUE(s.open(path, {{"solver.iterations", "5"}}));
    EXPECT_EQ(after.settings.iterations, before.settings.iterations);
    ASSERT_EQ(after.sensors.size(), 1u);
    EXPECT_EQ(after.sensors[0].shape, SensorShape::Cylinder);
    EXPECT_NEAR((after.sensors[0].position - Vec3(0.01, 0.02, 0.05)).norm(), 0.0, 1e-12);
    EXPECT_NEAR(after.sensors[0].radius, 0.02, 1e-12);
    EXPECT_NEAR(
        after.sensors[0].orientation.angularDistance(Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX()))),
        0.0, 1e-9);
    EXPECT_EQ(after.sensors[0].velocity, Vec3(0.0, 0.0, 0.1));
    EXPECT_FALSE(std::filesystem::exists(path + ".writing"));

    s.exportVtk((dir / "vtk").string());
    EXPECT_NE(waitForMessage(s).find("VTK frame written"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(dir / "vtk" / "particles.pvd"));
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ndem::app
