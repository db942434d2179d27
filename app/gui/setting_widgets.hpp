// ImGui widgets for engine settings and material properties, driven by their visitors, so
// every key shows its unit, its range and the engine's own validation.
#pragma once

#include "solve/settings_keys.hpp"

#include <imgui.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace ndem::app {

/// Visitor that draws one widget per visited field whose key starts with one of `prefixes`
/// (all when empty) and records whether the user changed any. Numbers apply on Enter (typing
/// a value never sends half of it); a tooltip gives the meaning, unit and valid range.
struct SettingWidgets {
    std::initializer_list<const char*> prefixes;
    /// Where each drawn widget is on screen (logical px: x0, y0, x1, y1), by key: the input
    /// tests click them, and a guided tour could point at them.
    std::map<std::string, std::array<float, 4>>* rects = nullptr;
    bool changed = false;
    /// Keys left out although a prefix takes them (settings of a method not selected).
    std::vector<const char*> hidden = {};

    void note(const SettingInfo& info) {
        tooltip(info);
        if (!rects) return;
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        (*rects)[info.key] = {a.x, a.y, b.x, b.y};
    }

    bool wanted(const char* key) const {
        for (const char* h : hidden)
            if (std::strcmp(key, h) == 0) return false;
        if (prefixes.size() == 0) return true;
        for (const char* p : prefixes)
            if (std::strncmp(key, p, std::strlen(p)) == 0) return true;
        return false;
    }
    static std::string label(const SettingInfo& info) {
        std::string l = info.key;
        if (info.unit && *info.unit) l += std::string(" (") + info.unit + ")";
        return l + "##" + info.key;
    }
    static void tooltip(const SettingInfo& info) {
        if (!ImGui::IsItemHovered()) return;
        char range[96] = "";
        if (info.min > -1e300 || info.max < 1e300)
            std::snprintf(range, sizeof range, "\nvalid: %s%g … %g", info.minExclusive ? "> " : "",
                          info.min, info.max);
        ImGui::SetTooltip("%s%s", info.doc, range);
    }
    void operator()(const SettingInfo& info, double& v) {
        if (!wanted(info.key)) return;
        changed |= ImGui::InputDouble(label(info).c_str(), &v, 0.0, 0.0, "%.6g",
                                      ImGuiInputTextFlags_EnterReturnsTrue);
        note(info);
    }
    void operator()(const SettingInfo& info, int& v) {
        if (!wanted(info.key)) return;
        changed |=
            ImGui::InputInt(label(info).c_str(), &v, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue);
        note(info);
    }
    void operator()(const SettingInfo& info, bool& v) {
        if (!wanted(info.key)) return;
        changed |= ImGui::Checkbox(label(info).c_str(), &v);
        note(info);
    }
    void operator()(const SettingInfo& info, Vec3& v) {
        if (!wanted(info.key)) return;
        changed |=
            ImGui::InputScalarN(label(info).c_str(), ImGuiDataType_Double, v.data(), 3, nullptr,
                                nullptr, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue);
        note(info);
    }
    void operator()(const SettingInfo& info, int& v, ChoiceNames names) {
        if (!wanted(info.key)) return;
        changed |=
            ImGui::Combo(label(info).c_str(), &v, names.data(), static_cast<int>(names.size()));
        note(info);
    }
};

}  // namespace ndem::app
