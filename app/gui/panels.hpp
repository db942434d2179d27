// The Dear ImGui panels inside the viewport: simulation, solver, material, scene, display,
// plots and the particle inspector.
#pragma once

#include "gui/plot_history.hpp"
#include "gui/session.hpp"
#include "render/scene_renderer.hpp"

#include <array>
#include <map>
#include <string>

namespace ndem::app {

/// What the panels edit that is not in the engine: open windows, the pending edits of the
/// input fields, and the last refusal to show.
struct PanelState {
    bool simulation = true, solver = true, material = false, scene = false, display = false,
         plots = true, inspector = true, reduction = false;
    int selectedSensor = -1;  ///< split sensor selected in the viewport or the panel
    int stepsPerFrame = 1;
    float estimateTolerance = 0.05f;  ///< ε of the Eq. 41 read-out
    int materialIndex = 0;
    std::string message;        ///< last refusal or notice, shown until replaced
    double messageTime = -1e9;  ///< wall-clock seconds it was set at
    long pickedId = -1;         ///< inspected particle id, -1: none
    bool fitRequested = false;  ///< the panel asks the viewport to fit the camera
    bool resetRequested = false;
    int fillCount = 0;        ///< particle count the scene panel offers (0: the scene's)
    int clipAxis = 1;         ///< clip plane normal: x, y, z
    float clipOffset = 0.0f;  ///< (m) along that axis
    std::map<std::string, std::array<float, 4>> itemRects;   ///< setting widgets on screen (px)
    std::map<std::string, std::array<float, 4>> panelRects;  ///< open panels on screen (px)
    bool clipFlip = true;  ///< keep the side away from the default camera
};

/// Draws every open panel for snapshot `s` (between ImGuiLayer::newFrame and render).
void drawPanels(Session& session, const Snapshot& s, const PlotHistory& history,
                RenderOptions& render, float meanForce, PanelState& state, double now);

/// Sets the message panels show (edits refused, exports finished).
void showMessage(PanelState& state, std::string message, double now);

}  // namespace ndem::app
