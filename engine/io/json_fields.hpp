// Strict reading of JSON objects for scene files: every key typed and range-checked, unknown
// keys refused, every error naming the dotted key path and the offending value. Internal to
// engine/io (nlohmann_json stays out of the public headers).
#pragma once

#include "core/types.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ndem::io {

using Json = nlohmann::json;

/// Thrown inside the loader only; loadScene turns it into an Error value.
struct LoadError : std::runtime_error {
    std::string path;  ///< dotted key path, e.g. "walls.2.radius"
    LoadError(std::string key, const std::string& what)
        : std::runtime_error(what), path(std::move(key)) {}
};

inline std::string joinPath(const std::string& base, const std::string& key) {
    return base.empty() ? key : base + "." + key;
}

/// Short rendering of a JSON value for error messages.
inline std::string show(const Json& v) {
    std::string s = v.dump();
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

struct Range {
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
    bool maxExclusive = false;
};

/// Reads the members of one JSON object. finish() refuses any key nobody asked for.
class Fields {
  public:
    Fields(const Json& object, std::string path) : m_object(object), m_path(std::move(path)) {
        if (!object.is_object())
            throw LoadError(m_path, "expected an object (got " + show(object) + ")");
    }

    bool has(const std::string& key) const { return m_object.contains(key); }
    const std::string& path() const { return m_path; }
    std::string pathOf(const std::string& key) const { return joinPath(m_path, key); }

    const Json* raw(const std::string& key) {
        m_used.insert(key);
        auto it = m_object.find(key);
        return it == m_object.end() ? nullptr : &*it;
    }

    double number(const std::string& key, double fallback, Range range = {}) {
        const Json* v = raw(key);
        if (!v) return fallback;
        return checkNumber(*v, pathOf(key), range);
    }
    std::optional<double> optionalNumber(const std::string& key, Range range = {}) {
        const Json* v = raw(key);
        if (!v) return std::nullopt;
        return checkNumber(*v, pathOf(key), range);
    }
    int integer(const std::string& key, int fallback, Range range = {}) {
        const Json* v = raw(key);
        if (!v) return fallback;
        if (!v->is_number_integer())
            throw LoadError(pathOf(key), "expected an integer (got " + show(*v) + ")");
        return static_cast<int>(checkNumber(*v, pathOf(key), range));
    }
    bool boolean(const std::string& key, bool fallback) {
        const Json* v = raw(key);
        if (!v) return fallback;
        if (!v->is_boolean())
            throw LoadError(pathOf(key), "expected true or false (got " + show(*v) + ")");
        return v->get<bool>();
    }
    std::string string(const std::string& key, const std::string& fallback) {
        const Json* v = raw(key);
        if (!v) return fallback;
        if (!v->is_string())
            throw LoadError(pathOf(key), "expected a string (got " + show(*v) + ")");
        return v->get<std::string>();
    }
    Vec3 vec3(const std::string& key, const Vec3& fallback) {
        const Json* v = raw(key);
        if (!v) return fallback;
        return checkVec3(*v, pathOf(key));
    }
    /// A direction: a non-zero 3-vector, normalised.
    Vec3 direction(const std::string& key, const Vec3& fallback) {
        const Vec3 d = vec3(key, fallback);
        if (d.norm() <= 0.0) throw LoadError(pathOf(key), "direction must not be zero");
        return d.normalized();
    }
    template <class E, size_t N>
    E choice(const std::string& key, E fallback, const std::array<const char*, N>& names) {
        const std::string s = string(key, names[static_cast<int>(fallback)]);
        for (size_t i = 0; i < N; ++i)
            if (s == names[i]) return static_cast<E>(i);
        std::string options;
        for (size_t i = 0; i < N; ++i)
            options += (i ? " | " : "") + std::string(names[i]);
        throw LoadError(pathOf(key), "expected one of " + options + " (got \"" + s + "\")");
    }

    /// Refuses keys that were never read: typos must not pass silently.
    void finish() const {
        for (auto it = m_object.begin(); it != m_object.end(); ++it)
            if (!m_used.count(it.key())) throw LoadError(pathOf(it.key()), "unknown key");
    }

    static double checkNumber(const Json& v, const std::string& path, Range range) {
        if (!v.is_number()) throw LoadError(path, "expected a number (got " + show(v) + ")");
        const double x = v.get<double>();
        const bool low = range.minExclusive ? !(x > range.min) : !(x >= range.min);
        const bool high = range.maxExclusive ? !(x < range.max) : !(x <= range.max);
        if (!std::isfinite(x) || low || high) {
            std::string bound;
            if (std::isfinite(range.min))
                bound += std::string(range.minExclusive ? "> " : ">= ") + formatNumber(range.min);
            if (std::isfinite(range.min) && std::isfinite(range.max)) bound += " and ";
            if (std::isfinite(range.max))
                bound += std::string(range.maxExclusive ? "< " : "<= ") + formatNumber(range.max);
            if (bound.empty()) bound = "finite";
            throw LoadError(path, "must be " + bound + " (got " + show(v) + ")");
        }
        return x;
    }
    static Vec3 checkVec3(const Json& v, const std::string& path) {
        if (!v.is_array() || v.size() != 3)
            throw LoadError(path, "expected [x, y, z] (got " + show(v) + ")");
        Vec3 out;
        for (int k = 0; k < 3; ++k)
            out[k] = checkNumber(v[k], path + "." + std::to_string(k), {});
        return out;
    }
    static std::string formatNumber(double x) {
        std::ostringstream s;
        s << x;
        return s.str();
    }

  private:
    const Json& m_object;
    std::string m_path;
    std::set<std::string> m_used;
};

}  // namespace ndem::io
