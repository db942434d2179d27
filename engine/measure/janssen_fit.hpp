// Least-squares fit of Janssen's saturating wall pressure p(D) = p_sat (1 − exp(−D/λ)) to a
// measured profile (servin-2014 Sec. 4.2.1 and 5.1; PHYSICS.md "Measurements").
#pragma once

#include <vector>

namespace ndem {

struct JanssenFit {
    double pSat = 0.0;         ///< p_sat (Pa), the pressure deep in the column
    double lambda = 0.0;       ///< λ (m), the saturation depth R/(2 μ_w K)
    double residualRms = 0.0;  ///< root mean square of p_i − p(D_i) over the fitted points (Pa)
};

/// Fits pressure[i] at depth[i] (m below the free surface). Points with depth <= 0 are left
/// out. A profile that is still linear in depth (hydrostatic, no wall friction) has its best λ
/// at the top of the search, about 1e4 × the largest depth: read λ ≫ H as "no saturation".
/// Returns zeros when no point has depth > 0.
JanssenFit fitJanssen(const std::vector<double>& depth, const std::vector<double>& pressure);

}  // namespace ndem
