// Settings phases (Scene::phases): a phase sets the keys it lists at its time and leaves the
// others as they are then (a change made while running survives it); a world refuses a phase
// it cannot take when it is built, not when the phase is due.
#include "bench_scenes.hpp"
#include "test_util.hpp"

namespace ndem {
namespace {

Scene columnWithPhase(SettingsPhase phase) {
    StepSettings s;
    s.timeStep = 1e-3;
    s.iterations = 20;
    Scene scene = scenes::column(3, 0.01, scenes::servinGrain(), s);
    scene.phases.push_back(std::move(phase));
    return scene;
}

TEST(SettingsPhases, APhaseSetsItsKeysAndLeavesTheRest) {
    SettingsPhase phase;
    phase.at = 0.01;
    phase.keys = {"solver.iterations", "timeStep"};
    phase.settings.iterations = 7;
    phase.settings.timeStep = 2e-3;
    phase.settings.tolerance = 0.5;  // not listed: not applied
    World world = test::makeWorld(columnWithPhase(phase));
    StepSettings changed = world.settings();
    changed.tolerance = 1e-9;  // a change made while running, before the phase
    ASSERT_FALSE(world.applySettings(changed));
    test::runUntil(world, 0.0095);
    EXPECT_EQ(world.settings().iterations, 20);
    const StepStats at = world.step();  // the first step starting at 0.01
    EXPECT_EQ(world.settings().iterations, 7);
    EXPECT_EQ(world.settings().timeStep, 2e-3);
    EXPECT_EQ(world.settings().tolerance, 1e-9);
    EXPECT_NEAR(at.time, 0.012, 1e-12);
}

TEST(SettingsPhases, APhaseThatClashesWithAChangeSinceIsRefusedWithAWarning) {
    // θ < 1 needs mode nonsmooth: the scene is, but the user went semi-smooth before it is due.
    SettingsPhase phase;
    phase.at = 0.005;
    phase.keys = {"theta"};
    Scene scene = columnWithPhase(phase);
    scene.settings.mode = StepMode::Nonsmooth;
    scene.settings.impactEnabled = false;
    scene.phases[0].settings = scene.settings;
    scene.phases[0].settings.theta = 0.8;
    World world = test::makeWorld(scene);
    StepSettings changed = world.settings();
    changed.mode = StepMode::SemiSmooth;
    ASSERT_FALSE(world.applySettings(changed));
    test::runUntil(world, 0.01);
    EXPECT_EQ(world.settings().theta, 1.0);
    EXPECT_EQ(world.settings().mode, StepMode::SemiSmooth);
    ASSERT_EQ(world.warnings().size(), 1u);
    EXPECT_EQ(world.warnings()[0].kind, "phase");
    EXPECT_NE(world.warnings()[0].message.find("settings.theta"), std::string::npos)
        << world.warnings()[0].message;
}

TEST(SettingsPhases, APhaseTheWorldCannotTakeIsRefusedWhenItIsBuilt) {
    SettingsPhase phase;
    phase.at = 0.5;
    phase.keys = {"theta"};
    phase.settings.theta = 0.8;  // the θ-method takes mode nonsmooth, the column semi-smooth
    Scene scene = columnWithPhase(phase);
    auto world = World::create(scene);
    ASSERT_FALSE(world.ok());
    EXPECT_NE(world.error().message.find("phases (at 0.5"), std::string::npos)
        << world.error().message;
}

}  // namespace
}  // namespace ndem
