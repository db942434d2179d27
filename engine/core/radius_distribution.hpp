// Particle radii of a generator or emitter: one radius, a uniform range, or a mixture.
#pragma once

#include "core/random.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace ndem {

struct RadiusDistribution {
    std::vector<std::pair<double, double>> mixture;  ///< (radius m, cumulative weight)
    double lo = 0.005, hi = 0.005;                   ///< uniform range (m) if mixture is empty

    double max() const {
        double m = mixture.empty() ? hi : 0.0;
        for (const auto& entry : mixture)
            m = std::max(m, entry.first);
        return m;
    }
    double sample(Random& random) const {
        if (mixture.empty()) return lo == hi ? lo : random.uniform(lo, hi);
        const double u = random.uniform(0.0, mixture.back().second);
        for (const auto& [r, c] : mixture)
            if (u <= c) return r;
        return mixture.back().first;
    }
};

}  // namespace ndem
