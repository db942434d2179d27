// The world's state for checkpoints: everything the next step depends on, saved and loaded by
// one function (archive) so that the two cannot drift apart.
#include "world/world.hpp"

#include "solve/settings_keys.hpp"

namespace ndem {

namespace {

void archiveWall(StateArchive& a, Wall& w) {
    a.field("enabled", w.enabled);
    a.field("disableAt", w.disableAt);
    if (!a.loading() || a.has("stopAt")) a.field("stopAt", w.stopAt);
    a.field("position", w.position);
    a.field("orientation", w.orientation);
    a.field("linearVelocity", w.linearVelocity);
    a.field("angularVelocity", w.angularVelocity);
    a.field("surfaceVelocity", w.surfaceVelocity);
    a.field("halfExtents", w.halfExtents);
    a.field("radius", w.radius);
    a.field("height", w.height);
    a.field("force", w.force);
    a.field("torque", w.torque);
    if (!a.loading() || a.has("stiffness")) {  // states written before servo walls learned
        a.field("stiffness", w.stiffness);
        a.field("learnedSpeed", w.learnedSpeed);
    }
    ServoControl& s = w.servo;
    const auto scope = a.scope("servo");
    a.field("active", s.active);
    a.field("direction", s.direction);
    a.field("stress", s.stress);
    a.field("area", s.area);
    std::vector<int> areaWalls(std::begin(s.areaWalls), std::end(s.areaWalls));
    a.field("areaWalls", areaWalls);
    if (a.loading() && areaWalls.size() == 4)
        std::copy(areaWalls.begin(), areaWalls.end(), s.areaWalls);
    a.field("gain", s.gain);
    if (!a.loading() || a.has("mass")) {  // states written before servo walls had them
        a.field("mass", s.mass);
        a.field("relaxation", s.relaxation);
        a.field("integral", s.integral);
    }
    a.field("maxSpeed", s.maxSpeed);
    a.field("constantFrom", s.constantFrom);
    a.field("constantSpeed", s.constantSpeed);
}

void archiveSensor(StateArchive& a, SplitSensor& s) {
    a.text("name", s.name);
    a.field("shape", s.shape);
    a.field("enabled", s.enabled);
    a.field("position", s.position);
    a.field("orientation", s.orientation);
    a.field("halfExtents", s.halfExtents);
    a.field("radius", s.radius);
    a.field("height", s.height);
    a.field("velocity", s.velocity);
}

void archiveMaterial(StateArchive& a, Material& m) {
    a.field("youngsModulus", m.youngsModulus);
    a.field("poissonRatio", m.poissonRatio);
    a.field("friction", m.friction);
    a.field("rollingResistance", m.rollingResistance);
    a.field("restitution", m.restitution);
    a.field("damping", m.damping);
    a.field("linearStiffness", m.linearStiffness);
}

/// A list whose length the scene fixes (walls, emitters, materials): each entry under
/// `name/k`, and a load error if the saved count differs.
template <class T, class F>
void archiveFixedList(StateArchive& a, const std::string& name, std::vector<T>& items, F&& each) {
    std::int64_t count = static_cast<std::int64_t>(items.size());
    a.field(name + "Count", count);
    if (a.loading() && count != static_cast<std::int64_t>(items.size())) {
        a.fail("the state has " + std::to_string(count) + " " + name + "s, the scene " +
               std::to_string(items.size()));
        return;
    }
    for (size_t k = 0; k < items.size(); ++k) {
        const auto scope = a.scope(name + std::to_string(k));
        each(items[k]);
    }
}

/// The measurements' accumulators, each under measurement/<k>/, after the list of their names.
/// A state with another list leaves this world's measurements as they are, to start afresh:
/// the app subscribes none, so its states list none, and states from before the measurements
/// were archived have no list at all. Either still restarts the world itself exactly.
void archiveMeasurements(StateArchive& a, std::vector<std::unique_ptr<Measurement>>& measurements) {
    std::vector<std::string> names;
    for (const auto& m : measurements)
        names.push_back(m->name());
    if (a.loading()) {
        if (!a.has("measurements")) return;
        std::vector<std::string> saved;
        archiveNames(a, "measurements", saved);
        if (saved != names) return;
    } else {
        archiveNames(a, "measurements", names);
    }
    for (size_t k = 0; k < measurements.size(); ++k) {
        const auto scope = a.scope("measurement/" + std::to_string(k));
        measurements[k]->archive(a);
    }
}

}  // namespace

void World::archive(StateArchive& a) {
    a.field("time", m_time);
    a.field("stepCount", m_stepCount);
    a.field("emittedTotal", m_emittedTotal);
    a.field("removedTotal", m_removedTotal);
    {
        const auto scope = a.scope("settings");
        // A key that a state from an older ndem lacks keeps the scene's value.
        visitSettings(m_settings, [&](const SettingInfo& info, auto& field, auto&&...) {
            if (!a.loading() || a.has(info.key)) a.field(info.key, field);
        });
    }
    {
        const auto scope = a.scope("particles");
        m_particles.archive(a);
    }
    {
        const auto scope = a.scope("contactHistory");
        m_history.archive(a);
    }
    archiveFixedList(a, "wall", m_walls, [&](Wall& w) { archiveWall(a, w); });
    archiveFixedList(a, "emitter", m_emitters, [&](Emitter& e) {
        a.field("owed", e.owed);
        a.field("emitted", e.emitted);
        a.field("skipped", e.skipped);
        std::uint64_t random = e.random.state();
        a.field("random", random);
        if (a.loading()) e.random.setState(random);
    });
    std::int64_t sensors = static_cast<std::int64_t>(m_sensors.size());
    a.field("sensorCount", sensors);
    if (a.loading())
        m_sensors.resize(static_cast<size_t>(std::clamp<std::int64_t>(sensors, 0, 4096)));
    for (size_t k = 0; k < m_sensors.size(); ++k) {
        const auto scope = a.scope("sensor" + std::to_string(k));
        archiveSensor(a, m_sensors[k]);
    }
    {
        const auto scope = a.scope("reduction");
        m_reduction.archive(a);
    }
    {
        const auto scope = a.scope("guard");
        m_guard.archive(a);
    }
    {
        // Every method's own state, each under its own entries (APGD's "lipschitz").
        const auto scope = a.scope("solver");
        for (const SolverInfo& info : SolverRegistry::instance().solvers())
            contactSolver(info.name).archive(a);
    }
    archiveMeasurements(a, m_measurements);
}

StateArchive World::saveState() const {
    syncHistory();
    StateArchive a = StateArchive::saving();
    // archive() writes nothing into the world while saving.
    const_cast<World*>(this)->archive(a);
    std::vector<Material> materials = m_materials.materials();
    archiveFixedList(a, "material", materials, [&](Material& m) { archiveMaterial(a, m); });
    return a;
}

std::optional<Error> World::loadState(StateArchive& state) {
    StateArchive before = saveState();
    StateArchive undo =
        StateArchive::loadingFrom(before.reals(), before.integers(), before.texts());
    archive(state);
    std::vector<Material> materials = m_materials.materials();
    archiveFixedList(state, "material", materials, [&](Material& m) { archiveMaterial(state, m); });
    std::optional<Error> error;
    if (!state.ok())
        error = Error{state.error()};
    else if (auto e = validate(m_settings))
        error = Error{"settings: " + e->message};
    else if (auto e = setMaterials(materials))
        error = e;
    if (error) {
        archive(undo);
        return error;
    }
    // The neighbour lists and last step's contacts belong to the state before: detection
    // starts afresh (its result does not depend on the lists' history).
    m_collider = Collider{};
    m_contacts = ContactSet{};
    m_smoothPairs = SmoothPairs{};
    m_contactsStale = m_historyStale = m_lastStepOnLists = false;
    return std::nullopt;
}

}  // namespace ndem
