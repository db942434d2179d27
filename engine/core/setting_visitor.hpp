// What a settings visitor is shown of each key, and the one set of field types every visitor
// takes: numbers, flags, vectors and choices among names. Enums are visited as choices (their
// index among their names), so that a block of keys core/ does not know — a contact solver's
// own, declared in its folder (solve/method/solver_registry.hpp) — reaches every visitor through
// the virtual SettingVisitor exactly as the step's own keys reach it through the template.
#pragma once

#include "core/types.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <span>

namespace ndem {

/// Description of one setting for the visitor: its key, unit and valid range.
struct SettingInfo {
    const char* key;
    const char* unit;
    const char* doc;
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
};

/// The names a choice picks from; the field is the index of the chosen one.
using ChoiceNames = std::span<const char* const>;

/// A visitor behind a virtual call: the form in which type-erased blocks are visited.
class SettingVisitor {
  public:
    virtual ~SettingVisitor() = default;
    virtual void operator()(const SettingInfo& info, double& field) = 0;
    virtual void operator()(const SettingInfo& info, int& field) = 0;
    virtual void operator()(const SettingInfo& info, bool& field) = 0;
    virtual void operator()(const SettingInfo& info, Vec3& field) = 0;
    virtual void operator()(const SettingInfo& info, int& choice, ChoiceNames names) = 0;
};

/// Any visitor with those five overloads, as a SettingVisitor.
template <class V>
class SettingVisitorFor final : public SettingVisitor {
  public:
    explicit SettingVisitorFor(V& visitor) : m_visitor(visitor) {}
    void operator()(const SettingInfo& info, double& field) override { m_visitor(info, field); }
    void operator()(const SettingInfo& info, int& field) override { m_visitor(info, field); }
    void operator()(const SettingInfo& info, bool& field) override { m_visitor(info, field); }
    void operator()(const SettingInfo& info, Vec3& field) override { m_visitor(info, field); }
    void operator()(const SettingInfo& info, int& choice, ChoiceNames names) override {
        m_visitor(info, choice, names);
    }

  private:
    V& m_visitor;
};

/// Visits an enum as a choice: its index among `names`, written back after the visit.
template <class V, class E, std::size_t N>
void visitChoice(V&& v, const SettingInfo& info, E& field,
                 const std::array<const char*, N>& names) {
    int index = static_cast<int>(field);
    v(info, index, ChoiceNames(names));
    field = static_cast<E>(index);
}

/// The same for a visit of const settings (reading only).
template <class V, class E, std::size_t N>
void visitChoice(V&& v, const SettingInfo& info, const E& field,
                 const std::array<const char*, N>& names) {
    const int index = static_cast<int>(field);
    v(info, index, ChoiceNames(names));
}

}  // namespace ndem
