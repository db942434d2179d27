// A visitor that checks every visited field against its range and every choice against its
// names: the first value outside gives the error, naming the key (with a prefix saying where
// it is) and the value.
#pragma once

#include "core/error.hpp"
#include "core/setting_visitor.hpp"

#include <cmath>
#include <optional>
#include <sstream>
#include <string>

namespace ndem {

/// Checks every visited field against its range.
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
    void operator()(const SettingInfo& info, const int& i, ChoiceNames names) {
        if (error || (i >= 0 && i < static_cast<int>(names.size()))) return;
        std::string list;
        for (const char* n : names)
            list += (list.empty() ? "" : ", ") + std::string(n);
        error = Error{prefix + info.key + ": not one of " + list};
    }
};

}  // namespace ndem
