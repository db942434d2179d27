// The subcommands of `ndem`. Each returns the process exit code: 0 success, 1 a failure while
// running (e.g. a write error), 2 bad input (missing or malformed file, unknown key or flag,
// out-of-range value), with one line on stderr naming what is wrong.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ndem::cli {

int runCommand(const std::vector<std::string>& args);
int benchCommand(const std::vector<std::string>& args);
int sweepCommand(const std::vector<std::string>& args);
int validateCommand(const std::vector<std::string>& args);
int keysCommand(const std::vector<std::string>& args);

/// A whole number from 1 to `max` written in decimal digits only; nullopt for anything else
/// (signs, spaces, fractions, numbers too long for a long), never an exception.
std::optional<long> positiveInteger(const std::string& text, long max = 1000000000000L);

/// Prints "ndem: error: <message>" on stderr and returns 2.
int badInput(const std::string& message);

}  // namespace ndem::cli
