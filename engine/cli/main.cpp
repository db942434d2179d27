// ndem: the headless NDEM Studio engine. `ndem help` lists the commands.
#include "commands.hpp"
#include "core/memory_reuse.hpp"

#include <cstdio>
#include <new>
#include <string>
#include <vector>

namespace ndem::cli {

const char* const kExitCodes =
    R"(exit codes: 0 success, 1 failure while running, 2 bad input, 3 the run diverged (a value
  of the state went NaN or infinite, or grains were thrown into each other, more contacts than
  any packing has; the error names the step, the particle and the quantity).
warnings (once per kind, on stderr and in the report's "warnings"): an overlap beyond
  guards.overlap, energy growing with nothing to supply it, a grain that left the walls, a
  static step that moved grains farther than contact detection reached (no static equilibrium).
)";

int badInput(const std::string& message) {
    std::fprintf(stderr, "ndem: error: %s\n", message.c_str());
    return 2;
}

}  // namespace ndem::cli

int main(int argc, char** argv) {
    using namespace ndem::cli;
    ndem::keepFreedMemoryForReuse();
    CLI::App ndem("", "ndem");
    ndem::cmdline::configure(ndem,
                             "ndem <command> [options]   (ndem <command> --help: that command;"
                             " ndem help: this text)",
                             kExitCodes);
    const std::vector<Command> commands = {addRunCommand(ndem),      addSweepCommand(ndem),
                                           addValidateCommand(ndem), addBenchCommand(ndem),
                                           addKeysCommand(ndem),     addFclibCommand(ndem)};
    CLI::App* version = ndem::cmdline::addCommand(ndem, "version", "ndem version",
                                                  "The version and build type.", kExitCodes);
    bool versionFlag = false;
    ndem.add_flag("--version", versionFlag, "the version and build type");

    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help") {  // bare `ndem` is a mistake: the list on stderr
        std::fputs(ndem.help().c_str(), args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    const ndem::cmdline::Outcome outcome = ndem::cmdline::parse(ndem, args);
    if (!outcome.error.empty()) return badInput(outcome.error);
    if (!outcome.help.empty()) {
        std::fputs(outcome.help.c_str(), stdout);
        return 0;
    }
    if (versionFlag || version->parsed()) {
        std::printf("ndem %s (%s build)\n", NDEM_VERSION, NDEM_BUILD_TYPE);
        return 0;
    }
    // A run whose state goes wrong without going NaN (grains thrown metres in a step, each
    // then a candidate contact of every other) can ask for more memory than there is: one
    // clear error and exit 1, its last checkpoint (written whole) left as it was.
    try {
        for (const Command& c : commands)
            if (c.app->parsed()) return c.run();
    } catch (const std::bad_alloc&) {
        std::fputs(
            "ndem: error: out of memory (a run whose grains were thrown far in a step "
            "finds contacts between all of them: see the warnings above)\n",
            stderr);
        return 1;
    }
    return badInput("no command given (try `ndem help`)");
}
