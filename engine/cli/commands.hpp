// The subcommands of `ndem`. Each adds itself to the one parser (io/command_line.hpp) and
// returns the function that runs it once the arguments are in. It returns the process exit
// code: 0 success, 1 a failure while running (e.g. a write error), 2 bad input (missing or
// malformed file, unknown key or flag, out-of-range value), with one line on stderr naming
// what is wrong.
#pragma once

#include "io/command_line.hpp"

#include <functional>
#include <string>

namespace ndem::cli {

/// A subcommand: its parser (filled while parsing) and what runs it afterwards.
struct Command {
    CLI::App* app;
    std::function<int()> run;
};

/// What every command's help ends with.
extern const char* const kExitCodes;

Command addRunCommand(CLI::App& ndem);
Command addSweepCommand(CLI::App& ndem);
Command addValidateCommand(CLI::App& ndem);
Command addBenchCommand(CLI::App& ndem);
Command addKeysCommand(CLI::App& ndem);
Command addFclibCommand(CLI::App& ndem);

/// "1 to 10^12" steps: more than any run takes, few enough digits that nothing overflows.
inline constexpr long kMaxSteps = 1000000000000L;

/// Prints "ndem: error: <message>" on stderr and returns 2.
int badInput(const std::string& message);

}  // namespace ndem::cli
