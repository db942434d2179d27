// The one command-line parser of `ndem` and `ndem-studio` (CLI11), held to the tools' contract:
// help laid out as "usage: SYNOPSIS", the description, the options and a footer; every refused
// argument one line naming the flag and the value, for the caller to print and exit 2.
#pragma once

#include "io/scene_file.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace ndem::cmdline {

/// How a parse ended: `help` to print (exit 0), an `error` line (exit 2), or neither: go on.
struct Outcome {
    std::string help;
    std::string error;
};

/// Gives `app` the tools' help layout and lets unknown arguments reach `parse`, which names the
/// first of them in its error.
void configure(CLI::App& app, const std::string& synopsis, const std::string& footer);

/// A subcommand of `parent`, configured as above; `description` may run over several lines.
CLI::App* addCommand(CLI::App& parent, const std::string& name, const std::string& synopsis,
                     const std::string& description, const std::string& footer);

/// Parses `args` (argv without the program name) into `app` and its subcommands. -h or --help
/// anywhere gives the help of the command it follows, whatever else is wrong.
Outcome parse(CLI::App& app, const std::vector<std::string>& args);

/// "FLAG VALUE: expected WHAT", the form of every refused value.
std::string refused(const std::string& flag, const std::string& value, const std::string& what);

/// A value checker: stores the value and returns nothing, or returns the whole error line.
using Take = std::function<std::optional<std::string>(const std::string& value)>;

/// FLAG with one value (the last one counts when given twice).
CLI::Option* addValue(CLI::App& app, const std::string& flag, const std::string& valueName,
                      const std::string& help, Take take);

/// FLAG that may be given many times, each with one value, taken in the order given.
CLI::Option* addRepeated(CLI::App& app, const std::string& flag, const std::string& valueName,
                         const std::string& help, Take take);

/// A file or directory name: anything but empty.
CLI::Option* addPath(CLI::App& app, const std::string& flag, const std::string& valueName,
                     const std::string& help, std::string& target);

/// --set KEY=VALUE (many) and --threads N: the scene overrides, in the order given within each
/// flag, --threads after every --set.
void addOverrides(CLI::App& app, std::vector<Override>& overrides);

/// A whole number from `min` to `max` in decimal digits only; nullopt for signs, spaces,
/// fractions and numbers too long for a long, never an exception.
std::optional<long> wholeNumber(const std::string& text, long min, long max);

/// A finite number, the whole text (strtod syntax).
std::optional<double> finiteNumber(const std::string& text);

/// A count from `min` to `max`; refused as "FLAG VALUE: expected `what`".
template <class T>
CLI::Option* addCount(CLI::App& app, const std::string& flag, const std::string& valueName,
                      const std::string& help, T& target, long min, long max,
                      const std::string& what) {
    return addValue(
        app, flag, valueName, help,
        [&target, flag, min, max, what](const std::string& v) -> std::optional<std::string> {
            const std::optional<long> n = wholeNumber(v, min, max);
            if (!n) return refused(flag, v, what);
            if constexpr (std::is_same_v<T, std::optional<long>>)
                target = *n;
            else
                target = static_cast<T>(*n);
            return std::nullopt;
        });
}

/// A number x with lo < x <= hi (hi included, lo not); refused as "FLAG VALUE: expected `what`".
template <class T>
CLI::Option* addNumber(CLI::App& app, const std::string& flag, const std::string& valueName,
                       const std::string& help, T& target, double lo, double hi,
                       const std::string& what) {
    return addValue(
        app, flag, valueName, help,
        [&target, flag, lo, hi, what](const std::string& v) -> std::optional<std::string> {
            const std::optional<double> x = finiteNumber(v);
            if (!x || !(*x > lo) || !(*x <= hi)) return refused(flag, v, what);
            target = *x;
            return std::nullopt;
        });
}

}  // namespace ndem::cmdline
