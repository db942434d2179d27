// The OpenGL viewport: draws the newest snapshot, hosts the ImGui panels, camera and picking.
#pragma once

#include "gui/guard_messages.hpp"
#include "gui/imgui_layer.hpp"
#include "gui/panels.hpp"
#include "gui/plot_history.hpp"
#include "gui/recorder.hpp"
#include "gui/session.hpp"
#include "render/camera.hpp"
#include "render/scene_renderer.hpp"

#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <QPoint>
#include <QSocketNotifier>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ndem::app {

/// Each paint takes the newest snapshot (never waiting for the sim thread), uploads it when it
/// is new, draws the scene, feeds a paced video frame to the recorder, then the panels. The
/// sim thread wakes it with a queued update() per publish (coalesced).
class Viewport : public QOpenGLWidget {
    Q_OBJECT
  public:
    explicit Viewport(Session& session, QWidget* parent = nullptr);
    ~Viewport() override;

    /// Thread-safe (the sim thread's callback): queues one update() unless one is queued.
    void notifyPublished();

    RenderOptions& renderOptions() { return m_render; }
    const OrbitCamera& camera() const { return m_camera; }
    PanelState& panels() { return m_panels; }
    const Snapshot* snapshot() const;
    const PlotHistory& history() const { return m_history; }
    void fitScene();

    std::optional<std::string> startRecording(const std::string& path, double fps,
                                              double simSeconds, bool withPanels);
    void stopRecording();
    bool recording() const { return m_recorder.active(); }
    const Recorder& recorder() const { return m_recorder; }

    std::uint64_t framesDrawn() const { return m_framesDrawn; }
    /// Milliseconds between consecutive paints (the frame time while drawing continuously).
    const std::vector<float>& frameIntervals() const { return m_frameMs; }
    /// Snapshots taken over by the viewport (new sequences seen).
    std::uint64_t snapshotsSeen() const { return m_snapshotsSeen; }
    /// Panels shown this frame: false for the video unless asked.
    void setPanelsVisible(bool visible) {
        m_panelsVisible = visible;
        update();
    }

  signals:
    void frameDrawn();
    /// A recording ended (all frames, stopped, or failed); `error` is empty on success.
    void recordingFinished(const QString& path, const QString& error);
    void message(const QString& text);

  protected:
    void initializeGL() override;
    void paintGL() override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;

  private slots:
    void wake();

  private:
    void takeSnapshot();
    void pick(const QPoint& at);
    bool overPanel(const QPoint& p) const;
    void shutdownGL();
    void finishRecording(const std::string& error);

    Session& m_session;
    GuardMessages m_guardMessages;  ///< the divergence guards' messages not shown yet
    ImGuiLayer m_imgui;
    SceneRenderer m_renderer;
    OrbitCamera m_camera;
    RenderOptions m_render;
    RenderOptions m_uploadedWith;
    PanelState m_panels;
    PlotHistory m_history;
    Recorder m_recorder;
    QElapsedTimer m_clock;
    qint64 m_lastFrameNs = 0;
    std::vector<float> m_frameMs;
    std::uint64_t m_sequence = 0;  ///< of the uploaded snapshot
    std::uint64_t m_generation = ~0ull;
    std::uint64_t m_framesDrawn = 0, m_snapshotsSeen = 0;
    std::atomic<bool> m_updateQueued{false};
    int m_wakeFd = -1;  ///< eventfd the sim thread writes per publish
    QSocketNotifier* m_wakeNotifier = nullptr;
    bool m_glReady = false;
    bool m_panelsVisible = true;
    bool m_needsUpload = true;
    bool m_fitPending = false;
    QPoint m_pressAt, m_lastMouse;
    bool m_cameraDrag = false;  ///< the button went down outside the panels
    /// A split sensor being dragged: on the plane through the grabbed point facing the
    /// camera, or along one world axis while X, Y or Z is held.
    struct SensorDrag {
        int index = -1;
        glm::vec3 grabbed{0.0f}, normal{0.0f, 0.0f, 1.0f};
        Vec3 start = Vec3::Zero();
    } m_sensorDrag;
    int m_axisLock = -1;  ///< 0, 1, 2 while X, Y, Z is held
    bool grabSensor(const QPoint& at);
    void dragSensor(const QPoint& at);
};

}  // namespace ndem::app
