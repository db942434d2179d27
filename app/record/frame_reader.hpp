// Reads an FBO's pixels back for recording without stalling the GPU each frame (a PBO ring).
#pragma once

#include <qopengl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ndem::app {

/// Asynchronous read-back of an FBO's colour attachment 0 through a ring of pixel-buffer
/// objects. read() only queues a glReadPixels into the next PBO and a fence; the copy out
/// happens frames later in collect(), once the fence says the GPU is done, so the GUI thread
/// does not wait for the GPU to finish the frame it has just drawn (a plain glReadPixels would).
///
/// Every function needs the GL context current (GL 3.3 core or ES 3.0: fences and
/// glMapBufferRange come from QOpenGLContext::currentContext()->extraFunctions()), and the
/// same context for the reader's whole life, since PBOs and fences belong to it.
/// Frames come out in the order read, none dropped; each remembers its own size.
class FrameReader {
  public:
    /// `ringSize` PBOs (clamped to >= 1); with 3, the only wait read() can do is for a frame
    /// three frames old, which the GPU has long finished.
    explicit FrameReader(int ringSize = 3);
    /// Does not touch GL (no context is guaranteed here): call release() first.
    ~FrameReader();
    FrameReader(const FrameReader&) = delete;
    FrameReader& operator=(const FrameReader&) = delete;

    /// Starts reading `fbo` (single-sample: resolve MSAA into it first, glReadPixels fails on
    /// a multisampled one) of `width`×`height` pixels into the next PBO. When the ring is full
    /// it first collects the oldest frame (waiting on its fence) and keeps it for collect().
    /// Leaves GL_READ_FRAMEBUFFER as it found it and GL_PIXEL_PACK_BUFFER at 0.
    void read(GLuint fbo, int width, int height);

    /// Appends to `out` every finished frame, oldest first: width*height*4 RGBA bytes with rows
    /// bottom-up, as GL reads them. Stops at the first frame the GPU has not finished, unless
    /// `wait`, which waits for all of them (use it when recording stops).
    void collect(std::vector<std::vector<std::uint8_t>>& out, bool wait);

    /// Frees the PBOs and fences and drops frames not yet collected (collect(out, true) first
    /// to keep them). The reader can be used again afterwards.
    void release();

    /// Frames read but not yet handed out by collect().
    int inFlight() const { return m_pending + static_cast<int>(m_ready.size()); }

  private:
    /// One PBO of the ring and the frame it holds.
    struct Slot {
        GLuint buffer = 0;
        GLsync fence = nullptr;    ///< non-null while the frame is in flight
        std::size_t capacity = 0;  ///< bytes allocated for `buffer`
        int width = 0;
        int height = 0;
    };

    bool collectOldest(bool wait);

    std::vector<Slot> m_slots;
    int m_oldest = 0;                                ///< slot of the oldest frame in flight
    int m_pending = 0;                               ///< frames in flight in the ring
    std::vector<std::vector<std::uint8_t>> m_ready;  ///< copied out, waiting for collect()
};

}  // namespace ndem::app
