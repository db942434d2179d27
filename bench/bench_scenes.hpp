// Small scene builders shared by the tests and the benchmarks, so both exercise the same
// systems. Scene files in assets/scenes/ describe the same systems for `ndem run`.
#pragma once

#include "core/random.hpp"
#include "core/scene.hpp"

namespace ndem::scenes {

/// Default grain of servin-2014 Sec. 4.2: d = 0.01 m, ρ = 2500 kg/m³, E = 5 MPa, μ = 0.7, e = 0.
Material servinGrain();
/// Grain of wang-servin-berglund Table 1: ρ = 3700 kg/m³, E = 6 MPa, e = 0.18, μ = 0.91,
/// μ_r = 0.32.
Material warmStartGrain();

/// A vertical column of n spheres of diameter d resting on a floor plane at z = 0, placed
/// exactly touching (zero overlap) as in servin-2014 Sec. 4.2.1 and wang-servin-berglund Sec. 4.1.
Scene column(int n, double diameter, const Material& material, const StepSettings& settings);

/// Analytic Hertz overlaps of such a column at rest: element k is the overlap of the contact
/// below sphere k (k = 0 rests on the floor), carrying the weight of the n − k spheres above it.
std::vector<double> hertzColumnOverlaps(int n, double diameter, const Material& material,
                                        double gravity);

/// Two equal spheres approaching head-on along x with speed `speed` each, no gravity.
Scene headOnCollision(double diameter, double speed, const Material& material,
                      const StepSettings& settings);

/// A sphere resting on a plane inclined by `angleDeg` about the y axis (gravity along −z).
Scene incline(double angleDeg, double diameter, const Material& material,
              const StepSettings& settings, bool fixedRotation);

/// A sphere rolling on a horizontal floor along +x with speed v and ω = v/r.
Scene rollingSphere(double speed, double diameter, const Material& material,
                    const StepSettings& settings);

/// n spheres (polydisperse, radii in [0.9, 1.1] r) on a jittered lattice above a floor, inside
/// four side walls; `settle()` drops them into a bed. Deterministic for a given seed.
Scene bed(int n, double diameter, const Material& material, const StepSettings& settings,
          unsigned seed = 1);

/// The same in the plane (settings.dimension = 2): n disks in columns above a floor between
/// two side walls, about sqrt(3 n) disks wide.
Scene bed2d(int n, double diameter, const Material& material, StepSettings settings,
            unsigned seed = 1);

using ndem::Random;

}  // namespace ndem::scenes
