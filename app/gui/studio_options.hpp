// The ndem-studio command line: scene, overrides, and the unattended screenshot / video modes.
#pragma once

#include "io/scene_file.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ndem::app {

struct StudioOptions {
    std::string scene;                ///< scene file (default: the 9d silo)
    std::vector<Override> overrides;  ///< --set key=value
    std::string screenshot;           ///< --screenshot out.png: save after --frames frames, quit
    int frames = 60;                  ///< --frames N
    std::string record;               ///< --record out.mp4: record --sim-seconds, quit
    double simSeconds = 2.0;          ///< --sim-seconds T
    double videoFps = 30.0;           ///< --fps F: video frames per simulated second
    bool withPanels = false;          ///< --with-panels: panels in the video
    bool paused = false;              ///< --paused: open without playing
    int width = 1280, height = 800;   ///< --size WxH of the window
    std::string plotsOpen;            ///< --panel NAME: a panel to open at start (tests, docs)
    std::string colour;               ///< --colour MODE (a kColourModeNames entry)
    bool forces = false;              ///< --forces: show the force network
    bool clip = false;                ///< --clip: cut the scene open with the clip plane
    bool timing = false;              ///< --timing: print frame times when quitting
    std::string help;                 ///< --help: the text to print
    bool version = false;
};

/// Parses argv[1..] with the parser `ndem` uses (io/command_line.hpp); the error is one line
/// naming the flag and the value.
std::optional<std::string> parseStudioOptions(const std::vector<std::string>& args,
                                              StudioOptions& out);

}  // namespace ndem::app
