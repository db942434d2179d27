// A progress bar on stderr: redrawn in place on a terminal, a line per 10 % otherwise (logs, CI).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace ndem::cli {

class ProgressBar {
  public:
    explicit ProgressBar(bool enabled);
    /// fraction in [0, 1]; `detail` is appended (e.g. "t = 1.20 / 5.00 s").
    void update(double fraction, const std::string& detail);
    void finish();
    /// Clears the bar's line so that a message can be printed (the next update redraws it).
    void clearLine();

  private:
    bool m_enabled;
    bool m_terminal;
    int m_lastDecile = -1;
    std::chrono::steady_clock::time_point m_start, m_lastDraw;
};

/// "  ETA 12 s" for `total` jobs of which `finished` are done after `elapsed` seconds (the jobs
/// done so far taken as typical), or "" while none or all are done.
std::string etaText(double elapsed, size_t finished, size_t total);

}  // namespace ndem::cli
