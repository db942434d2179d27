#include "gui/reduction_panel.hpp"

#include "gui/panel_frame.hpp"
#include "gui/plot.hpp"
#include "gui/setting_widgets.hpp"

#include <imgui.h>

#include <algorithm>

namespace ndem::app {

namespace {

/// Mean particle centre and diameter: where a new sensor goes and how big it starts.
void sceneCentre(const Snapshot& s, Vec3& centre, double& diameter) {
    centre.setZero();
    diameter = 0.01;
    const size_t n = s.particleCount();
    if (n == 0) return;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        centre += Vec3(s.position[3 * i], s.position[3 * i + 1], s.position[3 * i + 2]);
        sum += 2.0 * s.radius[i];
    }
    centre /= static_cast<double>(n);
    diameter = sum / static_cast<double>(n);
}

bool inputVec3(const char* label, Vec3& v, const char* format = "%.4g") {
    double x[3] = {v.x(), v.y(), v.z()};
    if (!ImGui::InputScalarN(label, ImGuiDataType_Double, x, 3, nullptr, nullptr, format,
                             ImGuiInputTextFlags_EnterReturnsTrue))
        return false;
    v = Vec3(x[0], x[1], x[2]);
    return true;
}

void sensorEditor(Session& session, PanelState& state, double now) {
    const auto& sensors = session.sensors();
    if (state.selectedSensor >= static_cast<int>(sensors.size())) state.selectedSensor = -1;
    for (size_t k = 0; k < sensors.size(); ++k) {
        const std::string label =
            sensors[k].name + " (" + kSensorShapeNames[static_cast<size_t>(sensors[k].shape)] + ")";
        if (ImGui::Selectable(label.c_str(), state.selectedSensor == static_cast<int>(k)))
            state.selectedSensor = static_cast<int>(k);
    }
    if (state.selectedSensor < 0) {
        ImGui::TextDisabled("click a sensor in the view to select it; drag it to move it");
        return;
    }
    const size_t k = static_cast<size_t>(state.selectedSensor);
    SplitSensor edit = sensors[k];
    bool changed = ImGui::Checkbox("enabled", &edit.enabled);
    changed |= inputVec3("position (m)", edit.position);
    if (edit.shape == SensorShape::Box) changed |= inputVec3("half extents (m)", edit.halfExtents);
    if (edit.shape != SensorShape::Box)
        changed |= ImGui::InputDouble("radius (m)", &edit.radius, 0, 0, "%.4g",
                                      ImGuiInputTextFlags_EnterReturnsTrue);
    if (edit.shape == SensorShape::Cylinder)
        changed |= ImGui::InputDouble("height (m)", &edit.height, 0, 0, "%.4g",
                                      ImGuiInputTextFlags_EnterReturnsTrue);
    changed |= inputVec3("velocity (m/s)", edit.velocity);
    if (changed) panel::refuseOrApply(state, session.setSensor(k, edit), now);
    if (ImGui::Button("Delete sensor (Del)")) {
        session.removeSensor(k);
        state.selectedSensor = -1;
    }
    ImGui::TextDisabled("drag: on the plane facing you; hold X, Y or Z: along that axis");
}

}  // namespace

void reductionPanel(Session& session, const Snapshot& s, const PlotHistory& h, PanelState& state,
                    double now) {
    panel::placeNext(ImGui::GetIO().DisplaySize.x - 430.0f, 440, 420, 540);
    if (!panel::begin("Model reduction", &state.reduction, state)) return panel::end();
    const StepStats& st = s.stats;
    ImGui::Text("h = 1 - N~/N = %.3f   %d aggregates, %d members", st.reductionLevel, st.aggregates,
                st.members);
    ImGui::Text("last step: %d merged, %d split, merge/split %.2f ms of %.2f ms", st.merged,
                st.split, 1e3 * st.seconds.reduce, 1e3 * st.seconds.total());
    const int n = static_cast<int>(h.size());
    const PlotSeries level[] = {{"h", h.time.data(), h.reductionLevel.data(), n, panel::kGreen}};
    plotLines("hplot", PlotAxes{"t (s)", "reduction level h"}, level, ImVec2(-1, 110));
    const PlotSeries times[] = {
        {"step, reduced", h.time.data(), h.stepMsReduced.data(), n, panel::kBlue},
        {"step, resolved", h.time.data(), h.stepMsResolved.data(), n, panel::kRed},
        {"merge + split", h.time.data(), h.reduceMs.data(), n, panel::kOrange}};
    plotLines("tplot", PlotAxes{"t (s)", "step time (ms)"}, times, ImVec2(-1, 110));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Switch the reduction off and on: the steps taken resolved and reduced\n"
            "are drawn in their own colours on the same axes.");

    if (ImGui::CollapsingHeader("switches and thresholds (Table 2)")) {
        StepSettings edit = s.settings;
        SettingWidgets widgets{{"reduction."}, &state.itemRects};
        visitSettings(edit, widgets);
        if (widgets.changed) panel::refuseOrApply(state, session.applySettings(edit), now);
    } else {
        StepSettings edit = s.settings;
        SettingWidgets widgets{{"reduction.enabled"}, &state.itemRects};
        visitSettings(edit, widgets);
        if (widgets.changed) panel::refuseOrApply(state, session.applySettings(edit), now);
    }

    ImGui::Separator();
    ImGui::Text("Split sensors");
    Vec3 centre;
    double d;
    sceneCentre(s, centre, d);
    for (const SensorShape shape : {SensorShape::Box, SensorShape::Sphere, SensorShape::Cylinder}) {
        const std::string label =
            std::string("Add ") + kSensorShapeNames[static_cast<size_t>(shape)];
        if (shape != SensorShape::Box) ImGui::SameLine();
        if (ImGui::Button(label.c_str()))
            state.selectedSensor = static_cast<int>(session.addSensor(shape, centre, 6.0 * d));
    }
    sensorEditor(session, state, now);
    panel::end();
}

}  // namespace ndem::app
