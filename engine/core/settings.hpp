// Step settings: every knob of the step, each with a documented scene-file key. The contact
// solvers' own keys are theirs (solve/method/solver_registry.hpp); StepSettings holds them as
// blocks, and solve/settings_keys.hpp visits both.
#pragma once

#include "core/error.hpp"
#include "core/setting_visitor.hpp"
#include "core/settings_blocks.hpp"
#include "core/types.hpp"

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace ndem {

enum class StepMode : int { Smooth, SemiSmooth, Nonsmooth };
enum class ContactLaw : int { Hertz, Linear };
enum class WarmStartMethod : int { History, Model };
/// What each step's contact problem is (krabbenhoft-2012 Sec. 3.6, 3.7): the
/// dynamic problem, or its static limit h → ∞ for quasi-static loading (a biaxial or triaxial
/// test in pseudo-time): every step starts at rest, inertia leaves the balance (the masses
/// are scaled by solver.staticInertia) and a servo wall's motion is the multiplier of its force.
enum class Formulation : int { Dynamic, Static };

/// Which closing speed a pair that does not touch yet is kept for (Collider::withinReach).
enum class SpeculativeReach : int { Sum, Largest, Relative };
/// Instruction set of the PGS block kernel (solve/pgs/pgs_kernel.hpp). Auto: the widest this CPU
/// runs.
enum class SimdLevel : int { Auto, Scalar, Avx2, Avx512 };
inline constexpr std::array<const char*, 3> kStepModeNames{"smooth", "semi-smooth", "nonsmooth"};
inline constexpr std::array<const char*, 2> kContactLawNames{"hertz", "linear"};
inline constexpr std::array<const char*, 2> kWarmStartMethodNames{"history", "model"};
inline constexpr std::array<const char*, 4> kSimdLevelNames{"auto", "scalar", "avx2", "avx512"};

inline constexpr std::array<const char*, 2> kFormulationNames{"dynamic", "static"};
inline constexpr std::array<const char*, 3> kSpeculativeReachNames{"sum", "largest", "relative"};

struct StepSettings {
    /// 3: spheres in space. 2: disks in the x–z plane (krabbenhoft-2012's and alart-2014's
    /// examples): positions and velocities keep y = 0, rotation is about y only, masses and
    /// inertias are per metre of thickness (m = ρ π r², I = m r²/2). Fixed for a run.
    int dimension = 3;
    StepMode mode = StepMode::SemiSmooth;
    double timeStep = 0.01;  ///< h (s)
    /// θ of the θ-method (krabbenhoft-2012 Sec. 2.1.1): x₁ = x₀ + h(θ v₁ + (1 − θ) v₀), the
    /// contacts holding for that displacement; restitution e = (1 − θ)/θ at every contact
    /// (Sec. 2.7). Mode nonsmooth; 1 = the implicit step of the other modes.
    double theta = 1.0;
    Vec3 gravity = Vec3(0.0, 0.0, -9.81);  ///< g (m/s²)
    double gravityRampTime = 0.0;          ///< ramp g from gravityRampStart to |g| (s); 0 = off
    double gravityRampStart = 0.01;        ///< |g| at t = 0 during a ramp (m/s²)

    ContactLaw contactLaw = ContactLaw::Hertz;
    double contactMargin = 0.05;  ///< detection margin as a fraction of the smaller radius (–)
    /// Multiplies every contact's friction coefficient: sample preparation (a sample
    /// compacted frictionless is denser; a later phase sets it back to 1).
    double frictionScale = 1.0;
    double contactSkin = 0.5;  ///< neighbour-list skin as a fraction of the radius (–)
    /// Sum: a gap within h(|v_i| + |v_j|) is a speculative contact; Largest: within
    /// h·max(|v_i − v_j|, |v_i|, |v_j|); Relative: within h|v_i − v_j| (the interior-point
    /// method's large steps, krabbenhoft-2012, where absolute speeds would pair each grain with
    /// hundreds).
    SpeculativeReach speculativeReach = SpeculativeReach::Sum;
    /// Speculative pairs of grains whose line of centres runs through a third grain are left
    /// out (collide/line_of_sight.hpp): krabbenhoft-2012 Sec. 2.8's potential contacts.
    bool lineOfSight = false;
    double referenceOverlap = 0.01;  ///< δ_ref/d for linearised stiffness and the smooth-DEM
                                     ///< stability limit (–)

    /// solver.method: the contact solver, a name registered in solve/method/solver_registry.hpp.
    std::string method = "pgs";
    /// The step's contact problem, dynamic or its static limit (a method that solves the latter:
    /// SolverInfo::staticForm).
    Formulation formulation = Formulation::Dynamic;
    /// ε, the share of the masses the static formulation keeps: it solves the dynamic problem
    /// at the step h/√ε, whose inertia only chooses among the static problem's equal answers
    /// (rigid grains that nothing loads). Smaller is nearer the limit; the solve's accuracy in
    /// velocity is its relative tolerance over ε (the loads' free velocities grow by 1/ε).
    double staticInertia = 1e-4;
    int iterations = 100;    ///< the solver's budget a step, in its unit (sweeps, Newton steps)
    double tolerance = 0.0;  ///< stop when the solver's residual is below; 0 = the whole budget
    SimdLevel simd = SimdLevel::Auto;  ///< instruction set of the PGS and smooth-DEM kernels
    /// The contact solvers' own keys, a block per family (solve/method/solver_registry.hpp).
    SettingsBlocks solverBlocks;

    /// Threads a step uses (rows, PGS colours, warm start); 0 = every core or one, whichever
    /// is measured faster (ThreadGovernor). The result does not depend on it.
    int threads = 0;

    bool impactEnabled = true;      ///< run the impact stage (servin-2014 App. A)
    double impactThreshold = 0.05;  ///< v_imp (m/s): faster new contacts are impacts
    int impactIterations = 50;      ///< PGS sweeps of the impact stage
    int impactDepth = 10;           ///< solve contacts within this many contacts of an
                                    ///< impact; 0 = the whole touching network

    bool warmStart = false;  ///< initialise λ from history or model (wang-servin-berglund)
    WarmStartMethod warmStartMethod = WarmStartMethod::History;
    double warmStartBeta = 0.85;    ///< β, fraction of last step's multipliers (–)
    bool warmStartNormal = true;    ///< warm start normal rows
    bool warmStartFriction = true;  ///< warm start friction rows
    bool warmStartRolling = true;   ///< warm start rolling/twisting rows
    bool warmStartVelocity = true;  ///< apply v += M⁻¹Gᵀλ₀ (Algorithm 1 line 10)

    double stabilizationSteps = 2.0;   ///< n_s in τ_n = max(n_s h, c/e_H) (–)
    double frictionCompliance = 1e-6;  ///< γ_t (m/(N s)), Σ_t = γ_t/h
    double rollingCompliance = 1e-6;   ///< γ_r (rad/(N m s)), Σ_r = γ_r/h

    int reorderInterval = 50;   ///< re-sort particles in space every N steps; 0 = never
    double guardOverlap = 0.2;  ///< warn once when an overlap exceeds this / d; 0 = off

    /// Adaptive model reduction (servin-wang Sec. 3, Table 2 defaults). Thresholds
    /// are on relative contact velocity (m/s, rad/s) and acceleration (m/s²); a threshold of
    /// 0 means "no test" where the paper writes ∞.
    struct Reduction {
        bool enabled = false;
        /// Reduction starts at this simulated time (s): the paper lets the drum's flow establish
        /// and the collapse's grains come to rest fully resolved before it reduces anything.
        double from = 0.0;
        // Merge (Eq. 26–28 and the acceleration bounds of Table 2).
        double mergeNormalIncident = 2.5e-3;       ///< ξ_nv^{i-mrg} (m/s)
        double mergeNormalSeparating = 2.5e-3;     ///< ξ_nv^{s-mrg} (m/s)
        double mergeTangential = 2.5e-3;           ///< ξ_tv^{mrg} (m/s)
        double mergeRolling = 0.5;                 ///< ξ_rv^{mrg} (rad/s)
        double mergeNormalAcceleration = 5.0;      ///< ξ_na^{i,s-mrg} (m/s²), 0 = no test
        double mergeTangentialAcceleration = 5.0;  ///< ξ_ta^{mrg} (m/s²), 0 = no test
        bool mergeWithMovingWalls = true;          ///< co-moving material rides on a moving wall
        // Contact split (Eq. 29–31).
        bool contactSplit = true;
        int splitDepth = 2;                  ///< N_c-spl (contacts along the network)
        double splitNormalIncident = 0.15;   ///< ξ_nv^{i-c} (m/s)
        double splitNormalSeparating = 0.0;  ///< ξ_nv^{s-c} (m/s), 0 = no test (paper: ∞)
        double splitTangential = 0.15;       ///< ξ_tv^{c} (m/s)
        /// ξ_rv^{c} (rad/s), 0 = no test. The paper's Table 2 has ∞; we split at 2 rad/s, because
        /// a grain rolls over a rigid aggregate without slipping (Eq. 30 never fires) and a
        /// poured pile built on its own rigid core then runs out 7–8° flatter than resolved
        /// (docs/validation, model-reduction findings); the paper's conveyor is unchanged by it.
        double splitRolling = 2.0;
        // Sensor split (Sec. 3.2.3): the scene's split sensors free what they overlap.
        bool sensorSplit = true;
        // Trial solve split (Sec. 3.2.2, Eq. 32–36): a few PGS sweeps of the fully resolved
        // system before the impact stage; members out of force balance are freed.
        bool trialSplit = false;
        int trialIterations = 50;             ///< N_it^tr
        double trialForce = 0.15;             ///< ξ_f^tr (–)
        double trialTorque = 0.0;             ///< ξ_τ^tr (–), 0 = no test (paper: ∞)
        bool trialVelocity = false;           ///< also test Eq. 32–34 on the trial velocities
        double trialNormalIncident = 2.6;     ///< ξ_nv^{i-tr} (m/s)
        double trialNormalSeparating = 0.26;  ///< ξ_nv^{s-tr} (m/s)
        double trialTangential = 0.26;        ///< ξ_tv^{tr} (m/s)
        double trialRolling = 0.0;            ///< ξ_rv^{tr} (rad/s), 0 = no test (paper: ∞)
    } reduction;

    /// Gravity at simulated time t (m/s²), with the optional ramp applied.
    Vec3 gravityAt(double t) const;
};

namespace detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// The step's time, its mode and gravity.
template <class S, class V>
void visitTimeKeys(S& s, V& v) {
    v(SettingInfo{"dimension", "",
                  "3: spheres in space; 2: disks in the x-z plane, masses and inertias per metre "
                  "of thickness (fixed for a run)",
                  2.0, 3.0},
      s.dimension);
    visitChoice(v, SettingInfo{"mode", "", "smooth | semi-smooth | nonsmooth"}, s.mode,
                kStepModeNames);
    v(SettingInfo{"timeStep", "s", "time step h", 0.0, kInf, true}, s.timeStep);
    v(SettingInfo{"theta", "",
                  "theta-method: x1 = x0 + h(theta v1 + (1 - theta) v0), restitution "
                  "e = (1 - theta)/theta at every contact (mode nonsmooth, impact stage off); 1 = "
                  "the implicit step",
                  0.5, 1.0},
      s.theta);
    v(SettingInfo{"gravity", "m/s^2", "gravity vector"}, s.gravity);
    v(SettingInfo{"gravityRamp.time", "s", "ramp gravity up over this time (0 = off)", 0.0},
      s.gravityRampTime);
    v(SettingInfo{"gravityRamp.start", "m/s^2", "gravity magnitude at t = 0 of a ramp", 0.0},
      s.gravityRampStart);
}

/// Contact detection and the contact law.
template <class S, class V>
void visitContactKeys(S& s, V& v) {
    visitChoice(v, SettingInfo{"contact.law", "", "hertz (e_H = 5/4) | linear (e_H = 1)"},
                s.contactLaw, kContactLawNames);
    v(SettingInfo{"contact.frictionScale", "",
                  "multiplies every contact's friction coefficient (sample preparation: compact "
                  "frictionless, then a phase sets it back to 1)",
                  0.0},
      s.frictionScale);
    v(SettingInfo{"contact.margin", "", "detection margin, fraction of the smaller radius", 0.0,
                  1.0},
      s.contactMargin);
    v(SettingInfo{"contact.skin", "",
                  "neighbour-list skin, fraction of the radius: lists are searched again once a "
                  "grain has moved about half of it (results do not depend on it)",
                  0.0, 10.0},
      s.contactSkin);
    visitChoice(
        v,
        SettingInfo{"contact.speculativeReach", "",
                    "sum | largest | relative: a pair not yet touching is kept as a speculative "
                    "contact when its gap closes within h(|v_i| + |v_j|) (any two grains meeting "
                    "head-on), or within h max(|v_i - v_j|, |v_i|, |v_j|) (one stops, the other "
                    "goes on), or within h|v_i - v_j| (its own closing speed: a dense flow at "
                    "large steps, where a grain moves diameters per step with its neighbours)"},
        s.speculativeReach, kSpeculativeReachNames);
    v(SettingInfo{"contact.lineOfSight", "",
                  "true: a pair not yet touching whose line of centres runs through a third grain "
                  "is left out, as a Delaunay triangulation's potential contacts "
                  "(krabbenhoft-2012 Sec. 2.8): at the interior-point method's large steps a "
                  "speed-based reach pairs each grain with grains diameters away, whose friction "
                  "cones and Newton rows cost without a contact to show for them"},
      s.lineOfSight);
    v(SettingInfo{"contact.referenceOverlap", "",
                  "reference overlap / d for linearised Hertz stiffness and the smooth-DEM "
                  "stability limit",
                  0.0, 1.0, true},
      s.referenceOverlap);
}

/// The solver's common keys: which method, its budget, the formulation, the kernels.
template <class S, class V>
void visitSolverKeys(S& s, V& v, ChoiceNames methods) {
    {
        // A registered name; an unknown one visits as -1, which validation refuses.
        int index = -1;
        for (size_t k = 0; k < methods.size(); ++k)
            if (s.method == methods[k]) index = static_cast<int>(k);
        v(SettingInfo{"solver.method", "",
                      "the contact solver: one of the registered methods (ndem keys lists them "
                      "with what each one is)"},
          index, methods);
        if constexpr (!std::is_const_v<S>)
            if (index >= 0 && index < static_cast<int>(methods.size())) s.method = methods[index];
    }
    visitChoice(
        v,
        SettingInfo{"solver.formulation", "",
                    "dynamic | static: the interior-point method solves each step's dynamic "
                    "problem, or its static limit for quasi-static loading (each step starts at "
                    "rest, inertia leaves the balance; a servo wall's displacement is the "
                    "multiplier of its force, exactly)"},
        s.formulation, kFormulationNames);
    v(SettingInfo{"solver.staticInertia", "",
                  "share of the masses the static formulation keeps (the dynamic problem at the "
                  "step h / sqrt of it); nearer 0 is nearer the static limit and less accurate "
                  "in velocity",
                  0.0, 1.0, true},
      s.staticInertia);
    v(SettingInfo{"solver.iterations", "",
                  "the solver's budget a step N_it, in its own unit: sweeps (pgs, nncg, apgd, "
                  "nlgs and its variants) or Newton steps (interior-point, newton)",
                  1.0, 1e6},
      s.iterations);
    v(SettingInfo{"solver.tolerance", "m/s",
                  "stop when the solver's residual is below (0 = off): the mean row residual of "
                  "the PGS methods, the interior point's optimality residual as a velocity",
                  0.0},
      s.tolerance);
    visitChoice(
        v,
        SettingInfo{"solver.simd", "",
                    "auto | scalar | avx2 | avx512: instruction set of the PGS kernel (auto = the "
                    "widest this CPU runs)"},
        s.simd, kSimdLevelNames);
    v(SettingInfo{"threads", "",
                  "threads a step uses (0 = automatic: every core, or one while that is measured "
                  "faster); results do not depend on it",
                  0.0, 1024.0},
      s.threads);
}

/// The impact stage, the warm start, the regularisation, the guards.
template <class S, class V>
void visitStageKeys(S& s, V& v) {
    v(SettingInfo{"impact.enabled", "", "run the impact stage"}, s.impactEnabled);
    v(SettingInfo{"impact.threshold", "m/s", "impact velocity threshold v_imp", 0.0},
      s.impactThreshold);
    v(SettingInfo{"impact.iterations", "", "PGS sweeps of the impact stage", 1.0, 1e6},
      s.impactIterations);
    v(SettingInfo{"impact.depth", "contacts",
                  "solve the impact stage within this graph distance of an impact (0 = all)", 0.0,
                  1e6},
      s.impactDepth);
    v(SettingInfo{"warmStart.enabled", "", "warm start the PGS"}, s.warmStart);
    visitChoice(v, SettingInfo{"warmStart.method", "", "history | model"}, s.warmStartMethod,
                kWarmStartMethodNames);
    v(SettingInfo{"warmStart.beta", "", "fraction beta of last step's multipliers", 0.0, 1.0},
      s.warmStartBeta);
    v(SettingInfo{"warmStart.normal", "", "warm start normal rows"}, s.warmStartNormal);
    v(SettingInfo{"warmStart.friction", "", "warm start friction rows"}, s.warmStartFriction);
    v(SettingInfo{"warmStart.rolling", "", "warm start rolling resistance rows"},
      s.warmStartRolling);
    v(SettingInfo{"warmStart.velocity", "", "apply the warm-start impulse to the velocities"},
      s.warmStartVelocity);
    v(SettingInfo{"regularization.stabilizationSteps", "", "n_s in tau_n = max(n_s h, c/e_H)", 0.0,
                  1e3},
      s.stabilizationSteps);
    v(SettingInfo{"regularization.frictionCompliance", "m/(N s)", "gamma_t, Sigma_t = gamma_t/h",
                  0.0},
      s.frictionCompliance);
    v(SettingInfo{"regularization.rollingCompliance", "rad/(N m s)", "gamma_r, Sigma_r = gamma_r/h",
                  0.0},
      s.rollingCompliance);
    v(SettingInfo{"guards.overlap", "",
                  "warn (once) when an overlap exceeds this fraction of the diameter: the time "
                  "step or the stiffness is wrong for the scene (0 = off)",
                  0.0, 100.0},
      s.guardOverlap);
    v(SettingInfo{"broadPhase.reorderInterval", "steps",
                  "re-sort particles in space every N steps (0 = never)", 0.0, 1e9},
      s.reorderInterval);
}

/// Adaptive model reduction (servin-wang Table 2).
template <class S, class V>
void visitReductionKeys(S& s, V& v) {
    auto& r = s.reduction;
    v(SettingInfo{"reduction.enabled", "", "adaptive model reduction into rigid aggregates"},
      r.enabled);
    v(SettingInfo{"reduction.from", "s", "start reducing at this simulated time", 0.0}, r.from);
    v(SettingInfo{"reduction.merge.normalIncident", "m/s",
                  "xi_nv^i-mrg: merge if approaching slower", 0.0},
      r.mergeNormalIncident);
    v(SettingInfo{"reduction.merge.normalSeparating", "m/s",
                  "xi_nv^s-mrg: merge if separating slower", 0.0},
      r.mergeNormalSeparating);
    v(SettingInfo{"reduction.merge.tangential", "m/s", "xi_tv^mrg: merge if sliding slower", 0.0},
      r.mergeTangential);
    v(SettingInfo{"reduction.merge.rolling", "rad/s", "xi_rv^mrg: merge if rolling slower", 0.0},
      r.mergeRolling);
    v(SettingInfo{"reduction.merge.normalAcceleration", "m/s^2",
                  "xi_na^mrg: relative normal acceleration bound (0 = no test)", 0.0},
      r.mergeNormalAcceleration);
    v(SettingInfo{"reduction.merge.tangentialAcceleration", "m/s^2",
                  "xi_ta^mrg: relative tangential acceleration bound (0 = no test)", 0.0},
      r.mergeTangentialAcceleration);
    v(SettingInfo{"reduction.merge.movingWalls", "",
                  "material at rest on a moving wall (belt, drum) rides with it"},
      r.mergeWithMovingWalls);
    v(SettingInfo{"reduction.split.contact", "", "split at impacting / sliding contacts"},
      r.contactSplit);
    v(SettingInfo{"reduction.split.depth", "contacts", "N_c-spl: split this far along the network",
                  1.0, 1e3},
      r.splitDepth);
    v(SettingInfo{"reduction.split.normalIncident", "m/s",
                  "xi_nv^i-c: split at contacts approaching faster (0 = no test)", 0.0},
      r.splitNormalIncident);
    v(SettingInfo{"reduction.split.normalSeparating", "m/s",
                  "xi_nv^s-c: split at contacts separating faster (0 = no test)", 0.0},
      r.splitNormalSeparating);
    v(SettingInfo{"reduction.split.tangential", "m/s",
                  "xi_tv^c: split at contacts sliding faster (0 = no test)", 0.0},
      r.splitTangential);
    v(SettingInfo{"reduction.split.rolling", "rad/s",
                  "xi_rv^c: split at contacts rolling faster (0 = no test)", 0.0},
      r.splitRolling);
    v(SettingInfo{"reduction.split.sensors", "", "split sensors free the members they overlap"},
      r.sensorSplit);
    v(SettingInfo{"reduction.split.trial", "",
                  "trial solve split: free members out of force balance"},
      r.trialSplit);
    v(SettingInfo{"reduction.trial.iterations", "", "N_it^tr: PGS sweeps of the trial solve", 1.0,
                  1e6},
      r.trialIterations);
    v(SettingInfo{"reduction.trial.force", "", "xi_f^tr: force balance bound (Eq. 35)", 0.0, 1.0},
      r.trialForce);
    v(SettingInfo{"reduction.trial.torque", "",
                  "xi_tau^tr: torque balance bound (Eq. 36, 0 = no test)", 0.0, 1.0},
      r.trialTorque);
    v(SettingInfo{"reduction.trial.velocity", "",
                  "also test the trial's contact velocities (Eq. 32-34)"},
      r.trialVelocity);
    v(SettingInfo{"reduction.trial.normalIncident", "m/s", "xi_nv^i-tr (0 = no test)", 0.0},
      r.trialNormalIncident);
    v(SettingInfo{"reduction.trial.normalSeparating", "m/s", "xi_nv^s-tr (0 = no test)", 0.0},
      r.trialNormalSeparating);
    v(SettingInfo{"reduction.trial.tangential", "m/s", "xi_tv^tr (0 = no test)", 0.0},
      r.trialTangential);
    v(SettingInfo{"reduction.trial.rolling", "rad/s", "xi_rv^tr (0 = no test)", 0.0},
      r.trialRolling);
}

}  // namespace detail

/// Visits the step's own keys with (info, field), enums and solver.method as choices (info,
/// index, names): the first part of the one list that scene files, --set, validation, the docs
/// and the app read. solve/settings_keys.hpp's visitSettings adds the solvers' blocks and names
/// the registered methods.
template <class S, class V>
void visitStepSettings(S& s, V&& v, ChoiceNames methods) {
    detail::visitTimeKeys(s, v);
    detail::visitContactKeys(s, v);
    detail::visitSolverKeys(s, v, methods);
    detail::visitStageKeys(s, v);
    detail::visitReductionKeys(s, v);
}

}  // namespace ndem
