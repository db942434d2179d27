// Diagnostics of one step: what the CLI prints, the report stores and the app plots.
#pragma once

#include <cstdint>

namespace ndem {

/// Wall-clock seconds spent in each phase of the step, in step order.
struct PhaseTimes {
    double collide = 0.0;    ///< broad + narrow phase, contact matching (s)
    double impact = 0.0;     ///< impact stage (s)
    double solve = 0.0;      ///< rows, warm start, PGS sweeps (or smooth DEM forces) (s)
    double integrate = 0.0;  ///< velocity write-back and position update (s)
    double measure = 0.0;    ///< statistics and subscribed measurements (s)
    double reduce = 0.0;     ///< model reduction: split, merge, co-move (s)
    double total() const { return collide + impact + solve + integrate + measure + reduce; }
    PhaseTimes& operator+=(const PhaseTimes& o) {
        collide += o.collide;
        impact += o.impact;
        solve += o.solve;
        integrate += o.integrate;
        measure += o.measure;
        reduce += o.reduce;
        return *this;
    }
    PhaseTimes& operator*=(double k) {
        collide *= k;
        impact *= k;
        solve *= k;
        integrate *= k;
        measure *= k;
        reduce *= k;
        return *this;
    }
};

struct StepStats {
    std::int64_t step = 0;        ///< steps taken so far, this one included
    double time = 0.0;            ///< simulated time after the step (s)
    PhaseTimes seconds;           ///< wall-clock time per phase (s)
    int particles = 0;            ///< particles in the world after the step
    int threads = 1;              ///< threads the step used
    int emitted = 0;              ///< particles added by emitters this step
    int removed = 0;              ///< particles removed by sinks this step
    int contacts = 0;             ///< the step's network: touching or loaded (inNetwork)
    int speculativeContacts = 0;  ///< detected pairs that neither touch nor carry load
    int impacts = 0;              ///< contacts handled as impacts
    /// The continuous stage's iterations, in `iterationUnit` (the method's: sweeps or Newton
    /// steps; solve/method/solver_registry.hpp).
    int iterations = 0;
    const char* iterationUnit = "sweeps";
    int impactIterations = 0;  ///< PGS sweeps of the impact stage
    /// The answer's row residual |Δλ_j| D_j, whatever the method (m/s): the mean, the largest
    /// and the mean over the normal rows.
    double residual = 0.0;
    double maxResidual = 0.0;
    double normalResidual = 0.0;
    /// The method's own measure at its answer (SolveReport::residual), named by
    /// `solverResidualName`: the PGS methods' mean row residual, the interior point's residual
    /// relative to the largest free velocity (krabbenhoft-2012 Eq. 52), NLGS's Alart 2014
    /// Eq. 10 error.
    double solverResidual = 0.0;
    const char* solverResidualName = "";
    bool converged = false;  ///< the method reached solver.tolerance (its own measure)
    /// What the solve fell back to where its method could not answer (the non-associated rule
    /// stalled: the associated rule's answer), or nullptr.
    const char* fallback = nullptr;
    /// The static formulation's servo walls did not push with σA this step: one touched no
    /// grain, so those touching held still and the others closed in (World::scheduleStaticServos).
    /// Past the start of a test, the sign of a platen thrown off the sample.
    bool servosClosingIn = false;
    /// Grains a static step moved farther than contact detection reached for them (the static
    /// margin plus h|v| of the velocity detection saw): the load exceeds what the packing
    /// carries there, the static problem has no answer (krabbenhoft-2012 Sec. 3.7) and their
    /// displacement is 1/solver.staticInertia times the step's inertia's, not physics. They may
    /// pass pairs never detected (a wall among them).
    int staticRunaways = 0;
    /// The farthest of them, in its own diameters (0 with none).
    double staticRunawayDiameters = 0.0;
    /// NLGS sweeps of the null-space solvers' unilateral prediction (alart-2014 Sec. 3.2),
    /// besides `iterations` of their correction.
    int predictionIterations = 0;
    double kineticEnergy = 0.0;  ///< translational + rotational, dynamic particles (J)
    double meanOverlap = 0.0;    ///< ⟨ε_c⟩ = ⟨δ/d⟩ over touching contacts (–)
    double maxOverlap = 0.0;     ///< max δ/d (–)
    // Model reduction (servin-wang): h = 1 − Ñ_p / N_p with Ñ_p the free particles
    // plus the aggregates.
    bool reductionEnabled = false;  ///< reduction on in this step (enabled, t ≥ reduction.from)
    double reductionLevel = 0.0;    ///< h (–)
    int aggregates = 0;             ///< rigid aggregates after the step
    int members = 0;                ///< particles inside aggregates after the step
    int merged = 0;                 ///< particles that joined an aggregate this step
    int split = 0;                  ///< members freed this step (contacts and sensors)
};

}  // namespace ndem
