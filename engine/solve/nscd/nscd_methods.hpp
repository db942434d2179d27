// The NSCD family's registrations (solve/builtin_solvers.cpp).
#pragma once

namespace ndem {

class SolverRegistry;
/// nlgs, nlkergs-i, nlkergs-p, nlgs-jac, and their settings blocks.
void registerNscdMethods(SolverRegistry& registry);

}  // namespace ndem
