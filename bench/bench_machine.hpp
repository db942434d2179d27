// Where a benchmark ran: the "machine" block of the `ndem bench` report, so numbers from
// different computers and builds are never compared unknowingly.
#pragma once

#include <nlohmann/json.hpp>

namespace ndem::bench {

/// {"cpu", "logicalCores", "threadsUsed", "compiler", "buildType", "engineVersion", "date"}:
/// the CPU model name from /proc/cpuinfo ("unknown" elsewhere), std::thread's logical core
/// count, the compiler's __VERSION__, CMAKE_BUILD_TYPE of ndem_bench, and the UTC time now
/// (ISO 8601). threadsUsed is 1: the engine steps on one thread today.
nlohmann::json describeMachine();

}  // namespace ndem::bench
