#include "gui/studio_options.hpp"

#include "render/colour_modes.hpp"

#include <cmath>
#include <cstdio>

namespace ndem::app {

const char* const kStudioUsage = R"(usage: ndem-studio [SCENE] [--set key=value]... [options]

Opens SCENE (default assets/scenes/silo-9d-live.json) in the NDEM Studio window and plays it.
  --set key=value        override any key of the scene file (see `ndem keys`)
  --threads N            step with N threads, 1 to 1024 (default: every core; the
                         Simulation panel changes it while running)
  --paused               open paused
  --size WxH             window size in pixels (default 1280x800)
  --screenshot FILE.png  save the window's viewport with its panels after --frames N drawn
                         frames (default 60), then quit
  --record FILE.mp4      record --sim-seconds T (default 2) of simulated time at --fps F
                         (default 30) video frames per simulated second, then quit
  --with-panels          keep the ImGui panels in the video (left out by default)
  --panel NAME           open a panel at start: simulation, solver, material, scene, plots,
                         display, reduction
  --colour MODE          colour the particles by: speed, co-rotation, height, contacts,
                         pressure, aggregate, id
  --forces               show the force network     --clip   cut the scene open (clip plane)
  --timing               print the mean and 95th percentile frame time when quitting
  --help, --version
Without a display, run it under a virtual one:  xvfb-run -a ndem-studio
)";

namespace {

bool parseInt(const std::string& s, int& out) {
    try {
        size_t used = 0;
        const long v = std::stol(s, &used);
        if (used != s.size() || v < -2147483647L || v > 2147483647L) return false;
        out = static_cast<int>(v);
        return true;
    } catch (...) {
        return false;
    }
}

bool parseDouble(const std::string& s, double& out) {
    try {
        size_t used = 0;
        out = std::stod(s, &used);
        return used == s.size() && std::isfinite(out);
    } catch (...) {
        return false;
    }
}

bool hasSuffix(const std::string& s, const char* suffix) {
    const std::string x(suffix);
    return s.size() > x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

}  // namespace

std::optional<std::string> parseStudioOptions(const std::vector<std::string>& args,
                                              StudioOptions& out) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& v) -> std::optional<std::string> {
            if (i + 1 >= args.size()) return a + ": needs a value";
            v = args[++i];
            return std::nullopt;
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            out.help = true;
        } else if (a == "--version") {
            out.version = true;
        } else if (a == "--paused") {
            out.paused = true;
        } else if (a == "--with-panels") {
            out.withPanels = true;
        } else if (a == "--forces") {
            out.forces = true;
        } else if (a == "--clip") {
            out.clip = true;
        } else if (a == "--timing") {
            out.timing = true;
        } else if (a == "--colour" || a == "--color") {
            if (auto e = value(out.colour)) return e;
            bool known = false;
            for (const char* m : kColourModeKeys) known = known || out.colour == m;
            if (!known) return "--colour: unknown mode '" + out.colour + "'";
        } else if (a == "--set") {
            if (auto e = value(v)) return e;
            Expected<Override> o = parseOverride(v);
            if (!o) return "--set: " + o.error().message;
            out.overrides.push_back(*o);
        } else if (a == "--threads") {
            if (auto e = value(v)) return e;
            Expected<Override> o = parseThreadsFlag(v);
            if (!o) return o.error().message;
            out.overrides.push_back(*o);
        } else if (a == "--screenshot") {
            if (auto e = value(out.screenshot)) return e;
            if (!hasSuffix(out.screenshot, ".png"))
                return "--screenshot: expected a .png file name (got '" + out.screenshot + "')";
        } else if (a == "--frames") {
            if (auto e = value(v)) return e;
            if (!parseInt(v, out.frames) || out.frames < 1)
                return "--frames: expected a whole number >= 1 (got '" + v + "')";
        } else if (a == "--record") {
            if (auto e = value(out.record)) return e;
            if (!hasSuffix(out.record, ".mp4"))
                return "--record: expected an .mp4 file name (got '" + out.record + "')";
        } else if (a == "--sim-seconds") {
            if (auto e = value(v)) return e;
            if (!parseDouble(v, out.simSeconds) || !(out.simSeconds > 0.0))
                return "--sim-seconds: expected a time > 0 in seconds (got '" + v + "')";
        } else if (a == "--fps") {
            if (auto e = value(v)) return e;
            if (!parseDouble(v, out.videoFps) || !(out.videoFps > 0.0) || out.videoFps > 240.0)
                return "--fps: expected frames per simulated second in (0, 240] (got '" + v + "')";
        } else if (a == "--size") {
            if (auto e = value(v)) return e;
            const size_t x = v.find('x');
            if (x == std::string::npos || !parseInt(v.substr(0, x), out.width) ||
                !parseInt(v.substr(x + 1), out.height) || out.width < 64 || out.height < 64 ||
                out.width > 8192 || out.height > 8192)
                return "--size: expected WxH with 64 <= W, H <= 8192 (got '" + v + "')";
        } else if (a == "--panel") {
            if (auto e = value(out.plotsOpen)) return e;
            static const char* const kPanels[] = {"simulation", "solver",  "material", "scene",
                                                  "plots",      "display", "reduction"};
            bool known = false;
            for (const char* p : kPanels) known = known || out.plotsOpen == p;
            if (!known) return "--panel: unknown panel '" + out.plotsOpen + "'";
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + a + "' (try --help)";
        } else if (out.scene.empty()) {
            out.scene = a;
        } else {
            return "unexpected argument '" + a + "': only one scene file";
        }
    }
    if (!out.screenshot.empty() && !out.record.empty())
        return "--screenshot and --record: choose one";
    return std::nullopt;
}

}  // namespace ndem::app
