#include "bench_machine.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

namespace ndem::bench {

namespace {

/// The first "model name" line of /proc/cpuinfo (Linux x86); "unknown" where there is none.
std::string cpuModelName() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) != 0) continue;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) break;
        const size_t start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? std::string("unknown") : line.substr(start);
    }
    return "unknown";
}

std::string compilerName() {
#if defined(__clang__)
    return "Clang " __clang_version__;
#elif defined(__GNUC__)
    return "GCC " __VERSION__;
#elif defined(__VERSION__)
    return __VERSION__;
#else
    return "unknown";
#endif
}

std::string utcNowIso8601() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace

nlohmann::json describeMachine() {
    nlohmann::json m;
    m["cpu"] = cpuModelName();
    m["logicalCores"] = std::thread::hardware_concurrency();
    m["threadsUsed"] = 1;
    m["compiler"] = compilerName();
    std::string buildType;
#ifdef NDEM_BUILD_TYPE
    buildType = NDEM_BUILD_TYPE;
#endif
    m["buildType"] = buildType.empty() ? std::string("unknown") : buildType;
    m["engineVersion"] = NDEM_VERSION;
    m["date"] = utcNowIso8601();
    return m;
}

}  // namespace ndem::bench
