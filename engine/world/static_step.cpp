// The static formulation (krabbenhoft-2012 Sec. 3.7): each step of a quasi-static test is the
// limit h → ∞ of the dynamic problem. The grains start it at rest, the masses are scaled by
// solver.staticInertia so that inertia leaves the balance (what remains only chooses among equal
// answers), and a servo wall is an unknown of the problem: it moves along its direction with
// the force σA on it, so that its displacement is the multiplier of that force (Sec. 5.2),
// exact at every step where a controller would hunt for it.
#include "world/world.hpp"

#include "solve/rows/contact_problem.hpp"

#include <algorithm>
#include <limits>

namespace ndem {

double World::servoArea(const ServoControl& s) const {
    if (s.areaWalls[0] < 0) return s.area;
    auto gap = [&](int a, int b) {
        const Vec3 normal = m_walls[a].orientation * Vec3::UnitZ();
        return std::abs((m_walls[a].position - m_walls[b].position).dot(normal));
    };
    // Two walls in the plane: a length, the area per metre of thickness.
    const double across = s.areaWalls[2] < 0 ? 1.0 : gap(s.areaWalls[2], s.areaWalls[3]);
    return gap(s.areaWalls[0], s.areaWalls[1]) * across;
}

bool World::staticServo(const Wall& w) const {
    // The formulation is static only with a method that solves it (validate).
    return m_settings.formulation == Formulation::Static && w.enabled && w.servo.active &&
           m_time < w.servo.constantFrom;
}

bool World::solvedServo(const Wall& w) const {
    const size_t k = static_cast<size_t>(&w - m_walls.data());
    return staticServo(w) && k < m_servoSolved.size() && m_servoSolved[k];
}

void World::scheduleStaticServos() {
    // A wall nothing holds has no static answer (it would move without bound), nor has a
    // sample pushed from one side while another is open: until every servo wall touches the
    // grains, those that touch hold still and the others close in at maxSpeed, no further
    // than the nearest grain; then all of them push with σA. A gap under a thousandth of a
    // radius counts as touching: a compliant compaction leaves the platens nanometres off the
    // grains once the contacts become rigid, and the wall's gap rows close that within the
    // step. Were such a wall to close in as a kinematic one, every wall of a driven sample would
    // be kinematic and the step would press into rigid grains with no answer.
    //
    // A wall that carried its σA last step is held further off, up to half the detection margin
    // (its gap rows are there to close it): the associated rule holds a loaded contact sliding
    // along a rough wall apart by μ|Δu_t| h (krabbenhoft-2012 Eq. 22), and a stalled step of
    // the non-associated rule may end a micrometre off; taken for a wall to close in, the next
    // step would read σ3 = 0 and the sample yield at once (biaxial-2d findings: 46° at one step).
    m_servoSolved.assign(m_walls.size(), 0);
    std::vector<double> gaps(m_walls.size(), 0.0);
    bool any = false, allTouch = true;
    double smallest = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < m_particles.size(); ++i)
        smallest = std::min(smallest, m_particles.radius[i]);
    const double touch = 1e-3 * smallest;
    const double hold = std::max(touch, 0.5 * m_settings.contactMargin * smallest);
    for (size_t k = 0; k < m_walls.size(); ++k) {
        const Wall& w = m_walls[k];
        if (!staticServo(w)) continue;
        any = true;
        double gap = 0.0;  // a wall of another shape is taken as touching
        if (w.shape == WallShape::Plane) {
            gap = std::numeric_limits<double>::infinity();
            const Vec3 normal = w.orientation * Vec3::UnitZ();
            for (size_t i = 0; i < m_particles.size(); ++i)
                gap = std::min(gap, (m_particles.position[i] - w.position).dot(normal) -
                                        m_particles.radius[i]);
        }
        // Carried its σA (half of it, say) last step: an open pair's barrier impulses do not count.
        const bool pushed =
            -w.force.dot(w.servo.direction) > 0.5 * w.servo.stress * servoArea(w.servo);
        gaps[k] = gap <= touch || (pushed && gap <= hold) ? 0.0 : gap;
        allTouch = allTouch && gaps[k] == 0.0;
    }
    if (!any) return;
    const double h = m_settings.timeStep;
    for (size_t k = 0; k < m_walls.size(); ++k) {
        Wall& w = m_walls[k];
        if (!staticServo(w)) continue;
        m_servoSolved[k] = allTouch;
        const double approach = std::min(w.servo.maxSpeed, gaps[k] / h);
        w.linearVelocity = allTouch ? Vec3::Zero().eval() : (approach * w.servo.direction).eval();
    }
}

void World::restForStaticStep() {
    m_detectedSpeed.resize(m_particles.size());
    for (size_t i = 0; i < m_particles.size(); ++i) {
        m_detectedSpeed[i] = m_particles.velocity[i].norm();
        m_particles.velocity[i].setZero();
        m_particles.angularVelocity[i].setZero();
    }
}

void World::countStaticRunaways(StepStats& stats) const {
    // A grain without static equilibrium (rolling off a disk it rests on, a packing that cannot
    // carry its load) moves as an inertia of ε M lets it: by h² g / ε in a step under gravity
    // alone, 2.5 m at h = 5 ms and ε = 10⁻⁴. Measured on a bed of 2 000 disks: 84, 8.4 and
    // 0.84 m/s at ε = 10⁻⁴, 10⁻³, 10⁻² (docs/PERFORMANCE.md).
    const double h = m_settings.timeStep;
    stats.staticRunaways = 0;
    stats.staticRunawayDiameters = 0.0;
    const size_t n = std::min(m_particles.size(), m_detectedSpeed.size());
    for (size_t i = 0; i < n; ++i) {
        const double r = m_particles.radius[i];
        const double moved = h * m_bodies[i].v.norm();
        if (moved <= m_settings.contactMargin * r + h * m_detectedSpeed[i]) continue;
        ++stats.staticRunaways;
        stats.staticRunawayDiameters = std::max(stats.staticRunawayDiameters, moved / (2.0 * r));
    }
}

SolveReport World::solveStatic(const StepContext& ctx) {
    const double h = m_settings.timeStep;
    ContactProblem problem =
        ContactProblem::fromRows(m_rows, m_bodies, ProblemForm{m_settings.dimension, false, true});

    // The servo walls, each one unknown. Their mass, like the grains', only regularises: the
    // grains' total (a platen as heavy as the sample), scaled with theirs.
    double mass = 0.0;
    for (size_t i = 0; i < m_particles.size(); ++i)
        if (m_particles.invMass[i] > 0.0) mass += 1.0 / m_particles.invMass[i];
    std::vector<int> sliderOf(m_walls.size(), -1);
    std::vector<Slider> sliders;
    for (size_t k = 0; k < m_walls.size(); ++k) {
        const Wall& w = m_walls[k];
        if (!solvedServo(w) || mass <= 0.0) continue;
        sliderOf[k] = static_cast<int>(sliders.size());
        sliders.push_back(
            Slider{w.servo.direction, 1.0 / mass, h * w.servo.stress * servoArea(w.servo) / mass});
    }
    std::vector<int> contactSlider(static_cast<size_t>(problem.contacts()), -1);
    for (int c = 0; c < problem.contacts(); ++c) {
        const Index i =
            m_rows[static_cast<size_t>(problem.contactRow[static_cast<size_t>(c)])].contact;
        if (m_contacts.flags[i] & kWallContact)
            contactSlider[static_cast<size_t>(c)] =
                sliderOf[static_cast<size_t>(m_contacts.bodyB[i])];
    }
    problem.appendSliders(m_rows, sliders, contactSlider);

    // A grain that touches nothing (a rattler in its cage) has no static equilibrium under a
    // load: it waits where it is until the sample closes on it.
    std::vector<char> held(static_cast<size_t>(problem.vFree.size()), 0);
    for (int r = 0; r < problem.J.outerSize(); ++r)
        for (ContactProblem::Sparse::InnerIterator it(problem.J, r); it; ++it)
            held[static_cast<size_t>(it.col())] = 1;
    for (size_t u = 0; u < problem.movableBody.size(); ++u) {
        bool any = false;
        for (size_t d = 0; d < 6; ++d)
            any = any || held[6 * u + d];
        if (!any) problem.vFree.segment<6>(6 * static_cast<Eigen::Index>(u)).setZero();
    }

    // M → ε M: the free velocity h M⁻¹ f (the step starts at rest) and M⁻¹ grow by 1/ε; the
    // impulses stay the forces' h f.
    const double epsilon = m_settings.staticInertia;
    const double grow = 1.0 / epsilon;
    problem.M *= epsilon;
    problem.invM *= grow;
    problem.vFree *= grow;

    StepProblem step(m_rows, m_bodies, std::move(problem));
    const SolveReport r =
        contactSolver(m_settings.method)
            .solve(step, solveControls(ctx, m_settings.iterations, m_settings.tolerance,
                                       m_recordResidual ? &m_residualHistory : nullptr));
    const Eigen::VectorXd& v = step.velocities();
    if (!sliders.empty()) {
        const Eigen::Index first = v.size() - static_cast<Eigen::Index>(sliders.size());
        for (size_t k = 0; k < m_walls.size(); ++k)
            if (sliderOf[k] >= 0)
                m_walls[k].linearVelocity = v[first + sliderOf[k]] * m_walls[k].servo.direction;
    }
    return r;
}

}  // namespace ndem
