// The interior-point method's keys (krabbenhoft-2012): its sliding rule, and what it does where
// the non-associated rule's complementarity problem stalls.
#pragma once

#include "core/error.hpp"
#include "core/setting_visitor.hpp"

#include <array>
#include <optional>

namespace ndem {

/// The sliding rule the interior-point method solves (krabbenhoft-2012 Sec. 3.2, 4.1): associated
/// (a sliding contact opens at μ|u_t|: the cone program), or non-associated with the dilation ν
/// of solver.dilation (ν = 0: Coulomb's law, which the PGS methods always solve).
enum class SlidingRule : int { Associated, NonAssociated };
inline constexpr std::array<const char*, 2> kSlidingRuleNames{"associated", "non-associated"};

struct InteriorPointSettings {
    static constexpr const char* kBlock = "interior-point";
    SlidingRule slidingRule = SlidingRule::Associated;
    double dilation = 0.0;  ///< ν of the non-associated rule, capped at each contact's μ (–)
    /// A static step of the non-associated rule whose complementarity problem stalls above this
    /// relative residual takes the associated rule's answer (0: never). Stalls near 10⁻⁴–10⁻³
    /// are usual and harmless (krabbenhoft-2012 Sec. 4.5); far above them the impulses' error
    /// over ε throws grains through their neighbours.
    double staticFallback = 1e-2;
    /// A non-associated step in the plane whose complementarity problem stalls is finished by
    /// Gauss–Seidel and the semismooth Newton method on the same law
    /// (solve/nscd/coulomb_finish.hpp); off: the paper's method alone, stalls and all
    /// (krabbenhoft-2012 Fig. 9).
    bool finishStalls = true;

    template <class S, class V>
    static void visit(S& s, V&& v) {
        visitChoice(v,
                    SettingInfo{"solver.slidingRule", "",
                                "associated | non-associated: the interior-point method's sliding "
                                "rule; a sliding contact opens at mu |u_t| (a cone program), or at "
                                "dilation |u_t| (a complementarity problem; dilation 0 is "
                                "Coulomb's law, which the PGS methods solve)"},
                    s.slidingRule, kSlidingRuleNames);
        v(SettingInfo{"solver.dilation", "",
                      "dilation nu of the non-associated sliding rule, at most each contact's "
                      "friction coefficient",
                      0.0},
          s.dilation);
        v(SettingInfo{"solver.staticFallback", "",
                      "a static step of the non-associated rule whose complementarity problem "
                      "stalls above this relative residual takes the associated rule's answer and "
                      "counts it (0 = never)",
                      0.0},
          s.staticFallback);
        v(SettingInfo{"solver.finishStalls", "",
                      "finish a non-associated step in the plane whose complementarity problem "
                      "stalls by Gauss-Seidel and the Alart-Curnier Newton method on the same law "
                      "(false: the paper's interior point alone)"},
          s.finishStalls);
    }
    std::optional<Error> check() const {
        if (dilation > 0.0 && slidingRule != SlidingRule::NonAssociated)
            return Error{
                "settings.solver.dilation: a dilation is the non-associated rule's (set "
                "solver.slidingRule to non-associated)"};
        return std::nullopt;
    }
};

}  // namespace ndem
