#include "collide/line_of_sight.hpp"

#include <vector>

namespace ndem {

int dropHiddenPairs(const ParticleStore& p, double timeStep, ContactSet& contacts) {
    const size_t n = contacts.size();
    // Each grain's detected partners (CSR), walls left out.
    std::vector<int> start(p.size() + 1, 0), partner;
    for (size_t c = 0; c < n; ++c) {
        if (contacts.flags[c] & kWallContact) continue;
        ++start[static_cast<size_t>(contacts.bodyA[c]) + 1];
        ++start[static_cast<size_t>(contacts.bodyB[c]) + 1];
    }
    for (size_t i = 0; i < p.size(); ++i)
        start[i + 1] += start[i];
    partner.resize(static_cast<size_t>(start.back()));
    {
        std::vector<int> next(start.begin(), start.end() - 1);
        for (size_t c = 0; c < n; ++c) {
            if (contacts.flags[c] & kWallContact) continue;
            const int a = static_cast<int>(contacts.bodyA[c]),
                      b = static_cast<int>(contacts.bodyB[c]);
            partner[static_cast<size_t>(next[static_cast<size_t>(a)]++)] = b;
            partner[static_cast<size_t>(next[static_cast<size_t>(b)]++)] = a;
        }
    }
    // k hides the pair while its centre stays within its radius of the line for the whole step:
    // its distance now plus h times its speed across the line (relative to the line's point
    // beside it) below its radius. A grain about to leave the line hides nothing.
    auto hiddenBy = [&](int a, int b, int k) {
        if (k == a || k == b) return false;
        const auto ua = static_cast<size_t>(a), ub = static_cast<size_t>(b),
                   uk = static_cast<size_t>(k);
        const Vec3 xa = p.position[ua];
        const Vec3 ab = p.position[ub] - xa;
        const Vec3 ak = p.position[uk] - xa;
        const double ab2 = ab.squaredNorm();
        const double t = ak.dot(ab) / ab2;
        if (!(t > 0.0 && t < 1.0)) return false;
        const Vec3 w = p.velocity[uk] - (p.velocity[ua] + t * (p.velocity[ub] - p.velocity[ua]));
        const double across = (w - (w.dot(ab) / ab2) * ab).norm();
        return (ak - t * ab).norm() + timeStep * across < p.radius[uk];
    };
    std::vector<char> keep(n, 1);
    int dropped = 0;
    for (size_t c = 0; c < n; ++c) {
        if (contacts.flags[c] & (kWallContact | kTouching)) continue;
        const int a = static_cast<int>(contacts.bodyA[c]), b = static_cast<int>(contacts.bodyB[c]);
        bool hidden = false;
        for (int end : {a, b}) {
            for (int j = start[static_cast<size_t>(end)];
                 j < start[static_cast<size_t>(end) + 1] && !hidden; ++j)
                hidden = hiddenBy(a, b, partner[static_cast<size_t>(j)]);
        }
        if (hidden) {
            keep[c] = 0;
            ++dropped;
        }
    }
    if (dropped == 0) return 0;
    contacts.keepOnly(keep);
    return dropped;
}

}  // namespace ndem
