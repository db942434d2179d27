// ndem: the headless NDEM Studio engine. `ndem help` lists the commands.
#include "commands.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

/// One command's synopsis and description, as `ndem help` lists it.
struct CommandHelp {
    const char* name;
    const char* text;
};

constexpr CommandHelp kCommands[] = {
    {"run", R"(  run SCENE [--steps N | --time T] [--set key=value]... [--threads N] [--report FILE.json]
            [--csv DIR] [--vtk DIR [--every K]] [--checkpoint FILE.h5 [--checkpoint-every T]] [--quiet]
      run --restart FILE.h5 [--steps N | --time T] [--threads N] [--checkpoint FILE.h5 ...] [...]
        Simulate a scene file (assets/scenes/*.json). Without --steps or --time the scene's
        "duration" is simulated; after --restart, what is left of it, and --steps or --time
        count from the restart. --set overrides any key of the scene file (see `ndem keys`).
        --threads N (1 to 1024) steps with N threads; left out, every core (the results are
        the same bit for bit).
        --report writes settings, a StepStats summary and series, and the measurements;
        --csv writes every measurement table as CSV.
        --vtk writes ParaView files (particles, contact network, walls) every K steps.
        --checkpoint writes the whole state (HDF5) at the end, on Ctrl-C, and every T simulated
        seconds with --checkpoint-every; each write replaces the last one whole, and a run
        that diverges keeps its last good checkpoint. --restart goes on from one bit for bit
        as the run that wrote it would have (its scene and settings are in the file; the
        measurements' samples so far too, so they report what an unbroken run would).
)"},
    {"sweep", R"(  sweep SCENE --set key=v1,v2,... [--set ...] [--steps N | --time T] [--out DIR] [--jobs N]
        [--resume]
        Run every combination of the listed values (in parallel), write summary.csv, one CSV
        per measurement with all runs, and PNG plots of every figure against the first key.
        Each run's results are kept in DIR/runs/ as it finishes, so a sweep stopped (Ctrl-C,
        a kill) loses only the runs under way: --resume runs only those not done yet, with
        the same scene file, length and values.
)"},
    {"validate", R"(  validate [--quick] [--case ID] [--out DIR] [--jobs N] [--assemble]
        [--resume] [--checkpoint-every S]
        Reproduce the papers' test systems and write a Markdown report with tables and
        plots (docs/validation/; --quick: small systems, trend checks, ~10 min). --case runs
        one case and keeps the others' sections; --assemble only rebuilds the README (with
        docs/validation/findings/) from the sections already there. Every run writes a
        checkpoint each S seconds of wall time (60) and its outcome when done, in DIR/runs/;
        --resume takes the runs done and goes on from the checkpoints of those cut short
        (Ctrl-C, a kill), bit for bit, for the same scene files and specs.
)"},
    {"bench", R"(  bench [--quick] [--particles N]
        Benchmarks on a settled bed of spheres; JSON on stdout (docs/PERFORMANCE.md).
)"},
    {"keys", R"(  keys  List every setting key with its unit, range and default.
)"},
    {"version", R"(  version  The version.
)"},
};

const char* const kExitCodes = R"(
exit codes: 0 success, 1 failure while running, 2 bad input, 3 the run diverged (a value
  of the state went NaN or infinite; the error names the step, the particle and the quantity).
warnings (once per kind, on stderr and in the report's "warnings"): an overlap beyond
  guards.overlap, energy growing with nothing to supply it, a grain that left the walls.
)";

void printUsage(FILE* out) {
    std::fputs("usage: ndem <command> [options]   (ndem <command> --help: that command)\n\ncommands:\n", out);
    for (const CommandHelp& c : kCommands) std::fputs(c.text, out);
    std::fputs("  help  This text.\n", out);
    std::fputs(kExitCodes, out);
}

/// `ndem <command> --help` (or -h anywhere among its arguments): that command's part.
bool printCommandHelp(const std::string& command, const std::vector<std::string>& args) {
    if (std::find(args.begin(), args.end(), "--help") == args.end() &&
        std::find(args.begin(), args.end(), "-h") == args.end())
        return false;
    for (const CommandHelp& c : kCommands)
        if (command == c.name) {
            std::printf("usage: ndem %s", c.text + 2);  // the synopsis without its indent
            std::fputs(kExitCodes, stdout);
            return true;
        }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        printUsage(args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (printCommandHelp(command, args)) return 0;
    if (command == "run") return ndem::cli::runCommand(args);
    if (command == "bench") return ndem::cli::benchCommand(args);
    if (command == "sweep") return ndem::cli::sweepCommand(args);
    if (command == "validate") return ndem::cli::validateCommand(args);
    if (command == "keys") return ndem::cli::keysCommand(args);
    if (command == "version" || command == "--version") {
        std::printf("ndem %s (%s build)\n", NDEM_VERSION, NDEM_BUILD_TYPE);
        return 0;
    }
    return ndem::cli::badInput("unknown command '" + command + "' (try `ndem help`)");
}
