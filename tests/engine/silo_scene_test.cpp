// The shipped silo scene, shrunk: at rest the floor and the wall together carry exactly the
// grains' weight, and friction on the wall carries a share of it (Janssen).
#include "io/scene_file.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

namespace ndem {
namespace {

TEST(SiloScene, FloorAndWallCarryTheWeightAndTheWallTakesAShare) {
    auto scene = loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/silo.json",
                               {{"particles.0.count", "400"}, {"duration", "2.5"}});
    ASSERT_TRUE(scene.ok()) << scene.error().message;
    World world = test::makeWorld(*scene);
    for (const MeasurementRequest& r : scene->measurements) {
        auto m = makeMeasurement(r, world);
        ASSERT_TRUE(m.ok()) << m.error().message;
        world.subscribe(std::move(m.value()));
    }
    test::runUntil(world, scene->duration);
    ASSERT_EQ(world.measurements().size(), 2u);
    const MeasurementResult floor = world.measurements()[0]->result();
    const MeasurementResult wall = world.measurements()[1]->result();
    const double floorShare = floor.scalars.at("finalWeightFraction");
    const double wallShare = wall.scalars.at("finalWeightFraction");
    EXPECT_NEAR(floorShare + wallShare, 1.0, 0.01);
    EXPECT_GT(wallShare, 0.1);   // the wall holds part of the column up
    EXPECT_LT(floorShare, 0.9);  // so the floor carries less than hydrostatic
}

}  // namespace
}  // namespace ndem
