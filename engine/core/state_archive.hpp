// The dynamic state of a world as named arrays of numbers: what World::archive writes into and
// reads back from, and what a checkpoint file holds (io/checkpoint.*). Each class lists its
// state once, in one archive() function that both saves and loads, so that the two cannot
// drift apart. Doubles are kept as doubles and every integer as a 64-bit integer: a restart
// continues bit for bit.
#pragma once

#include "core/types.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace ndem {

class StateArchive {
  public:
    using Reals = std::map<std::string, std::vector<double>>;
    using Integers = std::map<std::string, std::vector<std::int64_t>>;
    using Texts = std::map<std::string, std::string>;

    /// An empty archive that archive() functions write into.
    static StateArchive saving() { return StateArchive(false); }
    /// An archive that archive() functions read from.
    static StateArchive loadingFrom(Reals reals, Integers integers, Texts texts);

    bool loading() const { return m_loading; }
    const Reals& reals() const { return m_reals; }
    const Integers& integers() const { return m_integers; }
    const Texts& texts() const { return m_texts; }
    /// While loading: the first entry that was missing or of the wrong size ("" if none).
    const std::string& error() const { return m_error; }
    bool ok() const { return m_error.empty(); }
    /// Records a load error of the caller's own (e.g. a wall count that does not match).
    void fail(const std::string& message) {
        if (m_error.empty()) m_error = message;
    }
    /// Records a load error about the entry `name` of the current scope: "'scope/name' what".
    void failEntry(const std::string& name, const std::string& what);
    /// Whether the archive holds an entry `name` (of any kind) in the current scope: for an
    /// entry that older states lack, which loading must then leave alone rather than refuse.
    bool has(const std::string& name) const;

    void realArray(const std::string& name, std::vector<double>& v);
    void integerArray(const std::string& name, std::vector<std::int64_t>& v);
    void text(const std::string& name, std::string& s);

    void field(const std::string& name, double& x);
    void field(const std::string& name, Vec3& x);
    void field(const std::string& name, Quat& x);
    void field(const std::string& name, Mat3& x);
    template <class T>
    requires std::is_integral_v<T> || std::is_enum_v<T>
    void field(const std::string& name, T& x) {
        std::vector<std::int64_t> v{static_cast<std::int64_t>(x)};
        integerArray(name, v);
        if (m_loading && v.size() == 1) x = static_cast<T>(v[0]);
    }
    void field(const std::string& name, std::vector<double>& v) { realArray(name, v); }
    template <class T>
    requires std::is_integral_v<T> || std::is_enum_v<T>
    void field(const std::string& name, std::vector<T>& v) {
        std::vector<std::int64_t> w(v.begin(), v.end());
        if constexpr (std::is_enum_v<T>)
            for (size_t i = 0; i < v.size(); ++i)
                w[i] = static_cast<std::int64_t>(v[i]);
        integerArray(name, w);
        if (m_loading) {
            v.resize(w.size());
            for (size_t i = 0; i < w.size(); ++i)
                v[i] = static_cast<T>(w[i]);
        }
    }
    void field(const std::string& name, std::vector<Vec3>& v);
    void field(const std::string& name, std::vector<Quat>& v);
    void field(const std::string& name, std::vector<Mat3>& v);

    /// Names below `prefix/` while it lives.
    class Scope {
      public:
        Scope(StateArchive& a, const std::string& name) : m_archive(a), m_restore(a.m_prefix) {
            a.m_prefix += name + "/";
        }
        ~Scope() { m_archive.m_prefix = m_restore; }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

      private:
        StateArchive& m_archive;
        std::string m_restore;
    };
    [[nodiscard]] Scope scope(const std::string& name) { return Scope(*this, name); }

  private:
    explicit StateArchive(bool loading) : m_loading(loading) {}
    std::string key(const std::string& name) const { return m_prefix + name; }
    /// Loads `count` × width doubles; false (and an error) if missing or of another size.
    bool loadReals(const std::string& name, std::vector<double>& out, size_t width, long count);

    bool m_loading = false;
    std::string m_prefix;
    std::string m_error;
    Reals m_reals;
    Integers m_integers;
    Texts m_texts;
};

/// Names as one text, each followed by a newline, so that "no names" and "one empty name"
/// differ. A name must not contain a newline (ours are identifiers).
void archiveNames(StateArchive& a, const std::string& name, std::vector<std::string>& names);

}  // namespace ndem
