// `ndem keys`: every setting key with unit, range and default, from the one settings list.
#include "commands.hpp"

#include "io/key_table.hpp"

#include <cstdio>

namespace ndem::cli {

namespace {

int printKeys() {
    printKeyTable(stdout);
    return 0;
}

}  // namespace

Command addKeysCommand(CLI::App& ndem) {
    CLI::App* app =
        cmdline::addCommand(ndem, "keys", "ndem keys",
                            "List every setting key with its unit, range and default.", kExitCodes);
    return {app, [] { return printKeys(); }};
}

}  // namespace ndem::cli
