// Disks in the plane (settings.dimension = 2): the masses and inertias of a disk per metre of
// thickness, against the analytic motion on an incline and under rolling resistance; a poured
// bed that stays in the plane bit for bit and weighs what its disks weigh; the interior-point
// method on two rows per contact; and the scenes a plane cannot hold, refused by name.
#include "bench_scenes.hpp"
#include "measure/measurements.hpp"
#include "solve/convex/interior_point.hpp"
#include "solve/convex/lcp_interior_point.hpp"
#include "solve/rows/contact_problem.hpp"
#include "test_util.hpp"

#include <cmath>
#include <numbers>

namespace ndem {
namespace {

constexpr double kG = 9.81;
constexpr double kD = 0.01;

StepSettings planar() {
    StepSettings s;
    s.dimension = 2;
    s.mode = StepMode::Nonsmooth;
    s.timeStep = 1e-3;
    s.iterations = 50;
    return s;
}

/// Down-slope acceleration between t = 0.2 s and 0.6 s of a grain on an incline.
double inclineAcceleration(double angleDeg, double mu, int dimension) {
    Material grain = scenes::servinGrain();
    grain.friction = mu;
    StepSettings s = planar();
    s.dimension = dimension;
    World world = test::makeWorld(scenes::incline(angleDeg, kD, grain, s, false));
    const Vec3 down =
        Quat(Eigen::AngleAxisd(angleDeg * std::numbers::pi / 180.0, Vec3::UnitY())) * Vec3::UnitX();
    test::runUntil(world, 0.2);
    const double v0 = world.particles().velocity[0].dot(down);
    test::runUntil(world, 0.6);
    return (world.particles().velocity[0].dot(down) - v0) / 0.4;
}

TEST(Planar, ADiskIsMassAndInertiaPerMetreOfThickness) {
    StepSettings s = planar();
    World world = test::makeWorld(scenes::incline(20.0, kD, scenes::servinGrain(), s, false));
    const double r = 0.5 * kD, rho = scenes::servinGrain().density;
    const double m = rho * std::numbers::pi * r * r;
    EXPECT_DOUBLE_EQ(world.particles().mass[0], m);
    EXPECT_DOUBLE_EQ(world.particles().invInertia[0], 1.0 / (0.5 * m * r * r));
}

TEST(Planar, ADiskRollsDownAnInclineAtTwoThirdsOfGSinTheta) {
    // Rolling without slip: a = g sin θ / (1 + I/(m r²)), 2/3 for a disk where a sphere
    // takes 5/7 (tan θ < 3μ).
    for (double angle : {20.0, 35.0}) {
        const double sine = std::sin(angle * std::numbers::pi / 180.0);
        const double disk = inclineAcceleration(angle, 0.5, 2);
        EXPECT_NEAR(disk, 2.0 / 3.0 * kG * sine, 0.005 * kG * sine) << angle << " deg";
        const double sphere = inclineAcceleration(angle, 0.5, 3);
        EXPECT_NEAR(sphere, 5.0 / 7.0 * kG * sine, 0.005 * kG * sine) << angle << " deg";
    }
}

TEST(Planar, ADiskSlipsWithCoulombsAccelerationOnASteepIncline) {
    // tan θ > 3μ: it slides and spins up, a = g (sin θ − μ cos θ).
    const double theta = 40.0 * std::numbers::pi / 180.0, mu = 0.2;
    const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
    EXPECT_NEAR(inclineAcceleration(40.0, mu, 2), expected, 0.01 * expected);
}

TEST(Planar, RollingResistanceStopsADiskAtThreeQuartersVSquaredOverMuRG) {
    // A constant resisting torque μ_r r m g with rolling contact: a = −(2/3) μ_r g.
    const double v0 = 0.5;
    for (double muR : {0.1, 0.3}) {
        Material grain = scenes::servinGrain();
        grain.friction = 0.5;
        grain.rollingResistance = muR;
        World world = test::makeWorld(scenes::rollingSphere(v0, kD, grain, planar()));
        const double predicted = 3.0 * v0 * v0 / (4.0 * muR * kG);
        test::runUntil(world, 2.0 * predicted / v0 + 0.3);
        const ParticleStore& p = world.particles();
        EXPECT_LT(p.velocity[0].norm(), 1e-6) << "still moving, mu_r = " << muR;
        EXPECT_NEAR(p.position[0].x(), predicted, 0.05 * predicted) << "mu_r = " << muR;
    }
}

/// A bed of disks settled under gravity (semi-smooth, linear springs per metre).
World settledBed(int disks, std::string method = "pgs") {
    StepSettings s = planar();
    s.mode = StepMode::SemiSmooth;
    s.contactLaw = ContactLaw::Linear;
    s.timeStep = 5e-3;
    s.iterations = 100;
    s.warmStart = true;
    s.method = method;
    World world = test::makeWorld(scenes::bed2d(disks, kD, scenes::servinGrain(), s, 7));
    test::runUntil(world, 1.5);
    return world;
}

TEST(Planar, APouredBedStaysInThePlaneAndWeighsItsDisks) {
    World world = settledBed(150);
    const ParticleStore& p = world.particles();
    double weight = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        EXPECT_EQ(p.position[i].y(), 0.0);
        EXPECT_EQ(p.velocity[i].y(), 0.0);
        EXPECT_EQ(p.angularVelocity[i].x(), 0.0);
        EXPECT_EQ(p.angularVelocity[i].z(), 0.0);
        weight += p.mass[i] * kG;
    }
    // The floor carries the bed (frictional side walls a little of it) per metre of thickness.
    double carried = 0.0;
    for (const Wall& w : world.walls())
        carried += w.force.z();
    EXPECT_NEAR(std::abs(carried), weight, 1e-3 * weight);
    EXPECT_GT(world.walls()[0].force.norm(), 0.8 * weight);
}

TEST(Planar, TheInteriorPointSolvesTwoRowsPerContactAsPgsDoesThree) {
    World world = settledBed(120);
    world.requestContactProblem();
    world.step();
    std::optional<ContactProblem> p = world.takeContactProblem();
    ASSERT_TRUE(p.has_value());
    ASSERT_GT(p->contacts(), 150);
    for (int d : p->dim)
        EXPECT_EQ(d, 2);
    EXPECT_EQ(p->rows(), 2 * p->contacts());
    const LocalProblem local = p->local();
    InteriorPointSolver solver;
    Eigen::VectorXd lambda;
    const InteriorPointResult r = solver.solve(local, lambda, {});
    EXPECT_TRUE(r.converged);
    EXPECT_LT(r.iterations, 40);
    // In the cones, and the bed held up: without the contacts every disk would gain
    // h g = 0.049 m/s this step; with the impulses found none moves a twentieth of that (what
    // is left is SPOOK's linear springs taking up the step's overlaps).
    const Eigen::VectorXd y = p->constraintVelocity(lambda);
    for (int c = 0; c < p->contacts(); ++c) {
        const int o = p->offset[static_cast<size_t>(c)];
        EXPECT_GE(lambda[o], -1e-12);
        EXPECT_LE(std::abs(lambda[o + 1]), p->mu[static_cast<size_t>(c)] * lambda[o] + 1e-12);
        EXPECT_GE(y[o], -1e-6);
    }
    auto fastestGrain = [](const Eigen::VectorXd& v) {  // translations only (v, then ω, per body)
        double most = 0.0;
        for (Eigen::Index b = 0; b + 6 <= v.size(); b += 6)
            most = std::max(most, v.segment<3>(b).norm());
        return most;
    };
    EXPECT_GT(fastestGrain(p->vFree), 0.045);
    EXPECT_LT(fastestGrain(p->velocities(lambda)), 0.05 * 0.049);

    // And stepping with it keeps the bed in the plane and at rest.
    StepSettings s = world.settings();
    s.method = "interior-point";
    ASSERT_FALSE(world.applySettings(s));
    for (int k = 0; k < 20; ++k)
        world.step();
    double fastest = 0.0;
    for (size_t i = 0; i < world.particles().size(); ++i) {
        EXPECT_EQ(world.particles().position[i].y(), 0.0);
        fastest = std::max(fastest, world.particles().velocity[i].norm());
    }
    EXPECT_LT(fastest, 1e-3);
}

TEST(Planar, ASlidingDiskOpensAtTheDilationOfItsSlidingRule) {
    // krabbenhoft-2012 Sec. 3.2 and 4.1: a disk sliding on the floor at 1 m/s. The associated
    // rule lifts it at μ|u_t| (the dilation of a time step, Fig. 3); the non-associated rule
    // at ν|u_t|; ν = 0 keeps it on the floor, braking at μ g.
    const double mu = 0.5, h = 0.01;
    Material grain = scenes::servinGrain();
    grain.friction = mu;
    struct Case {
        SlidingRule rule;
        double nu, lift;  // lift: u_n / |u_t| expected
    };
    for (const Case c :
         {Case{SlidingRule::Associated, 0.0, mu}, Case{SlidingRule::NonAssociated, 0.1, 0.1},
          Case{SlidingRule::NonAssociated, 0.0, 0.0}}) {
        StepSettings s = planar();
        s.timeStep = h;
        s.impactEnabled = false;
        s.method = "interior-point";
        s.solverBlocks.edit<InteriorPointSettings>().slidingRule = c.rule;
        s.solverBlocks.edit<InteriorPointSettings>().dilation = c.nu;
        Scene scene = scenes::rollingSphere(1.0, kD, grain, s);
        scene.particles[0].angularVelocity.setZero();
        World world = test::makeWorld(std::move(scene));
        const StepStats stats = world.step();
        const Vec3 v = world.particles().velocity[0];
        const double slip = v.x() - 0.5 * kD * world.particles().angularVelocity[0].y();
        EXPECT_GT(slip, 0.3) << c.lift;  // still sliding (the lift loads the contact)
        EXPECT_NEAR(v.z(), c.lift * slip, 2e-3 * slip) << "lift " << c.lift;
        EXPECT_LT(stats.solverResidual, 1e-8) << c.lift;
        if (c.nu == 0.0 && c.rule == SlidingRule::NonAssociated) {
            EXPECT_NEAR(v.x(), 1.0 - mu * kG * h, 1e-3 * mu * kG * h);
        }
    }
}

TEST(Planar, TheComplementarityProblemSolvesCoulombsLawOnABed) {
    // ν = 0 on a settled bed: Siconos' error measure of Coulomb's law, reached in the paper's
    // budget of 50 Newton steps; and ν = μ agrees with the cone program.
    World world = settledBed(120);
    world.requestContactProblem();
    world.step();
    std::optional<ContactProblem> p = world.takeContactProblem();
    ASSERT_TRUE(p.has_value());
    const LocalProblem local = p->local();
    LcpInteriorPoint lcp;
    LcpOptions o;
    Eigen::VectorXd coulomb;
    const InteriorPointResult r = lcp.solve(local, coulomb, o);
    EXPECT_LE(r.iterations, 50);
    EXPECT_LT(coulombError(local, coulomb), 1e-6) << r.relative;
    o.dilation = local.mu;
    Eigen::VectorXd associated, cone;
    EXPECT_TRUE(lcp.solve(local, associated, o).converged);
    InteriorPointSolver ip;
    EXPECT_TRUE(ip.solve(local, cone, {}).converged);
    // Both stop at 10⁻¹⁰ of the residual; on a bed whose W is nearly singular (stiff contacts
    // carrying self-stress) that fixes the impulses to about its square root.
    EXPECT_LT((associated - cone).norm(), 1e-5 * cone.norm());

    // Stepping with it: the bed stays at rest in the plane.
    StepSettings s = world.settings();
    s.method = "interior-point";
    s.solverBlocks.edit<InteriorPointSettings>().slidingRule = SlidingRule::NonAssociated;
    ASSERT_FALSE(world.applySettings(s));
    for (int k = 0; k < 10; ++k)
        world.step();
    double fastest = 0.0;
    for (size_t i = 0; i < world.particles().size(); ++i)
        fastest = std::max(fastest, world.particles().velocity[i].norm());
    EXPECT_LT(fastest, 1e-3);
}

/// A block of cols × rows touching disks of diameter kD against the wall at x = 0.
Scene block(int cols, int rows) {
    Scene s = scenes::bed2d(1, kD, scenes::servinGrain(), planar(), 1);
    s.particles.clear();
    for (int i = 0; i < cols; ++i)
        for (int k = 0; k < rows; ++k) {
            ParticleSpec p;
            p.radius = 0.5 * kD;
            p.position = Vec3((i + 0.5) * kD, 0.0, (k + 0.5) * kD);
            s.particles.push_back(p);
        }
    return s;
}

TEST(Planar, ColumnCollapseReadsTheColumnThenItsSpreading) {
    // krabbenhoft-2012 Sec. 5.1's measures: a square packing 10 wide and 14 high has a = 1.4
    // and porosity 1 − π/4; spread into 25 × 5 it has run out 1.5 L_i and stands 0.5 L_i high.
    MeasurementRequest request;
    request.type = "columnCollapse";
    request.numbers = {{"release", 1.0}};
    World column = test::makeWorld(block(10, 14));
    World spread = test::makeWorld(block(25, 5));
    auto m = makeMeasurement(request, column);
    ASSERT_TRUE(m.ok()) << m.error().message;
    StepStats stats;
    stats.step = 10;
    stats.time = 0.99;
    (*m)->sample(column, stats);  // before the release: nothing
    stats.time = 1.0;
    (*m)->sample(column, stats);
    stats.time = 1.2;
    (*m)->sample(spread, stats);
    const MeasurementResult r = (*m)->result();
    EXPECT_NEAR(r.scalars.at("initialLength"), 10 * kD, 1e-12);
    EXPECT_NEAR(r.scalars.at("aspectRatio"), 1.4, 1e-12);
    EXPECT_NEAR(r.scalars.at("initialPorosity"), 1.0 - std::numbers::pi / 4.0, 1e-12);
    EXPECT_NEAR(r.scalars.at("runout"), 1.5, 1e-12);
    EXPECT_NEAR(r.scalars.at("finalHeight"), 0.5, 1e-12);
    EXPECT_NEAR(r.scalars.at("tBar"), 0.2 / std::sqrt(14 * kD / kG), 1e-9);
    EXPECT_EQ(r.series.at("t").size(), 2u);
}

Scene planarScene() {
    return scenes::bed2d(10, kD, scenes::servinGrain(), planar(), 1);
}

std::string creationError(const Scene& scene) {
    auto w = World::create(scene);
    return w ? std::string() : w.error().message;
}

TEST(Planar, WhatThePlaneCannotHoldIsOneClearError) {
    Scene s = planarScene();
    ASSERT_EQ(creationError(s), "");
    auto refused = [](const std::string& message, const std::string& part) {
        EXPECT_NE(message.find(part), std::string::npos) << message;
    };
    Scene front = planarScene();
    Wall w;
    w.name = "front";
    w.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());
    front.walls.push_back(w);
    refused(creationError(front), "walls.front: a plane of a 2D scene");

    Scene mesh = planarScene();
    Wall m;
    m.name = "chute";
    m.shape = WallShape::Mesh;
    mesh.walls.push_back(m);
    refused(creationError(mesh), "walls.chute: a 2D scene takes no triangle meshes");

    Scene lifted = planarScene();
    lifted.particles[3].position.y() = 1e-3;
    refused(creationError(lifted), "particles: grain 3");

    Scene sideways = planarScene();
    sideways.settings.gravity = Vec3(0.0, -1.0, -9.81);
    refused(creationError(sideways), "settings.gravity");

    Scene hertz = planarScene();
    hertz.settings.mode = StepMode::SemiSmooth;
    refused(creationError(hertz), "settings.contact.law");
    hertz.settings.contactLaw = ContactLaw::Linear;
    EXPECT_EQ(creationError(hertz), "");

    World world = test::makeWorld(s);
    StepSettings three = world.settings();
    three.dimension = 3;
    const auto e = world.applySettings(three);
    ASSERT_TRUE(e.has_value());
    refused(e->message, "settings.dimension: fixed for a run");
}

}  // namespace
}  // namespace ndem
