// Video recording from the viewport: paced frames read back through a PBO ring into ffmpeg.
#pragma once

#include "record/ffmpeg_writer.hpp"
#include "record/frame_reader.hpp"
#include "sim/sim_loop.hpp"

#include <memory>
#include <optional>
#include <string>

namespace ndem::app {

/// One frame per `1/fps` of simulated time: the SimLoop holds each paced frame until the
/// viewport has drawn and read it (SimLoop::setFrameInterval), so a slow simulation still
/// gives a smooth video and a fast one loses no frame. Read-back is asynchronous (FrameReader)
/// and encoding runs on the writer's thread; the GUI thread never waits for a step.
/// Every function needs the viewport's GL context current.
class Recorder {
  public:
    /// Starts a video of the `width` × `height` framebuffer (cropped to even sizes);
    /// `simSeconds` > 0 stops by itself after that much simulated time.
    std::optional<std::string> start(const std::string& path, int width, int height, double fps,
                                     double simSeconds, bool withPanels, SimLoop& loop);
    bool active() const { return m_writer != nullptr; }
    bool withPanels() const { return m_withPanels; }

    /// After drawing snapshot `s` into `fbo`: reads it if it is the next paced frame and lets
    /// the sim go on. Returns true when the recording has all its frames (call stop()).
    bool capture(unsigned fbo, std::uint64_t sequence, double time, SimLoop& loop);
    /// Finalises the file so it plays; returns an error message or "" on success.
    std::string stop(SimLoop& loop);

    long framesCaptured() const { return m_captured; }
    long framesTotal() const { return m_total; }
    const std::string& path() const { return m_path; }
    int width() const { return m_width; }
    int height() const { return m_height; }

  private:
    void pushCollected(bool wait);

    std::unique_ptr<FfmpegWriter> m_writer;
    FrameReader m_reader;
    std::vector<std::vector<std::uint8_t>> m_frames;
    std::string m_path;
    int m_width = 0, m_height = 0;
    bool m_withPanels = false;
    std::uint64_t m_lastSequence = 0;
    long m_captured = 0;
    long m_total = 0;  ///< 0: until stopped
};

}  // namespace ndem::app
