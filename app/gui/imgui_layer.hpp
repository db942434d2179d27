// The one glue file between Qt (events, clipboard, cursor) and Dear ImGui (context, GL backend).
#pragma once

#include <QByteArray>
#include <Qt>

#include <cstdint>
#include <string>
#include <vector>

class QEvent;
class QKeyEvent;
struct ImGuiContext;

namespace ndem::app {

/// Owns one ImGui context and feeds it from the Qt events of one viewport widget.
///
/// Dear ImGui 1.86 (Debian) reads input only at NewFrame(), as state, so a press and a release
/// that arrive between two frames would cancel out and the click be lost. The layer therefore
/// queues Qt events and, at newFrame(), applies them in order with at most ONE transition per
/// mouse button and per key (the "trickle" rule ImGui 1.87 adopted); the rest waits for the
/// next frame, and hasPendingInput() tells the widget to schedule it.
///
/// Usage from a QOpenGLWidget (with setMouseTracking(true), setFocusPolicy(Qt::StrongFocus)):
///   event():        const bool used = m_imgui.handleEvent(e);
///                   if (m_imgui.hasPendingInput()) update();  // even when not used: see below
///                   if (used) return true;  then the camera, then the base class.
///   initializeGL(): m_imgui.initializeGL();  and connect context()->aboutToBeDestroyed to a
///                   cleanup that does makeCurrent(); m_imgui.shutdownGL(); doneCurrent();
///                   call that cleanup from the widget's destructor too, and disconnect there
///                   (Qt's hellogl2 example), as the signal fires after the members are gone.
///   paintGL():      m_imgui.newFrame(width(), height(), devicePixelRatioF(), dt); ImGui::...;
///                   m_imgui.render(); setCursor(m_imgui.cursorShape());
///                   if (m_imgui.hasPendingInput()) update();
/// wantsMouse() and wantsKeyboard() describe the last frame, so a frame must follow each input:
/// otherwise, in a paused scene, a pointer moved onto a panel is still "not over ImGui" and the
/// click that follows turns the camera. Feed events only to a layer that gets frames: a layer
/// whose newFrame() is skipped (panels hidden) keeps its queue and hasPendingInput() forever.
///
/// Every method makes this layer's context current and leaves it current (the UI code between
/// newFrame() and render() draws into it), so several widgets may each own a layer. Not
/// thread-safe: GUI thread only.
class ImGuiLayer {
  public:
    /// Creates the context: dark style, no imgui.ini, DejaVu Sans 15 px when installed.
    ImGuiLayer();
    /// Destroys the context. Call shutdownGL() first, with the GL context current.
    ~ImGuiLayer();
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;

    /// With the GL (3.3 core) context current: creates the OpenGL3 renderer backend.
    void initializeGL();
    /// With the same GL context current: frees the backend's GL objects. Safe to call twice.
    void shutdownGL();

    /// Feed every QEvent of the viewport widget here first. Returns true when ImGui consumed it
    /// (the caller must then not use it for the camera nor pass it to the base class). Mouse
    /// positions are logical pixels. Tab/Backtab are always consumed so Qt does not move focus.
    bool handleEvent(QEvent* event);

    /// Starts a frame. `width`, `height`: widget size in logical pixels; `devicePixelRatio`:
    /// framebuffer pixels per logical pixel (the font atlas is rebuilt when it changes);
    /// `deltaSeconds`: time since the last frame (s), clamped to > 0. Applies queued input.
    void newFrame(float width, float height, float devicePixelRatio, float deltaSeconds);
    /// ImGui::Render() and draws into the currently bound framebuffer (GL context current).
    void render();

    /// io.WantCaptureMouse of the last frame: the pointer is over / dragging an ImGui window.
    bool wantsMouse() const;
    /// io.WantCaptureKeyboard of the last frame: an ImGui widget has keyboard focus.
    bool wantsKeyboard() const;
    /// Queued transitions not yet applied: schedule another frame while true.
    bool hasPendingInput() const;
    /// The pointer shape ImGui asks for after the last frame (I-beam over text, resize arrows).
    Qt::CursorShape cursorShape() const;

  private:
    /// One queued input change, applied in arrival order at newFrame().
    struct InputEvent {
        enum class Kind : std::uint8_t { MouseMove, MouseButton, Wheel, Key, Text };
        Kind kind = Kind::MouseMove;
        bool down = false;   ///< MouseButton, Key: pressed (true) or released
        int slot = 0;        ///< MouseButton: 0..4; Key: io.KeysDown index (see kKey*)
        float x = 0, y = 0;  ///< MouseMove: position (logical px); Wheel: steps (h, v)
        std::string text;    ///< Text: UTF-8, control characters removed
    };

    void queueButton(int button, bool down);
    void queueKey(int slot, bool down);
    void queueMove(float x, float y);
    void releaseEverything();
    bool handleKey(QKeyEvent* event, bool down);
    void applyQueuedInput();
    void rebuildFonts(float devicePixelRatio);

    static const char* clipboardText(void* userData);
    static void setClipboardText(void* userData, const char* text);

    ImGuiContext* m_context = nullptr;
    std::vector<InputEvent> m_queue;
    /// Button and key state after every queued event: a press of a held key is not queued.
    bool m_queuedMouseDown[5] = {};
    bool m_queuedKeyDown[32] = {};
    QByteArray m_clipboard;  ///< keeps the text handed to ImGui alive until the next request
    float m_fontDevicePixelRatio = 1.0f;
    bool m_hasFontFile = false;
    bool m_glReady = false;
};

}  // namespace ndem::app
