// Between steps: schedules, servo walls, emitters, sinks and the storage order.
#include "world/world.hpp"

#include "collide/broad_phase.hpp"

#include <algorithm>
#include <cmath>

namespace ndem {

void World::applySchedule() {
    for (Wall& w : m_walls) {
        if (w.enabled && m_time >= w.disableAt) w.enabled = false;
        // A prescribed motion that ends: a loading that stops rather than running on for ever
        // in the app, which steps past the scene's duration.
        if (m_time >= w.stopAt && !w.servo.active) {
            w.linearVelocity.setZero();
            w.angularVelocity.setZero();
        }
    }
    scheduleStaticServos();
    for (Wall& w : m_walls) {
        if (!w.servo.active) continue;
        const ServoControl& s = w.servo;
        if (m_time >= s.constantFrom) {
            w.linearVelocity = s.constantSpeed * s.direction;
            continue;
        }
        // The static formulation moves it as an unknown of the step's problem (solveStatic).
        if (staticServo(w)) continue;  // scheduled above
        const double area = servoArea(s);
        // The particles push back along −direction; move in while they carry less than σ A.
        const double pushBack = -w.force.dot(s.direction);
        if (s.relaxation > 0.0) {
            // A PI controller on the force error, scaled by the contacts' stiffness K: with
            // K exact the error obeys e' = (1 − α) e − γ Σe, whose roots stay inside the unit
            // circle for K off by a factor of several either way. Nothing touching yet: come in
            // at full speed, nothing learned.
            const double error = s.stress * area - pushBack;
            double speed = error > 0.0 ? s.maxSpeed : 0.0;
            if (w.stiffness > 0.0) {
                const double scale = error / (w.stiffness * m_settings.timeStep);
                w.learnedSpeed =
                    std::clamp(w.learnedSpeed + s.integral * scale, -s.maxSpeed, s.maxSpeed);
                speed = s.relaxation * scale + w.learnedSpeed;
            } else {
                w.learnedSpeed = 0.0;
            }
            w.linearVelocity = std::clamp(speed, -s.maxSpeed, s.maxSpeed) * s.direction;
            continue;
        }
        if (wallInSolve(w)) continue;  // its body in the step's solve moves it
        if (s.mass > 0.0) {
            // The smooth DEM's: symplectic Euler on the wall's one degree of freedom, with the
            // particles' force of the step just taken: stable while the packing's stiffness K keeps
            // h √(K/m) < 2.
            const double along = w.linearVelocity.dot(s.direction) +
                                 m_settings.timeStep * (s.stress * area - pushBack) / s.mass;
            w.linearVelocity = std::clamp(along, -s.maxSpeed, s.maxSpeed) * s.direction;
            continue;
        }
        const double speed =
            std::clamp(s.gain * (s.stress * area - pushBack), -s.maxSpeed, s.maxSpeed);
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
            if ((x.array() >= s.min.array() - reach).all() &&
                (x.array() <= s.max.array() + reach).all())
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
                for (int k = 0; k < 3; ++k)
                    p.position[k] = e.random.uniform(s.min[k], s.max[k]);
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
            nearby.push_back(insertParticle(p));
            ++e.emitted;
            ++stats.emitted;
        }
    }
    m_emittedTotal += stats.emitted;
    m_removedTotal += stats.removed;
}

void World::reorderParticles(bool keepNearlySorted) {
    const size_t n = m_particles.size();
    if (n < 2) return;
    double rMax = 0.0;
    for (double r : m_particles.radius)
        rMax = std::max(rMax, r);
    BroadPhase grid;
    grid.build({}, 2.0 * rMax);
    std::vector<std::pair<std::uint64_t, Index>> keyed(n);
    for (size_t i = 0; i < n; ++i)
        keyed[i] = {grid.spatialKey(m_particles.position[i]), static_cast<Index>(i)};
    if (keepNearlySorted) {
        // A resting packing where a few grains cross a cell's face keeps its order: the
        // locality is as good, and a new order would make the neighbour lists search again.
        size_t descents = 0;
        for (size_t i = 1; i < n; ++i)
            descents += keyed[i].first < keyed[i - 1].first;
        if (64 * descents < n) return;
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<Index> order(n);
    bool identity = true;
    for (size_t i = 0; i < n; ++i) {
        order[i] = keyed[i].second;
        identity &= (order[i] == static_cast<Index>(i));
    }
    if (!identity) m_particles.permute(order);
}

}  // namespace ndem
