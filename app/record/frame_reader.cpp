#include "record/frame_reader.hpp"

#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QtGlobal>

#include <algorithm>
#include <cstring>
#include <utility>

namespace ndem::app {

namespace {

QOpenGLExtraFunctions* currentFunctions() {
    QOpenGLContext* context = QOpenGLContext::currentContext();
    Q_ASSERT_X(context != nullptr, "FrameReader", "needs the GL context current");
    return context->extraFunctions();
}

/// How long one glClientWaitSync call may block when waiting (ns); looped until done.
constexpr GLuint64 kWaitSliceNs = 100'000'000;

}  // namespace

FrameReader::FrameReader(int ringSize) : m_slots(static_cast<std::size_t>(std::max(1, ringSize))) {}

FrameReader::~FrameReader() {
    const bool leaked = std::any_of(m_slots.begin(), m_slots.end(),
                                    [](const Slot& slot) { return slot.buffer != 0; });
    if (leaked) qWarning("FrameReader destroyed without release(): its pixel buffers leak");
}

void FrameReader::read(GLuint fbo, int width, int height) {
    if (width <= 0 || height <= 0) return;
    QOpenGLExtraFunctions* gl = currentFunctions();
    const int ringSize = static_cast<int>(m_slots.size());
    if (m_pending == ringSize) collectOldest(true);

    Slot& slot = m_slots[static_cast<std::size_t>((m_oldest + m_pending) % ringSize)];
    const std::size_t bytes = static_cast<std::size_t>(width) * height * 4;
    if (slot.buffer == 0) gl->glGenBuffers(1, &slot.buffer);
    gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, slot.buffer);
    if (slot.capacity != bytes) {
        // Sized per slot, so a resize mid-recording needs no flush: frames already in flight
        // keep their own PBO and size. GL_STREAM_READ: written by GL once, read by us once.
        gl->glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr,
                         GL_STREAM_READ);
        slot.capacity = bytes;
    }

    GLint previousRead = 0;
    gl->glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previousRead);
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    // With a pack buffer bound the pointer is an offset into it: the call returns at once.
    gl->glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    slot.fence = gl->glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previousRead));
    // Left bound, the PBO would capture the next glReadPixels anyone else makes.
    gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);

    slot.width = width;
    slot.height = height;
    ++m_pending;
}

void FrameReader::collect(std::vector<std::vector<std::uint8_t>>& out, bool wait) {
    while (m_pending > 0 && collectOldest(wait)) {
    }
    for (std::vector<std::uint8_t>& frame : m_ready)
        out.push_back(std::move(frame));
    m_ready.clear();
}

bool FrameReader::collectOldest(bool wait) {
    QOpenGLExtraFunctions* gl = currentFunctions();
    Slot& slot = m_slots[static_cast<std::size_t>(m_oldest)];
    // The flush bit makes sure the fence reaches the GPU; without it a poll could wait forever
    // on commands still sitting in the driver's queue.
    GLenum status = gl->glClientWaitSync(slot.fence, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    if (status == GL_TIMEOUT_EXPIRED && !wait) return false;
    while (status == GL_TIMEOUT_EXPIRED) {
        status = gl->glClientWaitSync(slot.fence, GL_SYNC_FLUSH_COMMANDS_BIT, kWaitSliceNs);
    }
    // A failed wait (a lost or foreign fence) cannot tell us when the PBO is ready; finishing
    // the whole pipeline can.
    if (status == GL_WAIT_FAILED) gl->glFinish();
    gl->glDeleteSync(slot.fence);
    slot.fence = nullptr;

    const std::size_t bytes = static_cast<std::size_t>(slot.width) * slot.height * 4;
    std::vector<std::uint8_t> frame(bytes);
    gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, slot.buffer);
    const void* pixels = gl->glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0,
                                              static_cast<GLsizeiptr>(bytes), GL_MAP_READ_BIT);
    if (pixels != nullptr) {
        std::memcpy(frame.data(), pixels, bytes);
        gl->glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    } else {
        // Keep the frame (black) so the video keeps its timing; the warning says what happened.
        qWarning("FrameReader: glMapBufferRange failed (GL error 0x%x); frame left black",
                 gl->glGetError());
    }
    gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);

    m_ready.push_back(std::move(frame));
    m_oldest = (m_oldest + 1) % static_cast<int>(m_slots.size());
    --m_pending;
    return true;
}

void FrameReader::release() {
    QOpenGLContext* context = QOpenGLContext::currentContext();
    if (context != nullptr) {
        QOpenGLExtraFunctions* gl = context->extraFunctions();
        for (Slot& slot : m_slots) {
            if (slot.fence != nullptr) gl->glDeleteSync(slot.fence);
            if (slot.buffer != 0) gl->glDeleteBuffers(1, &slot.buffer);
        }
    } else if (std::any_of(m_slots.begin(), m_slots.end(),
                           [](const Slot& slot) { return slot.buffer != 0; })) {
        qWarning("FrameReader::release() without a current GL context: its pixel buffers leak");
    }
    std::fill(m_slots.begin(), m_slots.end(), Slot{});
    m_oldest = 0;
    m_pending = 0;
    m_ready.clear();
}

}  // namespace ndem::app
