// A look at the impulses after each sweep of the NLGS family (Alart 2014's solvers): a race
// stops each solver once it is as accurate as the others, in one solve, where a ladder of
// solves would repeat the null space's factorisation for every rung.
#pragma once

#include <Eigen/Core>

#include <functional>

namespace ndem {

/// Called with the solve's current impulses after each sweep; returning true stops it there.
using SweepObserver = std::function<bool(const Eigen::VectorXd&)>;

}  // namespace ndem
