// The convex family's registrations (solve/builtin_solvers.cpp).
#pragma once

namespace ndem {

class SolverRegistry;
/// interior-point, and its settings block.
void registerInteriorPoint(SolverRegistry& registry);
/// newton: Coulomb's law to round-off (a reference).
void registerNewton(SolverRegistry& registry);

}  // namespace ndem
