#include "gui/viewport.hpp"

#include "render/sensor_geometry.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSocketNotifier>
#include <QWheelEvent>

#include <sys/eventfd.h>
#include <unistd.h>

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem::app {

namespace {

/// Box around the particles and the bounded walls (planes are infinite and left out).
void sceneBounds(const Snapshot& s, const Scene& scene, glm::vec3& lo, glm::vec3& hi) {
    lo = glm::vec3(std::numeric_limits<float>::max());
    hi = -lo;
    auto add = [&](const Vec3& p) {
        const glm::vec3 q(static_cast<float>(p.x()), static_cast<float>(p.y()),
                          static_cast<float>(p.z()));
        lo = glm::min(lo, q);
        hi = glm::max(hi, q);
    };
    float top = -std::numeric_limits<float>::max(), bottom = -top;
    for (size_t i = 0; i < s.particleCount(); ++i) {
        top = std::max(top, s.position[3 * i + 2] + s.radius[i]);
        bottom = std::min(bottom, s.position[3 * i + 2] - s.radius[i]);
    }
    // A tall silo filled to a third is framed on its grains, not on its empty top; a turning
    // drum is framed whole.
    const float ceiling =
        top > bottom ? top + 0.3f * (top - bottom) : std::numeric_limits<float>::max();
    auto addWall = [&](const Wall& w, const Vec3& p) {
        Vec3 q = p;
        if (w.angularVelocity.isZero()) q.z() = std::min(q.z(), static_cast<double>(ceiling));
        add(q);
    };
    for (size_t i = 0; i < s.particleCount(); ++i)
        add(Vec3(s.position[3 * i], s.position[3 * i + 1], s.position[3 * i + 2]));
    for (const Wall& w : s.walls) {
        if (!w.enabled) continue;
        if (w.shape == WallShape::Cylinder) {
            for (double z : {0.0, w.height})
                for (int k = 0; k < 8; ++k) {
                    const double a = k * 0.785398;
                    addWall(w, w.toWorld(Vec3(w.radius * std::cos(a), w.radius * std::sin(a), z)));
                }
        } else if (w.shape == WallShape::Box) {
            for (int k = 0; k < 8; ++k)
                addWall(w, w.toWorld(Vec3((k & 1) ? w.halfExtents.x() : -w.halfExtents.x(),
                                          (k & 2) ? w.halfExtents.y() : -w.halfExtents.y(),
                                          (k & 4) ? w.halfExtents.z() : -w.halfExtents.z())));
        } else if (w.shape == WallShape::Mesh && w.mesh >= 0 &&
                   w.mesh < static_cast<int>(scene.meshes.size())) {
            for (const Vec3& v : scene.meshes[static_cast<size_t>(w.mesh)].vertices)
                addWall(w, w.toWorld(v));
        }
    }
    // Emitters bring the grains later: their boxes belong to the scene from the start.
    for (const EmitterSpec& e : scene.emitters) {
        add(e.min);
        add(e.max);
    }
    if (lo.x > hi.x) {
        lo = glm::vec3(-0.5f);
        hi = glm::vec3(0.5f);
    }
}

/// A 2D scene is watched square on, x to the right and z up; a drum along its axis (the
/// cross-section of the flow); anything else from the default oblique view.
void aimCamera(const Snapshot& s, OrbitCamera& camera) {
    if (s.settings.dimension == 2) {
        camera.yaw = glm::radians(-90.0f);
        camera.pitch = 0.0f;
        return;
    }
    camera.yaw = glm::radians(-60.0f);
    camera.pitch = glm::radians(20.0f);
    for (const Wall& w : s.walls) {
        if (w.shape != WallShape::Cylinder || w.angularVelocity.isZero()) continue;
        const Vec3 axis = w.orientation * Vec3::UnitZ();
        camera.yaw = static_cast<float>(std::atan2(axis.y(), axis.x()));
        camera.pitch = static_cast<float>(std::asin(std::clamp(axis.z(), -0.99, 0.99)));
        return;
    }
}

bool sameColouring(const RenderOptions& a, const RenderOptions& b) {
    return a.colourMode == b.colourMode && a.autoRange == b.autoRange &&
           (a.autoRange || (a.range.lo == b.range.lo && a.range.hi == b.range.hi));
}

}  // namespace

Viewport::Viewport(Session& session, QWidget* parent) : QOpenGLWidget(parent), m_session(session) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
    m_clock.start();
    m_wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_wakeFd >= 0) {
        m_wakeNotifier = new QSocketNotifier(m_wakeFd, QSocketNotifier::Read, this);
        connect(m_wakeNotifier, &QSocketNotifier::activated, this, &Viewport::wake);
    }
}

Viewport::~Viewport() {
    // ~QOpenGLWidget destroys the context after this object is gone: the handler must not run.
    if (context()) disconnect(context(), nullptr, this, nullptr);
    makeCurrent();
    shutdownGL();
    doneCurrent();
    if (m_wakeFd >= 0) ::close(m_wakeFd);
}

void Viewport::shutdownGL() {
    if (!m_glReady) return;
    if (m_recorder.active() && m_session.hasScene())
        finishRecording(m_recorder.stop(m_session.loop()));
    m_renderer.release();
    m_imgui.shutdownGL();
    m_glReady = false;
}

void Viewport::notifyPublished() {
    if (m_updateQueued.exchange(true, std::memory_order_acq_rel)) return;
    // An eventfd, not a posted Qt event: the sim thread then never touches a Qt object, and
    // the hand-off is a write/read pair that ThreadSanitizer sees (Qt 6's posted events
    // synchronise through futexes inside the uninstrumented Qt library, which it reports).
    const std::uint64_t one = 1;
    if (m_wakeFd >= 0 && ::write(m_wakeFd, &one, sizeof one) == sizeof one) return;
    QMetaObject::invokeMethod(this, "wake", Qt::QueuedConnection);  // no eventfd: still wake
}

void Viewport::wake() {
    std::uint64_t count = 0;
    if (m_wakeFd >= 0) [[maybe_unused]]
        const auto got = ::read(m_wakeFd, &count, sizeof count);
    m_updateQueued.store(false, std::memory_order_release);
    update();
}

const Snapshot* Viewport::snapshot() const {
    return m_session.hasScene() ? &const_cast<Session&>(m_session).loop().snapshot() : nullptr;
}

void Viewport::initializeGL() {
    std::string error;
    if (!m_renderer.initialize(&error)) {
        emit message(QString::fromStdString("OpenGL: " + error));
        return;
    }
    m_imgui.initializeGL();
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        shutdownGL();
        doneCurrent();
    });
    m_glReady = true;
    m_generation = ~0ull;
}

void Viewport::fitScene() {
    const Snapshot* s = snapshot();
    if (!s) return;
    glm::vec3 lo, hi;
    sceneBounds(*s, m_session.scene(), lo, hi);
    // The free band between the panels docked at the left and at the right edge.
    const float w = static_cast<float>(std::max(width(), 1));
    float left = 0.0f, right = w;
    if (m_panelsVisible)
        for (const auto& [name, r] : m_panels.panelRects) {
            if (r[3] - r[1] < 0.25f * static_cast<float>(height())) continue;  // short: ignore
            if (0.5f * (r[0] + r[2]) < 0.5f * w)
                left = std::max(left, r[2]);
            else
                right = std::min(right, r[0]);
        }
    if (right - left < 0.3f * w) left = 0.0f, right = w;  // too narrow: use the whole view
    const float aspect = w / static_cast<float>(std::max(height(), 1));
    m_camera.fit(lo, hi, aspect, 2.0f * left / w - 1.0f, 2.0f * right / w - 1.0f);
    update();
}

void Viewport::takeSnapshot() {
    if (!m_session.hasScene()) return;
    SimLoop& loop = m_session.loop();
    if (loop.takeNewest()) {
        const Snapshot& s = loop.snapshot();
        ++m_snapshotsSeen;
        if (s.worldGeneration != m_generation) {
            // A new or reset world: its walls, a fresh history, the camera on it.
            m_generation = s.worldGeneration;
            glm::vec3 lo, hi;
            sceneBounds(s, m_session.scene(), lo, hi);
            m_renderer.setWalls(m_session.scene().walls, m_session.scene().meshes, lo, hi);
            aimCamera(s, m_camera);
            // Framed after this frame's panels are laid out: the scene goes between them.
            m_fitPending = true;
            m_history.clear();
            m_panels.fillCount = 0;
        }
        for (const StepStats& st : s.recentSteps)
            m_history.add(st);
        m_needsUpload = true;
    }
    if (m_needsUpload || !sameColouring(m_render, m_uploadedWith)) {
        m_renderer.upload(loop.snapshot(), m_render);
        m_uploadedWith = m_render;
        m_needsUpload = false;
    }
}

void Viewport::paintGL() {
    if (!m_glReady) return;
    QOpenGLExtraFunctions* gl = context()->extraFunctions();
    takeSnapshot();
    const int w = static_cast<int>(std::lround(width() * devicePixelRatioF()));
    const int h = static_cast<int>(std::lround(height() * devicePixelRatioF()));

    gl->glClearColor(0.11f, 0.12f, 0.14f, 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const Snapshot* s = snapshot();
    if (s) m_renderer.draw(*s, m_camera, w, h, m_render);

    // A video frame without the panels is read before they are drawn.
    bool recordingDone = false;
    if (s && m_recorder.active() && !m_recorder.withPanels())
        recordingDone =
            m_recorder.capture(defaultFramebufferObject(), s->sequence, s->time, m_session.loop());

    const qint64 nowNs = m_clock.nsecsElapsed();
    const float dt = static_cast<float>(std::max<qint64>(nowNs - m_lastFrameNs, 1000)) * 1e-9f;
    if (m_framesDrawn > 0) m_frameMs.push_back(dt * 1e3f);
    m_lastFrameNs = nowNs;
    if (s && m_panelsVisible) {
        for (std::string& text : m_session.takeMessages())
            showMessage(m_panels, std::move(text), nowNs * 1e-9);
        for (std::string& text : m_guardMessages.take(*s))
            showMessage(m_panels, std::move(text), nowNs * 1e-9);
        m_imgui.newFrame(static_cast<float>(width()), static_cast<float>(height()),
                         static_cast<float>(devicePixelRatioF()), dt);
        drawPanels(m_session, *s, m_history, m_render, m_renderer.meanForce(), m_panels,
                   nowNs * 1e-9);
        m_render.selectedSensor = m_panels.selectedSensor;
        m_imgui.render();
        setCursor(m_imgui.cursorShape());
    }
    if (s && m_recorder.active() && m_recorder.withPanels())
        recordingDone =
            m_recorder.capture(defaultFramebufferObject(), s->sequence, s->time, m_session.loop());

    ++m_framesDrawn;
    if (m_panels.fitRequested || m_fitPending) {
        m_panels.fitRequested = m_fitPending = false;
        fitScene();
    }
    if (m_panels.resetRequested) {
        m_panels.resetRequested = false;
        if (auto e = m_session.reset()) showMessage(m_panels, "refused: " + *e, nowNs * 1e-9);
    }
    if (recordingDone) finishRecording(m_recorder.stop(m_session.loop()));
    if (m_imgui.hasPendingInput()) update();
    emit frameDrawn();
}

std::optional<std::string> Viewport::startRecording(const std::string& path, double fps,
                                                    double simSeconds, bool withPanels) {
    if (!m_session.hasScene()) return "no scene is open";
    if (!m_glReady) return "the viewport is not ready yet";
    makeCurrent();
    const int w = static_cast<int>(std::lround(width() * devicePixelRatioF()));
    const int h = static_cast<int>(std::lround(height() * devicePixelRatioF()));
    auto error = m_recorder.start(path, w, h, fps, simSeconds, withPanels, m_session.loop());
    doneCurrent();
    update();
    return error;
}

void Viewport::stopRecording() {
    if (!m_recorder.active()) return;
    makeCurrent();
    finishRecording(m_recorder.stop(m_session.loop()));
    doneCurrent();
}

void Viewport::finishRecording(const std::string& error) {
    emit recordingFinished(QString::fromStdString(m_recorder.path()),
                           QString::fromStdString(error));
}

bool Viewport::event(QEvent* e) {
    // ImGui first: a click on a panel must not also turn the camera.
    // Hidden panels (a video without them) get no input: ImGui would queue it with no frame
    // to apply it in, and its stale "wants the mouse" would block the camera.
    if (m_glReady && m_panelsVisible) {
        bool taken = m_imgui.handleEvent(e);
        // A move onto a panel must reach a frame before the click that follows it.
        if (taken || m_imgui.hasPendingInput()) update();
        // ImGui's "wants the mouse" is a frame old; where the pointer is now decides between
        // panel and camera for presses and wheels, and a camera drag keeps its moves.
        switch (e->type()) {
            case QEvent::MouseButtonPress:
            case QEvent::MouseButtonDblClick:
                taken = overPanel(static_cast<QMouseEvent*>(e)->position().toPoint());
                break;
            case QEvent::Wheel:
                taken = overPanel(static_cast<QWheelEvent*>(e)->position().toPoint());
                break;
            case QEvent::MouseMove:
            case QEvent::MouseButtonRelease:
                taken = taken && !m_cameraDrag;
                break;
            default:
                break;
        }
        if (taken) return true;
    }
    return QOpenGLWidget::event(e);
}

bool Viewport::overPanel(const QPoint& p) const {
    if (!m_panelsVisible) return false;
    for (const auto& [name, r] : m_panels.panelRects)
        if (p.x() >= r[0] && p.x() <= r[2] && p.y() >= r[1] && p.y() <= r[3]) return true;
    return false;
}

void Viewport::mousePressEvent(QMouseEvent* e) {
    m_pressAt = m_lastMouse = e->position().toPoint();
    // ImGui's "wants the mouse" is a frame old: a press that lands on a panel before a frame
    // saw the pointer there must still not turn the camera.
    m_cameraDrag = !overPanel(m_pressAt);
    if (m_cameraDrag && e->button() == Qt::LeftButton && e->modifiers() == Qt::NoModifier &&
        grabSensor(m_pressAt))
        m_cameraDrag = false;
}

bool Viewport::grabSensor(const QPoint& at) {
    const Snapshot* s = snapshot();
    if (!s || !m_render.showSensors || s->sensors.empty()) return false;
    glm::vec3 origin, dir;
    m_camera.ray(static_cast<float>(at.x()), static_cast<float>(at.y()),
                 static_cast<float>(width()), static_cast<float>(height()), origin, dir);
    const Vec3 o(origin.x, origin.y, origin.z), d(dir.x, dir.y, dir.z);
    double best = std::numeric_limits<double>::max();
    int hit = -1;
    for (size_t k = 0; k < s->sensors.size(); ++k)
        if (const auto t = raySensor(s->sensors[k], o, d); t && *t < best) {
            best = *t;
            hit = static_cast<int>(k);
        }
    if (hit < 0 || static_cast<size_t>(hit) >= m_session.sensors().size()) return false;
    m_sensorDrag.index = hit;
    m_sensorDrag.grabbed = origin + static_cast<float>(best) * dir;
    m_sensorDrag.normal = dir;
    m_sensorDrag.start = s->sensors[static_cast<size_t>(hit)].position;
    m_panels.selectedSensor = hit;
    m_panels.reduction = true;
    update();
    return true;
}

void Viewport::dragSensor(const QPoint& at) {
    glm::vec3 origin, dir;
    m_camera.ray(static_cast<float>(at.x()), static_cast<float>(at.y()),
                 static_cast<float>(width()), static_cast<float>(height()), origin, dir);
    const float facing = glm::dot(dir, m_sensorDrag.normal);
    if (std::abs(facing) < 1e-6f) return;
    const float t = glm::dot(m_sensorDrag.grabbed - origin, m_sensorDrag.normal) / facing;
    const glm::vec3 moved = origin + t * dir - m_sensorDrag.grabbed;
    Vec3 delta(moved.x, moved.y, moved.z);
    if (m_axisLock >= 0) {
        const double along = delta[m_axisLock];
        delta.setZero();
        delta[m_axisLock] = along;
    }
    const size_t k = static_cast<size_t>(m_sensorDrag.index);
    if (k >= m_session.sensors().size()) return;
    SplitSensor sensor = m_session.sensors()[k];
    sensor.position = m_sensorDrag.start + delta;
    if (auto e = m_session.setSensor(k, sensor))
        showMessage(m_panels, "refused: " + *e, m_clock.elapsed() * 1e-3);
    update();
}

void Viewport::mouseMoveEvent(QMouseEvent* e) {
    const QPoint p = e->position().toPoint();
    const QPoint d = p - m_lastMouse;
    m_lastMouse = p;
    if (m_sensorDrag.index >= 0 && (e->buttons() & Qt::LeftButton)) return dragSensor(p);
    if (e->buttons() == Qt::NoButton || !m_cameraDrag) return;
    const bool pan = (e->buttons() & (Qt::RightButton | Qt::MiddleButton)) ||
                     (e->modifiers() & Qt::ShiftModifier);
    if (pan)
        m_camera.pan(static_cast<float>(d.x()), static_cast<float>(d.y()),
                     static_cast<float>(height()));
    else
        m_camera.orbit(static_cast<float>(d.x()), static_cast<float>(d.y()));
    update();
}

void Viewport::mouseReleaseEvent(QMouseEvent* e) {
    // A click that did not drag inspects the particle under the cursor.
    if (m_cameraDrag && e->button() == Qt::LeftButton &&
        (e->position().toPoint() - m_pressAt).manhattanLength() < 4)
        pick(e->position().toPoint());
    m_cameraDrag = false;
    m_sensorDrag.index = -1;
}

void Viewport::wheelEvent(QWheelEvent* e) {
    m_camera.zoom(static_cast<float>(e->angleDelta().y()) / 120.0f);
    update();
}

void Viewport::keyPressEvent(QKeyEvent* e) {
    if (!m_session.hasScene()) return QOpenGLWidget::keyPressEvent(e);
    SimLoop& loop = m_session.loop();
    switch (e->key()) {
        case Qt::Key_F:
            fitScene();
            break;
        case Qt::Key_Space:
            loop.isPlaying() ? loop.pause() : loop.play();
            break;
        case Qt::Key_N:
            loop.stepOnce();
            break;
        case Qt::Key_C:
            m_render.colourMode =
                static_cast<ColourMode>((static_cast<int>(m_render.colourMode) + 1) % 7);
            break;
        case Qt::Key_K:
            m_render.clip = !m_render.clip;
            break;
        case Qt::Key_G:
            m_render.showForces = !m_render.showForces;
            break;
        case Qt::Key_X:
            m_axisLock = 0;
            break;
        case Qt::Key_Y:
            m_axisLock = 1;
            break;
        case Qt::Key_Z:
            m_axisLock = 2;
            break;
        case Qt::Key_Delete:
            if (m_panels.selectedSensor >= 0) {
                m_session.removeSensor(static_cast<size_t>(m_panels.selectedSensor));
                m_panels.selectedSensor = -1;
            }
            break;
        default:
            return QOpenGLWidget::keyPressEvent(e);
    }
    update();
}

void Viewport::keyReleaseEvent(QKeyEvent* e) {
    if (!e->isAutoRepeat() &&
        (e->key() == Qt::Key_X || e->key() == Qt::Key_Y || e->key() == Qt::Key_Z))
        m_axisLock = -1;
    QOpenGLWidget::keyReleaseEvent(e);
}

void Viewport::pick(const QPoint& at) {
    const Snapshot* s = snapshot();
    if (!s) return;
    glm::vec3 origin, dir;
    m_camera.ray(static_cast<float>(at.x()), static_cast<float>(at.y()),
                 static_cast<float>(width()), static_cast<float>(height()), origin, dir);
    // Nearest sphere hit along the ray, skipping the ones the clip plane cuts away.
    float best = std::numeric_limits<float>::max();
    long hit = -1;
    for (size_t i = 0; i < s->particleCount(); ++i) {
        const glm::vec3 c(s->position[3 * i], s->position[3 * i + 1], s->position[3 * i + 2]);
        if (m_render.clip &&
            glm::dot(glm::vec3(m_render.clipPlane), c) + m_render.clipPlane.w < 0.0f)
            continue;
        const float r = s->radius[i] * m_render.radiusScale;
        const glm::vec3 oc = c - origin;
        const float b = glm::dot(oc, dir);
        const float disc = b * b - glm::dot(oc, oc) + r * r;
        if (disc < 0.0f) continue;
        const float t = b - std::sqrt(disc);
        if (t > 0.0f && t < best) {
            best = t;
            hit = static_cast<long>(s->id[i]);
        }
    }
    m_panels.pickedId = hit;
    update();
}

}  // namespace ndem::app
