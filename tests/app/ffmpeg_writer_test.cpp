// FfmpegWriter against the real ffmpeg (checked with ffprobe) and against fake ones on PATH that
// fail or stall on purpose.
#include "record/ffmpeg_writer.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using ndem::app::FfmpegWriter;
using ndem::app::VideoSpec;

namespace {

bool onPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (path == nullptr) return false;
    const std::string dirs = path;
    std::size_t begin = 0;
    while (begin <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', begin), dirs.size());
        const fs::path candidate = fs::path(dirs.substr(begin, end - begin)) / program;
        if (access(candidate.c_str(), X_OK) == 0) return true;
        begin = end + 1;
    }
    return false;
}

std::string runAndRead(const std::string& command) {
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return output;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
        output += buffer;
    pclose(pipe);
    while (!output.empty() && (output.back() == '\n' || output.back() == '\r'))
        output.pop_back();
    return output;
}

/// codec,width,height,frames as ffprobe decodes them.
std::string probe(const fs::path& file) {
    return runAndRead(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
        "stream=codec_name,width,height,nb_read_frames -of csv=p=0 '" +
        file.string() + "' 2>&1");
}

/// A grey frame with a white 8x8 square that moves one pixel per frame.
std::vector<std::uint8_t> movingSquare(int width, int height, int frame) {
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
    const int left = frame % (width - 8);
    const int bottom = (2 * frame) % (height - 8);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const bool inSquare = x >= left && x < left + 8 && y >= bottom && y < bottom + 8;
            std::uint8_t* pixel = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
            pixel[0] = pixel[1] = pixel[2] = inSquare ? 255 : 64;
            pixel[3] = 255;
        }
    }
    return rgba;
}

/// Puts `dir` first on PATH for the lifetime of the guard (tests run on one thread).
class PathPrefix {
  public:
    explicit PathPrefix(const fs::path& dir) {
        const char* old = std::getenv("PATH");
        m_old = old != nullptr ? old : "";
        setenv("PATH", (dir.string() + ":" + m_old).c_str(), 1);
    }
    ~PathPrefix() { setenv("PATH", m_old.c_str(), 1); }

  private:
    std::string m_old;
};

class FfmpegWriterTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() /
                ("ndem-ffmpeg-writer-" + std::to_string(getpid()) + "-" + info->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    void requireFfmpeg() {
        if (!onPath("ffmpeg") || !onPath("ffprobe")) GTEST_SKIP() << "ffmpeg/ffprobe not on PATH";
    }

    /// An executable `ffmpeg` shell script in its own directory, for PathPrefix.
    fs::path fakeFfmpeg(const std::string& body) {
        const fs::path bin = m_dir / "bin";
        fs::create_directories(bin);
        std::ofstream(bin / "ffmpeg") << "#!/bin/sh\n" << body << "\n";
        fs::permissions(bin / "ffmpeg", fs::perms::owner_all);
        return bin;
    }

    VideoSpec spec(const std::string& name, double fps = 30.0) const {
        return VideoSpec{(m_dir / name).string(), 64, 48, fps};
    }

    /// Files in the test directory other than the fake ffmpeg's bin/.
    std::vector<std::string> filesLeft() const {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(m_dir)) {
            if (entry.path().filename() != "bin") names.push_back(entry.path().filename());
        }
        return names;
    }

    fs::path m_dir;
};

}  // namespace

TEST_F(FfmpegWriterTest, TwoSecondsAt30FpsGiveAnH264Mp4WithAll60Frames) {
    requireFfmpeg();
    std::string error;
    auto writer = FfmpegWriter::start(spec("square.mp4"), &error);
    ASSERT_NE(writer, nullptr) << error;
    for (int frame = 0; frame < 60; ++frame) {
        ASSERT_TRUE(writer->push(movingSquare(64, 48, frame))) << writer->error();
    }
    EXPECT_EQ(writer->finish(), "");
    EXPECT_EQ(writer->finish(), "") << "finish() is idempotent";
    EXPECT_EQ(writer->framesWritten(), 60);
    EXPECT_EQ(probe(m_dir / "square.mp4"), "h264,64,48,60");
    EXPECT_EQ(filesLeft(), std::vector<std::string>{"square.mp4"}) << "one file, no other";
}

TEST_F(FfmpegWriterTest, BadSpecsAreRefusedWithAMessageAndLeaveNoFile) {
    requireFfmpeg();
    std::string error;
    VideoSpec odd = spec("odd.mp4");
    odd.width = 63;
    EXPECT_EQ(FfmpegWriter::start(odd, &error), nullptr);
    EXPECT_NE(error.find("63x48"), std::string::npos) << error;
    EXPECT_NE(error.find("even"), std::string::npos) << error;

    EXPECT_EQ(FfmpegWriter::start(spec("still.mp4", 0.0), &error), nullptr);
    EXPECT_NE(error.find("fps 0"), std::string::npos) << error;

    VideoSpec lost = spec("missing/lost.mp4");
    EXPECT_EQ(FfmpegWriter::start(lost, &error), nullptr);
    EXPECT_NE(error.find("does not exist"), std::string::npos) << error;
    EXPECT_NE(error.find((m_dir / "missing").string()), std::string::npos) << error;

    // /proc refuses new files even to root, unlike a chmod-ed directory.
    EXPECT_EQ(FfmpegWriter::start(VideoSpec{"/proc/ndem-test.mp4", 64, 48, 30.0}, &error), nullptr);
    EXPECT_NE(error.find("cannot write video in directory '/proc'"), std::string::npos) << error;
    EXPECT_FALSE(fs::exists("/proc/ndem-test.mp4"));

    EXPECT_TRUE(filesLeft().empty());
}

TEST_F(FfmpegWriterTest, DestroyingWithoutFinishStillLeavesAPlayableFileWithEveryFrame) {
    requireFfmpeg();
    std::string error;
    auto writer = FfmpegWriter::start(spec("closed.mp4"), &error);
    ASSERT_NE(writer, nullptr) << error;
    for (int frame = 0; frame < 17; ++frame)
        ASSERT_TRUE(writer->push(movingSquare(64, 48, frame)));
    writer.reset();
    EXPECT_EQ(probe(m_dir / "closed.mp4"), "h264,64,48,17");
    EXPECT_EQ(filesLeft(), std::vector<std::string>{"closed.mp4"});
}

TEST_F(FfmpegWriterTest, AFrameOfTheWrongSizeFailsTheWriterAndRemovesThePartialFile) {
    requireFfmpeg();
    std::string error;
    auto writer = FfmpegWriter::start(spec("resized.mp4"), &error);
    ASSERT_NE(writer, nullptr) << error;
    ASSERT_TRUE(writer->push(movingSquare(64, 48, 0)));
    EXPECT_FALSE(writer->push(movingSquare(80, 48, 1)));
    EXPECT_NE(writer->error().find("does not match the video size 64x48"), std::string::npos)
        << writer->error();
    EXPECT_FALSE(writer->push(movingSquare(64, 48, 2))) << "a failed writer takes no frames";
    EXPECT_NE(writer->finish(), "");
    EXPECT_TRUE(filesLeft().empty());
}

/// The process whose command line is ffmpeg's with `video` among its arguments, or -1.
pid_t ffmpegWriting(const fs::path& video) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (cmdline.rfind(std::string("ffmpeg") + '\0', 0) == 0 &&
            cmdline.find("file:" + video.string()) != std::string::npos)
            return std::stoi(name);
    }
    return -1;
}

/// Records `frames` frames at 10 fps in a child process, waits until ffmpeg has taken them all
/// (and, with `settle`, a while longer), then kills the child with SIGKILL, and with
/// `alsoFfmpeg` the ffmpeg it started too: the app and its encoder dying at once.
void recordAndKill(const fs::path& video, int frames, bool alsoFfmpeg) {
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(ready[0]);
        std::string error;
        auto writer = FfmpegWriter::start(VideoSpec{video.string(), 64, 48, 10.0}, &error);
        if (!writer) _exit(1);
        for (int frame = 0; frame < frames; ++frame)
            writer->push(movingSquare(64, 48, frame));
        while (writer->framesWritten() < frames)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        const char byte = 1;
        if (write(ready[1], &byte, 1) != 1) _exit(1);
        for (;;)
            pause();
    }
    close(ready[1]);
    char byte = 0;
    const bool started = read(ready[0], &byte, 1) == 1;
    close(ready[0]);
    if (started && alsoFfmpeg) {
        // Give ffmpeg time to encode most of what it has, then kill it with the app.
        std::this_thread::sleep_for(std::chrono::seconds(2));
        const pid_t encoder = ffmpegWriting(video);
        EXPECT_GT(encoder, 0) << "no ffmpeg writing " << video;
        if (encoder > 0) kill(encoder, SIGKILL);
    }
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(started) << "the recording child did not start";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/// Frames ffprobe decodes in `video`, once it stops changing (ffmpeg may still be finishing).
int framesOnceSettled(const fs::path& video) {
    std::string last, now;
    for (int tries = 0; tries < 60; ++tries) {
        now = probe(video);
        if (!now.empty() && now == last) break;
        last = now;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    const size_t comma = now.rfind(',');
    if (now.rfind("h264,64,48,", 0) != 0 || comma == std::string::npos) return -1;
    return std::stoi(now.substr(comma + 1));
}

TEST_F(FfmpegWriterTest, AKilledAppLeavesAVideoThatPlaysEveryFrameFfmpegHad) {
    requireFfmpeg();
    // kill -9 of the app: ffmpeg, in a process group of its own, sees its input end and
    // finishes the fragments.
    recordAndKill(m_dir / "killed.mp4", 40, false);
    EXPECT_EQ(framesOnceSettled(m_dir / "killed.mp4"), 40);
}

TEST_F(FfmpegWriterTest, AKilledEncoderLeavesAVideoThatPlaysUpToItsLastWholeSecond) {
    requireFfmpeg();
    // ffmpeg killed too (the whole session gone): the fragments written so far, one per second
    // of video, still play. 40 frames at 10 fps went in; libx264 holds back up to a second or
    // two for its look-ahead (20 frames play here). A plain MP4 gives no frame at all.
    recordAndKill(m_dir / "lost.mp4", 40, true);
    const int frames = framesOnceSettled(m_dir / "lost.mp4");
    EXPECT_GE(frames, 10) << probe(m_dir / "lost.mp4");
    EXPECT_LE(frames, 40);
}

TEST_F(FfmpegWriterTest, NoFramesGiveAnErrorAndNoFile) {
    requireFfmpeg();
    std::string error;
    auto writer = FfmpegWriter::start(spec("empty.mp4"), &error);
    ASSERT_NE(writer, nullptr) << error;
    EXPECT_NE(writer->finish().find("no frames"), std::string::npos);
    EXPECT_TRUE(filesLeft().empty());
}

// ffmpeg that cannot create its output: it writes a stub of the file, says why and exits 1
// without reading its input, which is what the real one does for an unwritable path.
TEST_F(FfmpegWriterTest, FfmpegFailingToWriteIsReportedByPushAndFinishAndLeavesNoPartFile) {
    const PathPrefix path(
        fakeFfmpeg("for last; do :; done\n"
                   "echo stub > \"${last#file:}\"\n"
                   "echo \"fake ffmpeg: Could not open output file\" >&2\n"
                   "exit 1"));
    std::string error;
    auto writer = FfmpegWriter::start(spec("refused.mp4"), &error);
    ASSERT_NE(writer, nullptr) << error;
    bool refused = false;
    for (int frame = 0; frame < 200 && !refused; ++frame) {
        refused = !writer->push(movingSquare(64, 48, frame));
    }
    EXPECT_TRUE(refused) << "push returns false once ffmpeg is gone";
    EXPECT_NE(writer->error().find("ffmpeg stopped reading frames"), std::string::npos)
        << writer->error();
    const std::string finished = writer->finish();
    EXPECT_NE(finished.find("exit status 1"), std::string::npos) << finished;
    EXPECT_NE(finished.find("Could not open output file"), std::string::npos) << finished;
    EXPECT_EQ(writer->error(), finished);
    EXPECT_TRUE(filesLeft().empty());
}

TEST_F(FfmpegWriterTest, MissingFfmpegIsNamedInTheError) {
    const fs::path empty = m_dir / "bin";
    fs::create_directories(empty);
    const char* old = std::getenv("PATH");
    const std::string saved = old != nullptr ? old : "";
    setenv("PATH", empty.c_str(), 1);
    std::string error;
    auto writer = FfmpegWriter::start(spec("none.mp4"), &error);
    setenv("PATH", saved.c_str(), 1);
    EXPECT_EQ(writer, nullptr);
    EXPECT_NE(error.find("ffmpeg not found on PATH"), std::string::npos) << error;
    EXPECT_TRUE(filesLeft().empty());
}

// ffmpeg that starts reading only after 1 s: pushes block (back-pressure) instead of dropping.
TEST_F(FfmpegWriterTest, ASlowFfmpegBlocksPushButLosesNoFrame) {
    const PathPrefix path(fakeFfmpeg("sleep 1\ncat > /dev/null"));
    std::string error;
    VideoSpec slow = spec("slow.mp4");
    slow.maxQueued = 2;
    auto writer = FfmpegWriter::start(slow, &error);
    ASSERT_NE(writer, nullptr) << error;
    // 40 frames of 12 kB are more than the 64 kB pipe and the queue of 2 can hold.
    const auto begin = std::chrono::steady_clock::now();
    for (int frame = 0; frame < 40; ++frame)
        ASSERT_TRUE(writer->push(movingSquare(64, 48, frame)));
    const double blocked =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    EXPECT_GT(blocked, 0.5);
    EXPECT_EQ(writer->finish(), "");
    EXPECT_EQ(writer->framesWritten(), 40);
}
