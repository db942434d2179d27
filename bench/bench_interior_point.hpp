// The interior-point method (krabbenhoft-2012) in `ndem bench`: what a step and a Newton step
// cost on the settled bed of spheres (cone programs) and on a settled bed of disks (the plane's
// cone programs and the non-associated rule's complementarity problem).
#pragma once

#include "world/world.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ndem::bench {

/// Switches `bed` to the interior-point method (at most 50 Newton steps, its default accuracy
/// 10⁻¹⁰ of the largest free velocity) and times its first step, which pays the Newton
/// matrix's symbolic analysis, then `steps` steps on one thread and on two. Leaves the bed at
/// its former settings (and `steps` + 1 steps on per thread count).
nlohmann::json interiorPointOnBed(World& bed, int steps,
                                  const std::function<void(const std::string&)>& progress);

/// A bed of `disks` disks (scenes::bed2d, d = 0.01 m) settled with PGS, then the same figures
/// under the associated rule and the non-associated one (ν = 0.01), one thread; then the
/// non-associated one under the static formulation.
nlohmann::json interiorPointInThePlane(int disks, int steps,
                                       const std::function<void(const std::string&)>& progress);

}  // namespace ndem::bench
