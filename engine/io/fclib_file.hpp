// FCLib files (Debian's libfclib): the field's HDF5 exchange format for frictional contact
// problems, read and written by Siconos and the FCLib collection. Local 3D problems only
// (W, q, μ; no equality constraints V, R, s).
#pragma once

#include "core/error.hpp"
#include "solve/rows/local_problem.hpp"

#include <optional>
#include <string>

namespace ndem {

/// Writes `p` (every contact three rows) with a title and description; replaces the file.
std::optional<Error> writeFclibLocal(const std::string& path, const LocalProblem& p,
                                     const std::string& title, const std::string& description);

/// Reads a local problem; errors name the file and what it lacks or what is not supported.
Expected<LocalProblem> readFclibLocal(const std::string& path);

/// Adds a solution (reactions r, local velocities u) to a file that holds the problem.
std::optional<Error> writeFclibSolution(const std::string& path, const Eigen::VectorXd& r,
                                        const Eigen::VectorXd& u);

}  // namespace ndem
