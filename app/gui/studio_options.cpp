#include "gui/studio_options.hpp"

#include "render/colour_modes.hpp"

#include "io/command_line.hpp"

namespace ndem::app {

namespace {

constexpr const char* kSynopsis = "ndem-studio [SCENE] [--set key=value]... [options]";

constexpr const char* kDescription =
    R"(Opens SCENE (default assets/scenes/silo-9d-live.json) in the NDEM Studio window and plays it.)";

constexpr const char* kFooter =
    R"(Without a display, run it under a virtual one:  xvfb-run -a ndem-studio
)";

bool hasSuffix(const std::string& s, const char* suffix) {
    const std::string x(suffix);
    return s.size() > x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

/// A name from `names`; refused as "FLAG VALUE: expected one of a, b, c".
template <class Names>
cmdline::Take oneOf(const std::string& flag, const Names& names, std::string& target) {
    return [flag, &names, &target](const std::string& v) -> std::optional<std::string> {
        std::string list;
        for (const char* n : names) {
            if (v == n) {
                target = v;
                return std::nullopt;
            }
            list += (list.empty() ? "" : ", ") + std::string(n);
        }
        return cmdline::refused(flag, v, "one of " + list);
    };
}

/// A file name ending in `suffix`.
cmdline::Take fileOfType(const std::string& flag, const char* suffix, std::string& target) {
    return [flag, suffix, &target](const std::string& v) -> std::optional<std::string> {
        if (!hasSuffix(v, suffix))
            return cmdline::refused(flag, v, std::string("a ") + suffix + " file name");
        target = v;
        return std::nullopt;
    };
}

constexpr const char* kPanels[] = {"simulation", "solver",  "material", "scene",
                                   "plots",      "display", "reduction"};

void addStudioFlags(CLI::App& app, StudioOptions& o) {
    app.add_option("SCENE", o.scene, "the scene file (default: the 9 d silo)")
        ->type_name("FILE.json");
    cmdline::addOverrides(app, o.overrides);
    app.add_flag("--paused", o.paused, "open paused");
    cmdline::addValue(app, "--size", "WxH", "window size in pixels (default 1280x800)",
                      [&o](const std::string& v) -> std::optional<std::string> {
                          const size_t x = v.find('x');
                          const auto w = cmdline::wholeNumber(v.substr(0, x), 64, 8192);
                          const auto h = x == std::string::npos
                                             ? std::nullopt
                                             : cmdline::wholeNumber(v.substr(x + 1), 64, 8192);
                          if (!w || !h)
                              return cmdline::refused("--size", v, "WxH with 64 <= W, H <= 8192");
                          o.width = static_cast<int>(*w);
                          o.height = static_cast<int>(*h);
                          return std::nullopt;
                      });
    cmdline::addValue(app, "--screenshot", "FILE.png",
                      "save the viewport with its panels after --frames N drawn frames, then quit",
                      fileOfType("--screenshot", ".png", o.screenshot));
    cmdline::addCount(app, "--frames", "N", "frames before the screenshot (60)", o.frames, 1,
                      1000000, "a whole number from 1 to 10^6");
    cmdline::addValue(app, "--record", "FILE.mp4",
                      "record --sim-seconds of simulated time at --fps, then quit",
                      fileOfType("--record", ".mp4", o.record));
    cmdline::addNumber(app, "--sim-seconds", "T", "simulated seconds to record (2)", o.simSeconds,
                       0.0, 1e9, "a time > 0 in seconds");
    cmdline::addNumber(app, "--fps", "F", "video frames per simulated second (30)", o.videoFps, 0.0,
                       240.0, "frames per simulated second in (0, 240]");
    app.add_flag("--with-panels", o.withPanels, "keep the ImGui panels in the video");
    cmdline::addValue(app, "--panel", "NAME",
                      "open a panel at start: simulation, solver, material, "
                      "scene, plots, display, reduction",
                      oneOf("--panel", kPanels, o.plotsOpen));
    cmdline::addValue(app, "--colour,--color", "MODE",
                      "colour the particles by: speed, co-rotation, height, contacts, pressure, "
                      "aggregate, id",
                      oneOf("--colour", kColourModeKeys, o.colour));
    app.add_flag("--forces", o.forces, "show the force network");
    app.add_flag("--clip", o.clip, "cut the scene open with the clip plane");
    app.add_flag("--timing", o.timing,
                 "print the mean and 95th percentile frame time when quitting");
    app.add_flag("--version", o.version, "the version");
}

}  // namespace

std::optional<std::string> parseStudioOptions(const std::vector<std::string>& args,
                                              StudioOptions& out) {
    CLI::App app("", "ndem-studio");
    cmdline::configure(app, kSynopsis, kFooter);
    app.description(kDescription);
    addStudioFlags(app, out);
    const cmdline::Outcome outcome = cmdline::parse(app, args);
    if (!outcome.error.empty()) return outcome.error;
    out.help = outcome.help;
    if (out.help.empty() && !out.screenshot.empty() && !out.record.empty())
        return "--screenshot and --record: choose one";
    return std::nullopt;
}

}  // namespace ndem::app
