// A 2D scene (settings.dimension = 2): disks in the x–z plane. What must hold of the scene's
// geometry for everything to stay in the plane, and the projection that keeps it there.
#pragma once

#include "core/error.hpp"
#include "core/particles.hpp"
#include "core/scene.hpp"

#include <optional>

namespace ndem {

/// Every wall, grain and emitter of a 2D scene lies and moves in the x–z plane: planes and
/// boxes with y along a face, cylinders along y across y = 0, no meshes; grains at y = 0,
/// nothing moving along y or turning about x or z. The error names the first that does not.
std::optional<Error> checkPlanarScene(const Scene& scene);

/// Puts particles [begin, end) back into the plane: y = 0, v_y = 0, ω about y only. The
/// contact rows of a planar scene have no out-of-plane part, so this removes round-off only.
void keepInPlane(ParticleStore& p, int begin, int end);

}  // namespace ndem
