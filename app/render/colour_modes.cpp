#include "render/colour_modes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ndem::app {

namespace {

std::uint32_t pack(float r, float g, float b) {
    auto byte = [](float v) {
        return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    };
    return byte(r) | (byte(g) << 8) | (byte(b) << 16) | (0xffu << 24);
}

/// A wall spinning about its axis (the drum): the rigid co-motion of relative-velocity mode.
const Wall* rotatingWall(const Snapshot& s) {
    for (const Wall& w : s.walls)
        if (w.enabled && !w.angularVelocity.isZero()) return &w;
    return nullptr;
}

std::uint32_t hashColour(std::uint32_t key) {
    // Golden-ratio hue steps: neighbouring ids get clearly different colours.
    const float hue = std::fmod(static_cast<float>(key) * 0.61803398875f, 1.0f);
    const float h6 = hue * 6.0f;
    const float x = 1.0f - std::fabs(std::fmod(h6, 2.0f) - 1.0f);
    float r = 0, g = 0, b = 0;
    switch (static_cast<int>(h6) % 6) {
        case 0:
            r = 1, g = x;
            break;
        case 1:
            r = x, g = 1;
            break;
        case 2:
            g = 1, b = x;
            break;
        case 3:
            g = x, b = 1;
            break;
        case 4:
            r = x, b = 1;
            break;
        default:
            r = 1, b = x;
            break;
    }
    return pack(0.25f + 0.7f * r, 0.25f + 0.7f * g, 0.25f + 0.7f * b);
}

}  // namespace

std::uint32_t viridis(float t) {
    t = std::clamp(t, 0.0f, 1.0f);
    // Polynomial fit of matplotlib's viridis (degree 6).
    const float c[7][3] = {{0.2777f, 0.0054f, 0.3341f},   {0.1051f, 1.4046f, 1.3846f},
                           {-0.3309f, 0.2148f, 0.0951f},  {-4.6342f, -5.7991f, -19.3324f},
                           {6.2283f, 14.1799f, 56.6906f}, {4.7764f, -13.7451f, -65.3530f},
                           {-5.4355f, 4.6459f, 26.3124f}};
    float rgb[3];
    for (int k = 0; k < 3; ++k) {
        float v = c[6][k];
        for (int j = 5; j >= 0; --j)
            v = v * t + c[j][k];
        rgb[k] = v;
    }
    return pack(rgb[0], rgb[1], rgb[2]);
}

float colourValue(const Snapshot& s, ColourMode mode, size_t i) {
    const float* v = &s.velocity[3 * i];
    const float* x = &s.position[3 * i];
    switch (mode) {
        case ColourMode::Speed:
            return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        case ColourMode::RelativeVelocity: {
            const Wall* w = rotatingWall(s);
            Vec3 rel(v[0], v[1], v[2]);
            if (w)
                rel -= w->linearVelocity +
                       w->angularVelocity.cross(Vec3(x[0], x[1], x[2]) - w->position);
            return static_cast<float>(rel.norm());
        }
        case ColourMode::Height:
            return x[2];
        case ColourMode::ContactCount:
            return static_cast<float>(s.contactCount[i]);
        case ColourMode::Pressure:
            return s.pressure[i];
        case ColourMode::Aggregate:
        case ColourMode::ParticleId:
            return std::numeric_limits<float>::quiet_NaN();
    }
    return 0.0f;
}

void markAggregates(const Snapshot& s, std::vector<std::uint32_t>& rgba, bool pastel) {
    // Slot numbers are reused when an aggregate re-forms, so a growing aggregate keeps its
    // colour; + 7919 keeps slot 0 away from the particle-id hash of particle 0. Over a scalar
    // mode the aggregates are pastel, so that they do not read as values of the colour map.
    for (size_t i = 0; i < s.aggregate.size() && i < rgba.size(); ++i) {
        if (s.aggregate[i] < 0) continue;
        std::uint32_t c = hashColour(static_cast<std::uint32_t>(s.aggregate[i]) + 7919u);
        if (pastel) c = ((c >> 1) & 0x007f7f7fu) + 0x00808080u + (c & 0xff000000u);
        rgba[i] = c;
    }
}

void computeColours(const Snapshot& s, ColourMode mode, bool autoRange, ColourRange& range,
                    std::vector<std::uint32_t>& rgba) {
    const size_t n = s.particleCount();
    rgba.resize(n);
    if (mode == ColourMode::ParticleId || mode == ColourMode::Aggregate) {
        range.scalar = false;
        for (size_t i = 0; i < n; ++i)
            rgba[i] =
                mode == ColourMode::ParticleId ? hashColour(s.id[i]) : pack(0.55f, 0.6f, 0.68f);
        if (mode == ColourMode::Aggregate) markAggregates(s, rgba, false);
        return;
    }
    range.scalar = true;
    static thread_local std::vector<float> values, sorted;
    values.resize(n);
    for (size_t i = 0; i < n; ++i)
        values[i] = colourValue(s, mode, i);
    if (autoRange && n > 0) {
        sorted = values;
        const size_t lo = n / 100, hi = n - 1 - n / 100;
        std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(lo), sorted.end());
        range.lo = sorted[lo];
        std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(hi), sorted.end());
        range.hi = sorted[hi];
        if (mode == ColourMode::Speed || mode == ColourMode::RelativeVelocity ||
            mode == ColourMode::Pressure || mode == ColourMode::ContactCount)
            range.lo = 0.0f;  // zero means at rest / unloaded: keep it at the dark end
    }
    const float span = range.hi > range.lo ? range.hi - range.lo : 1.0f;
    for (size_t i = 0; i < n; ++i)
        rgba[i] = viridis((values[i] - range.lo) / span);
}

}  // namespace ndem::app
