// Siconos Numerics (libsiconos-numerics-dev), the field's reference solvers, on our local
// problems: its NSGS as the reference answer and its own error measure. Shared by the FCLib
// cross-check and the solver conformance suite.
#pragma once

#include "solve/rows/local_problem.hpp"

#include <gtest/gtest.h>

extern "C" {
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#define restrict __restrict  // a C99 keyword in fc2d_compute_error.h
#include <siconos/numerics/fc2d_compute_error.h>
#undef restrict
#include <siconos/numerics/fc3d_compute_error.h>
}

#include <Eigen/Core>

#include <algorithm>
#include <cstdlib>

namespace ndem::test {

/// A problem as Siconos holds it (dense W, column-major); frees itself.
struct SiconosProblem {
    FrictionContactProblem* problem = nullptr;
    explicit SiconosProblem(const LocalProblem& p) {
        const int n = p.rows();
        auto* w = static_cast<double*>(std::malloc(sizeof(double) * size_t(n) * size_t(n)));
        Eigen::Map<Eigen::MatrixXd>(w, n, n) = Eigen::MatrixXd(p.W);
        auto* q = static_cast<double*>(std::malloc(sizeof(double) * size_t(n)));
        auto* mu = static_cast<double*>(std::malloc(sizeof(double) * size_t(p.contacts())));
        std::copy(p.q.data(), p.q.data() + n, q);
        std::copy(p.mu.begin(), p.mu.end(), mu);
        problem = frictionContactProblem_new_with_data(
            p.dim.front(), p.contacts(), NM_create_from_data(NM_DENSE, n, n, w), q, mu);
    }
    ~SiconosProblem() { frictionContactProblem_free(problem); }
    SiconosProblem(const SiconosProblem&) = delete;
    SiconosProblem& operator=(const SiconosProblem&) = delete;
};

/// Siconos' NSGS to its tolerance; returns its reactions.
inline Eigen::VectorXd siconosNsgs(const LocalProblem& p, double tolerance) {
    SiconosProblem s(p);
    Eigen::VectorXd r = Eigen::VectorXd::Zero(p.rows()), u = Eigen::VectorXd::Zero(p.rows());
    const bool planar = p.dim.front() == 2;
    SolverOptions* options =
        solver_options_create(planar ? SICONOS_FRICTION_2D_NSGS : SICONOS_FRICTION_3D_NSGS);
    options->dparam[SICONOS_DPARAM_TOL] = tolerance;
    options->iparam[SICONOS_IPARAM_MAX_ITER] = 200000;
    const int info = planar ? fc2d_driver(s.problem, r.data(), u.data(), options)
                            : fc3d_driver(s.problem, r.data(), u.data(), options);
    EXPECT_EQ(info, 0) << "Siconos NSGS did not converge";
    solver_options_delete(options);
    return r;
}

/// Siconos' own fc3d error of r (fc2d's for a problem in the plane).
inline double siconosError(const LocalProblem& p, const Eigen::VectorXd& r) {
    SiconosProblem s(p);
    Eigen::VectorXd z = r, w = Eigen::VectorXd::Zero(r.size());
    double error = 0.0;
    if (p.dim.front() == 2) {
        fc2d_compute_error(s.problem, z.data(), w.data(), 1e-30, p.q.norm(), &error);
        return error;
    }
    SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    fc3d_compute_error(s.problem, z.data(), w.data(), 1e-30, options, p.q.norm(), &error);
    solver_options_delete(options);
    return error;
}

}  // namespace ndem::test
