// What every ImGui panel of the viewport shares: placement, the frame that records where it
// is (the camera frames the scene between the panels), colours and the refusal message.
#pragma once

#include "gui/panels.hpp"

#include <imgui.h>

#include <optional>
#include <string>

namespace ndem::app::panel {

inline constexpr ImU32 kBlue = IM_COL32(90, 160, 255, 255);
inline constexpr ImU32 kOrange = IM_COL32(255, 160, 60, 255);
inline constexpr ImU32 kGreen = IM_COL32(110, 210, 120, 255);
inline constexpr ImU32 kRed = IM_COL32(235, 90, 90, 255);
inline constexpr ImU32 kGrey = IM_COL32(190, 190, 190, 255);
inline constexpr ImU32 kPurple = IM_COL32(200, 120, 230, 255);

inline void placeNext(float x, float y, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_FirstUseEver);
}

/// Begins a panel whose widgets leave room for their labels (the keys are long), and notes
/// where it is.
inline bool begin(const char* name, bool* open, PanelState& state) {
    const bool visible = ImGui::Begin(name, open);
    const ImVec2 p = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    state.panelRects[name] = {p.x, p.y, p.x + size.x, p.y + size.y};
    ImGui::PushItemWidth(ImGui::GetWindowWidth() * 0.42f);
    return visible;
}

inline void end() {
    ImGui::PopItemWidth();
    ImGui::End();
}

inline void refuseOrApply(PanelState& state, const std::optional<std::string>& error, double now) {
    if (error) showMessage(state, "refused: " + *error, now);
}

}  // namespace ndem::app::panel
