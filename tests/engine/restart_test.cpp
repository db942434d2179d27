// Exact restart: a world built from the scene that loads another's saved state steps on bit
// for bit as the other does (issue 16: 200 steps equal 100, restart, 100 more).
#include "io/scene_file.hpp"
#include "test_util.hpp"

namespace ndem {
namespace {

struct RestartCase {
    const char* scene;
    std::vector<Override> overrides;
    double saveAt;  ///< simulated time of the save (s)
    int stepsAfter;
    bool aggregates = false;  ///< the saved state holds rigid aggregates
};

/// Steps a world to `saveAt`, saves, loads the state into a second world built from the
/// scene, and steps both: the states must agree bit for bit at every step.
void expectExactRestart(const RestartCase& c) {
    auto scene = loadSceneFile(std::string(NDEM_SOURCE_DIR) + "/assets/scenes/" + c.scene, c.overrides);
    ASSERT_TRUE(scene.ok()) << scene.error().message;
    World original = test::makeWorld(*scene);
    test::runUntil(original, c.saveAt);
    if (c.aggregates) {
        EXPECT_GT(original.reduction().aggregateCount(), 0);
    }
    const StateArchive saved = original.saveState();

    World restarted = test::makeWorld(*scene);
    StateArchive state = StateArchive::loadingFrom(saved.reals(), saved.integers(), saved.texts());
    const auto error = restarted.loadState(state);
    ASSERT_FALSE(error) << error->message;
    ASSERT_EQ(restarted.time(), original.time());
    ASSERT_EQ(restarted.stepCount(), original.stepCount());
    ASSERT_EQ(stateHash(restarted.particles()), stateHash(original.particles()));
    for (int k = 0; k < c.stepsAfter; ++k) {
        const StepStats a = original.step();
        const StepStats b = restarted.step();
        ASSERT_EQ(stateHash(restarted.particles()), stateHash(original.particles()))
            << c.scene << ": step " << k << " after the restart";
        ASSERT_EQ(b.contacts, a.contacts) << c.scene << ": step " << k;
        ASSERT_EQ(b.iterations, a.iterations) << c.scene << ": step " << k;
        ASSERT_EQ(b.residual, a.residual) << c.scene << ": step " << k;
    }
    EXPECT_EQ(stateHash(restarted.particles()), stateHash(original.particles())) << c.scene;
    EXPECT_EQ(restarted.reduction().aggregateCount(), original.reduction().aggregateCount());
    for (size_t w = 0; w < original.walls().size(); ++w)
        EXPECT_EQ(restarted.walls()[w].position, original.walls()[w].position) << c.scene;
}

TEST(Restart, TheSiloStepsOnBitForBit) {
    expectExactRestart({"silo.json", {{"particles.0.count", "600"}}, 0.5, 100});
}

TEST(Restart, TheReducedConveyorStepsOnBitForBitWithItsAggregatesAndEmitter) {
    // At 3 s the belt carries four aggregates of ~2 000 grains and the emitter still pours.
    expectExactRestart({"conveyor-reduced.json", {}, 3.0, 100, true});
}

TEST(Restart, TheTriaxialTestStepsOnBitForBitWithItsServoWalls) {
    // At 3.5 s the side walls hold the confining stress by servo and the top moves at a
    // constant strain rate.
    expectExactRestart({"triaxial.json", {}, 3.5, 100});
}

TEST(Restart, WithoutTheContactHistoryTheRestartWouldDiffer) {
    // The check above can fail: the same restart with last step's impulses and springs
    // zeroed (a state without warm start memory) leaves the original's path within steps.
    auto scene = loadSceneFile(std::string(NDEM_SOURCE_DIR) + "/assets/scenes/silo.json",
                               {{"particles.0.count", "600"}});
    ASSERT_TRUE(scene.ok());
    World original = test::makeWorld(*scene);
    test::runUntil(original, 0.5);
    const StateArchive saved = original.saveState();
    StateArchive::Reals reals = saved.reals();
    for (const char* name : {"normalImpulse", "frictionImpulse", "tangentialSpring"})
        for (double& x : reals.at(std::string("contactHistory/") + name)) x = 0.0;
    StateArchive state = StateArchive::loadingFrom(reals, saved.integers(), saved.texts());
    World restarted = test::makeWorld(*scene);
    ASSERT_FALSE(restarted.loadState(state));
    for (int k = 0; k < 10; ++k) {
        original.step();
        restarted.step();
    }
    EXPECT_NE(stateHash(restarted.particles()), stateHash(original.particles()));
}

TEST(Restart, AStateOfAnotherSceneIsRefusedAndChangesNothing) {
    auto silo = loadSceneFile(std::string(NDEM_SOURCE_DIR) + "/assets/scenes/silo.json",
                              {{"particles.0.count", "300"}});
    auto triaxial = loadSceneFile(std::string(NDEM_SOURCE_DIR) + "/assets/scenes/triaxial.json");
    ASSERT_TRUE(silo.ok() && triaxial.ok());
    World from = test::makeWorld(*triaxial);
    const StateArchive saved = from.saveState();
    World into = test::makeWorld(*silo);
    test::runUntil(into, 0.1);
    const std::uint64_t before = stateHash(into.particles());
    const double time = into.time();
    StateArchive state = StateArchive::loadingFrom(saved.reals(), saved.integers(), saved.texts());
    const auto error = into.loadState(state);
    ASSERT_TRUE(error);
    EXPECT_NE(error->message.find("6 wall"), std::string::npos) << error->message;
    EXPECT_EQ(stateHash(into.particles()), before);
    EXPECT_EQ(into.time(), time);

    // A missing entry is named.
    StateArchive::Reals reals = into.saveState().reals();
    reals.erase("particles/velocity");
    StateArchive partial = StateArchive::loadingFrom(reals, into.saveState().integers(), into.saveState().texts());
    const auto missing = into.loadState(partial);
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message, "'particles/velocity' is missing");
    EXPECT_EQ(stateHash(into.particles()), before);
}

}  // namespace
}  // namespace ndem
