#include "core/world.hpp"

#include "core/material_properties.hpp"
#include "core/parallel.hpp"

#include "solve/contact_rows.hpp"
#include "solve/pgs_solver.hpp"
#include "solve/smooth_dem.hpp"
#include "solve/warm_start.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <limits>
#include <sstream>

namespace ndem {

/// Measures consecutive phases of a step with one steady clock.
class PhaseClock {
public:
    PhaseClock() : m_last(std::chrono::steady_clock::now()) {}
    /// Seconds since the previous lap (or construction).
    double lap() {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - m_last).count();
        m_last = now;
        return s;
    }

private:
    std::chrono::steady_clock::time_point m_last;
};

Expected<World> World::create(const Scene& scene) {
    World w;
    w.m_name = scene.name;
    std::string error;
    if (!w.m_materials.build(scene.materials, scene.contactMaterials, &error))
        return Error{"contactMaterials: " + error};
    w.m_contactOverrides = scene.contactMaterials;
    w.m_walls = scene.walls;
    w.m_meshes = scene.meshes;
    for (TriangleMesh& m : w.m_meshes) m.buildGrid();
    const size_t materialCount = w.m_materials.materials().size();
    for (const Wall& wall : w.m_walls) {
        if (wall.material >= materialCount)
            return Error{"wall '" + wall.name + "': unknown material index"};
        if (wall.shape == WallShape::Mesh &&
            (wall.mesh < 0 || wall.mesh >= static_cast<int>(w.m_meshes.size())))
            return Error{"wall '" + wall.name + "': mesh index out of range"};
    }
    w.m_particles.reserve(scene.particles.size());
    for (const ParticleSpec& p : scene.particles) {
        if (p.material >= materialCount) return Error{"particle: unknown material index"};
        if (!(p.radius > 0.0)) return Error{"particle: radius must be > 0"};
        w.m_particles.add(p, w.m_materials.materials()[p.material].density);
    }
    for (const EmitterSpec& e : scene.emitters) {
        if (e.material >= materialCount) return Error{"emitter '" + e.name + "': unknown material"};
        Emitter emitter;
        emitter.spec = e;
        emitter.random = Random(e.seed);
        w.m_emitters.push_back(emitter);
    }
    w.m_sinks = scene.sinks;
    w.m_sensors = scene.sensors;
    if (auto e = w.applySettings(scene.settings)) return *e;
    return w;
}

std::optional<Error> World::setMaterials(const std::vector<Material>& materials) {
    const std::vector<Material>& old = m_materials.materials();
    if (materials.size() != old.size())
        return Error{"materials: the number of materials cannot change while running (reset)"};
    for (size_t i = 0; i < materials.size(); ++i) {
        if (materials[i].name != old[i].name)
            return Error{"materials." + std::to_string(i) + ".name: cannot rename a material"};
        if (materials[i].density != old[i].density)
            return Error{"materials." + old[i].name +
                         ".density: particle masses are fixed; change it in the scene and reset"};
        if (auto e = validate(materials[i])) return e;
    }
    MaterialTable table;
    std::string error;
    if (!table.build(materials, m_contactOverrides, &error)) return Error{"contactMaterials: " + error};
    m_materials = std::move(table);
    return std::nullopt;
}

Index World::addParticle(const ParticleSpec& spec) {
    return m_particles.add(spec, m_materials.materials()[spec.material].density);
}

double World::smoothStabilityLimit() const {
    std::vector<MaterialId> wallMaterials;
    for (const Wall& w : m_walls) wallMaterials.push_back(w.material);
    return ndem::smoothStabilityLimit(m_particles, m_materials, wallMaterials, m_settings);
}

std::optional<Error> World::applySettings(const StepSettings& s) {
    if (auto e = validate(s)) return e;
    if (s.mode == StepMode::Smooth) {
        std::vector<MaterialId> wallMaterials;
        for (const Wall& w : m_walls) wallMaterials.push_back(w.material);
        const double limit = ndem::smoothStabilityLimit(m_particles, m_materials, wallMaterials, s);
        if (s.timeStep > limit) {
            std::ostringstream msg;
            msg << "settings.timeStep: h = " << s.timeStep
                << " s exceeds the smooth-DEM stability limit sqrt(m/k) = " << limit
                << " s of this scene (lower timeStep or use mode semi-smooth)";
            return Error{msg.str()};
        }
    }
    m_settings = s;
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------
// The step
// ---------------------------------------------------------------------------------------

StepStats World::step() {
    StepStats stats;
    // This step's settings with the thread count resolved (0: chosen by measurement).
    m_stepSettings = m_settings;
    m_stepSettings.threads = m_governor.threads(m_settings.threads);
    stats.threads = m_stepSettings.threads;
    for (auto& m : m_measurements) m->prepare(*this);
    PhaseClock clock;
    stats.reductionEnabled = reductionActive();
    applySchedule();
    emitAndRemove(stats);
    if (m_reduction.aggregateCount() > 0) {
        if (!reductionActive())
            m_reduction.dissolve(m_particles);
        else if (stats.removed > 0)
            m_reduction.dropRemoved(m_particles, m_walls);
    }

    // Contact detection. Particles are re-sorted in space now and then so that the contacts
    // of neighbours, generated in storage order, also sit close in memory for the sweeps.
    if (m_settings.reorderInterval > 0 && m_stepCount % m_settings.reorderInterval == 0)
        reorderParticles();
    detectContacts(stats);
    stats.seconds.collide = clock.lap();

    if (m_settings.mode == StepMode::Smooth)
        stepSmooth(stats, clock);
    else
        stepNonsmooth(stats, clock);

    accumulateWallForces();
    m_history.store(m_contacts, m_particles.nextId());
    m_time += m_settings.timeStep;
    ++m_stepCount;
    stats.step = m_stepCount;
    stats.time = m_time;
    stats.particles = static_cast<int>(m_particles.size());
    stats.seconds.integrate += clock.lap();

    stats.aggregates = m_reduction.aggregateCount();
    stats.members = m_reduction.memberCount();
    stats.reductionLevel = m_reduction.reductionLevel(m_particles.size());
    measure(stats);
    stats.seconds.measure = clock.lap();
    return stats;
}

void World::stepNonsmooth(StepStats& stats, PhaseClock& clock) {
    reduceBeforeImpacts(stats, clock);
    loadSolverBodies();

    // Impact stage (servin-2014 App. A): new contacts closing faster than v_imp get Newton's
    // law, the touching network around them keeps G v⁺ ≥ 0; hard rows, no warm start. Only
    // the network within impact.depth contacts of an impact is solved: one grain landing on
    // a resting bed must not cost 50 sweeps over every contact of the bed.
    if (m_settings.impactEnabled) {
        flagImpacts(stats);
        if (stats.impacts > 0) {
            solveImpacts(stats);
            // An impact can throw a grain faster than contact detection assumed at the start of
            // the step, towards contacts it never saw (a resting grain struck from above goes
            // through the floor). Then detect again with the new velocities and resolve the
            // new impacts this reveals, once.
            if (impactsOutranDetection()) {
                writeBackVelocities();
                detectContacts(stats);
                loadSolverBodies();
                const int first = stats.impacts;
                stats.impacts = 0;
                flagImpacts(stats);
                if (stats.impacts > 0) solveImpacts(stats);
                stats.impacts += first;
            }
        }
    }
    stats.seconds.impact = clock.lap();

    // Continuous stage. q_n takes v⁺ (Algorithm 1 line 7) before the pre-step adds the
    // external forces (line 8); then warm start and PGS.
    const BodyMap map = m_reduction.aggregateCount() > 0 ? m_reduction.map() : BodyMap{};
    buildContinuousRows(m_contacts, m_materials, m_history, m_bodies, m_stepSettings,
                        gravity().norm(), m_rows, map);
    const Vec3 gh = m_settings.timeStep * gravity();
    for (size_t i = 0; i + 1 < m_bodies.size(); ++i)  // the last body is the static one
        if (m_bodies[i].invMass > 0.0) m_bodies[i].v += gh;
    if (m_reduction.aggregateCount() > 0) m_reduction.applyGyroscopic(m_bodies, m_settings.timeStep);
    if (m_settings.warmStart)
        warmStartRows(m_rows, m_contacts, m_history, m_materials, m_stepSettings, m_bodies, map);
    if (m_probe.requested) runSolverProbe();
    const PgsResult r =
        m_pgs.solve(m_rows, m_bodies,
                    pgsOptions(m_settings.iterations, m_settings.tolerance,
                               m_recordResidual ? &m_residualHistory : nullptr));
    storeContinuousImpulses(m_rows, m_contacts, m_stepSettings.threads);
    if (m_reduction.aggregateCount() > 0 && !m_settings.reduction.trialSplit) carryInternalImpulses(map);
    stats.iterations = r.iterations;
    stats.residual = r.residual;
    stats.maxResidual = r.maxResidual;
    stats.normalResidual = r.normalResidual;
    stats.seconds.solve = clock.lap();
    m_governor.record(m_stepSettings.threads,
                      stats.seconds.solve / std::max(1.0, double(m_rows.size()) * r.iterations));

    // Velocity write-back (members co-move), merge, and x_{i+1} = x_i + h v_{i+1}.
    writeBackVelocities();
    reduceAfterSolve(stats, clock);
    integratePositions();
}

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

void World::writeBackVelocities() {
    for (size_t i = 0; i < m_particles.size(); ++i) {
        m_particles.velocity[i] = m_bodies[i].v;
        m_particles.angularVelocity[i] = m_bodies[i].w;
    }
    if (m_reduction.aggregateCount() > 0) m_reduction.storeBodies(m_bodies, m_particles, m_walls);
}

void World::reduceBeforeImpacts(StepStats& stats, PhaseClock& clock) {
    if (!reductionActive()) return;
    stats.seconds.collide += clock.lap();
    m_startVelocity = m_particles.velocity;
    m_startAngular = m_particles.angularVelocity;
    const TrialSolution* trial = nullptr;
    if (m_settings.reduction.trialSplit && m_reduction.aggregateCount() > 0) {
        runTrialSolve(m_particles, m_contacts, m_history, m_materials, m_stepSettings, gravity(), m_trial);
        trial = &m_trial;
    }
    stats.split = m_reduction.split(m_particles, m_contacts, m_walls, m_sensors, m_materials,
                                    gravity(), m_settings, trial);
    stats.seconds.reduce += clock.lap();
}

void World::reduceAfterSolve(StepStats& stats, PhaseClock& clock) {
    if (!reductionActive()) return;
    stats.seconds.solve += clock.lap();
    stats.merged = m_reduction.merge(m_particles, m_contacts, m_walls, m_sensors, m_materials,
                                     gravity(), m_startVelocity, m_startAngular, m_settings);
    stats.seconds.reduce += clock.lap();
}

void World::stepSmooth(StepStats& stats, PhaseClock& clock) {
    const size_t n = m_particles.size();
    m_force.assign(n, Vec3::Zero());
    m_torque.assign(n, Vec3::Zero());
    computeSmoothForces(m_particles, m_contacts, m_history, m_materials, m_settings, m_force,
                        m_torque);
    stats.seconds.solve = clock.lap();

    // Symplectic Euler: v_{i+1} = v_i + h M⁻¹ f(x_i, v_i), x_{i+1} = x_i + h v_{i+1}.
    const double h = m_settings.timeStep;
    const Vec3 g = gravity();
    for (size_t i = 0; i < n; ++i) {
        if (m_particles.invMass[i] > 0.0)
            m_particles.velocity[i] += h * (m_force[i] * m_particles.invMass[i] + g);
        m_particles.angularVelocity[i] += h * m_particles.invInertia[i] * m_torque[i];
    }
    integratePositions();
}

// ---------------------------------------------------------------------------------------
// Between steps: schedules, servo walls, emitters and sinks
// ---------------------------------------------------------------------------------------

void World::applySchedule() {
    for (Wall& w : m_walls) {
        if (w.enabled && m_time >= w.disableAt) w.enabled = false;
        if (!w.servo.active) continue;
        const ServoControl& s = w.servo;
        if (m_time >= s.constantFrom) {
            w.linearVelocity = s.constantSpeed * s.direction;
            continue;
        }
        double area = s.area;
        if (s.areaWalls[0] >= 0) {
            auto gap = [&](int a, int b) {
                const Vec3 normal = m_walls[a].orientation * Vec3::UnitZ();
                return std::abs((m_walls[a].position - m_walls[b].position).dot(normal));
            };
            area = gap(s.areaWalls[0], s.areaWalls[1]) * gap(s.areaWalls[2], s.areaWalls[3]);
        }
        // The particles push back along −direction; move in while they carry less than σ A.
        const double pushBack = -w.force.dot(s.direction);
        const double speed = std::clamp(s.gain * (s.stress * area - pushBack), -s.maxSpeed, s.maxSpeed);
        w.linearVelocity = speed * s.direction;
    }
}

void World::emitAndRemove(StepStats& stats) {
    for (const SinkSpec& sink : m_sinks) {
        for (size_t k = m_particles.size(); k-- > 0;) {
            const Vec3& x = m_particles.position[k];
            if ((x.array() >= sink.min.array()).all() && (x.array() <= sink.max.array()).all()) {
                m_particles.remove(static_cast<Index>(k));
                ++stats.removed;
            }
        }
    }
    const double h = m_settings.timeStep;
    for (Emitter& e : m_emitters) {
        const EmitterSpec& s = e.spec;
        if (m_time < s.start || m_time >= s.stop) continue;
        e.owed += s.rate * h;
        const double rMax = s.radii.max();
        // Particles already near the box: a new one must not overlap them (few, found once).
        std::vector<Index> nearby;
        for (size_t i = 0; i < m_particles.size(); ++i) {
            const Vec3& x = m_particles.position[i];
            const double reach = m_particles.radius[i] + rMax;
            if ((x.array() >= s.min.array() - reach).all() && (x.array() <= s.max.array() + reach).all())
                nearby.push_back(static_cast<Index>(i));
        }
        while (e.owed >= 1.0 && (s.maxCount == 0 || e.emitted < s.maxCount)) {
            e.owed -= 1.0;
            ParticleSpec p;
            p.radius = s.radii.sample(e.random);
            p.velocity = s.velocity;
            p.material = s.material;
            bool placed = false;
            for (int attempt = 0; attempt < 30 && !placed; ++attempt) {
                for (int k = 0; k < 3; ++k) p.position[k] = e.random.uniform(s.min[k], s.max[k]);
                placed = std::none_of(nearby.begin(), nearby.end(), [&](Index j) {
                    const double gap = p.radius + m_particles.radius[j];
                    return (m_particles.position[j] - p.position).squaredNorm() < gap * gap;
                });
            }
            if (!placed) {
                // The box is crowded: keep the debt and try next step rather than overlap.
                e.owed += 1.0;
                ++e.skipped;
                break;
            }
            nearby.push_back(addParticle(p));
            ++e.emitted;
            ++stats.emitted;
        }
    }
    m_emittedTotal += stats.emitted;
    m_removedTotal += stats.removed;
}

void World::solveImpacts(StepStats& stats) {
    m_impactRegion.mark(m_contacts, m_particles.size(), m_settings.impactDepth);
    buildImpactRows(m_contacts, m_materials, m_bodies, m_impactRegion, m_impactRows,
                    m_reduction.aggregateCount() > 0 ? m_reduction.map() : BodyMap{});
    PgsOptions options = pgsOptions(m_settings.impactIterations);
    options.method = SolverMethod::Pgs;  // hard rows, a few sweeps: nothing to accelerate
    const PgsResult r = m_impactPgs.solve(m_impactRows, m_bodies, options);
    stats.impactIterations += r.iterations;
    storeImpactImpulses(m_impactRows, m_contacts);
}

bool World::impactsOutranDetection() const {
    // Detection keeps pairs within the static margin plus h|v|: a grain that now moves faster
    // by more than margin/h may reach a pair that was not kept.
    const double h = m_settings.timeStep;
    for (size_t i = 0; i < m_particles.size(); ++i) {
        const double gained = m_bodies[i].v.norm() - m_particles.velocity[i].norm();
        if (gained * h > m_settings.contactMargin * m_particles.radius[i]) return true;
    }
    return false;
}

void World::detectContacts(StepStats& stats) {
    const CollisionParams params{m_settings.contactMargin, m_settings.timeStep,
                                 m_settings.contactSkin, m_stepSettings.threads};
    m_collider.detect(m_particles, m_walls, m_meshes, params, m_contacts);
    m_history.match(m_contacts);
    stats.contacts = stats.speculativeContacts = 0;
    for (std::uint8_t f : m_contacts.flags) {
        if (f & kTouching)
            ++stats.contacts;
        else
            ++stats.speculativeContacts;
    }
}

void World::requestSolverProbe(int referenceIterations, int iterations) {
    m_probe = SolverProbe{};
    m_probe.referenceIterations = std::max(1, referenceIterations);
    m_probe.iterations = std::max(1, iterations);
    m_probe.requested = true;
}

void World::runSolverProbe() {
    // Copies of the problem as the real solve is about to see it (after the warm start).
    const std::vector<SolverContact> initialRows = m_rows;
    const std::vector<SolverBody> initialBodies = m_bodies;
    std::vector<SolverContact> rows = initialRows;
    std::vector<SolverBody> bodies = initialBodies;
    PgsSolver solver;
    solver.solve(rows, bodies, pgsOptions(m_probe.referenceIterations));
    std::vector<double> reference(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) reference[i] = rows[i].scale * rows[i].lambda[0];

    rows = initialRows;
    bodies = initialBodies;
    auto record = [&](double residual, double normalResidual) {
        double sum = 0.0;
        int loaded = 0;
        for (size_t i = 0; i < rows.size(); ++i) {
            if (reference[i] <= 0.0) continue;
            sum += std::abs(reference[i] - rows[i].scale * rows[i].lambda[0]) / reference[i];
            ++loaded;
        }
        m_probe.residual.push_back(residual);
        m_probe.normalResidual.push_back(normalResidual);
        m_probe.multiplierError.push_back(loaded ? sum / loaded : 0.0);
    };
    record(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN());
    for (int k = 0; k < m_probe.iterations; ++k) {
        const PgsResult r = solver.solve(rows, bodies, pgsOptions(1));
        record(r.residual, r.normalResidual);
    }
    m_probe.time = m_time;
    m_probe.requested = false;
    m_probe.done = true;
}

PgsOptions World::pgsOptions(int iterations, double tolerance,
                             std::vector<double>* residualHistory) const {
    PgsOptions o;
    o.iterations = iterations;
    o.tolerance = tolerance;
    o.friction = m_settings.frictionModel;
    o.residualHistory = residualHistory;
    o.threads = m_stepSettings.threads;
    o.simd = m_settings.simd;
    o.method = m_settings.method;
    o.order = m_settings.order;
    return o;
}

void World::loadSolverBodies() {
    const size_t n = m_particles.size();
    m_bodies.resize(n + 1);
    for (size_t i = 0; i < n; ++i) {
        SolverBody& b = m_bodies[i];
        b.v = m_particles.velocity[i];
        b.w = m_particles.angularVelocity[i];
        b.invMass = m_particles.invMass[i];
        b.setIsotropicInvInertia(m_particles.invInertia[i]);
    }
    m_bodies[n] = SolverBody{};  // the static body every wall contact uses as B
    if (m_reduction.aggregateCount() > 0) m_reduction.loadBodies(m_particles, m_bodies);
}

void World::flagImpacts(StepStats& stats) {
    const double h = m_settings.timeStep;
    const double threshold = m_settings.impactThreshold;
    const BodyMap map = m_reduction.aggregateCount() > 0 ? m_reduction.map() : BodyMap{};
    for (size_t i = 0; i < m_contacts.size(); ++i) {
        std::uint8_t& f = m_contacts.flags[i];
        if (f & kWasTouching) continue;  // impacts are new contacts only
        if (map.internal(m_contacts, i)) continue;
        const double incoming =
            relativeContactVelocity(m_contacts, i, m_bodies, map).dot(m_contacts.normal[i]);
        if (incoming >= -threshold) continue;
        // Touching, or closing the gap within this step: act before the overlap happens so the
        // separation speed is exactly e times the approach speed.
        const double overlap = m_contacts.overlap[i];
        if (overlap >= 0.0 || overlap - h * incoming > 0.0) {
            f |= kImpact;
            ++stats.impacts;
        }
    }
}

void World::accumulateWallForces() {
    for (Wall& w : m_walls) {
        w.force.setZero();
        w.torque.setZero();
    }
    const double invH = 1.0 / m_settings.timeStep;
    for (size_t i = 0; i < m_contacts.size(); ++i) {
        if (!(m_contacts.flags[i] & kWallContact)) continue;
        Wall& w = m_walls[m_contacts.bodyB[i]];
        const Vec3 impulse = (m_contacts.normalImpulse[i] + m_contacts.impactImpulse[i]) *
                                 m_contacts.normal[i] +
                             m_contacts.frictionImpulse[i];
        const Vec3 f = impulse * invH;
        w.force += f;
        w.torque += m_contacts.leverB[i].cross(f) + m_contacts.rollingImpulse[i] * invH;
    }
}

void World::integratePositions() {
    const double h = m_settings.timeStep;
    for (size_t i = 0; i < m_particles.size(); ++i) {
        m_particles.position[i] += h * m_particles.velocity[i];
        const Vec3& w = m_particles.angularVelocity[i];
        if (w.squaredNorm() > 0.0)
            m_particles.orientation[i] = integrateOrientation(m_particles.orientation[i], w, h);
    }
    for (Wall& w : m_walls) w.move(h);
    if (m_reduction.aggregateCount() > 0) m_reduction.integrate(m_particles, h);
    for (SplitSensor& s : m_sensors) s.move(h);
}

void World::reorderParticles() {
    const size_t n = m_particles.size();
    if (n < 2) return;
    double rMax = 0.0;
    for (double r : m_particles.radius) rMax = std::max(rMax, r);
    BroadPhase grid;
    grid.build({}, 2.0 * rMax);
    std::vector<std::pair<std::uint64_t, Index>> keyed(n);
    for (size_t i = 0; i < n; ++i)
        keyed[i] = {grid.spatialKey(m_particles.position[i]), static_cast<Index>(i)};
    std::sort(keyed.begin(), keyed.end());
    std::vector<Index> order(n);
    bool identity = true;
    for (size_t i = 0; i < n; ++i) {
        order[i] = keyed[i].second;
        identity &= (order[i] == static_cast<Index>(i));
    }
    if (!identity) m_particles.permute(order);
}

void World::measure(StepStats& stats) {
    double kinetic = 0.0;
    for (size_t i = 0; i < m_particles.size(); ++i) {
        if (m_particles.invMass[i] <= 0.0) continue;
        const double inertia =
            m_particles.invInertia[i] > 0.0 ? 1.0 / m_particles.invInertia[i] : 0.0;
        kinetic += 0.5 * m_particles.mass[i] * m_particles.velocity[i].squaredNorm() +
                   0.5 * inertia * m_particles.angularVelocity[i].squaredNorm();
    }
    stats.kineticEnergy = kinetic;
    double sum = 0.0, maxOverlap = 0.0;
    int touching = 0;
    for (size_t i = 0; i < m_contacts.size(); ++i) {
        if (!(m_contacts.flags[i] & kTouching)) continue;
        const double e = m_contacts.overlap[i] / m_contacts.diameter[i];
        sum += e;
        maxOverlap = std::max(maxOverlap, e);
        ++touching;
    }
    stats.meanOverlap = touching ? sum / touching : 0.0;
    stats.maxOverlap = maxOverlap;
    for (auto& m : m_measurements) m->sample(*this, stats);
}

}  // namespace ndem
