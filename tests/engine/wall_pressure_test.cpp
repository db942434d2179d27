// wallPressure on the shipped silo, shrunk: the strips account for every newton the grains
// push the wall with, and friction on the wall makes the profile saturate (Janssen); and on
// Janssen's column made exact, a zig-zag of disks between sliding walls, each disk's wall
// force, each strip's pressure and the fit against the analytic recursion.
#include "bench_scenes.hpp"
#include "io/scene_file.hpp"
#include "measure/measurements.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>
#include <vector>

namespace ndem {

extern const MeasurementFactory kWallPressureMeasurement;

namespace {

constexpr int kGrains = 1000;      // fill ≈ 15 d: six 2.5 d strips below the surface
constexpr double kRadius = 0.045;  // R of silo.json (m)

/// Radial force the grains push the cylinder wall outwards with in the last step (N), from
/// the contact geometry: each contact force on the wall projected on the radial direction at
/// its point. Friction is tangential and drops out; nothing here uses the contact normal.
double radialWallForce(const World& world, int wallIndex) {
    const Wall& wall = world.walls()[wallIndex];
    const ContactSet& c = world.contacts();
    const double h = world.settings().timeStep;
    double total = 0.0;
    for (size_t k = 0; k < c.size(); ++k) {
        if (!(c.flags[k] & kWallContact) || c.bodyB[k] != wallIndex) continue;
        const Vec3 point = wall.toLocal(world.particles().position[c.bodyA[k]] + c.leverA[k]);
        const Vec3 radial = Vec3(point.x(), point.y(), 0.0).normalized();
        const Vec3 impulse =
            (c.normalImpulse[k] + c.impactImpulse[k]) * c.normal[k] + c.frictionImpulse[k];
        total += (wall.orientation.conjugate() * impulse).dot(radial) / h;
    }
    return total;
}

struct SiloRun {
    MeasurementResult lastStep;  ///< default strips, sampled in the last step only
    MeasurementResult profile;   ///< 2.5 d strips over the last 0.5 s
    double radialForce = 0.0;    ///< of the last step (N)
};

/// The silo is settled once for all tests here (about 4 s in Release).
const SiloRun& siloRun() {
    static const SiloRun run = [] {
        auto scene =
            loadSceneFile(NDEM_SOURCE_DIR "/assets/scenes/silo.json",
                          {{"particles.0.count", std::to_string(kGrains)}, {"duration", "3"}});
        EXPECT_TRUE(scene.ok()) << scene.error().message;
        World world = test::makeWorld(*scene);
        const MeasurementRequest lastStep{
            "wallPressure", {{"from", 2.995}}, {{"wall", "wall"}}, {}};
        const MeasurementRequest profile{
            "wallPressure", {{"from", 2.5}, {"strip", 0.025}}, {{"wall", "wall"}}, {}};
        for (const MeasurementRequest& r : {lastStep, profile}) {
            auto m = kWallPressureMeasurement.make(r, world);
            EXPECT_TRUE(m.ok()) << m.error().message;
            world.subscribe(std::move(m.value()));
        }
        test::runUntil(world, scene->duration);
        EXPECT_EQ(world.walls()[1].name, "wall");
        return SiloRun{world.measurements()[0]->result(), world.measurements()[1]->result(),
                       radialWallForce(world, 1)};
    }();
    return run;
}

TEST(WallPressure, StripsAddUpToTheRadialForceOnTheWallWithin1Percent) {
    const MeasurementResult& r = siloRun().lastStep;
    ASSERT_EQ(r.scalars.at("samples"), 1.0);
    const double strip = r.scalars.at("strip");
    EXPECT_NEAR(strip, 5 * 0.01, 1e-12);  // default: 5 mean diameters
    double fromStrips = 0.0;
    for (double p : r.tables.at("profile").at("pressure"))
        fromStrips += p * 2.0 * std::numbers::pi * kRadius * strip;
    const double radial = siloRun().radialForce;
    EXPECT_GT(radial, 1.0);  // grains at rest under gravity do push the wall
    EXPECT_NEAR(fromStrips, radial, 0.01 * radial);
    EXPECT_NEAR(r.scalars.at("wallNormalForce"), radial, 0.01 * radial);
}

TEST(WallPressure, FillHeightAndBulkDensityMatchTheGrains) {
    const MeasurementResult& r = siloRun().profile;
    const double fill = r.scalars.at("fillHeight");
    const double grainVolume = kGrains * std::numbers::pi / 6.0 * 1e-6;
    const double area = std::numbers::pi * kRadius * kRadius;
    // A random packing of spheres: solid fraction between 0.5 and 0.65.
    EXPECT_GT(fill, grainVolume / 0.65 / area);
    EXPECT_LT(fill, grainVolume / 0.50 / area);
    EXPECT_NEAR(r.scalars.at("bulkDensity") * area * fill, 2500.0 * grainVolume,
                1e-9 * 2500.0 * grainVolume);
    // The hydrostatic column is ρ_b g (H − z) row by row, 0 above the surface.
    const auto& profile = r.tables.at("profile");
    for (size_t k = 0; k < profile.at("z").size(); ++k)
        EXPECT_NEAR(profile.at("hydrostatic")[k],
                    r.scalars.at("bulkDensity") * 9.82 * std::max(0.0, fill - profile.at("z")[k]),
                    1e-6);
}

TEST(WallPressure, FrictionalWallGivesAJanssenProfileBelowHydrostatic) {
    const MeasurementResult& r = siloRun().profile;
    ASSERT_GE(r.tables.at("profile").at("z").size(), 5u);
    EXPECT_LT(r.scalars.at("fitRelativeResidual"), 0.15);
    EXPECT_LT(r.scalars.at("bottomRatio"), 1.0);  // the wall carries part of the weight
    EXPECT_GT(r.scalars.at("bottomRatio"), 0.0);
    // Saturation: λ is shorter than a few fill heights (a fluid would give λ ≫ H).
    EXPECT_LT(r.scalars.at("lambda"), 3.0 * r.scalars.at("fillHeight"));
    EXPECT_EQ(r.scalars.at("wallFriction"), 0.7);
}

// Janssen's column made exact: disks stacked zig-zag in a bin just wider than a diameter,
// W = d(1 + sin θ), each touching one wall and its neighbours along lines θ = 30° off the
// vertical; frictionless between themselves, μ_w = 0.3 on the walls, whose surfaces slide
// upwards so that the wall friction is fully mobilised (Janssen's assumption) everywhere. With
// f_k the force between the k-th disk from the top and the one below it, a disk's balance is
//   horizontal  N_k = sin θ (f_{k−1} + f_k),   vertical  f_k cos θ + μ_w N_k = f_{k−1} cos θ + m g,
// so f_k = r f_{k−1} + m g/(cos θ + μ_w sin θ), r = (cos θ − μ_w sin θ)/(cos θ + μ_w sin θ):
// the wall load saturates at N = m g/μ_w a disk, geometrically with depth. One disk a wall every
// 2Δ of height (Δ = d cos θ) gives p_sat = m g/(2 μ_w Δ) and λ = −Δ/ln r; Janssen's
// p_sat = K ρ_b g λ with ρ_b W = m/Δ, and K = W/(2 μ_w λ) (the measurement's) are one K.
TEST(WallPressure, AZigZagColumnBetweenSlidingWallsIsJanssensAnalyticColumn) {
    constexpr int kDisks = 40;
    const double d = 0.01, theta = std::numbers::pi / 6.0, mu = 0.3;
    const double s = std::sin(theta), c = std::cos(theta), delta = d * c;
    StepSettings settings;
    settings.dimension = 2;
    settings.contactLaw = ContactLaw::Linear;  // stiff: the angles stay θ to 1e-5
    settings.timeStep = 1e-3;
    settings.iterations = 1000;
    settings.warmStart = true;
    Material grain = scenes::servinGrain();
    grain.friction = 0.0;
    grain.linearStiffness = 1e8;
    Material wall = grain;
    wall.name = "wall";
    ContactMaterialOverride pair;
    pair.first = "grain";
    pair.second = "wall";
    pair.friction = mu;
    // A disk would roll up with the wall instead of sliding on it; rolling resistance above μ
    // keeps it from turning, as Janssen's grains translate.
    pair.rollingResistance = 1.0;
    Scene scene;
    scene.name = "zig-zag";
    scene.settings = settings;
    scene.materials = {grain, wall};
    scene.contactMaterials = {pair};
    const double half = 0.5 * d * (1.0 + s);
    scene.walls = {test::plane("floor", Vec3::Zero(), Vec3::UnitZ()),
                   test::plane("left", Vec3(-half, 0, 0), Vec3::UnitX()),
                   test::plane("right", Vec3(half, 0, 0), -Vec3::UnitX())};
    for (int w : {1, 2}) {
        scene.walls[w].material = 1;
        // 1 mm/s upwards along the surface, in the wall's own frame.
        scene.walls[w].surfaceVelocity =
            scene.walls[w].orientation.conjugate() * Vec3(0.0, 0.0, 1e-3);
    }
    for (int i = 0; i < kDisks; ++i) {  // disk i against the left wall when i is even
        ParticleSpec p;
        p.radius = 0.5 * d;
        p.position = Vec3((i % 2 ? 0.5 : -0.5) * d * s, 0.0, 0.5 * d + i * delta);
        scene.particles.push_back(p);
    }
    World world = test::makeWorld(scene);
    const double strip = 2.0 * delta;  // one disk against each wall a strip
    const MeasurementRequest request{"wallPressure",
                                     {{"from", 0.3}, {"strip", strip}},
                                     {{"wall", "left"}, {"across", "right"}},
                                     {}};
    auto m = kWallPressureMeasurement.make(request, world);
    ASSERT_TRUE(m.ok()) << m.error().message;
    world.subscribe(std::move(m.value()));
    test::runUntil(world, 0.5);

    // The recursion from the top (k = 1) down; the bottom disk has no chain contact below it,
    // the floor holds it.
    const double mass = grain.density * std::numbers::pi * 0.25 * d * d;  // per metre
    const double g = world.gravity().norm(), saturated = mass * g / mu;
    const double ratio = (c - mu * s) / (c + mu * s);
    std::vector<double> analytic(kDisks);
    double above = 0.0;
    for (int k = 1; k <= kDisks; ++k) {
        const double below = k < kDisks ? ratio * above + mass * g / (c + mu * s) : 0.0;
        analytic[kDisks - k] = s * (above + below);
        above = below;
    }
    std::vector<double> wallForce(kDisks, 0.0);
    const ContactSet& contacts = world.contacts();
    for (size_t k = 0; k < contacts.size(); ++k)
        if ((contacts.flags[k] & kWallContact) && contacts.bodyB[k] != 0)
            wallForce[world.particles().id[contacts.bodyA[k]]] +=
                (contacts.normalImpulse[k] + contacts.impactImpulse[k]) / settings.timeStep;
    for (int i = 0; i < kDisks; ++i)
        EXPECT_NEAR(wallForce[i], analytic[i], 1e-3 * saturated) << "disk " << i;
    EXPECT_NEAR(wallForce[10], saturated, 1e-3 * saturated);  // 30 disks down: saturated

    // Each strip's pressure is its left-wall disk's force over the strip (per metre).
    const MeasurementResult r = world.measurements()[0]->result();
    const auto& pressure = r.tables.at("profile").at("pressure");
    ASSERT_EQ(pressure.size(), static_cast<size_t>(kDisks / 2));
    for (int j = 0; j < kDisks / 2; ++j)
        EXPECT_NEAR(pressure[j], analytic[2 * j] / strip, 1e-3 * saturated / strip) << j;

    // The continuous Janssen fit: p_sat = m g/(2 μ_w Δ) (Janssen's K ρ_b g λ), λ = −Δ/ln r.
    // The fit's depth is the strip centre's below the fill height, Δ − d/2 = 3.7 mm above
    // each left disk (a fifth of λ), and the floor halves the bottom strip: it reads p_sat
    // within 5 % and λ within 25 %. Both of its K agree, as Janssen's do only where the wall
    // friction is fully mobilised, and are Janssen's K = W/(2 μ_w λ) within 30 %.
    const double pSat = saturated / strip, lambda = -delta / std::log(ratio);
    const double k = 2.0 * half / (2.0 * mu * lambda);
    EXPECT_NEAR(r.scalars.at("pSat"), pSat, 0.05 * pSat);
    EXPECT_NEAR(r.scalars.at("lambda"), lambda, 0.25 * lambda);
    EXPECT_NEAR(r.scalars.at("janssenKFromPSat"), r.scalars.at("janssenK"),
                0.05 * r.scalars.at("janssenK"));
    EXPECT_NEAR(r.scalars.at("janssenK"), k, 0.3 * k);
    EXPECT_EQ(r.scalars.at("wallFriction"), mu);
}

}  // namespace
}  // namespace ndem
