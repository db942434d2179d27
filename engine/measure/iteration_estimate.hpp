// How many Gauss-Seidel sweeps a system needs for a given overlap error (servin-2014 Eq. 41),
// and what that makes nonsmooth DEM cost against smooth DEM (Eq. 36–39, 42).
#pragma once

namespace ndem {

/// Fitted coefficients of Eq. 41 (servin-2014 Sec. 5.3; standard errors 0.005, 1.1, 0.02).
struct IterationEstimateCoefficients {
    double c0 = 0.3;   ///< sweeps per unit of ε⁻¹ and of length or width (–)
    double c1 = 2.0;   ///< growth with the inertial number (–)
    double c2 = 0.44;  ///< length scale of the arching saturation (–)
};

/// Systems narrower than this many diameters do not arch over their walls: the sweeps needed
/// keep growing with the length instead of saturating (the w ≳ 5 condition of Eq. 41).
inline constexpr double kArchingWidth = 5.0;

/// N_it of servin-2014 Eq. 41: the PGS sweeps for a mean overlap error ⟨ε_c⟩ ≤ tolerance,
///   N_it = c0 (1 + c1 I)/ε · { w (1 − exp(−c2 l/w))  if w ≥ 5;  c2 l  if w < 5 }.
/// length l: extent along gravity (particle diameters, ≥ 0); width w: cross-section
/// (particle diameters, > 0); inertialNumber I (–, 0 = static); tolerance ε (–, > 0).
/// Not rounded; Table I of the paper rounds to the nearest whole sweep.
double requiredIterations(double length, double width, double inertialNumber, double tolerance,
                          const IterationEstimateCoefficients& c = {});

/// Time step that keeps impact and gravity overlaps within ε d (servin-2014 Eq. 37):
/// h_NDEM = min(ε d / v_n, √(2 ε d / g)) (s). Infinite when v_n = 0 and g = 0.
double nonsmoothTimeStep(double tolerance, double diameter, double normalVelocity, double gravity);

/// Inputs of the cost model; named fields because eleven numbers in a row are easy to swap.
struct CostModelInputs {
    double mass = 0.0;                 ///< m, particle mass (kg)
    double normalVelocity = 0.0;       ///< v_n, characteristic normal contact speed (m/s)
    double gravity = 9.81;             ///< g (m/s²)
    double diameter = 0.0;             ///< d, particle diameter (m)
    double stiffness = 0.0;            ///< k, contact stiffness (N/m); smooth DEM steps √(m/k)
    double tolerance = 0.05;           ///< ε, overlap error tolerance (–)
    double solverCostRatio = 1.0;      ///< K_NDEM^GS / K_SDEM (–): s per contact and sweep
                                       ///< over s per particle and smooth step; 1 in the paper
    double contactsPerParticle = 1.0;  ///< N_c / N_p (–)
    double length = 0.0;               ///< l (particle diameters)
    double width = 0.0;                ///< w (particle diameters)
    double inertialNumber = 0.0;       ///< I (–)
};

/// τ_NDEM / τ_SDEM of servin-2014 Eq. 42: wall-clock time of nonsmooth DEM with projected
/// Gauss-Seidel over that of smooth DEM for the same simulated time (–); below 1 the
/// nonsmooth method is faster. Built from its parts, Eq. 36–38 and 41:
///   (h_SDEM / h_NDEM) · (K_GS/K_SDEM) · (N_c/N_p) · N_it,  h_SDEM = √(m/k), h_NDEM of Eq. 37.
/// The gravity term of the printed Eq. 39/42, √(2 m g d/ε / (k d²)), is twice √(m/k)/h_NDEM
/// for Eq. 37's h_NDEM = √(2εd/g); we follow Eq. 37, which is also what Table I's h_N column
/// shows (row 1: √(2·0.05·1 mm/g) = 3 ms).
double nonsmoothCostRatio(const CostModelInputs& in, const IterationEstimateCoefficients& c = {});

}  // namespace ndem
