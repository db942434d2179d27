// ndem-studio: the NDEM Studio desktop app. `ndem-studio --help` lists the options.
#include "core/memory_reuse.hpp"
#include "gui/main_window.hpp"
#include "gui/studio_options.hpp"

#include <QApplication>
#include <QFileInfo>
#include <QSurfaceFormat>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// The scene to open: as given, else the shipped default (relative to the working directory
/// when run from the repository, else from the installed assets).
std::string resolveScene(const std::string& given) {
    if (!given.empty()) return given;
    const std::string local = "assets/scenes/silo-9d-live.json";
    if (QFileInfo::exists(QString::fromStdString(local))) return local;
    return std::string(NDEM_ASSETS_DIR) + "/scenes/silo-9d-live.json";
}

bool haveDisplay() {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform && *platform) return true;  // the user chose; Qt reports what fails
    return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
}

}  // namespace

int main(int argc, char** argv) {
    ndem::keepFreedMemoryForReuse();
    ndem::app::StudioOptions options;
    if (auto error = ndem::app::parseStudioOptions(std::vector<std::string>(argv + 1, argv + argc),
                                                   options)) {
        std::fprintf(stderr, "ndem-studio: %s\n", error->c_str());
        return 2;
    }
    if (!options.help.empty()) {
        std::fputs(options.help.c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("ndem-studio %s\n", NDEM_STUDIO_VERSION);
        return 0;
    }
    if (!haveDisplay()) {
        std::fprintf(stderr,
                     "ndem-studio: no display (DISPLAY is not set). Run it under a virtual one:\n"
                     "  xvfb-run -a -s \"-screen 0 1600x1000x24\" %s [SCENE] [options]\n"
                     "or run the engine headless: ndem run assets/scenes/silo-9d-live.json\n",
                     argv[0]);
        return 3;
    }

    // Before the QApplication: every GL context of the app is 3.3 core with a depth buffer.
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSwapInterval(0);  // the sim thread paces frames, not the monitor
    QSurfaceFormat::setDefaultFormat(format);

    QApplication app(argc, argv);
    QApplication::setApplicationName("NDEM Studio");
    ndem::app::MainWindow window(options);
    if (!window.openScene(QString::fromStdString(resolveScene(options.scene)), options.overrides))
        return 2;
    window.show();
    const int code = app.exec();
    return code != 0 ? code : window.exitCode();
}
