// Gauss–Seidel solvers that handle the null space of H (Alart 2014 Sec. 3–5): the reactions of
// a wedged, hyperstatic packing are not unique — any self-equilibrated network N y may be added
// — and NLGS on the Delassus operator W wanders in that null space. With an orthonormal basis N
// (NullSpace) and Z = N Nᵀ the operator is regularised, W̃ = W + ωZ, and
//
//  - NLKerGS-I (Alg. 3): one NLGS sweep on W̃ with the right-hand side shifted by ωNλ, then the
//    multiplier of the constraint Nᵀ(v − v^d) = 0 (Eq. 12c) updated, λ = Nᵀr (version 2) or
//    λ += ρ Nᵀ(v − v^d) (version 1); r and λ start from a prediction r̃;
//  - NLKerGS-P (Alg. 5): a prediction r̃, then NLGS on W̃ with the right-hand side shifted by
//    ωZr̃ (Eq. 16), once: the null-space part of the answer is the prediction's;
//  - NLGS-Jac (Alg. 7): NLKerGS-P with W swept by Gauss–Seidel and ωZ by Jacobi, Z never
//    stored (N as sparse reflectors, or dense: the paper's Table 6 compares the two).
//
// The predictions (Sec. 3.1–4.1): zero; linear (Alg. 4: the active contacts, those overlapping
// at the step's start, as dampers r_n = −(h/η) v_n); unilateral (NLGS without friction); elastic
// (Alg. 6: r_n = −(h/ε)(g + h v_n), springs of compliance ε on the start-of-step gap g); η and
// ε at 0 scale with the grains, h/η = 20 m̄ and 1/ε = 20 m̄/h² (Alart: "controlled with respect
// to the time increment and the mean mass of a grain"). Each
// is one sparse linear solve on the active contacts' normal rows (in contact space: Alg. 4's
// and 6's systems in velocities, by the Woodbury identity), unprojected as the paper's are.
//
// W̃'s weight is relative: ω = weight · ‖W‖₂, so that a weight means the same on any scene
// (the paper's ω = 1 on its 500-disk sample, ‖W‖ = 20.4, is a weight of 0.05).
#pragma once

#include "solve/nscd/nscd_settings.hpp"
#include "solve/rows/local_problem.hpp"
#include "solve/rows/sweep_observer.hpp"

#include <Eigen/Core>

#include <vector>

namespace ndem {

class NullSpace;

enum class NullSpaceMethod : int { Iterated, Predicted, Jacobi };

/// What the predictions know of each contact beyond the local problem (physical units).
struct PredictionInputs {
    double timeStep = 0.0;    ///< h (s)
    std::vector<double> gap;  ///< per contact, start of step (m; < 0 overlapping); empty: unknown
    double meanMass = 0.0;    ///< m̄ of the grains (kg; in the plane kg/m): for η, ε at 0
};

struct NullSpaceOptions {
    NullSpaceMethod method = NullSpaceMethod::Predicted;
    NullSpaceSettings settings;
    int maxIterations = 150;
    double tolerance = 1e-3;  ///< Eq. 10's relative error
    /// Gauss–Seidel on W̃ stored in full up to this many rows; above, Jacobi on ωZ (Alg. 7).
    int fullLimit = 3000;
    std::vector<double>* errorHistory = nullptr;
    const SweepObserver* observe = nullptr;  ///< after each sweep, with r; true stops
};

struct NullSpaceResult {
    int iterations = 0;            ///< sweeps of the solve (after the prediction)
    int predictionIterations = 0;  ///< NLGS sweeps of the unilateral prediction
    double error = 0.0;            ///< Eq. 10's error of the last sweep
    bool converged = false;
    bool jacobi = false;  ///< ωZ was swept by Jacobi (Alg. 7)
    /// The regularised sweep diverged (error above 10³ or not finite): the answer is NLGS's on
    /// W, its sweeps added to `iterations`.
    bool diverged = false;
    double omega = 0.0;  ///< ω = weight ‖W‖₂
    double normW = 0.0;  ///< ‖W‖₂
};

/// The prediction r̃ of the given kind (row units, p's rows).
Eigen::VectorXd predictImpulses(const LocalProblem& p, const PredictionInputs& in,
                                const NullSpaceSettings& s, int maxIterations, double tolerance,
                                int* sweeps = nullptr);

/// ‖W‖₂ by power iteration (W symmetric, positive semidefinite), on the rows where `mask` is 1
/// (empty: all).
double operatorNorm(const Eigen::SparseMatrix<double>& w, const Eigen::VectorXd& mask = {});

/// Solves p (rows as NullSpace n's) by the chosen method; r: the answer (its input is ignored
/// except by a zero prediction's NLKerGS-P, which starts there: the warm start's memory).
NullSpaceResult solveNullSpace(const LocalProblem& p, const NullSpace& n,
                               const PredictionInputs& in, Eigen::VectorXd& r,
                               const NullSpaceOptions& options);

}  // namespace ndem
