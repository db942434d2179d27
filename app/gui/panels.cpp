#include "gui/panels.hpp"

#include "gui/panel_frame.hpp"
#include "gui/reduction_panel.hpp"

#include "core/material_properties.hpp"
#include "gui/plot.hpp"
#include "gui/setting_widgets.hpp"
#include "measure/iteration_estimate.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ndem::app {

namespace {

using panel::kBlue;
using panel::kGreen;
using panel::kGrey;
using panel::kOrange;
using panel::kPurple;
using panel::placeNext;
using panel::refuseOrApply;
constexpr auto beginPanel = panel::begin;
constexpr auto endPanel = panel::end;

/// Mean particle diameter and the extent of the particles along gravity and across it, in
/// diameters: the l and w of servin-2014 Eq. 41 for the scene as it is now.
struct Extent {
    double diameter = 0.0, length = 0.0, width = 0.0;
};

Extent measureExtent(const Snapshot& s) {
    Extent e;
    const size_t n = s.particleCount();
    if (n == 0) return e;
    double sum = 0.0;
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (size_t i = 0; i < n; ++i) {
        sum += 2.0 * s.radius[i];
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], s.position[3 * i + k]);
            hi[k] = std::max(hi[k], s.position[3 * i + k]);
        }
    }
    e.diameter = sum / static_cast<double>(n);
    // Gravity is along z in every shipped scene; the cross-section is the narrower side.
    e.length = (hi[2] - lo[2]) / e.diameter + 1.0;
    e.width = std::min(hi[0] - lo[0], hi[1] - lo[1]) / e.diameter + 1.0;
    for (const Wall& w : s.walls)
        if (w.shape == WallShape::Cylinder && w.enabled) e.width = 2.0 * w.radius / e.diameter;
    return e;
}

void simulationPanel(Session& session, const Snapshot& s, PanelState& state, double now) {
    placeNext(10, 10, 330, 330);
    if (!beginPanel("Simulation", &state.simulation, state)) return endPanel();
    SimLoop& loop = session.loop();
    const bool playing = loop.isPlaying();
    if (ImGui::Button(playing ? "Pause" : "Play", ImVec2(70, 0)))
        playing ? loop.pause() : loop.play();
    ImGui::SameLine();
    if (ImGui::Button("Step", ImVec2(60, 0))) loop.stepOnce();
    ImGui::SameLine();
    if (ImGui::Button("Reset", ImVec2(60, 0))) state.resetRequested = true;
    ImGui::Text("t = %.4f s   step %lld", s.time, static_cast<long long>(s.stepCount));
    ImGui::Text("%zu particles, %d contacts", s.particleCount(), s.stats.contacts);
    if (ImGui::SliderInt("steps per frame", &state.stepsPerFrame, 1, 200, "%d",
                         ImGuiSliderFlags_Logarithmic))
        loop.setStepsPerFrame(state.stepsPerFrame);

    StepSettings edit = s.settings;
    SettingWidgets widgets{{"mode", "timeStep", "contact.law", "gravity", "threads"},
                           &state.itemRects};
    visitSettings(edit, widgets);
    if (widgets.changed) refuseOrApply(state, session.applySettings(edit), now);

    if (!state.message.empty()) {
        ImGui::Separator();
        const bool refusal = state.message.rfind("refused", 0) == 0 ||
                             state.message.rfind("warning", 0) == 0 ||
                             state.message.rfind("stopped", 0) == 0;
        ImGui::PushStyleColor(ImGuiCol_Text, refusal ? IM_COL32(255, 120, 100, 255) : kGreen);
        ImGui::TextWrapped("%s", state.message.c_str());
        ImGui::PopStyleColor();
    }
    endPanel();
}

void solverPanel(Session& session, const Snapshot& s, PanelState& state, double now) {
    placeNext(10, 350, 330, std::max(200.0f, ImGui::GetIO().DisplaySize.y - 360.0f));
    if (!beginPanel("Solver", &state.solver, state)) return endPanel();
    StepSettings edit = s.settings;
    bool changed = ImGui::SliderInt("iterations N_it", &edit.iterations, 1, 2000, "%d",
                                    ImGuiSliderFlags_Logarithmic);
    // servin-2014 Eq. 41 for the scene as it stands, next to the slider it advises.
    const Extent e = measureExtent(s);
    if (e.diameter > 0.0) {
        const double need = requiredIterations(e.length, e.width, 0.0, state.estimateTolerance);
        ImGui::Text("Eq. 41: N_it ~ %.0f for <eps> <= %.3g", need, state.estimateTolerance);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "servin-2014 Eq. 41, static (I = 0): l = %.1f d along gravity, "
                "w = %.1f d across",
                e.length, e.width);
        ImGui::SliderFloat("target <eps>", &state.estimateTolerance, 0.001f, 0.2f, "%.3f",
                           ImGuiSliderFlags_Logarithmic);
    }
    ImGui::Text("last step: %d %s, residual %.3g m/s, <eps> %.4f", s.stats.iterations,
                s.stats.iterationUnit, s.stats.residual, s.stats.meanOverlap);
    if (const SolverInfo* method = findSolver(s.settings.method)) {
        ImGui::TextWrapped("%s %.2g%s", method->residualName, s.stats.solverResidual,
                           s.stats.converged ? " (converged)" : "");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", method->summary.c_str());
    }
    if (s.stats.fallback) ImGui::TextWrapped("fell back: %s", s.stats.fallback);
    if (s.stats.predictionIterations > 0)
        ImGui::Text("unilateral prediction: %d sweeps", s.stats.predictionIterations);
    ImGui::Separator();
    SettingWidgets widgets{{"solver.", "warmStart.", "impact.", "regularization."},
                           &state.itemRects};
    // The keys of the blocks the running method reads, not the other methods' (the registry
    // says which): the panel stays as short as the method's own settings.
    widgets.hidden = keysOfOtherMethods(s.settings.method);
    visitSettings(edit, widgets);
    if (changed || widgets.changed) refuseOrApply(state, session.applySettings(edit), now);
    endPanel();
}

void materialPanel(Session& session, const Snapshot& s, PanelState& state, double now) {
    placeNext(350, 10, 340, 260);
    if (!beginPanel("Material", &state.material, state)) return endPanel();
    if (s.materials.empty()) return endPanel();
    state.materialIndex =
        std::clamp(state.materialIndex, 0, static_cast<int>(s.materials.size()) - 1);
    std::vector<const char*> names;
    for (const Material& m : s.materials)
        names.push_back(m.name.c_str());
    ImGui::Combo("material", &state.materialIndex, names.data(), static_cast<int>(names.size()));
    Material edit = s.materials[static_cast<size_t>(state.materialIndex)];
    SettingWidgets widgets{{}, &state.itemRects};
    visitMaterialProperties(edit, widgets);
    ImGui::TextDisabled("density %.0f kg/m^3 (fixed while running)", edit.density);
    if (widgets.changed)
        refuseOrApply(state, session.applyMaterial(static_cast<size_t>(state.materialIndex), edit),
                      now);
    endPanel();
}

void scenePanel(Session& session, const Snapshot& s, PanelState& state, double now) {
    placeNext(350, 280, 340, 320);
    if (!beginPanel("Scene", &state.scene, state)) return endPanel();
    const Scene& scene = session.scene();
    ImGui::TextWrapped("%s: %s", scene.name.c_str(), scene.description.c_str());
    ImGui::Separator();
    for (size_t k = 0; k < s.walls.size(); ++k) {
        const Wall& w = s.walls[k];
        ImGui::PushID(static_cast<int>(k));
        bool enabled = w.enabled;
        if (ImGui::Checkbox(w.name.c_str(), &enabled)) session.setWallEnabled(k, enabled);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("untick to remove the wall (collapse)");
        if (!w.angularVelocity.isZero() && w.shape == WallShape::Cylinder) {
            double omega = w.angularVelocity.norm();
            if (ImGui::InputDouble("drum speed (rad/s)", &omega, 0, 0, "%.4g",
                                   ImGuiInputTextFlags_EnterReturnsTrue))
                refuseOrApply(state, session.setWallAngularSpeed(k, omega), now);
        }
        if (!w.surfaceVelocity.isZero()) {
            double v = w.surfaceVelocity.norm();
            if (ImGui::InputDouble("belt speed (m/s)", &v, 0, 0, "%.4g",
                                   ImGuiInputTextFlags_EnterReturnsTrue))
                refuseOrApply(state, session.setBeltSpeed(k, v), now);
        }
        ImGui::PopID();
    }
    for (size_t k = 0; k < scene.emitters.size(); ++k) {
        ImGui::PushID(1000 + static_cast<int>(k));
        double rate = scene.emitters[k].rate;
        const std::string label = scene.emitters[k].name + " rate (1/s)";
        if (ImGui::InputDouble(label.c_str(), &rate, 0, 0, "%.4g",
                               ImGuiInputTextFlags_EnterReturnsTrue))
            refuseOrApply(state, session.setEmitterRate(k, rate), now);
        ImGui::PopID();
    }
    ImGui::Text("emitted %ld, removed %ld", s.emitted, s.removed);
    ImGui::Separator();
    if (state.fillCount == 0) state.fillCount = static_cast<int>(scene.particles.size());
    ImGui::InputInt("fill: particles", &state.fillCount, 100, 1000);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the first particle generator's count; needs a reset");
    if (ImGui::Button("Apply and reset")) {
        if (auto e = session.setParticleCount(0, state.fillCount))
            showMessage(state, "refused: " + *e, now);
        else
            state.resetRequested = true;
    }
    endPanel();
}

void colourLegend(const RenderOptions& r) {
    if (!r.range.scalar) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = 12.0f;
    for (int k = 0; k < 64; ++k) {
        const float t0 = static_cast<float>(k) / 64.0f, t1 = static_cast<float>(k + 1) / 64.0f;
        draw->AddRectFilled(ImVec2(p.x + t0 * w, p.y), ImVec2(p.x + t1 * w, p.y + h),
                            viridis(0.5f * (t0 + t1)));
    }
    ImGui::Dummy(ImVec2(w, h));
    const int m = static_cast<int>(r.colourMode);
    ImGui::Text("%.3g", r.range.lo);
    ImGui::SameLine(std::max(60.0f, w - 60.0f));
    ImGui::Text("%.3g %s", r.range.hi, kColourModeUnits[static_cast<size_t>(m)]);
}

void displayPanel(RenderOptions& r, float meanForce, PanelState& state) {
    placeNext(ImGui::GetIO().DisplaySize.x - 430.0f, 440, 420, 330);
    if (!beginPanel("Display", &state.display, state)) return endPanel();
    int mode = static_cast<int>(r.colourMode);
    if (ImGui::Combo("colour", &mode, kColourModeNames.data(),
                     static_cast<int>(kColourModeNames.size())))
        r.colourMode = static_cast<ColourMode>(mode);
    ImGui::Checkbox("auto range", &r.autoRange);
    if (!r.autoRange) ImGui::InputFloat2("range", &r.range.lo, "%.4g");
    colourLegend(r);
    ImGui::Separator();
    ImGui::Checkbox("particles", &r.showParticles);
    ImGui::SameLine();
    ImGui::Checkbox("walls", &r.showWalls);
    ImGui::SameLine();
    if (ImGui::Checkbox("force network", &r.showForces) && r.showForces && r.radiusScale > 0.5f)
        r.radiusScale = 0.35f;  // chains run through the centres: shrink the grains to see them
    ImGui::SliderFloat("particle size", &r.radiusScale, 0.05f, 1.0f, "%.2f");
    ImGui::SliderFloat("force threshold (x mean)", &r.forceThreshold, 0.0f, 5.0f, "%.2f");
    ImGui::Text("mean contact force %.3g N", meanForce);
    ImGui::Separator();
    ImGui::Checkbox("clip plane", &r.clip);
    bool edited = ImGui::Combo("normal", &state.clipAxis, "x\0y\0z\0");
    edited |= ImGui::SliderFloat("offset (m)", &state.clipOffset, -1.0f, 1.0f, "%.3f");
    edited |= ImGui::Checkbox("flip side", &state.clipFlip);
    if (edited) {
        // Keeps dot(n, x) + d >= 0: the side of the plane through offset × axis that n faces.
        glm::vec3 n(0.0f), p0(0.0f);
        n[state.clipAxis] = state.clipFlip ? 1.0f : -1.0f;
        p0[state.clipAxis] = state.clipOffset;
        r.clipPlane = glm::vec4(n, -glm::dot(n, p0));
    }
    if (ImGui::Button("Fit scene (F)")) state.fitRequested = true;
    endPanel();
}

void plotsPanel(const Snapshot& s, const PlotHistory& h, PanelState& state) {
    placeNext(ImGui::GetIO().DisplaySize.x - 430.0f, 10, 420, 420);
    if (!beginPanel("Plots", &state.plots, state)) return endPanel();
    if (ImGui::BeginTabBar("plots")) {
        if (ImGui::BeginTabItem("Wall pressure")) {
            const WallPressureProfile& p = s.wallPressure;
            if (p.wall.empty()) {
                ImGui::TextWrapped(
                    "No silo in this scene: the Janssen plot needs an upright cylinder wall that "
                    "stands still.");
            } else {
                const int n = static_cast<int>(p.depth.size());
                const PlotSeries series[] = {
                    {"wall pressure", p.depth.data(), p.pressure.data(), n, kBlue, true, false},
                    {"hydrostatic", p.depth.data(), p.hydrostatic.data(), n, kGrey, false, true},
                    {"Janssen fit", p.depth.data(), p.janssen.data(),
                     static_cast<int>(p.janssen.size()), kOrange, false, false}};
                plotLines("wallp", PlotAxes{"depth below the surface (m)", "p (Pa)"}, series,
                          ImVec2(-1, -48));
                ImGui::Text("p_sat = %.4g Pa, lambda = %.3g m, K = %.3g", p.pSat, p.lambda,
                            p.janssenK);
                ImGui::Text("fill height %.3g m, averaged over %.2f s", p.fillHeight, p.windowTime);
            }
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Residual")) {
            std::vector<float> r(s.residualPerIteration.begin(), s.residualPerIteration.end());
            const PlotSeries series[] = {
                {"mean residual", nullptr, r.data(), static_cast<int>(r.size()), kBlue}};
            PlotAxes axes{"PGS iteration", "residual (m/s)"};
            axes.logY = true;
            plotLines("resid", axes, series, ImVec2(-1, -24));
            ImGui::Text("last step: %zu sweeps recorded", r.size());
            ImGui::EndTabItem();
        }
        const int n = static_cast<int>(h.size());
        if (ImGui::BeginTabItem("Iterations & time")) {
            const PlotSeries it[] = {{"PGS sweeps", h.time.data(), h.iterations.data(), n, kBlue}};
            plotLines("iters", PlotAxes{"t (s)", "sweeps"}, it, ImVec2(-1, 150));
            const PlotSeries phases[] = {
                {"collide", h.time.data(), h.collideMs.data(), n, kBlue},
                {"impact", h.time.data(), h.impactMs.data(), n, kPurple},
                {"solve", h.time.data(), h.solveMs.data(), n, kOrange},
                {"integrate", h.time.data(), h.integrateMs.data(), n, kGreen},
                {"measure", h.time.data(), h.measureMs.data(), n, kGrey}};
            plotLines("phases", PlotAxes{"t (s)", "step time (ms)"}, phases, ImVec2(-1, -1));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Energy")) {
            const PlotSeries ke[] = {
                {"kinetic energy", h.time.data(), h.kineticEnergy.data(), n, kOrange}};
            PlotAxes axes{"t (s)", "E_kin (J)"};
            axes.logY = true;
            plotLines("ke", axes, ke, ImVec2(-1, -1));
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Overlap")) {
            const PlotSeries ov[] = {{"<delta/d>", h.time.data(), h.meanOverlap.data(), n, kGreen}};
            plotLines("overlap", PlotAxes{"t (s)", "mean overlap <delta/d> (-)"}, ov,
                      ImVec2(-1, -1));
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    endPanel();
}

void inspectorPanel(const Snapshot& s, PanelState& state) {
    if (state.pickedId < 0) return;
    placeNext(350, ImGui::GetIO().DisplaySize.y - 270.0f, 320, 260);
    bool open = true;
    if (!beginPanel("Particle", &open, state)) return endPanel();
    if (!open) state.pickedId = -1;
    size_t i = s.particleCount();
    for (size_t k = 0; k < s.particleCount(); ++k)
        if (s.id[k] == static_cast<std::uint32_t>(state.pickedId)) i = k;
    if (i == s.particleCount()) {
        ImGui::Text("particle %ld is gone", state.pickedId);
        return endPanel();
    }
    const float* x = &s.position[3 * i];
    const float* v = &s.velocity[3 * i];
    ImGui::Text("id %u, radius %.4g m", s.id[i], s.radius[i]);
    ImGui::Text("x = (%.4g, %.4g, %.4g) m", x[0], x[1], x[2]);
    ImGui::Text("v = (%.3g, %.3g, %.3g) m/s, |v| %.3g", v[0], v[1], v[2],
                std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    ImGui::Text("%u contacts, pressure %.4g Pa", s.contactCount[i], s.pressure[i]);
    ImGui::Separator();
    ImGui::TextDisabled("contact forces above the snapshot threshold:");
    for (size_t e = 0; e < s.edgeCount(); ++e) {
        const std::uint32_t a = s.contactBodies[2 * e], b = s.contactBodies[2 * e + 1];
        if (a != i && b != i) continue;
        if (b & kWallEdge)
            ImGui::Text("  wall '%s': f_n = %.4g N", s.walls[b & ~kWallEdge].name.c_str(),
                        s.contactForce[e]);
        else
            ImGui::Text("  particle %u: f_n = %.4g N", s.id[a == i ? b : a], s.contactForce[e]);
    }
    endPanel();
}

}  // namespace

void showMessage(PanelState& state, std::string message, double now) {
    state.message = std::move(message);
    state.messageTime = now;
}

void drawPanels(Session& session, const Snapshot& s, const PlotHistory& history,
                RenderOptions& render, float meanForce, PanelState& state, double now) {
    state.panelRects.clear();
    if (state.simulation) simulationPanel(session, s, state, now);
    if (state.solver) solverPanel(session, s, state, now);
    if (state.material) materialPanel(session, s, state, now);
    if (state.scene) scenePanel(session, s, state, now);
    if (state.display) displayPanel(render, meanForce, state);
    if (state.plots) plotsPanel(s, history, state);
    if (state.inspector) inspectorPanel(s, state);
    if (state.reduction) reductionPanel(session, s, history, state, now);
}

}  // namespace ndem::app
