#include "progress.hpp"

#include <unistd.h>
#include <cstdio>

namespace ndem::cli {

ProgressBar::ProgressBar(bool enabled)
    : m_enabled(enabled),
      m_terminal(isatty(fileno(stderr)) != 0),
      m_start(std::chrono::steady_clock::now()),
      m_lastDraw(m_start) {}

void ProgressBar::update(double fraction, const std::string& detail) {
    if (!m_enabled) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    const double eta = fraction > 1e-6 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    if (m_terminal) {
        // Redraw at most ~10 times a second: drawing must not cost the simulation time.
        if (fraction < 1.0 && std::chrono::duration<double>(now - m_lastDraw).count() < 0.1) return;
        m_lastDraw = now;
        constexpr int kWidth = 30;
        const int filled = static_cast<int>(fraction * kWidth + 0.5);
        std::string bar(filled, '#');
        bar.resize(kWidth, '.');
        std::fprintf(stderr, "\r[%s] %5.1f%%  %s  ETA %.0f s   ", bar.c_str(), 100.0 * fraction,
                     detail.c_str(), eta);
    } else {
        const int decile = static_cast<int>(fraction * 10.0);
        if (decile == m_lastDecile) return;
        m_lastDecile = decile;
        std::fprintf(stderr, "progress %3d%%  %s  (%.1f s elapsed)\n", decile * 10, detail.c_str(),
                     elapsed);
    }
    std::fflush(stderr);
}

void ProgressBar::finish() {
    if (m_enabled && m_terminal) std::fprintf(stderr, "\n");
}

std::string etaText(double elapsed, size_t finished, size_t total) {
    if (finished == 0 || finished >= total) return "";
    char text[48];
    std::snprintf(text, sizeof text, "  ETA %.0f s",
                  elapsed * static_cast<double>(total - finished) / static_cast<double>(finished));
    return text;
}

void ProgressBar::clearLine() {
    if (m_enabled && m_terminal) std::fprintf(stderr, "\r\033[K");
}

}  // namespace ndem::cli
