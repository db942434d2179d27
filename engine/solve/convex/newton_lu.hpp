// UMFPACK's sparse LU as the interior points' Newton systems use it.
#pragma once

#include <Eigen/UmfPackSupport>

namespace ndem {

/// No iterative refinement after a solve: UMFPACK's default (two steps) computes the residual
/// and the sparse backward error of every solve, a third of a complementarity problem's Newton
/// step on the column collapse's 3 500 contacts, and the interior point corrects an inexact
/// direction at its next step anyway (the collapse's stalled steps end at the same residuals to
/// four digits; PERFORMANCE.md, "the LU's iterative refinement").
template <class Matrix>
void withoutRefinement(Eigen::UmfPackLU<Matrix>& lu) {
    lu.umfpackControl()(UMFPACK_IRSTEP) = 0;
}

}  // namespace ndem
