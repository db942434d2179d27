// Material changes on a running world (the app's material panel).
#include "core/material_properties.hpp"
#include "io/scene_file.hpp"
#include "world/world.hpp"

#include <gtest/gtest.h>

namespace ndem {
namespace {

World smallSilo() {
    auto scene =
        loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/silo.json", {{"particles.0.count", "50"}});
    EXPECT_TRUE(scene.ok());
    auto world = World::create(*scene);
    EXPECT_TRUE(world.ok());
    return std::move(world.value());
}

TEST(LiveMaterial, NewFrictionReachesEveryPairWithTheGrain) {
    World w = smallSilo();
    std::vector<Material> m = w.materials().materials();
    const auto grain = w.materials().find("grain");
    ASSERT_TRUE(grain);
    m[*grain].friction = 0.123;
    ASSERT_FALSE(w.setMaterials(m));
    EXPECT_DOUBLE_EQ(w.materials().pair(*grain, *grain).friction, 0.123);
    EXPECT_DOUBLE_EQ(w.materials().materials()[*grain].friction, 0.123);
}

TEST(LiveMaterial, BadValuesAndStructuralChangesAreRefusedAndNothingChanges) {
    World w = smallSilo();
    const std::vector<Material> original = w.materials().materials();
    const auto grain = *w.materials().find("grain");
    auto refused = [&](auto edit) {
        std::vector<Material> m = original;
        edit(m);
        auto e = w.setMaterials(m);
        EXPECT_DOUBLE_EQ(w.materials().materials()[grain].friction, original[grain].friction);
        return e ? e->message : std::string();
    };
    EXPECT_EQ(refused([&](auto& m) { m[grain].poissonRatio = 0.7; }),
              "materials.grain.poissonRatio: must be >= 0 and <= 0.4999 (got 0.7)");
    EXPECT_EQ(refused([&](auto& m) { m[grain].friction = -1; }),
              "materials.grain.friction: must be >= 0 and <= 100 (got -1)");
    EXPECT_NE(refused([&](auto& m) { m[grain].density *= 2; }).find("density"), std::string::npos);
    EXPECT_NE(refused([&](auto& m) { m.pop_back(); }).find("number of materials"),
              std::string::npos);
}

}  // namespace
}  // namespace ndem
