// Shared by the app tests: the QApplication they need, and running ndem-studio as a user does.
#pragma once

#include <QApplication>
#include <QSurfaceFormat>

#include <array>
#include <cstdio>
#include <string>

namespace ndem::test {

/// One QApplication for the in-process tests, made on first use (test discovery needs none).
inline QApplication& studioApp() {
    static int argc = 1;
    static char name[] = "ndem_studio_tests";
    static char* argv[] = {name, nullptr};
    static QApplication* app = [] {
        QSurfaceFormat format;
        format.setVersion(3, 3);
        format.setProfile(QSurfaceFormat::CoreProfile);
        format.setDepthBufferSize(24);
        format.setSwapInterval(0);
        QSurfaceFormat::setDefaultFormat(format);
        return new QApplication(argc, argv);
    }();
    return *app;
}

struct RunResult {
    int exitCode = -1;
    std::string output;  ///< stdout and stderr
};

/// Runs a shell command (the tests run under xvfb-run, so the app finds the display).
inline RunResult run(const std::string& command) {
    RunResult r;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe))
        r.output += buffer.data();
    const int status = pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline std::string studio(const std::string& args) {
    return std::string("cd ") + NDEM_SOURCE_DIR + " && " + NDEM_STUDIO + " " + args;
}

}  // namespace ndem::test
