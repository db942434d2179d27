#include "bench_series.hpp"

#include "core/parallel.hpp"
#include "io/scene_file.hpp"
#include "solve/pgs/pgs_settings.hpp"

#include <chrono>

namespace ndem::bench {

nlohmann::json phasesMs(const PhaseTimes& t) {
    return {{"collide", 1e3 * t.collide}, {"impact", 1e3 * t.impact},
            {"solve", 1e3 * t.solve},     {"integrate", 1e3 * t.integrate},
            {"measure", 1e3 * t.measure}, {"reduce", 1e3 * t.reduce},
            {"total", 1e3 * t.total()}};
}

namespace {

using Clock = std::chrono::steady_clock;

/// Per-step means of summed phase times, in ms.
nlohmann::json phaseMeans(PhaseTimes sum, int steps) {
    sum *= 1.0 / std::max(1, steps);
    return phasesMs(sum);
}

}  // namespace

nlohmann::json rainOntoBed(World& world, int steps, double rate,
                           const std::function<void(const std::string&)>& progress) {
    if (progress) progress("timing grains raining onto the bed");
    // The box above the bed: as wide as the bed, 5–10 mean diameters above its top.
    const ParticleStore& p = world.particles();
    Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
    double meanRadius = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        lo = lo.cwiseMin(p.position[i]);
        hi = hi.cwiseMax(p.position[i]);
        meanRadius += p.radius[i] / static_cast<double>(p.size());
    }
    const double d = 2.0 * meanRadius;
    Emitter rain;
    rain.spec.name = "rain";
    rain.spec.min = Vec3(lo.x(), lo.y(), hi.z() + 5.0 * d);
    rain.spec.max = Vec3(hi.x(), hi.y(), hi.z() + 10.0 * d);
    rain.spec.rate = rate;
    rain.spec.start = world.time();
    rain.spec.radii.lo = 0.9 * meanRadius;
    rain.spec.radii.hi = 1.1 * meanRadius;
    rain.spec.velocity = Vec3(0.0, 0.0, -0.5);
    rain.random = Random(7);
    world.emitters().push_back(rain);
    // Let the first grains reach the bed before timing (a fall of ~10 d takes ~0.15 s).
    const double reach = world.time() + 0.3;
    while (world.time() < reach)
        world.step();

    PhaseTimes sum;
    double impacts = 0.0, contacts = 0.0, stepsWithImpacts = 0.0;
    for (int k = 0; k < steps; ++k) {
        const StepStats s = world.step();
        sum += s.seconds;
        impacts += s.impacts;
        stepsWithImpacts += s.impacts > 0 ? 1.0 : 0.0;
        contacts += s.contacts;
    }
    world.emitters().pop_back();
    const double n = static_cast<double>(world.particles().size());
    return {{"rate", rate},
            {"steps", steps},
            {"particles", n},
            {"meanContacts", contacts / steps},
            {"meanImpacts", impacts / steps},
            {"stepsWithImpactsFraction", stepsWithImpacts / steps},
            {"phasesMs", phaseMeans(sum, steps)},
            {"collisionNsPerParticle", sum.collide / steps / n * 1e9},
            {"impactMsPerStep", 1e3 * sum.impact / steps}};
}

nlohmann::json liveSilo(double seconds, const std::function<void(const std::string&)>& progress) {
    const std::string path = std::string(NDEM_SOURCE_DIR) + "/assets/scenes/silo-9d-live.json";
    auto scene = loadSceneFile(path);
    if (!scene) return {{"error", scene.error().message}};
    scene->settings.threads = 0;  // every core, as the app runs it
    auto created = World::create(*scene);
    if (!created) return {{"error", created.error().message}};
    World& world = *created;
    if (progress) progress("timing the live silo (" + std::to_string(seconds) + " s simulated)");
    PhaseTimes sum;
    StepStats last;
    int steps = 0;
    const auto start = Clock::now();
    while (world.time() < seconds - 0.5 * world.settings().timeStep) {
        last = world.step();
        sum += last.seconds;
        ++steps;
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    return {{"scene", "silo-9d-live"},
            {"particles", world.particles().size()},
            {"simulatedSeconds", world.time()},
            {"wallSeconds", wall},
            {"realTimeFactor", world.time() / wall},
            {"meanOverlap", last.meanOverlap},
            {"maxOverlap", last.maxOverlap},
            {"iterations", world.settings().iterations},
            {"method", world.settings().method},
            {"precision", kSolverPrecisionNames[static_cast<int>(
                              world.settings().solverBlocks.get<PgsSettings>().precision)]},
            {"threads", resolveThreads(world.settings().threads)},
            {"contacts", last.contacts},
            {"phasesMs", phaseMeans(sum, steps)}};
}

}  // namespace ndem::bench
