#include "world/world.hpp"

#include "core/material_properties.hpp"
#include "dem/smooth_dem.hpp"
#include "solve/settings_keys.hpp"
#include "world/planar_scene.hpp"

#include <sstream>

namespace ndem {

Expected<World> World::create(const Scene& scene) {
    if (auto e = checkPlanarScene(scene)) return *e;
    World w;
    w.m_name = scene.name;
    std::string error;
    if (!w.m_materials.build(scene.materials, scene.contactMaterials, &error,
                             scene.settings.frictionScale))
        return Error{"contactMaterials: " + error};
    w.m_contactOverrides = scene.contactMaterials;
    w.m_walls = scene.walls;
    w.m_meshes = scene.meshes;
    for (TriangleMesh& m : w.m_meshes)
        m.buildGrid();
    const size_t materialCount = w.m_materials.materials().size();
    for (const Wall& wall : w.m_walls) {
        if (wall.material >= materialCount)
            return Error{"wall '" + wall.name + "': unknown material index"};
        if (wall.servo.active && wall.servo.areaWalls[0] >= 0 && wall.servo.areaWalls[2] < 0 &&
            scene.settings.dimension != 2)
            return Error{"wall '" + wall.name +
                         "': servo.areaWalls names two walls only in the "
                         "plane (settings.dimension 2); in space it takes four"};
        if (wall.shape == WallShape::Mesh &&
            (wall.mesh < 0 || wall.mesh >= static_cast<int>(w.m_meshes.size())))
            return Error{"wall '" + wall.name + "': mesh index out of range"};
    }
    // Masses follow the dimension: it is set before the first grain and never changes.
    w.m_settings.dimension = scene.settings.dimension;
    w.m_particles.reserve(scene.particles.size());
    for (const ParticleSpec& p : scene.particles) {
        if (p.material >= materialCount) return Error{"particle: unknown material index"};
        if (!(p.radius > 0.0)) return Error{"particle: radius must be > 0"};
        w.insertParticle(p);
    }
    for (const EmitterSpec& e : scene.emitters) {
        if (e.material >= materialCount) return Error{"emitter '" + e.name + "': unknown material"};
        Emitter emitter;
        emitter.spec = e;
        if (scene.settings.dimension == 2) emitter.spec.min.y() = emitter.spec.max.y() = 0.0;
        emitter.random = Random(e.seed);
        w.m_emitters.push_back(emitter);
    }
    w.m_sinks = scene.sinks;
    w.m_sensors = scene.sensors;
    if (auto e = w.applySettings(scene.settings)) return *e;
    for (const SettingsPhase& phase : scene.phases) {
        // Checked now against this world (materials, geometry), not first when it is due.
        World probe;
        probe.m_settings.dimension = w.m_settings.dimension;
        probe.m_materials = w.m_materials;
        if (auto e = probe.applySettings(phase.settings))
            return Error{"phases (at " + std::to_string(phase.at) + " s): " + e->message};
    }
    w.m_phases = scene.phases;
    w.m_guard.start(w);
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
    if (!table.build(materials, m_contactOverrides, &error, m_settings.frictionScale))
        return Error{"contactMaterials: " + error};
    m_materials = std::move(table);
    return std::nullopt;
}

Index World::addParticle(const ParticleSpec& spec) {
    syncHistory();
    return insertParticle(spec);
}

Index World::insertParticle(const ParticleSpec& spec) {
    return m_particles.add(spec, m_materials.materials()[spec.material].density,
                           m_settings.dimension);
}

void World::syncContacts() const {
    if (!m_contactsStale) return;
    m_contacts.clear();
    m_smoothPairs.writeContacts(m_particles, m_contacts);
    m_contactsStale = false;
}

void World::syncHistory() const {
    if (!m_historyStale) return;
    syncContacts();
    m_history.store(m_contacts, m_particles.nextId());
    m_historyStale = false;
}

double World::smoothStabilityLimit() const {
    std::vector<MaterialId> wallMaterials;
    for (const Wall& w : m_walls)
        wallMaterials.push_back(w.material);
    return ndem::smoothStabilityLimit(m_particles, m_materials, wallMaterials, m_settings);
}

std::optional<Error> World::applySettings(const StepSettings& s) {
    if (auto e = validate(s)) return e;
    if (s.dimension != m_settings.dimension)
        return Error{
            "settings.dimension: fixed for a run (it sets the grains' masses); change it "
            "in the scene and reset"};
    if (s.mode == StepMode::Smooth) {
        std::vector<MaterialId> wallMaterials;
        for (const Wall& w : m_walls)
            wallMaterials.push_back(w.material);
        const double limit = ndem::smoothStabilityLimit(m_particles, m_materials, wallMaterials, s);
        if (s.timeStep > limit) {
            std::ostringstream msg;
            msg << "settings.timeStep: h = " << s.timeStep
                << " s exceeds the smooth-DEM stability limit sqrt(m/k) = " << limit
                << " s of this scene (lower timeStep or use mode semi-smooth)";
            return Error{msg.str()};
        }
    }
    if (s.frictionScale != m_settings.frictionScale) {
        MaterialTable table;
        std::string error;
        if (!table.build(m_materials.materials(), m_contactOverrides, &error, s.frictionScale))
            return Error{"contactMaterials: " + error};
        m_materials = std::move(table);
    }
    if (s.contactLaw != m_settings.contactLaw) {
        // The smooth pass keeps its wall springs in the law's own form: from the history.
        syncHistory();
        m_smoothPairs.forget();
    }
    m_settings = s;
    return std::nullopt;
}

void World::measure(StepStats& stats) {
    const GrainSweep grains = m_guard.sweep(*this);
    stats.kineticEnergy = grains.kinetic;
    // The overlaps ε = δ/d of the touching contacts (the smooth pass on the lists sums them
    // as it goes, in the same order).
    double sum = 0.0, maxOverlap = 0.0;
    int touching = 0;
    if (m_lastStepOnLists) {
        touching = m_smoothTotals.contacts;
        sum = m_smoothTotals.overlapSum;
        maxOverlap = m_smoothTotals.maxOverlap;
    } else {
        // The count after the solve: an interior point leaves the contacts it loads at small
        // gaps, which the detection saw apart (a dense biaxial sample: 117 of 1 900 counted).
        const double loaded = loadThreshold(m_contacts);
        int network = 0;
        for (size_t i = 0; i < m_contacts.size(); ++i) {
            network += inNetwork(m_contacts, i, loaded);
            if (!(m_contacts.flags[i] & kTouching)) continue;
            const double e = m_contacts.overlap[i] / m_contacts.diameter[i];
            sum += e;
            maxOverlap = std::max(maxOverlap, e);
            ++touching;
        }
        stats.contacts = network;
        stats.speculativeContacts = static_cast<int>(m_contacts.size()) - network;
    }
    stats.meanOverlap = touching ? sum / touching : 0.0;
    stats.maxOverlap = maxOverlap;
    for (auto& m : m_measurements)
        m->sample(*this, stats);
    m_guard.check(*this, stats, grains);
}

}  // namespace ndem
