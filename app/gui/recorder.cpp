#include "gui/recorder.hpp"

#include <cmath>

namespace ndem::app {

std::optional<std::string> Recorder::start(const std::string& path, int width, int height,
                                           double fps, double simSeconds, bool withPanels,
                                           SimLoop& loop) {
    if (m_writer) return "a recording is already running (" + m_path + ")";
    VideoSpec spec;
    spec.path = path;
    spec.width = width & ~1;  // H.264 in yuv420p needs even sizes
    spec.height = height & ~1;
    spec.fps = fps;
    std::string error;
    m_writer = FfmpegWriter::start(spec, &error);
    if (!m_writer) return error;
    m_path = path;
    m_width = spec.width;
    m_height = spec.height;
    m_withPanels = withPanels;
    m_captured = 0;
    m_lastSequence = 0;
    m_total = simSeconds > 0.0 ? std::lround(simSeconds * fps) : 0;
    loop.setFrameInterval(1.0 / fps);
    loop.play();
    return std::nullopt;
}

bool Recorder::capture(unsigned fbo, std::uint64_t sequence, double, SimLoop& loop) {
    if (!m_writer) return false;
    // The first frame is the state the recording started from; after it, every new snapshot
    // is a paced frame the sim thread holds until we release it.
    if (sequence == m_lastSequence) return false;
    m_lastSequence = sequence;
    m_reader.read(fbo, m_width, m_height);
    ++m_captured;
    pushCollected(false);
    const bool done = m_total > 0 && m_captured >= m_total;
    if (!done) loop.releaseFrame();
    return done;
}

void Recorder::pushCollected(bool wait) {
    m_frames.clear();
    m_reader.collect(m_frames, wait);
    for (auto& frame : m_frames)
        if (!m_writer->push(std::move(frame))) break;
}

std::string Recorder::stop(SimLoop& loop) {
    if (!m_writer) return "";
    pushCollected(true);
    m_reader.release();
    loop.setFrameInterval(0.0);
    std::string error = m_writer->finish();
    m_writer.reset();
    return error;
}

}  // namespace ndem::app
