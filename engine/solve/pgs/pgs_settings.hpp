// The projected Gauss–Seidel family's keys (pgs, nncg, apgd), which the impact stage, the warm
// start and the trial split read too: they sweep the same rows.
#pragma once

#include "core/setting_visitor.hpp"

#include <array>

namespace ndem {

enum class FrictionModel : int { Cone, Box };
/// Order of the rows within a sweep: by graph colour (SIMD blocks, threads), or one contact
/// after the other in contact order (the papers' PGS: one thread, no SIMD).
enum class SweepOrder : int { Coloured, Sequential };
/// Number type of the PGS sphere blocks and the velocities they sweep: double (eight lanes a
/// block), or float (sixteen; plain PGS only, the accelerated methods keep doubles).
enum class SolverPrecision : int { Double, Float };

inline constexpr std::array<const char*, 2> kFrictionModelNames{"cone", "box"};
inline constexpr std::array<const char*, 2> kSweepOrderNames{"coloured", "sequential"};
inline constexpr std::array<const char*, 2> kSolverPrecisionNames{"double", "float"};

struct PgsSettings {
    static constexpr const char* kBlock = "pgs";
    SweepOrder order = SweepOrder::Coloured;  ///< order of the rows within a sweep
    FrictionModel friction = FrictionModel::Cone;
    SolverPrecision precision = SolverPrecision::Double;  ///< number type of the sphere blocks

    template <class S, class V>
    static void visit(S& s, V&& v) {
        visitChoice(v,
                    SettingInfo{"solver.order", "",
                                "coloured | sequential: rows by graph colour (SIMD, threads), or "
                                "one after the other in contact order (the papers' PGS; one "
                                "thread, no SIMD)"},
                    s.order, kSweepOrderNames);
        visitChoice(v, SettingInfo{"solver.friction", "", "cone | box friction projection"},
                    s.friction, kFrictionModelNames);
        visitChoice(v,
                    SettingInfo{"solver.precision", "",
                                "double | float: number type of the PGS sphere blocks and the "
                                "velocities they sweep (float: sixteen contacts a block, plain "
                                "PGS only)"},
                    s.precision, kSolverPrecisionNames);
    }
};

}  // namespace ndem
