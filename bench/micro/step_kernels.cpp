// Google Benchmark micro-benchmarks of the two hot kernels on a settled 2000-sphere bed:
// contact detection alone (World::step times it only as one phase among five) and one whole
// semi-smooth step at N_it = 50. `ndem bench` reports the per-contact and per-particle costs.
#include "bench_runner.hpp"

#include "collide/collider.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>

namespace {

constexpr int kParticles = 2000;
constexpr double kSettleTime = 1.0;  // s

/// One settled bed for all benchmarks: settling takes seconds, each benchmark only reads it
/// (detect) or keeps stepping the resting packing (step).
ndem::World& settledWorld() {
    static ndem::World world = [] {
        auto created =
            ndem::bench::settledBed(kParticles, kSettleTime, ndem::bench::benchSettings());
        if (!created) {
            std::cerr << created.error().message << '\n';
            std::exit(1);
        }
        return std::move(*created);
    }();
    return world;
}

/// Detection of spheres and walls into a reused ContactSet (no history matching), the
/// neighbour lists kept from the first call: what a step of a resting bed pays.
void BM_CollideSettledBed(benchmark::State& state) {
    const ndem::World& world = settledWorld();
    const ndem::CollisionParams params{world.settings().contactMargin, world.settings().timeStep};
    ndem::Collider collider;
    ndem::ContactSet contacts;
    for (auto _ : state) {
        collider.detect(world.particles(), world.walls(), world.meshes(), params, contacts);
        benchmark::DoNotOptimize(contacts.bodyA.data());
    }
    state.counters["contacts"] = static_cast<double>(contacts.size());
    state.counters["timePerParticle"] = benchmark::Counter(
        static_cast<double>(kParticles) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CollideSettledBed)->Unit(benchmark::kMicrosecond);

/// One semi-smooth step (h = 5 ms, N_it = 50, warm start) of the resting bed.
void BM_StepSettledBedNit50(benchmark::State& state) {
    ndem::World& world = settledWorld();
    ndem::StepSettings settings = ndem::bench::benchSettings();
    settings.iterations = 50;
    if (auto e = world.applySettings(settings)) state.SkipWithError(e->message.c_str());
    int contacts = 0;
    for (auto _ : state)
        contacts = world.step().contacts;
    state.counters["contacts"] = contacts;
}
BENCHMARK(BM_StepSettledBedNit50)->Unit(benchmark::kMillisecond);

/// One smooth DEM step of the resting bed at half its stability limit.
void BM_SmoothStepSettledBed(benchmark::State& state) {
    ndem::World& world = settledWorld();
    ndem::StepSettings settings = ndem::bench::benchSettings();
    settings.mode = ndem::StepMode::Smooth;
    settings.timeStep = 0.5 * world.smoothStabilityLimit();
    if (auto e = world.applySettings(settings)) state.SkipWithError(e->message.c_str());
    int contacts = 0;
    for (auto _ : state)
        contacts = world.step().contacts;
    state.counters["contacts"] = contacts;
    state.counters["timePerParticle"] = benchmark::Counter(
        static_cast<double>(kParticles) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SmoothStepSettledBed)->Unit(benchmark::kMicrosecond);

}  // namespace
