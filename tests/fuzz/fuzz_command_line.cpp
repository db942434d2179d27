// libFuzzer target: a command line (one argument per line of the input) through the parser of
// `ndem` and `ndem-studio` (io/command_line.*) with the kinds of flags they define: a scene,
// counts, numbers, paths, --set and --threads, flags, a subcommand. Never a crash, never an
// exception out of parse; an error is one line.
#include "io/command_line.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args;
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    for (std::string line; std::getline(lines, line) && args.size() < 64;)
        args.push_back(line);

    using namespace ndem::cmdline;
    CLI::App tool("", "tool");
    configure(tool, "tool <command> [options]", "footer\n");
    CLI::App* run = addCommand(tool, "run", "tool run SCENE [options]", "Runs. It does.", "");
    std::string scene, report;
    std::optional<long> steps;
    std::optional<double> time;
    int jobs = 1;
    bool quiet = false;
    std::vector<ndem::Override> overrides;
    run->add_option("SCENE", scene, "the scene");
    addCount(*run, "--steps", "N", "steps", steps, 1, 1000000000000L, "a whole number");
    addNumber(*run, "--time", "T", "time", time, 0.0, 1e12, "seconds > 0");
    addCount(*run, "--jobs,-j", "N", "jobs", jobs, 1, 1024, "1 to 1024");
    addPath(*run, "--report", "FILE", "report", report);
    addOverrides(*run, overrides);
    run->add_flag("-q,--quiet", quiet, "quiet");
    const Outcome outcome = parse(tool, args);
    if (outcome.error.find('\n') != std::string::npos) __builtin_trap();
    if (!outcome.error.empty() && !outcome.help.empty()) __builtin_trap();
    return 0;
}
