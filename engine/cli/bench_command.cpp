// `ndem bench`: the benchmarks of bench/bench_runner as JSON on stdout, progress on stderr.
#include "commands.hpp"

#include "bench_runner.hpp"

#include <cstdio>

namespace ndem::cli {

namespace {

int runBench(bench::BenchOptions& options) {
    options.progress = [](const std::string& line) {
        std::fprintf(stderr, "bench: %s\n", line.c_str());
    };
    const auto report = bench::runBenchmarks(options);
    std::printf("%s\n", report.dump(2).c_str());
    return 0;
}

}  // namespace

Command addBenchCommand(CLI::App& ndem) {
    auto o = std::make_shared<bench::BenchOptions>();
    CLI::App* app = cmdline::addCommand(
        ndem, "bench", "ndem bench [--quick] [--particles N]",
        "Benchmarks on a settled bed of spheres; JSON on stdout (docs/PERFORMANCE.md).",
        kExitCodes);
    app->add_flag("--quick", o->quick, "a small bed and few repeats");
    cmdline::addCount(*app, "--particles", "N", "grains in the bed", o->particles, 100, 10000000,
                      "a whole number from 100 to 10^7");
    return {app, [o] { return runBench(*o); }};
}

}  // namespace ndem::cli
