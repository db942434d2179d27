#include "gui/imgui_layer.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QtGlobal>

#include <algorithm>
#include <cfloat>

// Debian 12 ships Dear ImGui 1.86, whose input API is io.KeyMap / io.KeysDown / io.MouseDown.
// 1.87 replaced it with io.AddKeyEvent / AddMousePosEvent / AddMouseButtonEvent /
// AddMouseWheelEvent (which queue with the same one-transition-per-frame rule) and later
// versions drop io.KeyMap. Porting touches applyQueuedInput() and the key table below only.
static_assert(IMGUI_VERSION_NUM < 18700,
              "imgui_layer.cpp is written for the Dear ImGui 1.86 input API (io.KeyMap, "
              "io.KeysDown). For >= 1.87 port applyQueuedInput() to io.AddKeyEvent etc.");

namespace ndem::app {
namespace {

constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr float kFontSize = 15.0f;  ///< logical pixels

// io.KeysDown slots: the ImGuiKey_ values themselves (io.KeyMap is the identity), then the
// four modifiers, which are queued like keys so a quick Ctrl+C keeps Ctrl down while C is.
constexpr int kKeyCtrl = ImGuiKey_COUNT;
constexpr int kKeyShift = ImGuiKey_COUNT + 1;
constexpr int kKeyAlt = ImGuiKey_COUNT + 2;
constexpr int kKeySuper = ImGuiKey_COUNT + 3;
constexpr int kKeySlotCount = ImGuiKey_COUNT + 4;
static_assert(kKeySlotCount <= 32, "m_queuedKeyDown and the changed-key mask hold 32 slots");

/// Qt keys ImGui 1.86 knows, with their io.KeysDown slot.
constexpr struct {
    int qtKey;
    int slot;
} kKeyTable[] = {
    {Qt::Key_Tab, ImGuiKey_Tab},
    {Qt::Key_Backtab, ImGuiKey_Tab},  // Shift+Tab arrives as Backtab
    {Qt::Key_Left, ImGuiKey_LeftArrow},
    {Qt::Key_Right, ImGuiKey_RightArrow},
    {Qt::Key_Up, ImGuiKey_UpArrow},
    {Qt::Key_Down, ImGuiKey_DownArrow},
    {Qt::Key_PageUp, ImGuiKey_PageUp},
    {Qt::Key_PageDown, ImGuiKey_PageDown},
    {Qt::Key_Home, ImGuiKey_Home},
    {Qt::Key_End, ImGuiKey_End},
    {Qt::Key_Insert, ImGuiKey_Insert},
    {Qt::Key_Delete, ImGuiKey_Delete},
    {Qt::Key_Backspace, ImGuiKey_Backspace},
    {Qt::Key_Space, ImGuiKey_Space},
    {Qt::Key_Return, ImGuiKey_Enter},
    {Qt::Key_Enter, ImGuiKey_KeyPadEnter},  // Qt names the keypad key Enter
    {Qt::Key_Escape, ImGuiKey_Escape},
    {Qt::Key_A, ImGuiKey_A},
    {Qt::Key_C, ImGuiKey_C},
    {Qt::Key_V, ImGuiKey_V},
    {Qt::Key_X, ImGuiKey_X},
    {Qt::Key_Y, ImGuiKey_Y},
    {Qt::Key_Z, ImGuiKey_Z},
    {Qt::Key_Control, kKeyCtrl},
    {Qt::Key_Shift, kKeyShift},
    {Qt::Key_Alt, kKeyAlt},
    {Qt::Key_Meta, kKeySuper},
    {Qt::Key_Super_L, kKeySuper},
    {Qt::Key_Super_R, kKeySuper},
};

/// The io.KeysDown slot of a Qt key, or -1 when ImGui has no use for it.
int keySlot(int qtKey) {
    for (const auto& entry : kKeyTable)
        if (entry.qtKey == qtKey) return entry.slot;
    return -1;
}

/// Letter keys matter to ImGui only as Ctrl shortcuts, when no text is taken, so they need not
/// be ordered against text; the other keys (Enter, Backspace, arrows, Ctrl) act on text and do.
bool isLetterSlot(int slot) {
    return slot >= ImGuiKey_A && slot <= ImGuiKey_Z;
}

int mouseButtonIndex(Qt::MouseButton button) {
    switch (button) {
        case Qt::LeftButton:
            return 0;
        case Qt::RightButton:
            return 1;
        case Qt::MiddleButton:
            return 2;
        case Qt::BackButton:
            return 3;
        case Qt::ForwardButton:
            return 4;
        default:
            return -1;
    }
}

}  // namespace

ImGuiLayer::ImGuiLayer() {
    IMGUI_CHECKVERSION();
    m_context = ImGui::CreateContext();
    ImGui::SetCurrentContext(m_context);  // CreateContext does so only for the first context

    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // window layout is the app's business, not an imgui.ini in cwd
    io.BackendPlatformName = "ndem_qt";
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
    for (int key = 0; key < ImGuiKey_COUNT; ++key)
        io.KeyMap[key] = key;
    // Without these ImGui keeps a private clipboard that other applications cannot see.
    io.ClipboardUserData = this;
    io.GetClipboardTextFn = &ImGuiLayer::clipboardText;
    io.SetClipboardTextFn = &ImGuiLayer::setClipboardText;
    ImGui::StyleColorsDark();

    m_hasFontFile = QFileInfo::exists(QString::fromLatin1(kFontPath));
    rebuildFonts(1.0f);
}

ImGuiLayer::~ImGuiLayer() {
    // Without a current GL context the backend's objects cannot be freed here; they die with
    // the context, only the backend's small CPU struct leaks.
    if (m_glReady) qWarning("ImGuiLayer destroyed without shutdownGL()");
    ImGui::DestroyContext(m_context);  // clears the current context if it was this one
}

void ImGuiLayer::initializeGL() {
    ImGui::SetCurrentContext(m_context);
    Q_ASSERT_X(!m_glReady, "ImGuiLayer::initializeGL", "shutdownGL() was not called");
    m_glReady = ImGui_ImplOpenGL3_Init("#version 330 core");
    if (!m_glReady) qWarning("ImGui_ImplOpenGL3_Init failed (no OpenGL 3.3 core context?)");
}

void ImGuiLayer::shutdownGL() {
    if (!m_glReady) return;
    ImGui::SetCurrentContext(m_context);
    ImGui_ImplOpenGL3_Shutdown();
    m_glReady = false;
}

// The font is rasterised at the framebuffer's pixel size and drawn scaled by 1/dpr, so text
// stays 15 logical pixels tall yet sharp on a HiDPI screen. Greek, super/subscripts, arrows
// and maths operators are added for units and symbols (σ, μm, m², ≤, ≈, →).
void ImGuiLayer::rebuildFonts(float devicePixelRatio) {
    static const ImWchar kRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x205E, 0x2070,
                                      0x209F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    if (m_hasFontFile) {
        io.Fonts->AddFontFromFileTTF(kFontPath, kFontSize * devicePixelRatio, nullptr, kRanges);
        io.FontGlobalScale = 1.0f / devicePixelRatio;
    } else {
        io.Fonts->AddFontDefault();  // 13 px bitmap-like font: scaling it up only blurs it
        io.FontGlobalScale = 1.0f;
    }
    m_fontDevicePixelRatio = devicePixelRatio;
}

bool ImGuiLayer::handleEvent(QEvent* event) {
    ImGui::SetCurrentContext(m_context);
    const ImGuiIO& io = ImGui::GetIO();
    switch (event->type()) {
        case QEvent::MouseMove: {
            const QPointF position = static_cast<QMouseEvent*>(event)->position();
            queueMove(float(position.x()), float(position.y()));
            return io.WantCaptureMouse;
        }
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonDblClick:  // ImGui detects double clicks itself from two presses
        case QEvent::MouseButtonRelease: {
            auto* mouse = static_cast<QMouseEvent*>(event);
            queueMove(float(mouse->position().x()), float(mouse->position().y()));
            const int button = mouseButtonIndex(mouse->button());
            if (button >= 0) queueButton(button, event->type() != QEvent::MouseButtonRelease);
            return io.WantCaptureMouse;
        }
        case QEvent::Wheel: {
            // 120 units = one notch. Qt's positive x is a scroll to the left, as ImGui's.
            auto* wheel = static_cast<QWheelEvent*>(event);
            InputEvent e;
            e.kind = InputEvent::Kind::Wheel;
            e.x = float(wheel->angleDelta().x()) / 120.0f;
            e.y = float(wheel->angleDelta().y()) / 120.0f;
            if (e.x != 0.0f || e.y != 0.0f) m_queue.push_back(std::move(e));
            return io.WantCaptureMouse;
        }
        case QEvent::KeyPress:
            return handleKey(static_cast<QKeyEvent*>(event), true);
        case QEvent::KeyRelease:
            return handleKey(static_cast<QKeyEvent*>(event), false);
        case QEvent::ShortcutOverride:
            // While a text field is active, typed keys go to it, not to the window's shortcuts.
            if (io.WantTextInput) {
                event->accept();
                return true;
            }
            return false;
        case QEvent::FocusOut:
            releaseEverything();
            return false;
        case QEvent::Leave:
            queueMove(-FLT_MAX, -FLT_MAX);
            return false;
        default:
            return false;
    }
}

bool ImGuiLayer::handleKey(QKeyEvent* event, bool down) {
    const ImGuiIO& io = ImGui::GetIO();
    // Auto-repeat arrives as extra press/release pairs; ImGui repeats held keys itself, so only
    // the repeated text is taken.
    const int slot = keySlot(event->key());
    if (slot >= 0 && !event->isAutoRepeat()) queueKey(slot, down);
    // Ctrl+letter is a shortcut, not text (Qt gives "v" for Ctrl+V on some platforms and in
    // QTest); Ctrl+Alt is AltGr on Windows and does type.
    const Qt::KeyboardModifiers modifiers = event->modifiers();
    const bool shortcut =
        modifiers.testFlag(Qt::ControlModifier) && !modifiers.testFlag(Qt::AltModifier);
    if (down && !shortcut) {
        QString text = event->text();
        text.removeIf([](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
        if (!text.isEmpty()) {
            InputEvent e;
            e.kind = InputEvent::Kind::Text;
            e.text = text.toUtf8().toStdString();
            m_queue.push_back(std::move(e));
        }
    }
    // Tab would otherwise move Qt's focus out of the viewport.
    const bool isTab = event->key() == Qt::Key_Tab || event->key() == Qt::Key_Backtab;
    return isTab || io.WantCaptureKeyboard;
}

void ImGuiLayer::queueButton(int button, bool down) {
    if (m_queuedMouseDown[button] == down) return;
    m_queuedMouseDown[button] = down;
    InputEvent e;
    e.kind = InputEvent::Kind::MouseButton;
    e.slot = button;
    e.down = down;
    m_queue.push_back(std::move(e));
}

void ImGuiLayer::queueKey(int slot, bool down) {
    if (m_queuedKeyDown[slot] == down) return;
    m_queuedKeyDown[slot] = down;
    InputEvent e;
    e.kind = InputEvent::Kind::Key;
    e.slot = slot;
    e.down = down;
    m_queue.push_back(std::move(e));
}

void ImGuiLayer::queueMove(float x, float y) {
    // Consecutive moves collapse into the last: only the position at NewFrame() counts.
    if (!m_queue.empty() && m_queue.back().kind == InputEvent::Kind::MouseMove) {
        m_queue.back().x = x;
        m_queue.back().y = y;
        return;
    }
    InputEvent e;
    e.kind = InputEvent::Kind::MouseMove;
    e.x = x;
    e.y = y;
    m_queue.push_back(std::move(e));
}

// Releases that happen while another widget has focus never reach us: a key held during
// Alt+Tab would otherwise stay down for ImGui.
void ImGuiLayer::releaseEverything() {
    for (int button = 0; button < 5; ++button)
        queueButton(button, false);
    for (int slot = 0; slot < kKeySlotCount; ++slot)
        queueKey(slot, false);
}

// Applies the queue in arrival order and stops at the first event that ImGui could not tell
// apart from an earlier one in the same frame (the rest waits for the next frame):
//  - a second transition of the same button or key (the lost-click problem);
//  - a move after a button change (the click must land where it was pressed), and a button
//    change after a move with a button held (a quick drag must be seen before its release);
//  - a wheel after a button change, text after a button or non-letter key change, and a
//    non-letter key after text (so "a", Backspace, "b" reaches an InputText in that order).
void ImGuiLayer::applyQueuedInput() {
    ImGuiIO& io = ImGui::GetIO();
    unsigned buttonsChanged = 0;
    unsigned keysChanged = 0;
    bool draggedThisFrame = false;
    bool orderedKeyChanged = false;
    bool typed = false;
    std::size_t applied = 0;
    for (; applied < m_queue.size(); ++applied) {
        const InputEvent& e = m_queue[applied];
        if (e.kind == InputEvent::Kind::MouseMove) {
            if (buttonsChanged != 0) break;
            const bool moved = io.MousePos.x != e.x || io.MousePos.y != e.y;
            draggedThisFrame = draggedThisFrame || (moved && ImGui::IsAnyMouseDown());
            io.MousePos = ImVec2(e.x, e.y);
        } else if (e.kind == InputEvent::Kind::MouseButton) {
            if ((buttonsChanged & (1u << e.slot)) || draggedThisFrame) break;
            io.MouseDown[e.slot] = e.down;
            buttonsChanged |= 1u << e.slot;
        } else if (e.kind == InputEvent::Kind::Wheel) {
            if (buttonsChanged != 0) break;
            io.MouseWheelH += e.x;
            io.MouseWheel += e.y;
        } else if (e.kind == InputEvent::Kind::Key) {
            const bool ordered = !isLetterSlot(e.slot);
            if ((keysChanged & (1u << e.slot)) || (ordered && typed)) break;
            keysChanged |= 1u << e.slot;
            orderedKeyChanged = orderedKeyChanged || ordered;
            if (e.slot == kKeyCtrl)
                io.KeyCtrl = e.down;
            else if (e.slot == kKeyShift)
                io.KeyShift = e.down;
            else if (e.slot == kKeyAlt)
                io.KeyAlt = e.down;
            else if (e.slot == kKeySuper)
                io.KeySuper = e.down;
            else
                io.KeysDown[e.slot] = e.down;
        } else {  // Text
            if (buttonsChanged != 0 || orderedKeyChanged) break;
            io.AddInputCharactersUTF8(e.text.c_str());
            typed = true;
        }
    }
    m_queue.erase(m_queue.begin(), m_queue.begin() + std::ptrdiff_t(applied));
}

void ImGuiLayer::newFrame(float width, float height, float devicePixelRatio, float deltaSeconds) {
    ImGui::SetCurrentContext(m_context);
    ImGuiIO& io = ImGui::GetIO();
    const float dpr = devicePixelRatio > 0.0f ? devicePixelRatio : 1.0f;
    io.DisplaySize = ImVec2(std::max(width, 1.0f), std::max(height, 1.0f));
    io.DisplayFramebufferScale = ImVec2(dpr, dpr);
    io.DeltaTime = std::max(deltaSeconds, 1.0e-4f);  // ImGui asserts DeltaTime > 0

    // The backend creates its font texture on its first NewFrame; a later dpr change (window
    // moved to another screen) replaces that texture here.
    if (m_glReady) ImGui_ImplOpenGL3_NewFrame();
    if (dpr != m_fontDevicePixelRatio) {
        rebuildFonts(dpr);
        if (m_glReady) {
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
    }
    if (!io.Fonts->IsBuilt()) io.Fonts->Build();  // no GL backend: layout still works
    applyQueuedInput();
    ImGui::NewFrame();
}

void ImGuiLayer::render() {
    ImGui::SetCurrentContext(m_context);
    ImGui::Render();
    if (m_glReady) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool ImGuiLayer::wantsMouse() const {
    ImGui::SetCurrentContext(m_context);
    return ImGui::GetIO().WantCaptureMouse;
}

bool ImGuiLayer::wantsKeyboard() const {
    ImGui::SetCurrentContext(m_context);
    return ImGui::GetIO().WantCaptureKeyboard;
}

bool ImGuiLayer::hasPendingInput() const {
    return !m_queue.empty();
}

Qt::CursorShape ImGuiLayer::cursorShape() const {
    ImGui::SetCurrentContext(m_context);
    switch (ImGui::GetMouseCursor()) {
        case ImGuiMouseCursor_None:
            return Qt::BlankCursor;
        case ImGuiMouseCursor_TextInput:
            return Qt::IBeamCursor;
        case ImGuiMouseCursor_ResizeAll:
            return Qt::SizeAllCursor;
        case ImGuiMouseCursor_ResizeNS:
            return Qt::SizeVerCursor;
        case ImGuiMouseCursor_ResizeEW:
            return Qt::SizeHorCursor;
        case ImGuiMouseCursor_ResizeNESW:
            return Qt::SizeBDiagCursor;
        case ImGuiMouseCursor_ResizeNWSE:
            return Qt::SizeFDiagCursor;
        case ImGuiMouseCursor_Hand:
            return Qt::PointingHandCursor;
        case ImGuiMouseCursor_NotAllowed:
            return Qt::ForbiddenCursor;
        default:
            return Qt::ArrowCursor;
    }
}

const char* ImGuiLayer::clipboardText(void* userData) {
    auto* self = static_cast<ImGuiLayer*>(userData);
    self->m_clipboard = QGuiApplication::clipboard()->text().toUtf8();
    return self->m_clipboard.constData();
}

void ImGuiLayer::setClipboardText(void* /*userData*/, const char* text) {
    QGuiApplication::clipboard()->setText(QString::fromUtf8(text));
}

}  // namespace ndem::app
