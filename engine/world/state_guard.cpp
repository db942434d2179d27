#include "world/state_guard.hpp"

#include "world/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ndem {

namespace {

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
    char text[96];
    std::snprintf(text, sizeof text, pattern, a, b, c);
    return text;
}

std::string vec(const Vec3& v) { return format("(%.4g, %.4g, %.4g)", v.x(), v.y(), v.z()); }

bool finite(const Vec3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

/// Whether anything may feed energy into the grains this step: an emitter, a moving or
/// rotating wall or belt, a grain driven at a prescribed velocity, gravity still ramping, or
/// grains added or removed between steps.
bool energySource(const World& world, const StepStats& stats, size_t lastCount) {
    if (stats.emitted > 0 || world.particles().size() != lastCount) return true;
    const StepSettings& s = world.settings();
    if (s.gravityRampTime > 0.0 && world.time() <= s.gravityRampTime + s.timeStep) return true;
    for (const Wall& w : world.walls())
        if (w.enabled && (!w.linearVelocity.isZero() || !w.angularVelocity.isZero() ||
                          !w.surfaceVelocity.isZero()))
            return true;
    const ParticleStore& p = world.particles();
    for (size_t i = 0; i < p.size(); ++i)
        if (p.invMass[i] <= 0.0 && !p.velocity[i].isZero()) return true;
    return false;
}

struct Energy {
    double mechanical = 0.0;  ///< kinetic + gravity potential −m g·x of the free grains (J)
    double scale = 0.0;       ///< lifting every free grain by its own diameter (J)
    double mass = 0.0;        ///< of the free grains (kg)
};

/// With the grains' kinetic energy (the step's statistics hold it).
Energy energyOf(const World& world, double kinetic) {
    const ParticleStore& p = world.particles();
    const Vec3 g = world.gravity();
    const double gNorm = g.norm();  // once, not a square root per grain and step
    Energy e;
    double potential = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        if (p.invMass[i] <= 0.0) continue;
        potential -= p.mass[i] * g.dot(p.position[i]);
        e.scale += p.mass[i] * gNorm * 2.0 * p.radius[i];
        e.mass += p.mass[i];
    }
    e.mechanical = kinetic + potential;
    return e;
}

/// What an edit between steps can change that feeds or drains energy: gravity, the walls'
/// poses and whether they are on, the materials' stiffness.
std::vector<double> setupOf(const World& world) {
    const Vec3 g = world.gravity();
    std::vector<double> setup = {g.x(), g.y(), g.z()};
    for (const Wall& w : world.walls())
        setup.insert(setup.end(), {w.position.x(), w.position.y(), w.position.z(), w.orientation.w(),
                                   w.orientation.x(), w.orientation.y(), w.orientation.z(),
                                   w.enabled ? 1.0 : 0.0});
    for (const Material& m : world.materials().materials()) setup.push_back(m.youngsModulus);
    return setup;
}

}  // namespace

void StateGuard::archive(StateArchive& a) {
    std::int64_t count = static_cast<std::int64_t>(m_warnings.size());
    a.field("warnings", count);
    if (a.loading()) m_warnings.assign(static_cast<size_t>(std::clamp<std::int64_t>(count, 0, 64)), RunWarning{});
    for (size_t k = 0; k < m_warnings.size(); ++k) {
        const auto scope = a.scope("warning" + std::to_string(k));
        a.field("step", m_warnings[k].step);
        a.field("time", m_warnings[k].time);
        a.text("kind", m_warnings[k].kind);
        a.text("message", m_warnings[k].message);
    }
    a.field("low", m_low);
    a.field("high", m_high);
    a.field("started", m_started);
    a.field("energyFloor", m_energyFloor);
    a.field("particles", m_particles);
    a.field("setup", m_setup);
}

void StateGuard::start(const World& world) {
    *this = StateGuard{};
    m_setup = setupOf(world);
    m_energyFloor = energyOf(world, kineticEnergy(world.particles())).mechanical;
    m_particles = world.particles().size();
    Vec3 low = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 high = -low;
    auto include = [&](const Vec3& x) {
        low = low.cwiseMin(x);
        high = high.cwiseMax(x);
    };
    const ParticleStore& p = world.particles();
    for (size_t i = 0; i < p.size(); ++i) {
        include(p.position[i] - Vec3::Constant(p.radius[i]));
        include(p.position[i] + Vec3::Constant(p.radius[i]));
    }
    for (const Wall& w : world.walls()) {
        switch (w.shape) {
            case WallShape::Plane:
                include(w.position);
                break;
            case WallShape::Box:
            case WallShape::Cylinder: {
                const Vec3 lo = w.shape == WallShape::Box ? Vec3(-w.halfExtents)
                                                          : Vec3(-w.radius, -w.radius, 0.0);
                const Vec3 hi = w.shape == WallShape::Box ? Vec3(w.halfExtents)
                                                          : Vec3(w.radius, w.radius, w.height);
                for (int k = 0; k < 8; ++k)
                    include(w.toWorld(Vec3(k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(),
                                           k & 4 ? hi.z() : lo.z())));
                break;
            }
            case WallShape::Mesh:
                if (w.mesh >= 0 && w.mesh < static_cast<int>(world.meshes().size()))
                    for (const Vec3& v : world.meshes()[w.mesh].vertices) include(w.toWorld(v));
                break;
        }
    }
    for (const Emitter& e : world.emitters()) {
        include(e.spec.min);
        include(e.spec.max);
    }
    for (const SinkSpec& s : world.sinks()) {
        include(s.min);
        include(s.max);
    }
    if (!(low.array() <= high.array()).all()) return;  // nothing at all: no extent
    // Grown by its own diagonal: a collapse or a pile spreads well beyond where it started,
    // a grain thrown out of the scene goes farther.
    const double grow = std::max((high - low).norm(), 1e-3);
    m_low = low - Vec3::Constant(grow);
    m_high = high + Vec3::Constant(grow);
    m_started = true;
}

bool StateGuard::given(const char* kind) const {
    return std::any_of(m_warnings.begin(), m_warnings.end(),
                       [&](const RunWarning& w) { return w.kind == kind; });
}

void StateGuard::warn(const StepStats& stats, const char* kind, std::string message) {
    m_warnings.push_back(RunWarning{stats.step, stats.time, kind, std::move(message)});
}

void StateGuard::check(const World& world, const StepStats& stats) {
    if (m_divergence) return;
    checkFinite(world, stats);
    if (m_divergence) return;
    checkOverlap(world, stats);
    checkEnergy(world, stats);
    checkEscape(world, stats);
    m_particles = world.particles().size();
}

void StateGuard::checkFinite(const World& world, const StepStats& stats) {
    const ParticleStore& p = world.particles();
    // One sum first: NaN and ±∞ survive it (so can an overflow of huge finite values, which
    // the search below then does not confirm).
    double sum = 0.0;
    for (size_t i = 0; i < p.size(); ++i)
        sum += p.position[i].sum() + p.velocity[i].sum() + p.angularVelocity[i].sum() +
               p.orientation[i].coeffs().sum();
    if (std::isfinite(sum) && std::isfinite(stats.kineticEnergy)) return;
    for (size_t i = 0; i < p.size(); ++i) {
        const char* quantity = nullptr;
        std::string value;
        if (!finite(p.velocity[i])) {
            quantity = "velocity";
            value = vec(p.velocity[i]) + " m/s";
        } else if (!finite(p.angularVelocity[i])) {
            quantity = "angular velocity";
            value = vec(p.angularVelocity[i]) + " rad/s";
        } else if (!finite(p.position[i])) {
            quantity = "position";
            value = vec(p.position[i]) + " m";
        } else if (!p.orientation[i].coeffs().allFinite()) {
            quantity = "orientation";
            value = "(not finite)";
        }
        if (!quantity) continue;
        report(stats, p.id[i], quantity, value);
        return;
    }
    // The state is finite but a speed squared overflows: name the fastest grain.
    if (std::isfinite(stats.kineticEnergy) || p.size() == 0) return;
    size_t fastest = 0;
    for (size_t i = 1; i < p.size(); ++i)
        if (p.velocity[i].cwiseAbs().maxCoeff() > p.velocity[fastest].cwiseAbs().maxCoeff()) fastest = i;
    report(stats, p.id[fastest], "velocity",
           vec(p.velocity[fastest]) + " m/s, whose kinetic energy overflows");
}

void StateGuard::report(const StepStats& stats, std::uint32_t particle, const char* quantity,
                        const std::string& value) {
    std::ostringstream m;
    m << "the run diverged at step " << stats.step << " (t = " << stats.time << " s): particle "
      << particle << " has a " << quantity << " of " << value
      << " (lower settings.timeStep, or check the material's stiffness and the forces)";
    m_divergence = Divergence{stats.step, stats.time, particle, quantity, m.str()};
}

void StateGuard::checkOverlap(const World& world, const StepStats& stats) {
    const double limit = world.settings().guardOverlap;
    if (limit <= 0.0 || stats.maxOverlap <= limit || given("overlap")) return;
    const ContactSet& c = world.contacts();
    size_t worst = 0;
    double largest = -1.0;
    for (size_t k = 0; k < c.size(); ++k)
        if (c.overlap[k] / c.diameter[k] > largest) {
            largest = c.overlap[k] / c.diameter[k];
            worst = k;
        }
    if (c.size() == 0) return;
    const ParticleStore& p = world.particles();
    std::ostringstream m;
    m << "step " << stats.step << " (t = " << stats.time << " s): grain " << p.id[c.bodyA[worst]];
    if (c.flags[worst] & kWallContact)
        m << " overlaps wall \"" << world.walls()[c.bodyB[worst]].name << "\"";
    else
        m << " overlaps grain " << p.id[c.bodyB[worst]];
    m << " by " << format("%.3g", largest) << " d, beyond guards.overlap = " << limit
      << " d: the contact law is far outside its range there (a smaller time step, a stiffer "
         "material or more solver iterations keep overlaps small)";
    warn(stats, "overlap", m.str());
}

void StateGuard::checkEnergy(const World& world, const StepStats& stats) {
    if (given("energy")) return;
    const Energy e = energyOf(world, stats.kineticEnergy);
    // Edits between steps (the app's gravity field, a wall dragged into place, a material)
    // change the energy without a step's doing: they count as a source.
    std::vector<double> setup = setupOf(world);
    const bool edited = setup != m_setup;
    m_setup = std::move(setup);
    if (edited || energySource(world, stats, m_particles)) {
        m_energyFloor = e.mechanical;
        return;
    }
    const double allowed = e.scale + 0.1 * std::abs(m_energyFloor) + 1e-9 * e.mass;
    if (e.mechanical > m_energyFloor + allowed) {
        std::ostringstream m;
        m << "step " << stats.step << " (t = " << stats.time << " s): the grains' energy rose by "
          << format("%.3g", e.mechanical - m_energyFloor) << " J (kinetic now "
          << format("%.3g", stats.kineticEnergy)
          << " J) with no moving wall, emitter or gravity ramp to supply it: the solution gains "
             "energy (grains placed into each other, or a time step too large for the contact "
             "stiffness)";
        warn(stats, "energy", m.str());
    }
    m_energyFloor = std::min(m_energyFloor, e.mechanical);
}

void StateGuard::checkEscape(const World& world, const StepStats& stats) {
    if (!m_started || given("escape")) return;
    const ParticleStore& p = world.particles();
    // The planes' normals once per check, not once per grain: a smooth step of a 10 000-grain
    // bed spent 5 % of its time rotating them.
    struct Plane {
        Vec3 up;
        double offset;  ///< up · position: x is behind by offset − up · x
        const Wall* wall;
    };
    std::vector<Plane> planes;
    for (const Wall& w : world.walls())
        if (w.enabled && w.shape == WallShape::Plane) {
            const Vec3 up = w.orientation * Vec3::UnitZ();
            planes.push_back({up, up.dot(w.position), &w});
        }
    std::vector<size_t> outside;
    for (size_t i = 0; i < p.size(); ++i) {
        const Vec3& x = p.position[i];
        for (const Plane& plane : planes) {
            // Two diameters behind a plane: it went through (a plane has no back to reach).
            const double behind = plane.offset - plane.up.dot(x);
            if (behind > 4.0 * p.radius[i]) {
                std::ostringstream m;
                m << "step " << stats.step << " (t = " << stats.time << " s): grain " << p.id[i]
                  << " is " << format("%.3g", behind / (2.0 * p.radius[i])) << " d behind wall \""
                  << plane.wall->name << "\" at " << vec(x)
                  << " m: it went through it (time step too large for its speed?)";
                warn(stats, "escape", m.str());
                return;
            }
        }
        if ((x.array() < m_low.array()).any() || (x.array() > m_high.array()).any()) outside.push_back(i);
    }
    if (outside.empty()) return;
    // Far from where the scene is and touching nothing: a grain sliding along an unbounded
    // plane, or in a heap that spread, has not left.
    const ContactSet& c = world.contacts();
    std::vector<std::uint8_t> touching(p.size(), 0);
    for (size_t k = 0; k < c.size(); ++k) {
        if (!(c.flags[k] & kTouching)) continue;
        touching[c.bodyA[k]] = 1;
        if (!(c.flags[k] & kWallContact)) touching[c.bodyB[k]] = 1;
    }
    for (size_t i : outside) {
        if (touching[i]) continue;
        std::ostringstream m;
        m << "step " << stats.step << " (t = " << stats.time << " s): grain " << p.id[i] << " at "
          << vec(p.position[i]) << " m left the scene: it touches nothing and is farther from "
             "the walls and the grains' start than the scene is wide (" << vec(m_low) << " to "
          << vec(m_high) << " m), and no sink removes it";
        warn(stats, "escape", m.str());
        return;
    }
}

}  // namespace ndem
