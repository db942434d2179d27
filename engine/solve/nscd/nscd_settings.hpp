// The NSCD family's keys (Alart 2014): NLGS's stopping error, and the null-space solvers'
// prediction and regularisation (nlkergs-i, nlkergs-p, nlgs-jac).
#pragma once

#include "core/setting_visitor.hpp"

#include <array>

namespace ndem {

/// The null-space solvers' prediction of the impulses (alart-2014 Sec. 3–4).
enum class Prediction : int { Zero, Linear, Unilateral, Elastic };
/// How NLGS-Jac keeps the null-space basis: sparse reflectors, or a dense matrix.
enum class NullSpaceBasis : int { Sparse, Dense };
inline constexpr std::array<const char*, 4> kPredictionNames{"zero", "linear", "unilateral",
                                                             "elastic"};
inline constexpr std::array<const char*, 2> kNullSpaceBasisNames{"sparse", "dense"};

/// What every NSCD method stops at.
struct NlgsSettings {
    static constexpr const char* kBlock = "nlgs";
    /// Stop when Alart 2014's Eq. 10 error ‖W r − v + q‖/‖q‖ is below (the paper: 10⁻³).
    double relativeTolerance = 1e-3;

    template <class S, class V>
    static void visit(S& s, V&& v) {
        v(SettingInfo{"solver.relativeTolerance", "",
                      "nlgs and its null-space variants: stop when Alart 2014's Eq. 10 error "
                      "|W r - v + q| / |q| is below",
                      0.0, 1.0, true},
          s.relativeTolerance);
    }
};

/// The null-space solvers' knobs (alart-2014; solve/nscd/null_space_solvers.hpp).
struct NullSpaceSettings {
    static constexpr const char* kBlock = "null-space";
    Prediction prediction = Prediction::Linear;  ///< NLKerGS-I's start, NLKerGS-P's prediction
    /// η of the linear prediction, r_n = −(h/η) v_n (s/kg); 0: h/η = 20 m̄, the mean grain's
    double eta = 0.0;
    /// ε of the elastic prediction, r_n = −(h/ε)(g + h v_n) (m/N); 0: 1/ε = 20 m̄/h²
    double compliance = 0.0;
    double weight = 0.05;         ///< ω / ‖W‖₂ of W̃ = W + ωZ
    double multiplierStep = 0.0;  ///< NLKerGS-I's ρ (version 1); 0: λ = Nᵀr (version 2)
    NullSpaceBasis basis = NullSpaceBasis::Sparse;  ///< NLGS-Jac's N

    template <class S, class V>
    static void visit(S& s, V&& v) {
        visitChoice(v,
                    SettingInfo{"solver.prediction", "",
                                "zero | linear | unilateral | elastic: the null-space solvers' "
                                "prediction (nlkergs-i's start): none, overlapping contacts as "
                                "dampers (Alart 2014 Alg. 4), NLGS without friction, or "
                                "overlapping contacts as springs on their gap (Alg. 6)"},
                    s.prediction, kPredictionNames);
        v(SettingInfo{"solver.predictionEta", "s/kg",
                      "eta of the linear prediction r_n = -(h/eta) v_n (in the plane s m/kg); 0: "
                      "h/eta = 20 times the mean grain's mass",
                      0.0},
          s.eta);
        v(SettingInfo{"solver.elasticCompliance", "m/N",
                      "epsilon of the elastic prediction r_n = -(h/epsilon)(g + h v_n) (in the "
                      "plane m^2/N); 0: 1/epsilon = 20 times the mean grain's mass over h^2",
                      0.0},
          s.compliance);
        v(SettingInfo{"solver.nullSpaceWeight", "",
                      "omega / |W| of the regularised operator W + omega Z (Z the projector onto "
                      "the null space of H)",
                      0.0},
          s.weight);
        v(SettingInfo{"solver.multiplierStep", "",
                      "nlkergs-i's rho: lambda += rho N^T (v - v_d) (version 1); 0: lambda = N^T r "
                      "(version 2)",
                      0.0},
          s.multiplierStep);
        visitChoice(v,
                    SettingInfo{"solver.nullSpaceBasis", "",
                                "sparse | dense: nlgs-jac applies Z by the sparse Cholesky factor "
                                "of H H^T, or stores it as a dense matrix"},
                    s.basis, kNullSpaceBasisNames);
    }
};

}  // namespace ndem
