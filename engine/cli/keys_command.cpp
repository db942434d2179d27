// `ndem keys`: every setting key with unit, range and default, from the one settings list.
#include "commands.hpp"

#include "core/settings.hpp"
#include "measure/measurements.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace ndem::cli {

namespace {

struct KeyPrinter {
    static std::string range(const SettingInfo& i) {
        std::ostringstream s;
        if (std::isfinite(i.min)) s << (i.minExclusive ? "> " : ">= ") << i.min;
        if (std::isfinite(i.min) && std::isfinite(i.max)) s << ", ";
        if (std::isfinite(i.max)) s << "<= " << i.max;
        return s.str();
    }
    void row(const SettingInfo& i, const std::string& value) {
        std::printf("  %-36s %-10s %-14s %-16s %s\n", i.key, i.unit, value.c_str(),
                    range(i).c_str(), i.doc);
    }
    void operator()(const SettingInfo& i, const double& v) {
        std::ostringstream s;
        s << v;
        row(i, s.str());
    }
    void operator()(const SettingInfo& i, const int& v) { row(i, std::to_string(v)); }
    void operator()(const SettingInfo& i, const bool& v) { row(i, v ? "true" : "false"); }
    void operator()(const SettingInfo& i, const Vec3& v) {
        std::ostringstream s;
        s << "[" << v.x() << "," << v.y() << "," << v.z() << "]";
        row(i, s.str());
    }
    template <class E, size_t N>
    void operator()(const SettingInfo& i, const E& v, const std::array<const char*, N>& names) {
        row(i, names[static_cast<int>(v)]);
    }
};

int printKeys() {
    std::printf("Settings (scene file \"settings\": {...}; --set key=value):\n");
    std::printf("  %-36s %-10s %-14s %-16s %s\n", "key", "unit", "default", "range", "meaning");
    StepSettings defaults;
    KeyPrinter printer;
    visitSettings(defaults, printer);
    std::printf("\nMeasurements (scene file \"measurements\": [{\"type\": ...}]):\n");
    for (const MeasurementFactory* f : measurementFactories()) {
        std::printf("  %s: %s\n", f->type, f->reports);
        for (const MeasurementParameter& p : f->parameters)
            std::printf("      %-14s %s\n", p.name, p.doc);
    }
    std::printf("\nMaterials, walls and particle generators: docs/scene-format.md\n");
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
