#include "record/ffmpeg_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ndem::app {

namespace {

constexpr int kMaxSide = 16384;  ///< pixels; keeps width*height*4 far from overflow
constexpr double kMaxFps = 1000.0;

std::string errnoText(int code) {
    return std::strerror(code);
}

std::string formatFps(double fps) {
    // Shortest round-trip text, so 29.97 reaches ffmpeg as "29.97", not 29.969999999999999.
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, fps);
    return std::string(buffer, result.ptr);
}

std::string validate(const VideoSpec& spec) {
    if (spec.path.empty()) return "video path is empty";
    if (spec.width <= 0 || spec.height <= 0 || spec.width % 2 != 0 || spec.height % 2 != 0 ||
        spec.width > kMaxSide || spec.height > kMaxSide) {
        return "video size " + std::to_string(spec.width) + "x" + std::to_string(spec.height) +
               " is not valid: width and height must be positive and even (H.264 in yuv420p " +
               "halves the chroma), at most " + std::to_string(kMaxSide);
    }
    if (!std::isfinite(spec.fps) || spec.fps <= 0.0 || spec.fps > kMaxFps) {
        return "video fps " + formatFps(spec.fps) + " is not valid: must be a positive number " +
               "of frames per second, at most " + formatFps(kMaxFps);
    }
    return {};
}

std::vector<std::string> ffmpegArguments(const VideoSpec& spec) {
    const std::string size = std::to_string(spec.width) + "x" + std::to_string(spec.height);
    std::vector<std::string> args = {"ffmpeg", "-hide_banner", "-nostats", "-loglevel", "error"};
    // Input: raw RGBA frames on stdin. -y because start() has already created the file.
    args.insert(args.end(), {"-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", size});
    args.insert(args.end(), {"-r", formatFps(spec.fps), "-i", "-"});
    if (spec.flipVertically) {
        // A filter flip costs ffmpeg next to nothing (it negates the line stride); flipping
        // rows here would copy every frame once more on the writer thread.
        args.insert(args.end(), {"-vf", "vflip"});
    }
    // Fragmented MP4, a keyframe and a fragment every second of video, each fragment written
    // out as it is done (flush_packets; ffmpeg otherwise holds 32 kB): a recording whose app
    // and encoder are killed (a crash, the power) still plays up to its last whole second,
    // where a plain MP4 is unreadable without the index written at its end.
    const std::string keyEvery = std::to_string(std::max(1L, std::lround(spec.fps)));
    // -f mp4 because the name may have another extension or none; "file:" so a name that
    // starts with '-' or looks like a protocol ("http:...") is still a plain file.
    args.insert(args.end(),
                {"-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p",
                 "-g", keyEvery, "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
                 "-flush_packets", "1", "-f", "mp4", "file:" + spec.path});
    return args;
}

/// Starts ffmpeg with stdin = stdinFd, stdout = /dev/null, stderr = logFd. Returns errno-style
/// 0 on success (glibc's posix_spawnp reports a failed exec, e.g. ENOENT, as its result).
int spawnFfmpeg(const std::vector<std::string>& args, int stdinFd, int logFd, pid_t* pid) {
    std::vector<char*> argv;
    for (const std::string& arg : args)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, stdinFd, STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, logFd, STDERR_FILENO);

    // The child gets an empty signal mask and default SIGPIPE whatever the app set for itself,
    // and a process group of its own so a Ctrl+C in the app's terminal does not kill ffmpeg
    // before the app has finished the file (closing its stdin ends it cleanly instead).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

    const int result = posix_spawnp(pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}

/// An unlinked temp file for ffmpeg's stderr: read back for error messages, gone on close.
int openLogFile(std::string* error) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    if (ec) dir = "/tmp";
    std::string name = (dir / "ndem-ffmpeg-XXXXXX").string();
    const int fd = mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) {
        *error = "cannot create a log file for ffmpeg in " + dir.string() + ": " + errnoText(errno);
        return -1;
    }
    unlink(name.c_str());
    return fd;
}

}  // namespace

std::unique_ptr<FfmpegWriter> FfmpegWriter::start(const VideoSpec& spec, std::string* error) {
    std::string ignored;
    if (error == nullptr) error = &ignored;
    error->clear();
    if (std::string problem = validate(spec); !problem.empty()) {
        *error = problem;
        return nullptr;
    }

    // Check the directory ourselves: ffmpeg's own message for it comes only once it has
    // started, and creating the file proves it is writable (access() would not, as root).
    const std::filesystem::path target(spec.path);
    const std::filesystem::path dir =
        target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        *error = "directory '" + dir.string() + "' for video '" + spec.path + "' does not exist";
        return nullptr;
    }
    const int probeFd = open(spec.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (probeFd < 0) {
        *error = "cannot write video in directory '" + dir.string() + "' ('" + spec.path +
                 "'): " + errnoText(errno);
        return nullptr;
    }
    close(probeFd);

    const int logFd = openLogFile(error);
    int pipeFds[2] = {-1, -1};
    if (logFd >= 0 && pipe2(pipeFds, O_CLOEXEC) != 0) {
        *error = "cannot create a pipe to ffmpeg: " + errnoText(errno);
    }
    pid_t pid = -1;
    if (error->empty()) {
        const int result = spawnFfmpeg(ffmpegArguments(spec), pipeFds[0], logFd, &pid);
        if (result == ENOENT) {
            *error = "ffmpeg not found on PATH (install it, e.g. apt install ffmpeg)";
        } else if (result != 0) {
            *error = "cannot start ffmpeg: " + errnoText(result);
        }
    }
    if (pipeFds[0] >= 0) close(pipeFds[0]);  // the child has its copy as stdin
    if (!error->empty()) {
        if (pipeFds[1] >= 0) close(pipeFds[1]);
        if (logFd >= 0) close(logFd);
        unlink(spec.path.c_str());
        return nullptr;
    }

    std::unique_ptr<FfmpegWriter> writer(new FfmpegWriter(spec, pid, pipeFds[1], logFd));
    try {
        writer->m_thread = std::thread([raw = writer.get()] { raw->writerLoop(); });
    } catch (const std::system_error& e) {
        // No thread, so nobody owns the pipe: closing it ends ffmpeg; finish() reaps it and
        // removes the file.
        close(writer->m_pipeFd);
        writer->m_pipeFd = -1;
        writer->fail(std::string("cannot start the video writer thread: ") + e.what());
        *error = writer->finish();
        return nullptr;
    }
    return writer;
}

FfmpegWriter::FfmpegWriter(VideoSpec spec, pid_t pid, int pipeFd, int logFd)
    : m_spec(std::move(spec)),
      m_frameBytes(static_cast<std::size_t>(m_spec.width) * m_spec.height * 4),
      m_pid(pid),
      m_pipeFd(pipeFd),
      m_logFd(logFd) {}

FfmpegWriter::~FfmpegWriter() {
    finish();
}

bool FfmpegWriter::push(std::vector<std::uint8_t> rgba) {
    {
        std::lock_guard lock(m_mutex);
        if (m_failed || m_closing) return false;
    }
    if (rgba.size() != m_frameBytes) {
        // Writing it would shear every later frame; the caller must start a new video instead.
        fail("frame of " + std::to_string(rgba.size()) + " bytes does not match the video size " +
             std::to_string(m_spec.width) + "x" + std::to_string(m_spec.height) + " (" +
             std::to_string(m_frameBytes) + " bytes of RGBA)");
        return false;
    }
    const std::size_t maxQueued = static_cast<std::size_t>(std::max(1, m_spec.maxQueued));
    std::unique_lock lock(m_mutex);
    m_frameTaken.wait(lock, [&] { return m_failed || m_closing || m_queue.size() < maxQueued; });
    if (m_failed || m_closing) return false;
    m_queue.push_back(std::move(rgba));
    lock.unlock();
    m_frameQueued.notify_one();
    return true;
}

void FfmpegWriter::writerLoop() {
    // A write into the pipe of an ffmpeg that has died raises SIGPIPE, whose default action
    // ends the whole app. Blocking it in this thread only turns that into EPIPE here and
    // leaves the app's own disposition alone; signal(SIGPIPE, SIG_IGN) would change it for
    // every thread and library. The signal stays pending on this thread and vanishes with it.
    sigset_t pipeSignal;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSignal, nullptr);

    for (;;) {
        std::vector<std::uint8_t> frame;
        {
            std::unique_lock lock(m_mutex);
            m_frameQueued.wait(lock, [&] { return m_failed || m_closing || !m_queue.empty(); });
            if (m_failed || m_queue.empty()) break;  // closing and drained
            frame = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_frameTaken.notify_one();

        const std::uint8_t* data = frame.data();
        std::size_t left = frame.size();
        while (left > 0) {
            const ssize_t written = write(m_pipeFd, data, left);
            if (written < 0 && errno == EINTR) continue;
            if (written < 0) {
                const int code = errno;
                const std::string log = lastLogLine();
                fail(code == EPIPE ? "ffmpeg stopped reading frames after " +
                                         std::to_string(framesWritten()) + " of them" +
                                         (log.empty() ? std::string() : ": " + log)
                                   : "writing a frame to ffmpeg failed: " + errnoText(code));
                break;
            }
            data += written;
            left -= static_cast<std::size_t>(written);
        }
        if (left > 0) break;
        m_framesWritten.fetch_add(1, std::memory_order_acq_rel);
    }
    // End of input: ffmpeg flushes the encoder, writes the last fragment and exits.
    close(m_pipeFd);
    m_pipeFd = -1;
}

void FfmpegWriter::fail(const std::string& message) {
    {
        std::lock_guard lock(m_mutex);
        if (!m_failed) m_error = message;
        m_failed = true;
        m_queue.clear();
    }
    m_frameQueued.notify_all();
    m_frameTaken.notify_all();
}

std::string FfmpegWriter::finish() {
    std::lock_guard finishLock(m_finishMutex);
    if (m_finished) return m_finishError;
    m_finished = true;
    {
        std::lock_guard lock(m_mutex);
        m_closing = true;
    }
    m_frameQueued.notify_all();
    m_frameTaken.notify_all();
    if (m_thread.joinable()) m_thread.join();

    int status = 0;
    while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    // ffmpeg's exit status is the authority on the file; it also explains a writer EPIPE.
    std::string processError;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        processError =
            WIFSIGNALED(status)
                ? "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status))
                : "ffmpeg failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
        const std::string log = lastLogLine();
        if (!log.empty()) processError += ": " + log;
    }
    close(m_logFd);
    m_logFd = -1;

    std::string result = processError.empty() ? error() : processError;
    if (result.empty() && framesWritten() == 0) {
        // ffmpeg accepts an empty input and leaves a video with no frames; nobody wants it.
        result = "no frames were recorded, so no video was written";
    }
    if (!result.empty()) {
        unlink(m_spec.path.c_str());
        std::lock_guard lock(m_mutex);
        m_failed = true;
        m_error = result;
    }
    m_finishError = result;
    return result;
}

std::string FfmpegWriter::error() const {
    std::lock_guard lock(m_mutex);
    return m_error;
}

std::string FfmpegWriter::lastLogLine() const {
    // -loglevel error keeps the log short; its last line is the one that says what failed.
    struct stat info {};
    if (m_logFd < 0 || fstat(m_logFd, &info) != 0 || info.st_size <= 0) return {};
    const off_t size = std::min<off_t>(info.st_size, 4096);
    std::string tail(static_cast<std::size_t>(size), '\0');
    const ssize_t got = pread(m_logFd, tail.data(), tail.size(), info.st_size - size);
    if (got <= 0) return {};
    tail.resize(static_cast<std::size_t>(got));
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ')) {
        tail.pop_back();
    }
    const std::size_t start = tail.find_last_of("\r\n");
    return start == std::string::npos ? tail : tail.substr(start + 1);
}

}  // namespace ndem::app
