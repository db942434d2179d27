// Exact restart: a world built from the scene that loads another's saved state steps on bit
// for bit as the other does (issue 16: 200 steps equal 100, restart, 100 more), and its
// measurements report what the other's do.
#include "io/checkpoint.hpp"
#include "io/scene_file.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <unistd.h>
#include <bit>
#include <filesystem>

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
    auto scene =
        loadSceneFile(std::string(NDEM_SOURCE_DIR) + "/assets/scenes/" + c.scene, c.overrides);
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
    // At 1.2 s the six walls, bodies of the solve pushed by their motors, press the grains,
    // whose friction came on at 1 s. (The scene's own 3.5 s took 82 s here, minutes more
    // under AddressSanitizer.)
    expectExactRestart(
        {"triaxial.json", {{"phases.0.at", "1.0"}, {"solver.iterations", "50"}}, 1.2, 100});
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
        for (double& x : reals.at(std::string("contactHistory/") + name))
            x = 0.0;
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
    StateArchive partial =
        StateArchive::loadingFrom(reals, into.saveState().integers(), into.saveState().texts());
    const auto missing = into.loadState(partial);
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message, "'particles/velocity' is missing");
    EXPECT_EQ(stateHash(into.particles()), before);
}

/// A world with the scene's measurements subscribed, as `ndem run` builds it.
World makeMeasuredWorld(const Scene& scene) {
    World world = test::makeWorld(scene);
    for (const MeasurementRequest& r : scene.measurements) {
        auto m = makeMeasurement(r, world);
        EXPECT_TRUE(m.ok()) << r.type << ": " << m.error().message;
        if (m) world.subscribe(std::move(m.value()));
    }
    return world;
}

Scene loadScene(const char* file, const std::vector<Override>& overrides) {
    auto scene = loadSceneFile(std::string(NDEM_SOURCE_DIR) + "/assets/scenes/" + file, overrides);
    EXPECT_TRUE(scene.ok()) << scene.error().message;
    return scene.ok() ? std::move(scene.value()) : Scene{};
}

/// Equal bit for bit (so NaN equals NaN and 0 differs from −0).
void expectSameNumbers(const std::vector<double>& a, const std::vector<double>& b,
                       const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(std::bit_cast<std::uint64_t>(a[i]), std::bit_cast<std::uint64_t>(b[i]))
            << what << "[" << i << "]: " << a[i] << " vs " << b[i];
}

void expectSameTable(const Table& a, const Table& b, const std::string& what) {
    std::vector<std::string> columnsA, columnsB;
    for (const auto& [name, column] : a)
        columnsA.push_back(name);
    for (const auto& [name, column] : b)
        columnsB.push_back(name);
    ASSERT_EQ(columnsA, columnsB) << what;
    for (const auto& [name, column] : a)
        expectSameNumbers(column, b.at(name), what + "." + name);
}

void expectSameResult(const MeasurementResult& a, const MeasurementResult& b,
                      const std::string& what) {
    EXPECT_EQ(a.name, b.name) << what;
    EXPECT_EQ(a.headline, b.headline) << what;
    EXPECT_EQ(a.notes, b.notes) << what;
    Table scalarsA, scalarsB;
    for (const auto& [name, x] : a.scalars)
        scalarsA[name] = {x};
    for (const auto& [name, x] : b.scalars)
        scalarsB[name] = {x};
    expectSameTable(scalarsA, scalarsB, what + " scalars");
    expectSameTable(a.series, b.series, what + " series");
    std::vector<std::string> tablesA, tablesB;
    for (const auto& [name, table] : a.tables)
        tablesA.push_back(name);
    for (const auto& [name, table] : b.tables)
        tablesB.push_back(name);
    ASSERT_EQ(tablesA, tablesB) << what;
    for (const auto& [name, table] : a.tables)
        expectSameTable(table, b.tables.at(name), what + " " + name);
}

std::vector<MeasurementResult> resultsOf(const World& world) {
    std::vector<MeasurementResult> out;
    for (const auto& m : world.measurements())
        out.push_back(m->result());
    return out;
}

void expectSameResults(const std::vector<MeasurementResult>& a,
                       const std::vector<MeasurementResult>& b, const std::string& when) {
    ASSERT_EQ(a.size(), b.size()) << when;
    for (size_t k = 0; k < a.size(); ++k)
        expectSameResult(a[k], b[k], when + ": measurement " + std::to_string(k) + " " + a[k].name);
}

/// The state through a checkpoint file and back, as `ndem run --restart` reads it.
StateArchive throughCheckpointFile(const StateArchive& saved) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("ndem-restart-test-" + std::to_string(getpid()) + ".h5"))
                                 .string();
    EXPECT_FALSE(writeCheckpoint(path, {"{}", "scene.json", {}}, saved));
    auto read = readCheckpoint(path);
    std::filesystem::remove(path);
    EXPECT_TRUE(read.ok()) << read.error().message;
    return read.ok() ? std::move(read->state) : StateArchive::saving();
}

struct MeasuredRestartCase {
    const char* scene;
    std::vector<Override> overrides;
    std::vector<MeasurementRequest> measurements;  ///< besides the scene's own
    int stepsBefore, stepsAfter;
};

/// Steps a measured world, saves through a checkpoint file, loads into a fresh measured world
/// of the scene and steps both on: every measurement reports the same, bit for bit, at the
/// restart and after it.
void expectMeasurementsGoOn(const MeasuredRestartCase& c) {
    Scene scene = loadScene(c.scene, c.overrides);
    scene.measurements.insert(scene.measurements.end(), c.measurements.begin(),
                              c.measurements.end());
    World original = makeMeasuredWorld(scene);
    ASSERT_EQ(original.measurements().size(), scene.measurements.size());
    for (int k = 0; k < c.stepsBefore; ++k)
        original.step();
    StateArchive state = throughCheckpointFile(original.saveState());

    World restarted = makeMeasuredWorld(scene);
    const auto error = restarted.loadState(state);
    ASSERT_FALSE(error) << error->message;
    const std::string where = c.scene;
    expectSameResults(resultsOf(original), resultsOf(restarted), where + " at the restart");
    for (int k = 0; k < c.stepsAfter; ++k) {
        original.step();
        restarted.step();
    }
    ASSERT_EQ(stateHash(restarted.particles()), stateHash(original.particles())) << c.scene;
    expectSameResults(resultsOf(original), resultsOf(restarted), where + " at the end");
}

MeasurementRequest request(std::string type, std::vector<std::pair<std::string, double>> numbers,
                           std::vector<std::pair<std::string, std::string>> words = {},
                           std::vector<std::pair<std::string, std::vector<double>>> lists = {}) {
    return MeasurementRequest{std::move(type), std::move(numbers), std::move(words),
                              std::move(lists)};
}

TEST(Restart, TheSilosMeasurementsGoOnBitForBit) {
    // 400 grains, saved at 0.6 s and run to 0.9 s. The windows open at 0.3 s, so what the
    // first sample fixes (wallPressure's strip, axisPressure's slice, slopeAngle's tracked
    // grains, a forceNetwork snapshot at 0.4 s, a probe at 0.45 s) lies before the restart,
    // and the last snapshot and the second probe after it. All of the measurement types but
    // the drum's and cellStress (no cylinder turns here, no six walls) sample this scene.
    const std::vector<double> low{-0.05, -0.05, -0.01}, high{0.05, 0.05, 0.7};
    expectMeasurementsGoOn(
        {"silo.json",
         {{"particles.0.count", "400"}},
         {request("wallPressure", {{"from", 0.3}, {"every", 2}}, {{"wall", "wall"}}),
          request("axisPressure", {{"from", 0.3}}, {{"wall", "wall"}}),
          request("contactErrors", {{"from", 0.3}}),
          request("forceNetwork", {{"from", 0.3}, {"every", 3}, {"at", 0.4}}),
          request("forceNetwork", {{"every", 5}}),
          request("fields", {{"from", 0.3}}, {},
                  {{"min", low}, {"max", high}, {"cells", {2, 2, 4}}}),
          request("track", {{"particle", 7}, {"every", 3}}),
          request("restitution", {{"a", 0}, {"b", 1}}), request("columnHeight", {}),
          request("solverConvergence", {{"at", 0.45}, {"reference", 60}, {"iterations", 30}}),
          request("solverConvergence", {{"at", 0.75}, {"reference", 60}, {"iterations", 30}}),
          request("iterationEstimate", {{"length", 20}, {"width", 9}}),
          request("slopeAngle", {{"from", 0.3}, {"every", 2}, {"track", 0.4}}, {},
                  {{"min", low}, {"max", high}}),
          request("angleOfRepose", {{"from", 0.3}, {"every", 2}, {"bin", 0.004}}, {},
                  {{"center", {0, 0}}})},
         60,
         30});
}

TEST(Restart, TheDrumsMeasurementGoesOnBitForBit) {
    // 600 grains in the turning drum, sampled from the start: the profile's sums per bin,
    // the fill per sample and the series carry across the restart.
    expectMeasurementsGoOn({"drum.json",
                            {{"particles.0.count", "600"}, {"settings.solver.iterations", "50"}},
                            {request("drum", {{"bins", 10}, {"every", 2}}, {{"wall", "drum"}})},
                            40,
                            20});
}

TEST(Restart, TheTriaxialCellStressGoesOnBitForBit) {
    // The cell's size at the first sample is the strains' reference: it lies before the
    // restart.
    expectMeasurementsGoOn(
        {"triaxial.json",
         {},
         {request("cellStress", {{"every", 2}}, {{"walls", "xmin xmax ymin ymax zmin zmax"}})},
         30,
         20});
}

TEST(Restart, MeasurementsGoOnOnlyFromAStateWithTheSameList) {
    // The silo's two wallForce measurements, 20 steps in.
    const Scene scene = loadScene("silo.json", {{"particles.0.count", "300"}});
    World original = makeMeasuredWorld(scene);
    ASSERT_EQ(original.measurements().size(), 2u);
    for (int k = 0; k < 20; ++k)
        original.step();
    const StateArchive saved = original.saveState();
    auto load = [&](World& into, const StateArchive& from) {
        StateArchive state = StateArchive::loadingFrom(from.reals(), from.integers(), from.texts());
        const auto error = into.loadState(state);
        ASSERT_FALSE(error) << error->message;
    };

    // The same list: the measurements carry the samples before the save.
    World same = makeMeasuredWorld(scene);
    load(same, saved);
    EXPECT_EQ(stateHash(same.particles()), stateHash(original.particles()));
    expectSameResults(resultsOf(original), resultsOf(same), "the same list");

    // Another list (the floor's force only): the world restarts, its measurement keeps what
    // it had sampled itself.
    Scene floorOnly = scene;
    floorOnly.measurements.resize(1);
    World other = makeMeasuredWorld(floorOnly);
    for (int k = 0; k < 10; ++k)
        other.step();
    const std::vector<MeasurementResult> before = resultsOf(other);
    load(other, saved);
    EXPECT_EQ(stateHash(other.particles()), stateHash(original.particles()));
    EXPECT_EQ(other.time(), original.time());
    expectSameResults(before, resultsOf(other), "another list");

    // A state without measurements, as the app saves: the same.
    World app = test::makeWorld(scene);
    for (int k = 0; k < 20; ++k)
        app.step();
    World measured = makeMeasuredWorld(scene);
    for (int k = 0; k < 10; ++k)
        measured.step();
    const std::vector<MeasurementResult> own = resultsOf(measured);
    load(measured, app.saveState());
    EXPECT_EQ(stateHash(measured.particles()), stateHash(app.particles()));
    expectSameResults(own, resultsOf(measured), "no measurements in the state");
}

TEST(Restart, ADamagedMeasurementStateIsRefusedAndChangesNothing) {
    const Scene scene = loadScene("silo.json", {{"particles.0.count", "300"}});
    World from = makeMeasuredWorld(scene);
    for (int k = 0; k < 20; ++k)
        from.step();
    const StateArchive saved = from.saveState();
    StateArchive::Reals reals = saved.reals();
    auto entry = reals.lower_bound("measurement/1/");
    ASSERT_TRUE(entry != reals.end() && entry->first.starts_with("measurement/1/"));
    const std::string name = entry->first;
    reals.erase(entry);

    World into = makeMeasuredWorld(scene);
    for (int k = 0; k < 10; ++k)
        into.step();
    const std::uint64_t hash = stateHash(into.particles());
    const std::vector<MeasurementResult> before = resultsOf(into);
    StateArchive state = StateArchive::loadingFrom(reals, saved.integers(), saved.texts());
    const auto error = into.loadState(state);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message, "'" + name + "' is missing");
    EXPECT_EQ(stateHash(into.particles()), hash);
    EXPECT_EQ(into.stepCount(), 10);
    expectSameResults(before, resultsOf(into), "after the refused load");
}

}  // namespace
}  // namespace ndem
