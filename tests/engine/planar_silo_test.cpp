// The silo measurements in the plane: a bin of disks between two frictionless side walls,
// where nothing holds the grains up but the floor. wallPressure's strips add up to the side
// wall's force per metre, the fill's bulk density is the disks' area fraction of a random
// packing, axisPressure's vertical stress is the weight above per metre of width; and what a
// 2D silo needs named is one clear error.
#include "bench_scenes.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <numbers>

namespace ndem {

extern const MeasurementFactory kWallPressureMeasurement;
extern const MeasurementFactory kAxisPressureMeasurement;

namespace {

constexpr double kD = 0.01;
constexpr double kSlice = 0.02;

struct BinRun {
    MeasurementResult wall, section;
    double width = 0.0, wallForce = 0.0, grainDensity = 0.0;
    std::vector<double> weightAbove;  ///< per slice: mean over the slice of W(z)/width (Pa)
};

Scene binScene() {
    StepSettings s;
    s.dimension = 2;
    s.mode = StepMode::Nonsmooth;  // rigid disks: the packing's own area fraction
    s.timeStep = 5e-3;
    s.iterations = 200;
    s.warmStart = true;
    Scene scene = scenes::bed2d(400, kD, scenes::servinGrain(), s, 3);
    test::smoothWallsBut(scene, "floor");
    return scene;
}

const BinRun& frictionlessBin() {
    static const BinRun run = [] {
        World world = test::makeWorld(binScene());
        const MeasurementRequest wall{
            "wallPressure", {{"from", 1.8}}, {{"wall", "left"}, {"across", "right"}}, {}};
        const double half = world.walls()[2].position.x();
        const MeasurementRequest section{"axisPressure",
                                         {{"from", 1.8}, {"radius", half}, {"slice", kSlice}},
                                         {{"wall", "left"}, {"across", "right"}},
                                         {}};
        for (const MeasurementRequest& r : {wall, section}) {
            const MeasurementFactory& f =
                r.type == "wallPressure" ? kWallPressureMeasurement : kAxisPressureMeasurement;
            auto m = f.make(r, world);
            EXPECT_TRUE(m.ok()) << m.error().message;
            world.subscribe(std::move(m.value()));
        }
        // The side wall's force averaged over the same steps (rigid disks: it varies from step
        // to step).
        test::runUntil(world, 1.8);
        double force = 0.0;
        int steps = 0;
        while (world.time() < 2.0 - 1e-9) {
            world.step();
            force += std::abs(world.walls()[1].force.x());
            ++steps;
        }
        BinRun out;
        out.wall = world.measurements()[0]->result();
        out.section = world.measurements()[1]->result();
        out.width = 2.0 * half;
        out.wallForce = force / steps;
        out.grainDensity = scenes::servinGrain().density;
        const ParticleStore& p = world.particles();
        const double g = world.gravity().norm();
        for (double zc : out.section.tables.at("profile").at("z")) {
            double w = 0.0;
            for (size_t i = 0; i < p.size(); ++i)
                w += p.mass[i] * g *
                     std::clamp(p.position[i].z() - (zc - 0.5 * kSlice), 0.0, kSlice) / kSlice;
            out.weightAbove.push_back(w / out.width);
        }
        return out;
    }();
    return run;
}

TEST(PlanarSilo, TheStripsAddUpToTheSideWallsForcePerMetre) {
    const BinRun& run = frictionlessBin();
    ASSERT_TRUE(run.wall.scalars.count("wallNormalForce")) << run.wall.headline;
    EXPECT_GT(run.wallForce, 0.0);
    EXPECT_NEAR(run.wall.scalars.at("wallNormalForce"), run.wallForce, 0.01 * run.wallForce);
    // Each strip's pressure is its force per metre over the strip's height.
    const auto& pressure = run.wall.tables.at("profile").at("pressure");
    double sum = 0.0;
    for (double p : pressure)
        sum += p * run.wall.scalars.at("strip");
    EXPECT_NEAR(sum, run.wall.scalars.at("wallNormalForce"),
                1e-9 * run.wall.scalars.at("wallNormalForce") + 0.02 * run.wallForce);
}

TEST(PlanarSilo, TheBulkDensityIsTheDisksAreaFraction) {
    // Disks of 0.9–1.1 d poured at random pack at an area fraction of about 0.80–0.86.
    const BinRun& run = frictionlessBin();
    const double fraction = run.wall.scalars.at("bulkDensity") / run.grainDensity;
    EXPECT_GT(fraction, 0.75);
    EXPECT_LT(fraction, 0.90);
    // 400 disks over 35 columns of the lattice: about 11.4 layers, 0.87 d apart and more.
    EXPECT_NEAR(run.wall.scalars.at("fillHeight"), 11.4 * 0.9 * kD, 2 * kD);
}

TEST(PlanarSilo, TheVerticalStressIsTheWeightAbovePerMetreOfWidth) {
    const BinRun& run = frictionlessBin();
    const auto& profile = run.section.tables.at("profile");
    const auto& sigmaZZ = profile.at("sigmaZZ");
    int checked = 0;
    for (size_t k = 0; k < sigmaZZ.size(); ++k) {
        if (profile.at("depth")[k] < 2.0 * kD) continue;
        EXPECT_NEAR(sigmaZZ[k], run.weightAbove[k], 0.1 * run.weightAbove[k])
            << "slice at z = " << profile.at("z")[k];
        ++checked;
    }
    EXPECT_GE(checked, 3);
    EXPECT_NEAR(sigmaZZ[0], profile.at("hydrostatic")[0], 0.1 * profile.at("hydrostatic")[0]);
}

TEST(PlanarSilo, WhatA2DSiloNeedsNamedIsOneClearError) {
    World world = test::makeWorld(binScene());
    auto error = [&](std::vector<std::pair<std::string, std::string>> words) {
        MeasurementRequest r{"wallPressure", {}, std::move(words), {}};
        auto m = kWallPressureMeasurement.make(r, world);
        return m ? std::string() : m.error().message;
    };
    EXPECT_NE(error({{"wall", "left"}}).find("name its side wall (wall) and the wall across"),
              std::string::npos);
    EXPECT_NE(error({{"wall", "left"}, {"across", "floor"}}).find("must be upright, parallel"),
              std::string::npos);
    EXPECT_NE(error({{"wall", "left"}, {"across", "nowhere"}}).find("no wall named 'nowhere'"),
              std::string::npos);
    EXPECT_EQ(error({{"wall", "left"}, {"across", "right"}}), "");
    // A silo in space is one cylinder: `across` there is a mistake, said so.
    World silo = test::makeWorld(scenes::bed(20, kD, scenes::servinGrain(), StepSettings{}, 1));
    MeasurementRequest r{"wallPressure", {}, {{"wall", "side0"}, {"across", "side2"}}, {}};
    auto m = kWallPressureMeasurement.make(r, silo);
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("a silo in space is one cylinder wall"), std::string::npos)
        << m.error().message;
}

}  // namespace
}  // namespace ndem
