// The facets of the non-associated rule in the plane (krabbenhoft-2012 Sec. 4.1, Eq. 43 and 46):
// per contact f = fN r_n + fT r_t ≤ 0 with its column of G (gN on the normal, fT on the tangent),
// shared by the complementarity problem's two forms (LcpInteriorPoint, StaticLcp).
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <span>

namespace ndem {

/// One facet; t = −1 for the normal facet −r_n ≤ 0. LcpInteriorPoint's Newton block of the
/// facet's contact starts at `block`, `stride` rows wide, with the normal row first and t at `lt`.
struct LcpFacet {
    int n = 0, t = -1;
    double fN = -1.0, gN = -1.0, fT = 0.0;
    int block = 0, stride = 1, lt = 0;
};

/// out = Fᵀ x.
inline void applyFacets(std::span<const LcpFacet> facets, const Eigen::VectorXd& x,
                        Eigen::VectorXd& out) {
    for (size_t j = 0; j < facets.size(); ++j) {
        const LcpFacet& f = facets[j];
        out[static_cast<Eigen::Index>(j)] = f.fN * x[f.n] + (f.t >= 0 ? f.fT * x[f.t] : 0.0);
    }
}

/// out += G κ.
inline void addFacetFlow(std::span<const LcpFacet> facets, const Eigen::VectorXd& kappa,
                         Eigen::VectorXd& out) {
    for (size_t j = 0; j < facets.size(); ++j) {
        const LcpFacet& f = facets[j];
        const double k = kappa[static_cast<Eigen::Index>(j)];
        out[f.n] += f.gN * k;
        if (f.t >= 0) out[f.t] += f.fT * k;
    }
}

/// The largest α ≤ 1 with v + α dv ≥ 0.
inline double largestPositiveStep(const Eigen::VectorXd& v, const Eigen::VectorXd& dv) {
    double alpha = 1.0;
    for (Eigen::Index i = 0; i < v.size(); ++i)
        if (dv[i] < 0.0) alpha = std::min(alpha, -v[i] / dv[i]);
    return alpha;
}

}  // namespace ndem
