// axisPressure in the shipped silo with a frictionless wall: nothing holds the grains up but
// the floor, so the vertical stress across the whole section is the weight above per area.
#include "io/scene_file.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <numbers>
#include <vector>

namespace ndem {

extern const MeasurementFactory kAxisPressureMeasurement;

namespace {

constexpr double kRadius = 0.045;  // R of silo.json (m)
constexpr double kSlice = 0.02;    // two diameters (m)

struct SiloProfiles {
    MeasurementResult section, column;
    std::vector<double> weightAbove;  ///< per slice: mean over the slice of W(z)/(π R²) (Pa)
};

const SiloProfiles& frictionlessSilo() {
    static const SiloProfiles run = [] {
        auto scene = loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/silo.json",
                                   {{"particles.0.count", "600"}, {"duration", "3"}});
        EXPECT_TRUE(scene.ok()) << scene.error().message;
        // The cylinder gets its own material whose pair with the grain has μ = 0.
        Material smooth = scene->materials[0];
        smooth.name = "smooth";
        scene->materials.push_back(smooth);
        ContactMaterialOverride pair;
        pair.first = scene->materials[0].name;
        pair.second = "smooth";
        pair.friction = 0.0;
        scene->contactMaterials.push_back(pair);
        scene->walls[1].material = 1;
        World world = test::makeWorld(*scene);
        const MeasurementRequest section{"axisPressure",
                                         {{"from", 2.5}, {"radius", kRadius}, {"slice", kSlice}},
                                         {{"wall", "wall"}},
                                         {}};
        const MeasurementRequest column{"axisPressure", {{"from", 2.5}}, {{"wall", "wall"}}, {}};
        for (const MeasurementRequest& r : {section, column}) {
            auto m = kAxisPressureMeasurement.make(r, world);
            EXPECT_TRUE(m.ok()) << m.error().message;
            world.subscribe(std::move(m.value()));
        }
        test::runUntil(world, scene->duration);
        SiloProfiles out{world.measurements()[0]->result(), world.measurements()[1]->result(), {}};
        // ∫ over the slice of the weight above height z: a grain at z_i adds m g over the part
        // of [z_k, z_k + Δz] below it.
        const ParticleStore& p = world.particles();
        const double g = world.gravity().norm(), area = std::numbers::pi * kRadius * kRadius;
        for (double zc : out.section.tables.at("profile").at("z")) {
            double w = 0.0;
            for (size_t i = 0; i < p.size(); ++i)
                w += p.mass[i] * g *
                     std::clamp(p.position[i].z() - (zc - 0.5 * kSlice), 0.0, kSlice) / kSlice;
            out.weightAbove.push_back(w / area);
        }
        return out;
    }();
    return run;
}

TEST(AxisPressure, VerticalStressIsTheWeightAboveWithoutWallFrictionWithin10Percent) {
    const SiloProfiles& run = frictionlessSilo();
    const auto& profile = run.section.tables.at("profile");
    const auto& sigmaZZ = profile.at("sigmaZZ");
    const double fill = run.section.scalars.at("fillHeight");
    int checked = 0;
    // Every slice deeper than 2 d below the surface, the floor slice included (its contacts
    // with the floor lie δ/2 below the base).
    for (size_t k = 0; k < sigmaZZ.size(); ++k) {
        if (profile.at("depth")[k] < 2.0 * 0.01) continue;
        EXPECT_NEAR(sigmaZZ[k], run.weightAbove[k], 0.1 * run.weightAbove[k])
            << "slice at z = " << profile.at("z")[k];
        ++checked;
    }
    EXPECT_GE(checked, 3);
    // And the hydrostatic column ρ_b g (H − z) reported beside it says the same at the bottom.
    EXPECT_NEAR(sigmaZZ[0], profile.at("hydrostatic")[0], 0.1 * profile.at("hydrostatic")[0]);
    EXPECT_GT(fill, 0.05);
}

TEST(AxisPressure, PressureAtBottomIsTheMeanOfTheLowestTwoSlicesAndDefaultsFollowTheGrains) {
    const MeasurementResult& column = frictionlessSilo().column;
    EXPECT_NEAR(column.scalars.at("radius"), 1.5 * 0.01, 1e-12);
    EXPECT_NEAR(column.scalars.at("slice"), 0.01, 1e-12);
    const auto& pressure = column.tables.at("profile").at("pressure");
    ASSERT_GE(pressure.size(), 2u);
    EXPECT_DOUBLE_EQ(column.scalars.at("pressureAtBottom"), 0.5 * (pressure[0] + pressure[1]));
    const std::vector<double>& vertical = column.tables.at("profile").at("sigmaZZ");
    EXPECT_DOUBLE_EQ(column.scalars.at("sigmaZZAtBottom"), 0.5 * (vertical[0] + vertical[1]));
    EXPECT_DOUBLE_EQ(column.scalars.at("maxPressure"),
                     *std::max_element(pressure.begin(), pressure.end()));
    EXPECT_GT(column.scalars.at("pressureAtBottom"), 0.0);
}

// The floor layer at the slices the Janssen case reads (one diameter, the default): a bed
// ordered by the flat floor puts its layers' contacts on slice boundaries. Binned by their
// contact points the two lowest slices read +21 % and −18 % of the weight above; each grain's
// contacts spread over the grain's own height read every slice within 6 %, the floor's
// included, and the lowest two (p0 of the Janssen case) within 2 %.
TEST(AxisPressure, EveryDiameterSliceDownToTheFloorIsTheWeightAbove) {
    auto scene = loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/silo.json", {});
    ASSERT_TRUE(scene.ok()) << scene.error().message;
    test::smoothWallsBut(*scene, "floor");
    World world = test::makeWorld(*scene);
    const double slice = 0.01, area = std::numbers::pi * kRadius * kRadius;
    const MeasurementRequest request{"axisPressure",
                                     {{"from", 3.5}, {"radius", kRadius}, {"slice", slice}},
                                     {{"wall", "wall"}},
                                     {}};
    auto m = kAxisPressureMeasurement.make(request, world);
    ASSERT_TRUE(m.ok()) << m.error().message;
    world.subscribe(std::move(m.value()));
    test::runUntil(world, scene->duration);
    const MeasurementResult r = world.measurements()[0]->result();
    const auto& profile = r.tables.at("profile");
    const ParticleStore& p = world.particles();
    const double g = world.gravity().norm();
    std::vector<double> weight;
    for (double zc : profile.at("z")) {
        double w = 0.0;
        for (size_t i = 0; i < p.size(); ++i)
            w += p.mass[i] * g * std::clamp(p.position[i].z() - (zc - 0.5 * slice), 0.0, slice) /
                 slice;
        weight.push_back(w / area);
    }
    const auto& sigmaZZ = profile.at("sigmaZZ");
    int checked = 0;
    for (size_t k = 0; k < sigmaZZ.size(); ++k) {
        if (profile.at("depth")[k] < 2.0 * 0.01) continue;
        EXPECT_NEAR(sigmaZZ[k], weight[k], 0.06 * weight[k])
            << "slice at z = " << profile.at("z")[k];
        ++checked;
    }
    EXPECT_GE(checked, 15);
    const double floor = 0.5 * (weight[0] + weight[1]);
    EXPECT_NEAR(r.scalars.at("sigmaZZAtBottom"), floor, 0.02 * floor);
}

}  // namespace
}  // namespace ndem
