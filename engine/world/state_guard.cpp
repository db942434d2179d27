#include "world/state_guard.hpp"

#include "world/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace ndem {

namespace {

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
    char text[96];
    std::snprintf(text, sizeof text, pattern, a, b, c);
    return text;
}

std::string vec(const Vec3& v) {
    return format("(%.4g, %.4g, %.4g)", v.x(), v.y(), v.z());
}

bool finite(const Vec3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

/// Whether anything may feed energy into the grains this step: an emitter, a moving or
/// rotating wall or belt, a grain driven at a prescribed velocity, gravity still ramping, or
/// grains added or removed between steps.
bool energySource(const World& world, const StepStats& stats, size_t lastCount, bool drivenMoves) {
    if (stats.emitted > 0 || world.particles().size() != lastCount || drivenMoves) return true;
    const StepSettings& s = world.settings();
    if (s.gravityRampTime > 0.0 && world.time() <= s.gravityRampTime + s.timeStep) return true;
    for (const Wall& w : world.walls())
        if (w.enabled && (!w.linearVelocity.isZero() || !w.angularVelocity.isZero() ||
                          !w.surfaceVelocity.isZero()))
            return true;
    return false;
}

/// The plane walls that are on: a grain two diameters behind one went through it.
struct Plane {
    Vec3 up;
    double offset;  ///< up · position: x is behind by offset − up · x
    const Wall* wall;
};
std::vector<Plane> planesOf(const World& world) {
    std::vector<Plane> planes;
    for (const Wall& w : world.walls())
        if (w.enabled && w.shape == WallShape::Plane) {
            const Vec3 up = w.orientation * Vec3::UnitZ();
            planes.push_back({up, up.dot(w.position), &w});
        }
    return planes;
}

struct Energy {
    double mechanical = 0.0;  ///< kinetic + gravity potential −m g·x of the free grains (J)
    double scale = 0.0;       ///< lifting every free grain by its own diameter (J)
    double mass = 0.0;        ///< of the free grains (kg)
};

/// What an edit between steps can change that feeds or drains energy: gravity, the walls'
/// poses and whether they are on, the materials' stiffness.
std::vector<double> setupOf(const World& world) {
    const Vec3 g = world.gravity();
    std::vector<double> setup = {g.x(), g.y(), g.z()};
    for (const Wall& w : world.walls())
        setup.insert(setup.end(), {w.position.x(), w.position.y(), w.position.z(),
                                   w.orientation.w(), w.orientation.x(), w.orientation.y(),
                                   w.orientation.z(), w.enabled ? 1.0 : 0.0});
    for (const Material& m : world.materials().materials())
        setup.push_back(m.youngsModulus);
    return setup;
}

}  // namespace

void StateGuard::archive(StateArchive& a) {
    std::int64_t count = static_cast<std::int64_t>(m_warnings.size());
    a.field("warnings", count);
    if (a.loading())
        m_warnings.assign(static_cast<size_t>(std::clamp<std::int64_t>(count, 0, 64)),
                          RunWarning{});
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
    const GrainSweep grains = sweep(world);
    m_energyFloor = grains.kinetic + grains.potential;
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
                    for (const Vec3& v : world.meshes()[w.mesh].vertices)
                        include(w.toWorld(v));
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

GrainSweep StateGuard::sweep(const World& world) const {
    // One pass for every check (a smooth step of a 10 000-grain bed spent 8 % of its time in
    // five): the sums in grain order, as each check summed alone.
    const ParticleStore& p = world.particles();
    const Vec3 g = world.gravity();
    const double gNorm = g.norm();
    const std::vector<Plane> planes = m_started ? planesOf(world) : std::vector<Plane>{};
    GrainSweep out;
    // The sums in locals: `out` holds a vector, so its members would be stored and loaded
    // again at every grain.
    double finiteSum = 0.0, kinetic = 0.0, potential = 0.0, scale = 0.0, mass = 0.0;
    bool drivenMoves = false;
    for (size_t i = 0; i < p.size(); ++i) {
        const Vec3& x = p.position[i];
        const Vec3& v = p.velocity[i];
        const Vec3& w = p.angularVelocity[i];
        finiteSum += x.sum() + v.sum() + w.sum() + p.orientation[i].coeffs().sum();
        if (p.invMass[i] > 0.0) {
            kinetic += kineticEnergy(p, i);
            potential -= p.mass[i] * g.dot(x);
            scale += p.mass[i] * gNorm * 2.0 * p.radius[i];
            mass += p.mass[i];
        } else {
            drivenMoves |= !v.isZero();
        }
        if (m_started && ((x.array() < m_low.array()).any() || (x.array() > m_high.array()).any()))
            out.outside.push_back(i);
    }
    out.finiteSum = finiteSum, out.kinetic = kinetic, out.potential = potential;
    out.scale = scale, out.mass = mass, out.drivenMoves = drivenMoves;
    // Plane by plane, over every grain at once (the loop is vectorised): how far behind the
    // plane the deepest grain is, beyond two diameters. Only if one is, the first grain in
    // storage order and its first such plane.
    const size_t n = p.size();
    const double* const position = n ? p.position[0].data() : nullptr;
    const double* const radius = p.radius.data();
    bool through = false;
    for (const Plane& plane : planes) {
        const double ux = plane.up.x(), uy = plane.up.y(), uz = plane.up.z();
        const double offset = plane.offset;
        double deepest = -std::numeric_limits<double>::infinity();
#pragma omp simd reduction(max : deepest)
        for (size_t i = 0; i < n; ++i) {
            const double* x = position + 3 * i;
            const double beyond = offset - (ux * x[0] + uy * x[1] + uz * x[2]) - 4.0 * radius[i];
            deepest = deepest > beyond ? deepest : beyond;
        }
        through |= deepest > 0.0;
    }
    for (size_t i = 0; through && i < n && out.behind < 0; ++i)
        for (size_t k = 0; k < planes.size(); ++k) {
            const double behind = planes[k].offset - planes[k].up.dot(p.position[i]);
            if (behind > 4.0 * p.radius[i]) {
                out.behind = static_cast<std::int64_t>(i);
                out.behindPlane = k;
                out.behindBy = behind;
                break;
            }
        }
    return out;
}

void StateGuard::check(const World& world, const StepStats& stats, const GrainSweep& grains) {
    if (m_divergence) return;
    checkFinite(world, stats, grains);
    if (m_divergence) return;
    checkOverlap(world, stats);
    checkEnergy(world, stats, grains);
    checkStatic(stats);  // the cause first: such a grain may then be behind a wall
    checkEscape(world, stats, grains);
    m_particles = world.particles().size();
}

void StateGuard::checkFinite(const World& world, const StepStats& stats, const GrainSweep& grains) {
    const ParticleStore& p = world.particles();
    // One sum first: NaN and ±∞ survive it (so can an overflow of huge finite values, which
    // the search below then does not confirm).
    if (std::isfinite(grains.finiteSum) && std::isfinite(stats.kineticEnergy)) return;
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
        if (p.velocity[i].cwiseAbs().maxCoeff() > p.velocity[fastest].cwiseAbs().maxCoeff())
            fastest = i;
    report(stats, p.id[fastest], "velocity",
           vec(p.velocity[fastest]) + " m/s, whose kinetic energy overflows");
}

bool StateGuard::crowded(const World& world, std::int64_t step, double time, size_t touching,
                         size_t speculative) {
    if (touching <= 1000 && touching + speculative <= 10000) return false;
    const ParticleStore& p = world.particles();
    size_t grains = 0;
    for (size_t i = 0; i < p.size(); ++i)
        if (p.invMass[i] > 0.0) ++grains;
    const bool piled = touching > 1000 && touching > 20 * grains;
    const bool thrown = touching + speculative > 10000 && touching + speculative > 250 * grains;
    if (m_divergence || !(piled || thrown)) return false;
    // The grain in the most contacts names the place.
    const ContactSet& c = world.contacts();
    std::vector<std::uint32_t> count(p.size(), 0);
    for (size_t k = 0; k < c.size(); ++k) {
        ++count[static_cast<size_t>(c.bodyA[k])];
        if (!(c.flags[k] & kWallContact)) ++count[static_cast<size_t>(c.bodyB[k])];
    }
    const size_t worst =
        static_cast<size_t>(std::max_element(count.begin(), count.end()) - count.begin());
    std::ostringstream m;
    m << "the run diverged at step " << step << " (t = " << time << " s): ";
    if (piled)
        m << touching << " touching contacts among " << grains << " grains, a mean coordination of "
          << 2 * touching / std::max<size_t>(1, grains) << " where a packing has at most about 14";
    else
        m << touching + speculative << " contacts among " << grains << " grains (" << speculative
          << " not touching: pairs the last step's speeds bring within reach)";
    m << "; particle " << p.id[worst] << " is in " << count[worst]
      << " of them (the last step threw grains about: lower settings.timeStep, or check that "
         "the solver converged)";
    m_divergence = Divergence{step, time, p.id[worst], "contacts", m.str()};
    return true;
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

void StateGuard::checkEnergy(const World& world, const StepStats& stats, const GrainSweep& grains) {
    if (given("energy")) return;
    const Energy e{stats.kineticEnergy + grains.potential, grains.scale, grains.mass};
    // Edits between steps (the app's gravity field, a wall dragged into place, a material)
    // change the energy without a step's doing: they count as a source.
    std::vector<double> setup = setupOf(world);
    const bool edited = setup != m_setup;
    m_setup = std::move(setup);
    // A static step's velocities are displacements per step of pseudo-time (krabbenhoft-2012
    // Sec. 3.7): their ½ m v² is no energy, and a grain without equilibrium gains it by 1/ε.
    const bool statics = world.settings().formulation == Formulation::Static;
    if (edited || statics || energySource(world, stats, m_particles, grains.drivenMoves)) {
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

void StateGuard::checkStatic(const StepStats& stats) {
    if (stats.staticRunaways == 0 || given("static")) return;
    std::ostringstream m;
    m << "step " << stats.step << " (t = " << stats.time << " s): the static step moved "
      << stats.staticRunaways << (stats.staticRunaways == 1 ? " grain" : " grains")
      << " farther than contact detection reached (up to "
      << format("%.3g", stats.staticRunawayDiameters)
      << " d): the load exceeds what the packing carries there, so the static problem has no "
         "answer (krabbenhoft-2012 Sec. 3.7) and their motion is set by solver.staticInertia; "
         "they may pass through grains or walls. The static formulation is for confined, "
         "quasi-static loading";
    warn(stats, "static", m.str());
}

void StateGuard::checkEscape(const World& world, const StepStats& stats, const GrainSweep& grains) {
    if (!m_started || given("escape")) return;
    const ParticleStore& p = world.particles();
    if (grains.behind >= 0) {
        const size_t i = static_cast<size_t>(grains.behind);
        const Plane plane = planesOf(world)[grains.behindPlane];
        std::ostringstream m;
        m << "step " << stats.step << " (t = " << stats.time << " s): grain " << p.id[i] << " is "
          << format("%.3g", grains.behindBy / (2.0 * p.radius[i])) << " d behind wall \""
          << plane.wall->name << "\" at " << vec(p.position[i])
          << " m: it went through it (time step too large for its speed?)";
        warn(stats, "escape", m.str());
        return;
    }
    const std::vector<size_t>& outside = grains.outside;
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
          << vec(p.position[i])
          << " m left the scene: it touches nothing and is farther from "
             "the walls and the grains' start than the scene is wide ("
          << vec(m_low) << " to " << vec(m_high) << " m), and no sink removes it";
        warn(stats, "escape", m.str());
        return;
    }
}

}  // namespace ndem
