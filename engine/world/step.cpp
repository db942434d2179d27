// The step: its stages in order, each timed where it is called (docs/architecture.md, "The step").
#include "world/world.hpp"

#include "collide/line_of_sight.hpp"
#include "dem/smooth_dem.hpp"
#include "solve/method/solver_registry.hpp"
#include "solve/pgs/warm_start.hpp"
#include "solve/rows/contact_law.hpp"
#include "solve/rows/contact_rows.hpp"
#include "solve/rows/general_rows.hpp"
#include "solve/settings_keys.hpp"
#include "world/planar_scene.hpp"

#include <algorithm>
#include <atomic>
#include <functional>

namespace ndem {

StepStats World::step() {
    // A phase is due at the first step starting at or after its time (its values are checked
    // at creation). After a restart the phases before the restart's time apply again, to the
    // same values. One that clashes with a change made since (e.g. θ < 1 after the app switched
    // to smooth mode) is refused whole and said so.
    for (const SettingsPhase& phase : m_phases) {
        if (phase.at > m_time + 1e-9 * m_settings.timeStep || phase.at <= m_phaseTime) continue;
        StepSettings next = m_settings;
        copySettings(phase.settings, next, phase.keys);
        if (auto e = applySettings(next))
            m_guard.note(m_stepCount, m_time, "phase",
                         "the settings phase at " + std::to_string(phase.at) +
                             " s was not applied: " + e->message);
        m_phaseTime = phase.at;
    }
    StepContext ctx;
    ctx.settings = m_settings;
    ctx.settings.threads = m_governor.threads(m_settings.threads);
    ctx.stats.threads = ctx.settings.threads;
    ctx.stats.reductionEnabled = reductionActive();
    for (auto& m : m_measurements)
        m->prepare(*this);
    PhaseTimes& seconds = ctx.stats.seconds;

    m_lastStepOnLists = smoothOnLists();
    if (m_lastStepOnLists) {
        timed(seconds.collide, [&] {
            prepareStep(ctx);
            detectSmooth(ctx);
        });
        timed(seconds.solve, [&] { smoothPairForces(ctx); });
        timed(seconds.integrate, [&] { integrateSmooth(ctx); });
        timed(seconds.integrate, [&] { finishStep(ctx); });
        timed(seconds.measure, [&] { measure(ctx.stats); });
        return ctx.stats;
    }
    // The other stages read last step's contacts and history as records.
    syncHistory();
    m_smoothPairs.forget();
    timed(seconds.collide, [&] {
        prepareStep(ctx);
        detectContacts(ctx);
    });
    // Grains piled into each other, or thrown so fast that every pair is in reach: the run
    // stops here, its state the last step's.
    if (m_guard.crowded(*this, m_stepCount + 1, m_time + m_settings.timeStep,
                        static_cast<size_t>(ctx.stats.contacts),
                        static_cast<size_t>(ctx.stats.speculativeContacts)))
        return ctx.stats;
    if (m_settings.mode == StepMode::Smooth) {
        timed(seconds.solve, [&] { smoothForces(ctx); });
        timed(seconds.integrate, [&] { integrateSmooth(ctx); });
    } else {
        if (m_settings.formulation == Formulation::Static) restForStaticStep();
        if (m_settings.theta < 1.0) {  // the θ-method's v₀
            m_startVelocity = m_particles.velocity;
            m_startAngular = m_particles.angularVelocity;
        }
        if (reductionActive()) timed(seconds.reduce, [&] { splitAggregates(ctx); });
        timed(seconds.impact, [&] { impactStage(ctx); });
        timed(seconds.solve, [&] { continuousStage(ctx); });
        // Velocity write-back (members co-move), merge, and x_{i+1} = x_i + h v_{i+1}.
        timed(seconds.integrate, [&] { writeBackVelocities(ctx); });
        if (reductionActive()) timed(seconds.reduce, [&] { mergeAggregates(ctx); });
        timed(seconds.integrate, [&] { integratePositions(ctx); });
    }
    timed(seconds.integrate, [&] { finishStep(ctx); });
    timed(seconds.measure, [&] { measure(ctx.stats); });
    return ctx.stats;
}

void World::prepareStep(StepContext& ctx) {
    applySchedule();
    ctx.stats.servosClosingIn = std::any_of(m_walls.begin(), m_walls.end(), [&](const Wall& w) {
        return staticServo(w) && !solvedServo(w);
    });
    emitAndRemove(ctx.stats);
    if (m_reduction.aggregateCount() > 0) {
        if (!reductionActive())
            m_reduction.dissolve(m_particles);
        else if (ctx.stats.removed > 0)
            m_reduction.dropRemoved(m_particles, m_walls);
    }
    // Particles are re-sorted in space now and then so that the contacts of neighbours,
    // generated in storage order, also sit close in memory for the sweeps.
    // On the neighbour lists (the smooth DEM) a nearly sorted store stays as it is, as LAMMPS
    // sorts its atoms only when they are listed again: a resting bed keeps its lists.
    if (m_settings.reorderInterval > 0 && m_stepCount % m_settings.reorderInterval == 0)
        reorderParticles(m_lastStepOnLists);
}

CollisionParams World::collisionParams(const StepContext& ctx) const {
    return CollisionParams{m_settings.contactMargin, m_settings.timeStep, m_settings.contactSkin,
                           ctx.settings.threads, m_settings.speculativeReach};
}

void World::detectContacts(StepContext& ctx) {
    m_collider.detect(m_particles, m_walls, m_meshes, collisionParams(ctx), m_contacts);
    if (m_settings.lineOfSight) dropHiddenPairs(m_particles, m_settings.timeStep, m_contacts);
    m_history.match(m_contacts, ctx.settings.threads);
    StepStats& stats = ctx.stats;
    stats.contacts = stats.speculativeContacts = 0;
    for (std::uint8_t f : m_contacts.flags) {
        if (f & kTouching)
            ++stats.contacts;
        else
            ++stats.speculativeContacts;
    }
}

void World::splitAggregates(StepContext& ctx) {
    m_startVelocity = m_particles.velocity;
    m_startAngular = m_particles.angularVelocity;
    const TrialSolution* trial = nullptr;
    if (m_settings.reduction.trialSplit && m_reduction.aggregateCount() > 0) {
        runTrialSolve(m_particles, m_contacts, m_history, m_materials, ctx.settings, gravity(),
                      m_trial);
        trial = &m_trial;
    }
    ctx.stats.split = m_reduction.split(m_particles, m_contacts, m_walls, m_sensors, m_materials,
                                        gravity(), m_settings, trial);
}

void World::impactStage(StepContext& ctx) {
    loadSolverBodies(ctx);
    // Impact stage (servin-2014 App. A): new contacts closing faster than v_imp get Newton's
    // law, the touching network around them keeps G v⁺ ≥ 0; hard rows, no warm start. Only
    // the network within impact.depth contacts of an impact is solved: one grain landing on
    // a resting bed must not cost 50 sweeps over every contact of the bed.
    // The static formulation has no velocities to resolve an impact of.
    if (!m_settings.impactEnabled || m_settings.formulation == Formulation::Static) return;
    StepStats& stats = ctx.stats;
    flagImpacts(ctx);
    if (stats.impacts == 0) return;
    solveImpacts(ctx);
    // An impact can throw a grain faster than contact detection assumed at the start of the
    // step, towards contacts it never saw (a resting grain struck from above goes through the
    // floor). Then detect again with the new velocities and resolve the new impacts this
    // reveals, once.
    if (!impactsOutranDetection(ctx)) return;
    writeBackVelocities(ctx);
    detectContacts(ctx);
    loadSolverBodies(ctx);
    const int first = stats.impacts;
    stats.impacts = 0;
    flagImpacts(ctx);
    if (stats.impacts > 0) solveImpacts(ctx);
    stats.impacts += first;
}

void World::continuousStage(StepContext& ctx) {
    // q_n takes v⁺ (wang-servin-berglund Algorithm 1 line 7) before the pre-step adds the
    // external forces (line 8); then warm start and PGS.
    // The history's warm start reads no velocity: it sets each row's multipliers as the row
    // is built (the velocity change, which needs v⁺ + h g, follows below).
    // The static formulation's interior point takes no warm start.
    const bool statics = m_settings.formulation == Formulation::Static;
    const bool warm = m_settings.warmStart && !statics;
    const bool warmWhileBuilding = warm && !warmStartReadsVelocities(ctx.settings);
    std::function<void(SolverContact&)> warmRow;
    if (warmWhileBuilding)
        warmRow = [&](SolverContact& r) {
            warmStartRow(r, m_contacts, m_history, m_materials, ctx.settings, m_bodies, ctx.map);
        };
    buildContinuousRows(m_contacts, m_materials, m_history, m_bodies, ctx.settings,
                        gravity().norm(), m_rows, ctx.map, warmRow);
    const Vec3 gh = m_settings.timeStep * gravity();
    // The last body is the static one; a wall's motor holds it against gravity.
    for (size_t i = 0; i + 1 < m_bodies.size(); ++i)
        if (m_bodies[i].invMass > 0.0 && !m_bodies[i].prismatic()) m_bodies[i].v += gh;
    pushSolvedWalls();
    if (m_reduction.aggregateCount() > 0)
        m_reduction.applyGyroscopic(m_bodies, m_settings.timeStep);
    if (warmWhileBuilding) {
        if (ctx.settings.warmStartVelocity) applyRowImpulses(m_rows, m_bodies);
    } else if (warm) {
        warmStartRows(m_rows, m_contacts, m_history, m_materials, ctx.settings, m_bodies, ctx.map);
    }
    if (m_probe.requested) runSolverProbe(ctx);
    if (m_captureProblem) {
        m_capturedProblem =
            ContactProblem::fromRows(m_rows, m_bodies, ProblemForm{m_settings.dimension, true});
        m_captureProblem = false;
    }
    if (m_captureStep) {
        m_capturedStep = CapturedStep{
            m_time, m_rows, m_bodies, ctx.settings, m_contacts.overlap, m_contacts.diameter};
        m_captureStep = false;
    }
    const SolveReport r = statics ? solveStatic(ctx) : solveContinuous(ctx);
    storeContinuousImpulses(m_rows, m_contacts, ctx.settings.threads);
    if (m_reduction.aggregateCount() > 0 && !m_settings.reduction.trialSplit)
        carryInternalImpulses(ctx.map);
    StepStats& stats = ctx.stats;
    stats.iterations = r.iterations;
    stats.iterationUnit = findSolver(m_settings.method)->iterationUnit;
    stats.residual = r.rowResidual;
    stats.maxResidual = r.maxRowResidual;
    stats.normalResidual = r.normalRowResidual;
    stats.solverResidual = r.residual;
    stats.solverResidualName = r.residualName;
    stats.converged = r.converged;
    stats.fallback = r.fallback;
    stats.predictionIterations = r.predictionIterations;
    if (statics) countStaticRunaways(stats);
}

void World::mergeAggregates(StepContext& ctx) {
    ctx.stats.merged = m_reduction.merge(m_particles, m_contacts, m_walls, m_sensors, m_materials,
                                         gravity(), m_startVelocity, m_startAngular, m_settings);
}

void World::finishStep(StepContext& ctx) {
    if (m_settings.mode != StepMode::Smooth) {
        // The governor learns what one row-sweep cost on this many threads.
        const double rowSweeps = std::max(1.0, double(m_rows.size()) * ctx.stats.iterations);
        m_governor.record(ctx.settings.threads, ctx.stats.seconds.solve / rowSweeps);
    }
    if (m_lastStepOnLists) {
        // Written out when asked for (contacts(), contactHistory()).
        accumulateWallForces(m_smoothPairs.wallContacts());
        m_contactsStale = m_historyStale = true;
    } else {
        accumulateWallForces(m_contacts);
        m_history.store(m_contacts, m_particles.nextId(), ctx.settings.threads);
    }
    m_time += m_settings.timeStep;
    ++m_stepCount;
    StepStats& stats = ctx.stats;
    stats.step = m_stepCount;
    stats.time = m_time;
    stats.particles = static_cast<int>(m_particles.size());
    stats.aggregates = m_reduction.aggregateCount();
    stats.members = m_reduction.memberCount();
    stats.reductionLevel = m_reduction.reductionLevel(m_particles.size());
}

// ---------------------------------------------------------------------------------------
// Pieces of the nonsmooth stages
// ---------------------------------------------------------------------------------------

void World::carryInternalImpulses(const BodyMap& map) {
    // A contact inside an aggregate has no row: it keeps the impulse it carried when it was
    // last solved, so the grains an aggregate frees start loaded, not cold (and the force
    // network and wall pressures still show the frozen forces). The trial split, where on,
    // solves these contacts instead.
    ContactSet& c = m_contacts;
    for (size_t i = 0; i < c.size(); ++i) {
        if (!map.internal(c, i) || c.memory[i] < 0) continue;
        const ContactMemory& m = m_history[c.memory[i]];
        c.normalImpulse[i] = m.normalImpulse;
        c.frictionImpulse[i] = m.frictionImpulse;
        c.rollingImpulse[i] = m.rollingImpulse;
        c.hertzScale[i] = m.hertzScale;
    }
}

void World::writeBackVelocities(const StepContext& ctx) {
    parallelFor(static_cast<int>(m_particles.size()), ctx.settings.threads,
                [&](int begin, int end) {
                    for (int i = begin; i < end; ++i) {
                        m_particles.velocity[i] = m_bodies[i].v;
                        m_particles.angularVelocity[i] = m_bodies[i].w;
                    }
                });
    if (m_reduction.aggregateCount() > 0) m_reduction.storeBodies(m_bodies, m_particles, m_walls);
    // A wall the solve moved keeps its velocity, within its motor's speed limit.
    for (size_t k = 0; k < m_wallBody.size() && k < m_walls.size(); ++k) {
        if (m_wallBody[k] < 0) continue;
        Wall& w = m_walls[k];
        const double along = m_bodies[m_wallBody[k]].v.dot(w.servo.direction);
        w.linearVelocity =
            std::clamp(along, -w.servo.maxSpeed, w.servo.maxSpeed) * w.servo.direction;
    }
}

void World::solveImpacts(StepContext& ctx) {
    m_impactRegion.mark(m_contacts, m_particles.size(), m_settings.impactDepth);
    buildImpactRows(m_contacts, m_materials, m_bodies, m_impactRegion, m_impactRows, ctx.map,
                    ctx.settings.threads);
    // Plain sweeps whatever the step's method: hard rows, a few sweeps, nothing to accelerate.
    const PgsResult r = m_impactPgs.solve(
        m_impactRows, m_bodies,
        pgsOptions(m_settings, ctx.settings.threads, m_settings.impactIterations));
    ctx.stats.impactIterations += r.iterations;
    storeImpactImpulses(m_impactRows, m_contacts, ctx.settings.threads);
}

bool World::impactsOutranDetection(const StepContext& ctx) const {
    // Detection keeps pairs within the static margin plus h|v|: a grain that now moves faster
    // by more than margin/h may reach a pair that was not kept.
    const double h = m_settings.timeStep;
    std::atomic<bool> outran{false};
    parallelFor(static_cast<int>(m_particles.size()), ctx.settings.threads,
                [&](int begin, int end) {
                    for (int i = begin; i < end && !outran.load(std::memory_order_relaxed); ++i) {
                        const double gained = m_bodies[i].v.norm() - m_particles.velocity[i].norm();
                        if (gained * h > m_settings.contactMargin * m_particles.radius[i])
                            outran = true;
                    }
                });
    return outran;
}

SolveControls World::solveControls(const StepContext& ctx, int iterations, double tolerance,
                                   std::vector<double>* residualHistory) const {
    SolveControls c;
    c.iterations = iterations;
    c.tolerance = tolerance;
    c.threads = ctx.settings.threads;
    c.simd = m_settings.simd;
    c.dimension = m_settings.dimension;
    c.timeStep = m_settings.timeStep;
    c.residualHistory = residualHistory;
    c.overlaps = m_contacts.overlap;
    c.blocks = &m_settings.solverBlocks;
    return c;
}

SolveReport World::solveContinuous(const StepContext& ctx) {
    std::vector<double>* history = m_recordResidual ? &m_residualHistory : nullptr;
    if (m_rows.empty()) {
        if (history) history->clear();  // no stale curve
        return SolveReport{};
    }
    StepProblem problem(m_rows, m_bodies, m_settings.dimension);
    return contactSolver(m_settings.method)
        .solve(problem, solveControls(ctx, m_settings.iterations, m_settings.tolerance, history));
}

ContactSolver& World::contactSolver(const std::string& name) {
    auto it = m_solvers.find(name);
    if (it == m_solvers.end()) it = m_solvers.emplace(name, findSolver(name)->make()).first;
    return *it->second;
}

SolveControls CapturedStep::controls(int iterations) const {
    SolveControls c;
    c.iterations = iterations;
    c.threads = settings.threads;
    c.simd = settings.simd;
    c.dimension = settings.dimension;
    c.timeStep = settings.timeStep;
    c.overlaps = overlaps;
    c.blocks = &settings.solverBlocks;
    return c;
}

void World::loadSolverBodies(StepContext& ctx) {
    const size_t n = m_particles.size();
    m_bodies.resize(n + 1);
    parallelFor(static_cast<int>(n), ctx.settings.threads, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            SolverBody& b = m_bodies[i];
            b.v = m_particles.velocity[i];
            b.w = m_particles.angularVelocity[i];
            b.invMass = m_particles.invMass[i];
            b.setIsotropicInvInertia(m_particles.invInertia[i]);
            b.axis.setZero();  // the slot may have held a wall's body last step
        }
    });
    m_bodies[n] = SolverBody{};  // the static body every wall contact uses as B
    // The map's arrays are (re)built with the aggregates' bodies.
    ctx.map = BodyMap{};
    if (m_reduction.aggregateCount() > 0) {
        m_reduction.loadBodies(m_particles, m_bodies);
        ctx.map = m_reduction.map();
    }
    // The walls the solve moves, between those and the static body (which stays last).
    m_wallBody.assign(m_walls.size(), -1);
    m_wallLinear.resize(m_walls.size());
    bool any = false;
    for (size_t k = 0; k < m_walls.size(); ++k) {
        const Wall& w = m_walls[k];
        m_wallLinear[k] = w.linearVelocity;
        if (!wallInSolve(w)) continue;
        if (!any) m_bodies.pop_back();
        any = true;
        m_wallBody[k] = static_cast<Index>(m_bodies.size());
        SolverBody& b = m_bodies.emplace_back();
        b.axis = w.servo.direction;
        b.v = w.linearVelocity.dot(b.axis) * b.axis;
        b.invMass = 1.0 / w.servo.mass;
    }
    if (!any) return;
    m_bodies.emplace_back();
    ctx.map.wallBody = m_wallBody;
    ctx.map.wallLinear = m_wallLinear;
}

bool World::wallInSolve(const Wall& w) const {
    return w.enabled && w.servo.active && w.servo.mass > 0.0 && m_time < w.servo.constantFrom &&
           m_settings.mode != StepMode::Smooth && m_settings.formulation == Formulation::Dynamic;
}

void World::pushSolvedWalls() {
    const double h = m_settings.timeStep;
    for (size_t k = 0; k < m_walls.size(); ++k) {
        if (k >= m_wallBody.size() || m_wallBody[k] < 0) continue;
        const ServoControl& s = m_walls[k].servo;
        m_bodies[m_wallBody[k]].v += h * s.stress * servoArea(s) / s.mass * s.direction;
    }
}

void World::flagImpacts(StepContext& ctx) {
    const double h = m_settings.timeStep;
    const double threshold = m_settings.impactThreshold;
    std::atomic<int> impacts{0};
    parallelFor(static_cast<int>(m_contacts.size()), ctx.settings.threads, [&](int begin, int end) {
        int found = 0;
        for (int i = begin; i < end; ++i) {
            std::uint8_t& f = m_contacts.flags[i];
            if (f & kWasTouching) continue;  // impacts are new contacts only
            if (ctx.map.internal(m_contacts, i)) continue;
            const double incoming =
                relativeContactVelocity(m_contacts, i, m_bodies, ctx.map).dot(m_contacts.normal[i]);
            if (incoming >= -threshold) continue;
            // Touching, or closing the gap within this step: act before the overlap happens so
            // the separation speed is exactly e times the approach speed.
            const double overlap = m_contacts.overlap[i];
            if (overlap >= 0.0 || overlap - h * incoming > 0.0) {
                f |= kImpact;
                ++found;
            }
        }
        impacts += found;
    });
    ctx.stats.impacts += impacts;
}

void World::accumulateWallForces(const ContactSet& c) {
    for (Wall& w : m_walls) {
        w.force.setZero();
        w.torque.setZero();
        w.stiffness = 0.0;
    }
    const double invH = 1.0 / m_settings.timeStep;
    for (size_t i = 0; i < c.size(); ++i) {
        if (!(c.flags[i] & kWallContact)) continue;
        Wall& w = m_walls[c.bodyB[i]];
        const Vec3 impulse =
            (c.normalImpulse[i] + c.impactImpulse[i]) * c.normal[i] + c.frictionImpulse[i];
        const Vec3 f = impulse * invH;
        w.force += f;
        w.torque += c.leverB[i].cross(f) + c.rollingImpulse[i] * invH;
        if (w.servo.relaxation > 0.0 && c.overlap[i] > 0.0) {
            const NormalLaw law =
                normalLaw(m_materials.pair(c.materialA[i], c.materialB[i]), m_settings.contactLaw,
                          c.effectiveDiameter[i], c.diameter[i], m_settings.referenceOverlap);
            const double along = c.normal[i].dot(w.servo.direction);
            w.stiffness += law.tangentStiffness(c.overlap[i]) * along * along;
        }
    }
}

void World::integratePositions(const StepContext& ctx) {
    const double h = m_settings.timeStep;
    const bool planar = m_settings.dimension == 2;
    // The θ-method's positions (nonsmooth steps only; the smooth DEM integrates its own way).
    std::optional<double> theta;
    if (m_settings.theta < 1.0 && m_settings.mode == StepMode::Nonsmooth &&
        m_startVelocity.size() == m_particles.size())
        theta = m_settings.theta;
    parallelFor(static_cast<int>(m_particles.size()), ctx.settings.threads,
                [&](int begin, int end) {
                    if (planar) keepInPlane(m_particles, begin, end);
                    if (theta) {
                        // x₁ = x₀ + h(θ v₁ + (1 − θ) v₀), the displacement the contacts held for.
                        for (int i = begin; i < end; ++i) {
                            m_particles.position[i] += h * (*theta * m_particles.velocity[i] +
                                                            (1.0 - *theta) * m_startVelocity[i]);
                            const Vec3 w = *theta * m_particles.angularVelocity[i] +
                                           (1.0 - *theta) * m_startAngular[i];
                            if (w.squaredNorm() > 0.0)
                                m_particles.orientation[i] =
                                    integrateOrientation(m_particles.orientation[i], w, h);
                        }
                        return;
                    }
                    for (int i = begin; i < end; ++i) {
                        m_particles.position[i] += h * m_particles.velocity[i];
                        const Vec3& w = m_particles.angularVelocity[i];
                        if (w.squaredNorm() > 0.0)
                            m_particles.orientation[i] =
                                integrateOrientation(m_particles.orientation[i], w, h);
                    }
                });
    for (Wall& w : m_walls)
        w.move(h);
    if (m_reduction.aggregateCount() > 0) m_reduction.integrate(m_particles, h);
    for (SplitSensor& s : m_sensors)
        s.move(h);
}

// ---------------------------------------------------------------------------------------
// Smooth DEM
// ---------------------------------------------------------------------------------------

void World::detectSmooth(StepContext& ctx) {
    m_smoothPairs.detect(m_collider, m_particles, m_walls, m_meshes, collisionParams(ctx),
                         m_settings.contactLaw, m_history);
}

void World::smoothPairForces(StepContext& ctx) {
    const size_t n = m_particles.size();
    m_force.assign(n, Vec3::Zero());
    m_torque.assign(n, Vec3::Zero());
    m_smoothTotals = m_smoothPairs.forces(m_collider, m_particles, m_materials, m_settings,
                                          m_history, ctx.settings.threads, m_force, m_torque);
    ctx.stats.contacts = m_smoothTotals.contacts;
    ctx.stats.speculativeContacts = 0;
}

void World::smoothForces(const StepContext& ctx) {
    const size_t n = m_particles.size();
    m_force.assign(n, Vec3::Zero());
    m_torque.assign(n, Vec3::Zero());
    computeSmoothForces(m_particles, m_contacts, m_history, m_materials, m_settings, m_force,
                        m_torque, ctx.settings.threads);
}

void World::integrateSmooth(const StepContext& ctx) {
    // Symplectic Euler: v_{i+1} = v_i + h M⁻¹ f(x_i, v_i), x_{i+1} = x_i + h v_{i+1}.
    const double h = m_settings.timeStep;
    const Vec3 g = gravity();
    parallelFor(
        static_cast<int>(m_particles.size()), ctx.settings.threads, [&](int begin, int end) {
            for (int i = begin; i < end; ++i) {
                if (m_particles.invMass[i] > 0.0)
                    m_particles.velocity[i] += h * (m_force[i] * m_particles.invMass[i] + g);
                m_particles.angularVelocity[i] += h * m_particles.invInertia[i] * m_torque[i];
            }
        });
    integratePositions(ctx);
}

}  // namespace ndem
