// The projected Gauss–Seidel family's registrations (solve/builtin_solvers.cpp).
#pragma once

namespace ndem {

class SolverRegistry;
/// pgs, nncg, apgd, and their settings block.
void registerPgsMethods(SolverRegistry& registry);

}  // namespace ndem
