// `ndem bench`: the benchmarks of bench/bench_runner as JSON on stdout, progress on stderr.
#include "commands.hpp"

#include "bench_runner.hpp"

#include <cstdio>

namespace ndem::cli {

int benchCommand(const std::vector<std::string>& args) {
    bench::BenchOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--quick") {
            options.quick = true;
        } else if (args[i] == "--particles" && i + 1 < args.size()) {
            try {
                size_t used = 0;
                const long n = std::stol(args[i + 1], &used);
                if (used != args[i + 1].size() || n < 100 || n > 10000000) throw 0;
                options.particles = static_cast<int>(n);
            } catch (...) {
                return badInput("--particles " + args[i + 1] + ": expected a whole number >= 100");
            }
            ++i;
        } else {
            return badInput("bench: unknown option '" + args[i] + "' (try `ndem bench --help`)");
        }
    }
    options.progress = [](const std::string& line) {
        std::fprintf(stderr, "bench: %s\n", line.c_str());
    };
    const auto report = bench::runBenchmarks(options);
    std::printf("%s\n", report.dump(2).c_str());
    return 0;
}

}  // namespace ndem::cli
