#include "core/settings.hpp"

#include "core/cpu_features.hpp"
#include "core/material_properties.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ndem {

Vec3 StepSettings::gravityAt(double t) const {
    if (gravityRampTime <= 0.0 || t >= gravityRampTime) return gravity;
    const double full = gravity.norm();
    if (full <= 0.0) return gravity;
    const double start = std::min(gravityRampStart, full);
    const double magnitude = start + (full - start) * (t / gravityRampTime);
    return gravity * (magnitude / full);
}

namespace {

struct RangeCheck {
    std::string prefix;  ///< what the key belongs to, e.g. "settings."
    std::optional<Error> error;

    void check(const SettingInfo& info, double value) {
        if (error) return;
        const bool low = info.minExclusive ? !(value > info.min) : !(value >= info.min);
        if (!std::isfinite(value) || low || value > info.max) {
            std::ostringstream msg;
            msg << prefix << info.key << ": must be ";
            if (std::isfinite(info.min)) msg << (info.minExclusive ? "> " : ">= ") << info.min;
            if (std::isfinite(info.min) && std::isfinite(info.max)) msg << " and ";
            if (std::isfinite(info.max)) msg << "<= " << info.max;
            if (!std::isfinite(info.min) && !std::isfinite(info.max)) msg << "finite";
            msg << " (got " << value << ")";
            error = Error{msg.str()};
        }
    }
    void operator()(const SettingInfo& info, const double& v) { check(info, v); }
    void operator()(const SettingInfo& info, const int& v) { check(info, v); }
    void operator()(const SettingInfo&, const bool&) {}
    void operator()(const SettingInfo& info, const Vec3& v) {
        for (int k = 0; k < 3; ++k)
            check(info, v[k]);
    }
    template <class E, size_t N>
    void operator()(const SettingInfo& info, const E& v, const std::array<const char*, N>&) {
        const int i = static_cast<int>(v);
        if (!error && (i < 0 || i >= static_cast<int>(N)))
            error = Error{prefix + info.key + ": invalid choice"};
    }
};

}  // namespace

std::optional<Error> validate(const StepSettings& s) {
    RangeCheck check{"settings.", std::nullopt};
    visitSettings(s, check);
    if (!check.error && !cpuSupports(s.simd))
        return Error{std::string("settings.solver.simd: ") + kSimdLevelNames[int(s.simd)] +
                     " is not available on this CPU or build (use auto or scalar)"};
    if (!check.error && s.dimension == 2 && s.gravity.y() != 0.0)
        return Error{
            "settings.gravity: a 2D scene moves in the x-z plane; gravity's y component "
            "must be 0"};
    if (!check.error && s.dimension == 2 && s.contactLaw == ContactLaw::Hertz &&
        s.mode != StepMode::Nonsmooth)
        return Error{
            "settings.contact.law: Hertz's law is for spheres; disks in the plane take "
            "the linear law (or mode nonsmooth)"};
    if (!check.error && s.theta < 1.0 &&
        (s.mode != StepMode::Nonsmooth || s.impactEnabled || s.reduction.enabled))
        return Error{
            "settings.theta: the theta-method (theta < 1) takes mode nonsmooth, with the "
            "impact stage and model reduction off (its restitution (1 - theta)/theta "
            "replaces the impact stage's)"};
    if (!check.error && s.dilation > 0.0 && s.slidingRule != SlidingRule::NonAssociated)
        return Error{
            "settings.solver.dilation: a dilation is the non-associated rule's (set "
            "solver.slidingRule to non-associated)"};
    if (!check.error && s.formulation == Formulation::Static &&
        (s.method != SolverMethod::InteriorPoint || s.mode != StepMode::Nonsmooth ||
         s.theta < 1.0 || s.reduction.enabled))
        return Error{
            "settings.solver.formulation: the static formulation takes solver.method "
            "interior-point, mode nonsmooth, theta 1 and model reduction off"};
    if (!check.error && s.reduction.enabled && s.mode == StepMode::Smooth)
        return Error{
            "settings.reduction.enabled: model reduction needs mode semi-smooth or "
            "nonsmooth (aggregates are solved as rigid bodies by the PGS)"};
    return check.error;
}

namespace {

/// The address of every field, in visiting order.
struct FieldAddresses {
    std::vector<const void*> fields;
    template <class T>
    void operator()(const SettingInfo&, const T& v) {
        fields.push_back(&v);
    }
    template <class E, size_t N>
    void operator()(const SettingInfo&, const E& v, const std::array<const char*, N>&) {
        fields.push_back(&v);
    }
};

/// Assigns the fields whose key is listed from the same field of the source (same order).
struct CopyListed {
    const std::vector<const void*>& from;
    const std::vector<std::string>& keys;
    size_t next = 0;
    bool listed(const SettingInfo& info) const {
        return std::find(keys.begin(), keys.end(), info.key) != keys.end();
    }
    template <class T>
    void operator()(const SettingInfo& info, T& v) {
        const T* source = static_cast<const T*>(from[next++]);
        if (listed(info)) v = *source;
    }
    template <class E, size_t N>
    void operator()(const SettingInfo& info, E& v, const std::array<const char*, N>&) {
        const E* source = static_cast<const E*>(from[next++]);
        if (listed(info)) v = *source;
    }
};

}  // namespace

void copySettings(const StepSettings& from, StepSettings& to,
                  const std::vector<std::string>& keys) {
    FieldAddresses addresses;
    visitSettings(from, addresses);
    CopyListed copy{addresses.fields, keys};
    visitSettings(to, copy);
}

std::optional<Error> validate(const Material& m) {
    RangeCheck check{"materials." + m.name + ".", std::nullopt};
    visitMaterialProperties(m, check);
    return check.error;
}

}  // namespace ndem
