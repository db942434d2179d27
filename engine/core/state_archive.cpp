#include "core/state_archive.hpp"

#include <algorithm>

namespace ndem {

namespace {

/// "'key' what" (built by appending: GCC 12 warns falsely on a literal + std::string here).
std::string aboutEntry(const std::string& key, const std::string& what) {
    std::string message(1, '\'');
    message += key;
    message += "' ";
    message += what;
    return message;
}

}  // namespace

StateArchive StateArchive::loadingFrom(Reals reals, Integers integers, Texts texts) {
    StateArchive a(true);
    a.m_reals = std::move(reals);
    a.m_integers = std::move(integers);
    a.m_texts = std::move(texts);
    return a;
}

void StateArchive::failEntry(const std::string& name, const std::string& what) {
    fail(aboutEntry(key(name), what));
}

bool StateArchive::has(const std::string& name) const {
    const std::string k = key(name);
    return m_reals.count(k) || m_integers.count(k) || m_texts.count(k);
}

bool StateArchive::loadReals(const std::string& name, std::vector<double>& out, size_t width,
                             long count) {
    const auto it = m_reals.find(key(name));
    if (it == m_reals.end()) {
        fail(aboutEntry(key(name), "is missing"));
        return false;
    }
    if (it->second.size() % width != 0 ||
        (count >= 0 && it->second.size() != width * static_cast<size_t>(count))) {
        fail(aboutEntry(key(name), "has " + std::to_string(it->second.size()) + " numbers"));
        return false;
    }
    out = it->second;
    return true;
}

void StateArchive::realArray(const std::string& name, std::vector<double>& v) {
    if (!m_loading) {
        m_reals[key(name)] = v;
        return;
    }
    loadReals(name, v, 1, -1);
}

void StateArchive::integerArray(const std::string& name, std::vector<std::int64_t>& v) {
    if (!m_loading) {
        m_integers[key(name)] = v;
        return;
    }
    const auto it = m_integers.find(key(name));
    if (it == m_integers.end()) {
        fail(aboutEntry(key(name), "is missing"));
        return;
    }
    v = it->second;
}

void StateArchive::text(const std::string& name, std::string& s) {
    if (!m_loading) {
        m_texts[key(name)] = s;
        return;
    }
    const auto it = m_texts.find(key(name));
    if (it == m_texts.end())
        fail(aboutEntry(key(name), "is missing"));
    else
        s = it->second;
}

void StateArchive::field(const std::string& name, double& x) {
    std::vector<double> v{x};
    if (!m_loading) {
        realArray(name, v);
        return;
    }
    if (loadReals(name, v, 1, 1)) x = v[0];
}

void StateArchive::field(const std::string& name, Vec3& x) {
    std::vector<double> v{x.x(), x.y(), x.z()};
    if (!m_loading) {
        realArray(name, v);
        return;
    }
    if (loadReals(name, v, 3, 1)) x = Vec3(v[0], v[1], v[2]);
}

void StateArchive::field(const std::string& name, Quat& x) {
    std::vector<double> v{x.w(), x.x(), x.y(), x.z()};
    if (!m_loading) {
        realArray(name, v);
        return;
    }
    if (loadReals(name, v, 4, 1)) x = Quat(v[0], v[1], v[2], v[3]);
}

void StateArchive::field(const std::string& name, Mat3& x) {
    std::vector<double> v(x.data(), x.data() + 9);
    if (!m_loading) {
        realArray(name, v);
        return;
    }
    if (loadReals(name, v, 9, 1))
        for (int k = 0; k < 9; ++k)
            x.data()[k] = v[k];
}

void StateArchive::field(const std::string& name, std::vector<Vec3>& x) {
    std::vector<double> v;
    if (!m_loading) {
        v.reserve(3 * x.size());
        for (const Vec3& p : x)
            v.insert(v.end(), {p.x(), p.y(), p.z()});
        realArray(name, v);
        return;
    }
    if (!loadReals(name, v, 3, -1)) return;
    x.resize(v.size() / 3);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = Vec3(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
}

void StateArchive::field(const std::string& name, std::vector<Quat>& x) {
    std::vector<double> v;
    if (!m_loading) {
        v.reserve(4 * x.size());
        for (const Quat& q : x)
            v.insert(v.end(), {q.w(), q.x(), q.y(), q.z()});
        realArray(name, v);
        return;
    }
    if (!loadReals(name, v, 4, -1)) return;
    x.resize(v.size() / 4);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = Quat(v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]);
}

void StateArchive::field(const std::string& name, std::vector<Mat3>& x) {
    std::vector<double> v;
    if (!m_loading) {
        v.reserve(9 * x.size());
        for (const Mat3& m : x)
            v.insert(v.end(), m.data(), m.data() + 9);
        realArray(name, v);
        return;
    }
    if (!loadReals(name, v, 9, -1)) return;
    x.resize(v.size() / 9);
    for (size_t i = 0; i < x.size(); ++i)
        std::copy_n(v.begin() + 9 * i, 9, x[i].data());
}

void archiveNames(StateArchive& a, const std::string& name, std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) {
        text += n;
        text += '\n';
    }
    a.text(name, text);
    if (!a.loading()) return;
    if (!text.empty() && text.back() != '\n') {
        a.failEntry(name, "is not a list of names");
        return;
    }
    names.clear();
    for (size_t start = 0; start < text.size();) {
        const size_t end = text.find('\n', start);
        names.push_back(text.substr(start, end - start));
        start = end + 1;
    }
}

}  // namespace ndem
