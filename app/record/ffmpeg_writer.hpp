// Records raw RGBA frames into an H.264 MP4 by piping them to an `ffmpeg` child process.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

namespace ndem::app {

/// What to record. The size is fixed for the whole video.
struct VideoSpec {
    std::string path;            ///< the .mp4 to write (fragmented: see FfmpegWriter)
    int width = 0;               ///< pixels; > 0 and even (H.264 in yuv420p halves chroma)
    int height = 0;              ///< pixels; > 0 and even
    double fps = 30.0;           ///< frames per second of the video (not of the app)
    bool flipVertically = true;  ///< GL read-back rows are bottom-up
    int maxQueued = 8;           ///< frames waiting before push() blocks (clamped to >= 1)
};

/// Feeds frames to `ffmpeg` (rawvideo on its stdin → libx264 → MP4) from a writer thread of
/// its own, so the caller never waits for the encoder unless `maxQueued` frames already wait:
/// back-pressure instead of dropped frames, and the memory held stays bounded.
///
/// ffmpeg writes `path` as a fragmented MP4 (forced to the mp4 muxer), a fragment per second
/// of video, so a recording cut short by a kill of the app (kill -9, a crash) still plays up
/// to its last whole second: ffmpeg runs in a process group of its own and, when the app's end
/// closes its stdin, finishes the frames it has. finish() removes the file when ffmpeg did not
/// exit with status 0 or no frame was recorded, so a failed recording leaves nothing behind.
///
/// Threading contract: push() and finish() are for one thread (the GUI); error(),
/// framesWritten() and spec() may be called from any thread.
class FfmpegWriter {
  public:
    /// Starts ffmpeg. Returns nullptr and sets *error (when given) to one line naming the
    /// problem: a size that is not positive and even, an fps that is not a positive finite
    /// number, a missing or unwritable directory, ffmpeg not found on PATH.
    static std::unique_ptr<FfmpegWriter> start(const VideoSpec& spec, std::string* error);

    /// Finishes (see finish()), so closing the app mid-recording still leaves a playable file.
    /// The error, if any, is lost here; call finish() first to see it.
    ~FfmpegWriter();
    FfmpegWriter(const FfmpegWriter&) = delete;
    FfmpegWriter& operator=(const FfmpegWriter&) = delete;

    /// Queues one frame of width*height*4 RGBA bytes (moved in; rows bottom-up when
    /// flipVertically). Blocks only while `maxQueued` frames wait. Returns false, dropping the
    /// frame, once the writer has failed (error() says why: ffmpeg died, or a frame of the
    /// wrong size arrived, which fails the writer since the video size is fixed) or after
    /// finish().
    bool push(std::vector<std::uint8_t> rgba);

    /// Writes the frames still queued, closes ffmpeg's stdin and waits for the writer thread
    /// and the process, so the MP4 is finalised. Returns the error: empty when ffmpeg exited
    /// with status 0 and the file is in place. Idempotent: later calls return the same string.
    std::string finish();

    /// Empty while all is well; the first failure otherwise. Thread-safe.
    std::string error() const;
    /// Frames written completely into ffmpeg's pipe (ffmpeg may still be encoding them).
    long framesWritten() const { return m_framesWritten.load(std::memory_order_acquire); }
    const VideoSpec& spec() const { return m_spec; }

  private:
    FfmpegWriter(VideoSpec spec, pid_t pid, int pipeFd, int logFd);
    void writerLoop();
    void fail(const std::string& message);
    std::string lastLogLine() const;

    const VideoSpec m_spec;
    const std::size_t m_frameBytes;
    pid_t m_pid;
    int m_pipeFd;  ///< write end of ffmpeg's stdin; owned by the writer thread once it runs
    int m_logFd;   ///< ffmpeg's stderr, an already unlinked temp file (nothing left behind)

    mutable std::mutex m_mutex;
    std::condition_variable m_frameQueued;          ///< wakes the writer: a frame, or closing
    std::condition_variable m_frameTaken;           ///< wakes a blocked push: room, or failure
    std::deque<std::vector<std::uint8_t>> m_queue;  ///< guarded by m_mutex
    bool m_closing = false;                         ///< guarded by m_mutex
    bool m_failed = false;                          ///< guarded by m_mutex
    std::string m_error;                            ///< guarded by m_mutex

    std::mutex m_finishMutex;  ///< makes finish() idempotent
    bool m_finished = false;   ///< guarded by m_finishMutex
    std::string m_finishError;

    std::atomic<long> m_framesWritten{0};
    std::thread m_thread;
};

}  // namespace ndem::app
