// Scene files: every key typed and range-checked, unknown keys refused, --set overrides any key,
// errors name the file (or the --set), the key and the value.
#include "io/scene_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace ndem {
namespace {

const char* kMinimal = R"({
  "name": "t",
  "settings": { "timeStep": 0.005, "solver": { "iterations": 30 } },
  "materials": [ { "name": "grain", "friction": 0.6 }, { "name": "steel", "friction": 0.3 } ],
  "walls": [ { "name": "floor", "type": "plane", "material": "steel" } ],
  "particles": [ { "type": "column", "count": 3, "radius": 0.005 } ]
})";

Scene load(const std::string& text, std::vector<Override> overrides = {}) {
    auto scene = parseSceneText(text, "t.json", overrides);
    EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message);
    return scene.ok() ? scene.value() : Scene{};
}

std::string errorOf(const std::string& text, std::vector<Override> overrides = {}) {
    auto scene = parseSceneText(text, "t.json", overrides);
    return scene.ok() ? "" : scene.error().message;
}

std::string with(const std::string& from, const std::string& to) {
    std::string s = kMinimal;
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
}

TEST(SceneFile, ReadsSettingsMaterialsWallsAndParticles) {
    const Scene s = load(kMinimal);
    EXPECT_EQ(s.settings.timeStep, 0.005);
    EXPECT_EQ(s.settings.iterations, 30);
    ASSERT_EQ(s.materials.size(), 2u);
    EXPECT_EQ(s.materials[1].friction, 0.3);
    ASSERT_EQ(s.walls.size(), 1u);
    EXPECT_EQ(s.walls[0].material, 1);
    ASSERT_EQ(s.particles.size(), 3u);
    EXPECT_DOUBLE_EQ(s.particles[2].position.z(), 0.025);
}

TEST(SceneFile, APlanarLatticeIsTheRegionsCutByThePlane) {
    // settings.dimension = 2: a box region's rectangle at y = 0, and a cylinder along y's disk.
    const std::string box = R"({
      "settings": { "dimension": 2, "mode": "nonsmooth" },
      "materials": [ { "name": "grain" } ],
      "particles": [ { "type": "lattice", "radius": 0.005, "spacing": 1.0, "jitter": 0.1,
                       "region": { "min": [0, -0.003, 0], "max": [0.1, 0.003, 0.05] } } ]
    })";
    const Scene s = load(box);
    EXPECT_EQ(s.settings.dimension, 2);
    ASSERT_EQ(s.particles.size(), 50u);  // 10 × 5 disks of 1 cm in 10 cm × 5 cm
    for (const ParticleSpec& p : s.particles)
        EXPECT_EQ(p.position.y(), 0.0);
    const std::string disk = R"({
      "settings": { "dimension": 2, "mode": "nonsmooth" },
      "materials": [ { "name": "grain" } ],
      "particles": [ { "type": "lattice", "radius": 0.005, "spacing": 1.0, "jitter": 0.0,
                       "region": { "shape": "cylinder", "center": [0, -0.5, 0], "axis": [0, 1, 0],
                                   "radius": 0.05, "height": 1.0 } } ]
    })";
    const Scene d = load(disk);
    // The lattice points of a 1 cm grid whose 5 mm disks fit inside a circle of 5 cm.
    int expected = 0;
    for (int i = 0; i < 10; ++i)
        for (int k = 0; k < 10; ++k)
            expected += std::hypot(-0.045 + 0.01 * i, -0.045 + 0.01 * k) <= 0.045 + 1e-12;
    EXPECT_EQ(static_cast<int>(d.particles.size()), expected);
    for (const ParticleSpec& p : d.particles) {
        EXPECT_EQ(p.position.y(), 0.0);
        EXPECT_LE(std::hypot(p.position.x(), p.position.z()), 0.045 + 1e-12);
    }
    EXPECT_NE(errorOf(R"({ "settings": { "dimension": 4 } })").find("settings.dimension"),
              std::string::npos);
}

TEST(SceneFile, OverridesReachEveryKindOfKey) {
    const Scene s = load(kMinimal, {{"solver.iterations", "7"},
                                    {"mode", "nonsmooth"},
                                    {"warmStart.enabled", "true"},
                                    {"gravity", "[0, 0, -1]"},
                                    {"materials.steel.friction", "0.1"},
                                    {"particles.0.count", "5"},
                                    {"walls.floor.enabled", "false"},
                                    {"duration", "2.5"}});
    EXPECT_EQ(s.settings.iterations, 7);
    EXPECT_EQ(s.settings.mode, StepMode::Nonsmooth);
    EXPECT_TRUE(s.settings.warmStart);
    EXPECT_EQ(s.settings.gravity, Vec3(0, 0, -1));
    EXPECT_EQ(s.materials[1].friction, 0.1);
    EXPECT_EQ(s.particles.size(), 5u);
    EXPECT_FALSE(s.walls[0].enabled);
    EXPECT_EQ(s.duration, 2.5);
}

TEST(SceneFile, ErrorsNameFileKeyAndValue) {
    EXPECT_EQ(errorOf(with("\"iterations\": 30", "\"iterations\": -3")),
              "t.json: settings.solver.iterations: must be >= 1 and <= 1e+06 (got -3)");
    EXPECT_EQ(errorOf(with("\"timeStep\": 0.005", "\"timeStep\": 0")),
              "t.json: settings.timeStep: must be > 0 (got 0)");
    EXPECT_EQ(errorOf(with("\"friction\": 0.6", "\"friction\": -0.2")),
              "t.json: materials.0.friction: must be >= 0 (got -0.2)");
    EXPECT_EQ(errorOf(with("\"friction\": 0.6", "\"restitution\": 1.5")),
              "t.json: materials.0.restitution: must be >= 0 and <= 1 (got 1.5)");
    EXPECT_EQ(errorOf(with("\"radius\": 0.005", "\"radius\": -0.005")),
              "t.json: particles.0.radius: must be > 0 (got -0.005)");
    EXPECT_EQ(errorOf(with("\"iterations\": 30", "\"iterations\": \"many\"")),
              "t.json: settings.solver.iterations: expected an integer (got \"many\")");
    EXPECT_EQ(errorOf(with("\"iterations\": 30", "\"iteration\": 30")),
              "t.json: settings.solver.iteration: unknown key");
    EXPECT_EQ(
        errorOf(with("\"type\": \"plane\"", "\"type\": \"plain\"")),
        "t.json: walls.0.type: expected plane | box | cylinder | mesh | drum (got \"plain\")");
    EXPECT_EQ(errorOf(with("\"material\": \"steel\"", "\"material\": \"iron\"")),
              "t.json: walls.0.material: unknown material \"iron\"");
}

TEST(SceneFile, NegativeMassIsRefused) {
    const std::string text = R"({"particles": [{"type": "list", "items": [
        {"position": [0, 0, 0], "radius": 0.01, "mass": -1}]}]})";
    EXPECT_EQ(errorOf(text), "t.json: particles.0.items.0.mass: must be >= 0 (got -1)");
}

TEST(SceneFile, OverrideErrorsNameTheOverride) {
    EXPECT_EQ(errorOf(kMinimal, {{"solver.iterationz", "10"}}),
              "--set solver.iterationz=10: settings.solver.iterationz: unknown key");
    EXPECT_EQ(errorOf(kMinimal, {{"timeStep", "-1"}}),
              "--set timeStep=-1: settings.timeStep: must be > 0 (got -1)");
    EXPECT_EQ(errorOf(kMinimal, {{"materials.iron.friction", "0.1"}}),
              "--set materials.iron.friction=0.1: materials.iron: no such element");
    EXPECT_EQ(errorOf(kMinimal, {{"mode", "fast"}}),
              "--set mode=fast: settings.mode: expected one of smooth | semi-smooth | nonsmooth "
              "(got \"fast\")");
}

TEST(SceneFile, MalformedJsonGivesLineAndColumn) {
    const std::string broken = "{\n  \"name\": \"t\",\n  \"duration\": ,\n}";
    const std::string e = errorOf(broken);
    EXPECT_EQ(e.rfind("t.json:3:", 0), 0u) << e;
    EXPECT_NE(e.find("invalid JSON"), std::string::npos) << e;
}

TEST(SceneFile, MissingFileNamesThePath) {
    auto scene = loadSceneFile("/nonexistent/scene.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.error().message, "/nonexistent/scene.json: cannot open the scene file");
}

TEST(SceneFile, LatticeFillsACylinderFromTheBottom) {
    const std::string text = R"({"particles": [{"type": "lattice", "radius": 0.005, "count": 100,
        "jitter": 0.0, "region": {"shape": "cylinder", "center": [0, 0, 0], "radius": 0.045,
        "height": 1.0}}]})";
    const Scene s = load(text);
    ASSERT_EQ(s.particles.size(), 100u);
    for (const ParticleSpec& p : s.particles) {
        EXPECT_LE(std::hypot(p.position.x(), p.position.y()) + p.radius, 0.045);
        EXPECT_GE(p.position.z() - p.radius, 0.0);
    }
}

TEST(SceneFile, EveryShippedSceneLoads) {
    namespace fs = std::filesystem;
    int count = 0;
    for (const auto& entry : fs::directory_iterator(NDEM_SOURCE_DIR "/assets/scenes")) {
        if (entry.path().extension() != ".json") continue;
        auto scene = loadSceneFile(entry.path().string());
        EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message);
        ++count;
    }
    EXPECT_GE(count, 4);
}

}  // namespace
}  // namespace ndem

namespace ndem {
namespace {

TEST(SceneFile, ANumberBeyondADoubleIsOneErrorNotACrash) {
    // fuzz_scene_text found it: the JSON library throws out_of_range for 1e500, which escaped
    // and terminated `ndem run`.
    const std::string error = errorOf(with("\"timeStep\": 0.005", "\"timeStep\": 1e500"));
    EXPECT_NE(error.find("t.json:"), std::string::npos) << error;
    EXPECT_NE(error.find("number overflow parsing '1e500'"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_NE(errorOf("[-1e999]").find("number overflow"), std::string::npos);
}

TEST(SceneFile, DeeplyNestedInputIsRefusedNotAStackOverflow) {
    // 100 000 levels crashed the JSON library's printing of the offending value.
    const std::string deep(100000, '[');
    const std::string closed = deep + std::string(100000, ']');
    const std::string text = std::string("{\n  \"particles\": ") + closed + "\n}";
    const std::string error = errorOf(text);
    EXPECT_NE(error.find("t.json:2:"), std::string::npos) << error;
    EXPECT_NE(error.find("nested more than 64 levels"), std::string::npos) << error;
    EXPECT_NE(errorOf(deep).find("nested"), std::string::npos);
    const std::string viaSet = errorOf(kMinimal, {{"particles.0.count", closed}});
    EXPECT_NE(viaSet.find("--set particles.0.count"), std::string::npos) << viaSet;
    // Strings may hold brackets: only structure counts.
    std::string quoted = kMinimal;
    quoted.replace(quoted.find("\"t\""), 3, "\"" + std::string(200, '[') + "\"");
    EXPECT_EQ(errorOf(quoted), "");
}

TEST(SceneFile, AHugeLatticeRegionIsOneErrorNotAnHourOfScanning) {
    // fuzz_scene_text found it: a box a million grains wide was scanned point by point
    // (10^18 candidates) before any check.
    const std::string wide = R"({"particles": [{"type": "lattice", "radius": 0.005, "region":
        {"min": [-1e4, -1e4, 0], "max": [1e4, 1e4, 1]}}]})";
    const std::string error = errorOf(wide);
    EXPECT_NE(error.find("particles.0.region"), std::string::npos) << error;
    EXPECT_NE(error.find("more than 8000000 lattice points"), std::string::npos) << error;
    // A region wider than an int can count, too.
    EXPECT_NE(errorOf(R"({"particles": [{"type": "lattice", "radius": 1e-9, "region":
        {"min": [0, 0, 0], "max": [1e6, 1, 1]}}]})")
                  .find("lattice points"),
              std::string::npos);
    // A tall region with a count costs only the layers the bed fills.
    const Scene tall = load(R"({"particles": [{"type": "lattice", "radius": 0.005, "count": 50,
        "jitter": 0.0, "region": {"min": [0, 0, 0], "max": [0.05, 0.05, 1e9]}}]})");
    ASSERT_EQ(tall.particles.size(), 50u);
    EXPECT_LT(tall.particles.back().position.z(), 0.05);
    // Whole columns past the scene's limit are refused where they are asked for.
    const std::string columns = R"({"particles": [{"type": "column", "count": 1000000},
        {"type": "column", "count": 1000000}, {"type": "column", "count": 1000000},
        {"type": "column", "count": 1000000}, {"type": "column", "count": 1000000}]})";
    const std::string many = errorOf(columns);
    EXPECT_NE(many.find("particles.4.count"), std::string::npos) << many;
    EXPECT_NE(many.find("more than the 4000000"), std::string::npos) << many;
}

}  // namespace
}  // namespace ndem
