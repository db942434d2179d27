#include "solve/settings_keys.hpp"

#include "core/cpu_features.hpp"
#include "core/range_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <variant>

namespace ndem {

std::optional<Error> validate(const StepSettings& s) {
    RangeCheck check{"settings.", std::nullopt};
    visitSettings(s, check);
    if (check.error) return check.error;
    if (!cpuSupports(s.simd))
        return Error{std::string("settings.solver.simd: ") + kSimdLevelNames[int(s.simd)] +
                     " is not available on this CPU or build (use auto or scalar)"};
    if (s.dimension == 2 && s.gravity.y() != 0.0)
        return Error{
            "settings.gravity: a 2D scene moves in the x-z plane; gravity's y component "
            "must be 0"};
    if (s.dimension == 2 && s.contactLaw == ContactLaw::Hertz && s.mode != StepMode::Nonsmooth)
        return Error{
            "settings.contact.law: Hertz's law is for spheres; disks in the plane take "
            "the linear law (or mode nonsmooth)"};
    if (s.theta < 1.0 && (s.mode != StepMode::Nonsmooth || s.impactEnabled || s.reduction.enabled))
        return Error{
            "settings.theta: the theta-method (theta < 1) takes mode nonsmooth, with the "
            "impact stage and model reduction off (its restitution (1 - theta)/theta "
            "replaces the impact stage's)"};
    for (const SettingsBlockInfo& b : SolverRegistry::instance().blocks())
        if (const SettingsBlock* set = s.solverBlocks.find(b.name))
            if (auto e = set->check()) return e;
    if (s.formulation == Formulation::Static) {
        const SolverInfo* method = findSolver(s.method);
        if (!method->staticForm || s.mode != StepMode::Nonsmooth || s.theta < 1.0 ||
            s.reduction.enabled) {
            std::string methods;
            for (const SolverInfo& m : SolverRegistry::instance().solvers())
                if (m.staticForm) methods += (methods.empty() ? "" : " or ") + m.name;
            return Error{
                "settings.solver.formulation: the static formulation takes solver.method " +
                methods + ", mode nonsmooth, theta 1 and model reduction off"};
        }
    }
    if (s.reduction.enabled && s.mode == StepMode::Smooth)
        return Error{
            "settings.reduction.enabled: model reduction needs mode semi-smooth or "
            "nonsmooth (aggregates are solved as rigid bodies by the PGS)"};
    return std::nullopt;
}

namespace {

using Value = std::variant<double, int, bool, Vec3>;

/// The values of the listed keys.
struct CollectListed {
    const std::vector<std::string>& keys;
    std::map<std::string, Value> values;
    template <class T>
    void operator()(const SettingInfo& info, const T& v) {
        if (std::find(keys.begin(), keys.end(), info.key) != keys.end()) values[info.key] = v;
    }
    void operator()(const SettingInfo& info, const int& v, ChoiceNames) { (*this)(info, v); }
};

/// Assigns them.
struct AssignListed {
    const std::map<std::string, Value>& values;
    template <class T>
    void operator()(const SettingInfo& info, T& v) {
        const auto it = values.find(info.key);
        if (it != values.end()) v = std::get<T>(it->second);
    }
    void operator()(const SettingInfo& info, int& v, ChoiceNames) { (*this)(info, v); }
};

}  // namespace

namespace {

/// Every visited key.
struct Keys {
    std::vector<const char*> keys;
    void operator()(const SettingInfo& info, auto&...) { keys.push_back(info.key); }
};

}  // namespace

std::vector<const char*> keysOfOtherMethods(const std::string& method) {
    Keys keys;
    SettingVisitorFor<Keys> visitor(keys);
    const SolverInfo* info = findSolver(method);
    for (const SettingsBlockInfo& b : SolverRegistry::instance().blocks())
        if (!info ||
            std::find(info->blocks.begin(), info->blocks.end(), b.name) == info->blocks.end())
            b.make()->visit(visitor);
    return keys.keys;
}

void copySettings(const StepSettings& from, StepSettings& to,
                  const std::vector<std::string>& keys) {
    CollectListed collect{keys, {}};
    visitSettings(from, collect);
    AssignListed assign{collect.values};
    visitSettings(to, assign);
}

}  // namespace ndem
