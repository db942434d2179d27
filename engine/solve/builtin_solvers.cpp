// The engine's contact solvers, a line a family: a new method is a folder of files and a line
// here (docs/architecture.md). The order is solver.method's, which checkpoints store by index:
// add at the end.
#include "solve/convex/convex_methods.hpp"
#include "solve/method/solver_registry.hpp"
#include "solve/nscd/nscd_methods.hpp"
#include "solve/pgs/pgs_methods.hpp"

namespace ndem {

void registerBuiltinSolvers(SolverRegistry& registry) {
    registerPgsMethods(registry);     // pgs, nncg, apgd (solve/pgs/)
    registerInteriorPoint(registry);  // interior-point (solve/convex/)
    registerNscdMethods(registry);    // nlgs, nlkergs-i, nlkergs-p, nlgs-jac (solve/nscd/)
    registerNewton(registry);         // newton (solve/convex/)
}

}  // namespace ndem
