#include "io/key_table.hpp"

#include "measure/measurements.hpp"
#include "solve/settings_keys.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace ndem {

namespace {

struct KeyPrinter {
    std::FILE* out;
    static std::string range(const SettingInfo& i) {
        std::ostringstream s;
        if (std::isfinite(i.min)) s << (i.minExclusive ? "> " : ">= ") << i.min;
        if (std::isfinite(i.min) && std::isfinite(i.max)) s << ", ";
        if (std::isfinite(i.max)) s << "<= " << i.max;
        return s.str();
    }
    void row(const SettingInfo& i, const std::string& value) {
        std::fprintf(out, "  %-36s %-10s %-14s %-16s %s\n", i.key, i.unit, value.c_str(),
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
    void operator()(const SettingInfo& i, const int& v, ChoiceNames names) {
        row(i, v >= 0 && v < static_cast<int>(names.size()) ? names[v] : "?");
    }
};

}  // namespace

void printKeyTable(std::FILE* out) {
    std::fprintf(out, "Settings (scene file \"settings\": {...}; --set key=value):\n");
    std::fprintf(out, "  %-36s %-10s %-14s %-16s %s\n", "key", "unit", "default", "range",
                 "meaning");
    StepSettings defaults;
    KeyPrinter printer{out};
    visitSettings(defaults, printer);
    std::fprintf(out,
                 "\nSolver methods (solver.method; each reads the solver.* keys of its blocks):\n");
    for (const SolverInfo& m : SolverRegistry::instance().solvers()) {
        std::string blocks;
        for (const std::string& b : m.blocks)
            blocks += (blocks.empty() ? "" : ", ") + b;
        std::fprintf(out, "  %-16s iterations: %s; residual: %s%s%s\n      %s\n", m.name.c_str(),
                     m.iterationUnit, m.residualName,
                     blocks.empty() ? "" : "; blocks: ", blocks.c_str(), m.summary.c_str());
    }
    std::fprintf(out, "\nMeasurements (scene file \"measurements\": [{\"type\": ...}]):\n");
    for (const MeasurementFactory* f : measurementFactories()) {
        std::fprintf(out, "  %s: %s\n", f->type, f->reports);
        for (const MeasurementParameter& p : f->parameters)
            std::fprintf(out, "      %-14s %s\n", p.name, p.doc);
    }
    std::fprintf(out, "\nMaterials, walls and particle generators: docs/scene-format.md\n");
}

}  // namespace ndem
