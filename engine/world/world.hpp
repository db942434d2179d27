// The simulated world and its step: the one place where the phases run in order.
#pragma once

#include "collide/collider.hpp"
#include "collide/contact_set.hpp"
#include "core/error.hpp"
#include "core/material.hpp"
#include "core/parallel.hpp"
#include "core/particles.hpp"
#include "core/scene.hpp"
#include "core/settings.hpp"
#include "core/split_sensor.hpp"
#include "core/step_stats.hpp"
#include "core/triangle_mesh.hpp"
#include "core/wall.hpp"
#include "dem/smooth_pairs.hpp"
#include "reduce/model_reduction.hpp"
#include "solve/method/contact_solver.hpp"
#include "solve/pgs/pgs_solver.hpp"
#include "solve/rows/contact_problem.hpp"
#include "solve/rows/impact_region.hpp"
#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"
#include "world/measurement.hpp"
#include "world/state_guard.hpp"
#include "world/step_context.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ndem {

/// Convergence of one PGS solve, recorded on a copy of a real step's problem: the solve is
/// run once to `referenceIterations` sweeps (the reference λ), then again sweep by sweep.
/// Element k of each curve is after k sweeps (k = 0: the initial, possibly warm, guess).
struct SolverProbe {
    int referenceIterations = 500;
    int iterations = 500;
    bool requested = false, done = false;
    double time = 0.0;                   ///< simulated time of the probed step (s)
    std::vector<double> residual;        ///< mean row residual |Δλ| D (m/s)
    std::vector<double> normalResidual;  ///< mean over the normal rows (m/s)
    std::vector<double> multiplierError;  ///< ⟨|λ_ref − λ_k| / |λ_ref|⟩ over loaded normal rows
                                          ///< (wang-servin-berglund Eq. 13)
};

/// The continuous stage's input of one step as the solve is about to see it (after the warm
/// start): its rows, its bodies and the settings the step solves them with; for solving the
/// same step again with other methods (measure/solver_race.cpp).
struct CapturedStep {
    double time = 0.0;  ///< simulated time at the start of the step (s)
    std::vector<SolverContact> rows;
    std::vector<SolverBody> bodies;
    StepSettings settings;          ///< the step's, its thread count resolved
    std::vector<double> overlaps;   ///< per contact at the step's start (SolveControls::overlaps)
    std::vector<double> diameters;  ///< per contact, the d of its overlap error δ/d (m)
    /// What the step's method read: its settings, the budget given, the overlaps above.
    SolveControls controls(int iterations) const;
};

/// Owns bodies, geometry, materials and contacts, and advances them one step at a time.
/// Threading contract: not thread-safe; one thread calls step() and everything else, and
/// nobody reads the world while step() runs (the app copies snapshots between steps).
class World {
  public:
    /// Builds a world from a scene description; the error names what is wrong.
    static Expected<World> create(const Scene& scene);

    World() = default;
    World(World&&) = default;
    World& operator=(World&&) = default;

    /// Advances by one time step h (servin-2014 App. B, wang-servin-berglund Algorithm 1):
    /// collide → impact stage → q with v⁺ → pre-step v += h M⁻¹ f_ext → warm start →
    /// PGS sweeps → x += h v → measure. In smooth mode: collide → forces → symplectic Euler.
    StepStats step();

    const StepSettings& settings() const { return m_settings; }
    /// Validates and applies new settings between steps; nothing changes on error.
    std::optional<Error> applySettings(const StepSettings& settings);
    /// The scene's settings phases (Scene::phases).
    const std::vector<SettingsPhase>& phases() const { return m_phases; }

    /// Largest stable smooth-DEM time step for the current particles and materials (s).
    double smoothStabilityLimit() const;

    ParticleStore& particles() { return m_particles; }
    const ParticleStore& particles() const { return m_particles; }
    std::vector<Wall>& walls() { return m_walls; }
    const std::vector<Wall>& walls() const { return m_walls; }
    const std::vector<TriangleMesh>& meshes() const { return m_meshes; }
    const MaterialTable& materials() const { return m_materials; }
    /// Replaces the bulk materials' contact properties between steps (the app's material
    /// panel); the scene's pair overrides still apply. Same count and names as before, and the
    /// densities may not change (particle masses are fixed). Nothing changes on error.
    std::optional<Error> setMaterials(const std::vector<Material>& materials);
    /// The last step's contacts. The smooth DEM on the lists writes them out on the first
    /// call after a step (dem/smooth_pairs.hpp).
    const ContactSet& contacts() const {
        syncContacts();
        return m_contacts;
    }
    const ContactHistory& contactHistory() const {
        syncHistory();
        return m_history;
    }
    const std::string& name() const { return m_name; }

    double time() const { return m_time; }
    std::int64_t stepCount() const { return m_stepCount; }
    /// Gravity acting in the next step (with the ramp applied) (m/s²).
    Vec3 gravity() const { return m_settings.gravityAt(m_time); }
    /// Model reduction is on and its start time has come.
    bool reductionActive() const {
        return m_settings.reduction.enabled && m_time >= m_settings.reduction.from;
    }

    /// Mean residual after each sweep of the last continuous solve, when recording is on.
    const std::vector<double>& residualHistory() const { return m_residualHistory; }
    void setRecordResidualHistory(bool on) { m_recordResidual = on; }

    void subscribe(std::unique_ptr<Measurement> m) { m_measurements.push_back(std::move(m)); }

    /// Records the convergence of the next continuous solve (nonsmooth modes) on a copy.
    void requestSolverProbe(int referenceIterations, int iterations);
    /// Keeps the next continuous solve's contact problem as it is about to be solved (every
    /// contact with three rows), e.g. for an FCLib file; take it after the step.
    void requestContactProblem() { m_captureProblem = true; }
    std::optional<ContactProblem> takeContactProblem() {
        return std::exchange(m_capturedProblem, {});
    }
    /// Keeps the next continuous solve's rows, bodies and settings; take them after the step.
    void requestCapturedStep() { m_captureStep = true; }
    std::optional<CapturedStep> takeCapturedStep() { return std::exchange(m_capturedStep, {}); }
    const SolverProbe& solverProbe() const { return m_probe; }
    const std::vector<std::unique_ptr<Measurement>>& measurements() const { return m_measurements; }

    /// Adds a particle between steps; returns its storage index.
    Index addParticle(const ParticleSpec& spec);
    /// Removes a particle between steps (its id is retired).
    void removeParticle(Index i) {
        syncHistory();
        m_particles.remove(i);
    }

    const std::vector<Emitter>& emitters() const { return m_emitters; }
    std::vector<Emitter>& emitters() { return m_emitters; }
    const std::vector<SinkSpec>& sinks() const { return m_sinks; }

    /// Model reduction state: aggregates and their members (servin-wang).
    const ModelReduction& reduction() const { return m_reduction; }
    /// Split sensors; move, resize, add or remove them between steps.
    std::vector<SplitSensor>& sensors() { return m_sensors; }
    const std::vector<SplitSensor>& sensors() const { return m_sensors; }
    /// A non-finite value found after a step (the run cannot go on), and the warnings given
    /// so far, once per kind (world/state_guard.hpp).
    const std::optional<Divergence>& divergence() const { return m_guard.divergence(); }
    const std::vector<RunWarning>& warnings() const { return m_guard.warnings(); }

    /// Particles emitted and removed since the start (by emitters and sinks).
    long emittedCount() const { return m_emittedTotal; }
    long removedCount() const { return m_removedTotal; }

    /// Everything the next step depends on, as named arrays (world/world_state.cpp): time,
    /// step count, settings, materials, the particles in storage order, the contact history
    /// with its impulses and springs, walls with their servos, emitters with their random
    /// streams, aggregates, split sensors, the guards and APGD's Lipschitz estimate. A world
    /// built from the same scene that loads it steps on bit for bit as this one would.
    /// With it the measurements' accumulators, under the list of their names: a world with
    /// the same list goes on measuring as this one would, one with another list (or none)
    /// keeps its measurements as they are.
    StateArchive saveState() const;
    /// Loads a saved state into a world built from the same scene. Nothing changes on error;
    /// the error names the entry that was missing or wrong.
    std::optional<Error> loadState(StateArchive& state);

  private:
    // Stages of step(), in the order it calls them (world/step.cpp).
    void prepareStep(StepContext& ctx);
    /// Contact detection at the start of the step, and again where the impact stage threw a
    /// grain faster than the first detection assumed (the neighbour lists serve both).
    void detectContacts(StepContext& ctx);
    void splitAggregates(StepContext& ctx);
    void impactStage(StepContext& ctx);
    void continuousStage(StepContext& ctx);
    void writeBackVelocities(const StepContext& ctx);
    void mergeAggregates(StepContext& ctx);
    void integratePositions(const StepContext& ctx);
    /// Smooth DEM without model reduction: forces straight from the neighbour lists.
    bool smoothOnLists() const { return m_settings.mode == StepMode::Smooth && !reductionActive(); }
    void detectSmooth(StepContext& ctx);
    void smoothPairForces(StepContext& ctx);
    void smoothForces(const StepContext& ctx);
    void integrateSmooth(const StepContext& ctx);
    void finishStep(StepContext& ctx);
    void measure(StepStats& stats);
    /// Saves or loads the state (saveState, loadState), materials apart.
    void archive(StateArchive& a);

    // Pieces of the stages.
    /// The last step's contacts (and the history from them) written out where the smooth DEM
    /// on the lists kept them in its own form.
    void syncContacts() const;
    void syncHistory() const;
    CollisionParams collisionParams(const StepContext& ctx) const;
    Index insertParticle(const ParticleSpec& spec);
    void applySchedule();
    void emitAndRemove(StepStats& stats);
    /// Sorts the grains in space (storage order = cell order). keepNearlySorted: not where
    /// fewer than one grain in 64 is out of cell order.
    void reorderParticles(bool keepNearlySorted = false);
    void loadSolverBodies(StepContext& ctx);
    void flagImpacts(StepContext& ctx);
    void solveImpacts(StepContext& ctx);
    bool impactsOutranDetection(const StepContext& ctx) const;
    void runSolverProbe(const StepContext& ctx);
    void carryInternalImpulses(const BodyMap& map);
    void accumulateWallForces(const ContactSet& contacts);
    /// The static formulation (static_step.cpp): the step starts at rest; its problem, with
    /// the servo walls as unknowns and the masses scaled by solver.staticInertia, solved by the
    /// interior-point method.
    void restForStaticStep();
    /// Counts into `stats` the grains the static step's answer (the bodies' velocities) moves
    /// farther than their detection reach (StepStats::staticRunaways).
    void countStaticRunaways(StepStats& stats) const;
    SolveReport solveStatic(const StepContext& ctx);
    /// The continuous stage's solve by the step's method (solver.method).
    SolveReport solveContinuous(const StepContext& ctx);
    /// The method `name`'s instance of this world, made on first use: it keeps its buffers and
    /// state (APGD's Lipschitz estimate) from solve to solve, and across method changes.
    ContactSolver& contactSolver(const std::string& name);
    /// A servo wall of the static formulation (not yet in its constant-speed phase), and one
    /// it solves for this step: every one touches (else they close in, scheduleStaticServos).
    bool staticServo(const Wall& w) const;
    bool solvedServo(const Wall& w) const;
    void scheduleStaticServos();
    /// σ's area A of a servo wall (m²; in the plane a length times 1 m).
    double servoArea(const ServoControl& s) const;
    /// A servo wall with a mass, before its constant-speed phase, in a dynamic nonsmooth step:
    /// a prismatic body of the solve, pushed by σA (wang-servin-berglund Sec. 4.4's walls).
    bool wallInSolve(const Wall& w) const;
    /// Adds h σA/m along its axis to each such wall's body (the force of its motor).
    void pushSolvedWalls();
    /// What the step's method reads of this step: its settings and a budget.
    SolveControls solveControls(const StepContext& ctx, int iterations, double tolerance = 0.0,
                                std::vector<double>* residualHistory = nullptr) const;

    std::string m_name;
    StepSettings m_settings;
    std::vector<char> m_servoSolved;      ///< per wall: a static servo solved for this step
    std::vector<SettingsPhase> m_phases;  ///< the scene's settings changes, in time order
    double m_phaseTime = -1.0;            ///< time of the last phase applied (s)
    ThreadGovernor m_governor;
    MaterialTable m_materials;
    std::vector<ContactMaterialOverride> m_contactOverrides;
    ParticleStore m_particles;
    std::vector<Wall> m_walls;
    std::vector<TriangleMesh> m_meshes;

    Collider m_collider;
    // Written out on demand after a smooth step on the lists (contacts(), contactHistory()).
    mutable ContactSet m_contacts;
    mutable ContactHistory m_history;
    mutable bool m_contactsStale = false, m_historyStale = false;
    SmoothPairs m_smoothPairs;
    SmoothPairs::Totals m_smoothTotals;
    bool m_lastStepOnLists = false;

    /// Particles, aggregates, the walls the solve moves, then one static body for the others.
    std::vector<SolverBody> m_bodies;
    std::vector<Index> m_wallBody;   ///< per wall: its solver body, or −1 (BodyMap::wallBody)
    std::vector<Vec3> m_wallLinear;  ///< per wall: its velocity at detection (BodyMap::wallLinear)
    std::vector<SolverContact> m_rows;
    std::vector<SolverContact> m_impactRows;
    /// The continuous stage's methods by name (contactSolver), and the impact stage's sweeps.
    std::map<std::string, std::unique_ptr<ContactSolver>, std::less<>> m_solvers;
    PgsSolver m_impactPgs;
    ImpactRegion m_impactRegion;
    std::vector<Vec3> m_force, m_torque;  ///< smooth DEM accumulators
    std::vector<double> m_residualHistory;
    SolverProbe m_probe;
    bool m_captureProblem = false;
    std::optional<ContactProblem> m_capturedProblem;
    bool m_captureStep = false;
    std::optional<CapturedStep> m_capturedStep;
    bool m_recordResidual = false;

    std::vector<Emitter> m_emitters;
    std::vector<SinkSpec> m_sinks;
    std::vector<SplitSensor> m_sensors;
    ModelReduction m_reduction;
    TrialSolution m_trial;
    std::vector<Vec3> m_startVelocity, m_startAngular;  ///< for the merge acceleration test
    /// |v| each grain's pairs were detected with, before a static step set it at rest.
    std::vector<double> m_detectedSpeed;
    long m_emittedTotal = 0, m_removedTotal = 0;

    std::vector<std::unique_ptr<Measurement>> m_measurements;
    StateGuard m_guard;
    double m_time = 0.0;
    std::int64_t m_stepCount = 0;
};

}  // namespace ndem
