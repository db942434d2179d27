#include "gui/session.hpp"

#include "core/material_properties.hpp"
#include "io/checkpoint.hpp"
#include "io/vtk_writer.hpp"
#include "solve/settings_keys.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

namespace ndem::app {

namespace {

std::optional<std::string> readText(const std::string& path, std::string& out) {
    std::ifstream in(path);
    if (!in) return path + ": cannot read the file";
    std::ostringstream text;
    text << in.rdbuf();
    out = text.str();
    return std::nullopt;
}

}  // namespace

Session::Session(std::function<void()> onPublished) : m_onPublished(std::move(onPublished)) {}

Session::~Session() {
    // The sim thread must end before the scene and the message list it may still touch.
    if (m_loop) m_loop->stop();
}

std::optional<std::string> Session::open(const std::string& path,
                                         const std::vector<Override>& overrides) {
    if (path.ends_with(".h5") || path.ends_with(".hdf5")) {
        if (!overrides.empty())
            return path + ": a checkpoint keeps its scene and settings (no --set)";
        return openCheckpoint(path);
    }
    std::string text;
    if (auto e = readText(path, text)) return e;
    Expected<Scene> scene = parseSceneText(text, path, overrides);
    if (!scene) return scene.error().message;
    Expected<World> world = World::create(*scene);
    if (!world) return path + ": " + world.error().message;
    adopt(std::move(*scene), std::move(*world), std::move(text), path, overrides);
    return std::nullopt;
}

std::optional<std::string> Session::openCheckpoint(const std::string& path) {
    Expected<Checkpoint> saved = readCheckpoint(path);
    if (!saved) return saved.error().message;
    const CheckpointScene& source = saved->scene;
    Expected<Scene> scene = parseSceneText(source.text, source.source, source.overrides);
    if (!scene) return path + ": its scene: " + scene.error().message;
    Expected<World> world = World::create(*scene);
    if (!world) return path + ": its scene: " + world.error().message;
    if (auto e = world->loadState(saved->state)) return path + ": " + e->message;
    // A reset starts the scene afresh with what was chosen when the state was saved.
    scene->settings = world->settings();
    scene->materials = world->materials().materials();
    scene->sensors = world->sensors();
    adopt(std::move(*scene), std::move(*world), source.text, source.source, source.overrides);
    return std::nullopt;
}

void Session::adopt(Scene scene, World world, std::string sourceText, const std::string& path,
                    const std::vector<Override>& overrides) {
    // The app plots the residual of every sweep; the headless runs leave this off.
    world.setRecordResidualHistory(true);
    m_scene = std::move(scene);
    m_path = path;
    m_sourceText = std::move(sourceText);
    m_overrides = overrides;
    if (m_loop)
        m_loop->replaceWorld(std::move(world));
    else
        m_loop = std::make_unique<SimLoop>(std::move(world), m_onPublished);
}

std::optional<std::string> Session::reset() {
    if (!m_loop) return "no scene is open";
    Expected<World> world = World::create(m_scene);
    if (!world) return m_path + ": " + world.error().message;
    world->setRecordResidualHistory(true);
    m_loop->replaceWorld(std::move(*world));
    return std::nullopt;
}

std::optional<std::string> Session::applySettings(const StepSettings& settings) {
    if (!m_loop) return "no scene is open";
    if (auto e = validate(settings)) return e->message;
    m_scene.settings = settings;  // a reset keeps what the user chose
    m_loop->post([this, settings](World& world) {
        // The engine knows limits the GUI cannot check (the smooth-DEM stability limit).
        if (auto e = world.applySettings(settings)) report(e->message);
    });
    return std::nullopt;
}

std::optional<std::string> Session::applyMaterial(size_t index, const Material& material) {
    if (!m_loop) return "no scene is open";
    if (index >= m_scene.materials.size()) return "no material " + std::to_string(index);
    if (auto e = validate(material)) return e->message;
    m_scene.materials[index] = material;
    m_loop->post([this, materials = m_scene.materials](World& world) {
        if (auto e = world.setMaterials(materials)) report(e->message);
    });
    return std::nullopt;
}

void Session::setWallEnabled(size_t wall, bool enabled) {
    if (!m_loop || wall >= m_scene.walls.size()) return;
    m_scene.walls[wall].enabled = enabled;
    m_loop->post([wall, enabled](World& world) {
        if (wall < world.walls().size()) world.walls()[wall].enabled = enabled;
    });
}

std::optional<std::string> Session::setWallAngularSpeed(size_t wall, double radPerSecond) {
    if (!m_loop || wall >= m_scene.walls.size()) return "no such wall";
    if (!std::isfinite(radPerSecond) || std::abs(radPerSecond) > 100.0)
        return "drum speed: must be within ±100 rad/s (got " + std::to_string(radPerSecond) + ")";
    // The drum turns about its own axis: keep the direction, change the rate.
    Wall& w = m_scene.walls[wall];
    const Vec3 axis = w.angularVelocity.isZero() ? w.orientation * Vec3::UnitZ()
                                                 : Vec3(w.angularVelocity.normalized());
    const std::string name = w.name;
    m_loop->post([name, axis, radPerSecond](World& world) {
        // Every wall of the drum (shell, caps, teeth) turns together.
        for (Wall& x : world.walls())
            if (!x.angularVelocity.isZero() || x.name == name)
                x.angularVelocity = axis * radPerSecond;
    });
    for (Wall& x : m_scene.walls)
        if (!x.angularVelocity.isZero() || x.name == name) x.angularVelocity = axis * radPerSecond;
    return std::nullopt;
}

std::optional<std::string> Session::setSensor(size_t index, const SplitSensor& sensor) {
    if (!m_loop || index >= m_scene.sensors.size()) return "no such sensor";
    if (const std::string problem = sensorProblem(sensor); !problem.empty()) return problem;
    m_scene.sensors[index] = sensor;
    m_loop->post([index, sensor](World& world) {
        if (index < world.sensors().size()) world.sensors()[index] = sensor;
    });
    return std::nullopt;
}

size_t Session::addSensor(SensorShape shape, const Vec3& centre, double size) {
    SplitSensor s;
    s.shape = shape;
    s.name = std::string(kSensorShapeNames[static_cast<size_t>(shape)]) +
             std::to_string(m_scene.sensors.size());
    s.position = centre;
    s.halfExtents = Vec3::Constant(0.5 * size);
    s.radius = 0.5 * size;
    s.height = size;
    m_scene.sensors.push_back(s);
    if (m_loop) m_loop->post([s](World& world) { world.sensors().push_back(s); });
    return m_scene.sensors.size() - 1;
}

void Session::removeSensor(size_t index) {
    if (index >= m_scene.sensors.size()) return;
    m_scene.sensors.erase(m_scene.sensors.begin() + static_cast<long>(index));
    if (m_loop)
        m_loop->post([index](World& world) {
            if (index < world.sensors().size())
                world.sensors().erase(world.sensors().begin() + static_cast<long>(index));
        });
}

std::optional<std::string> Session::setBeltSpeed(size_t wall, double metresPerSecond) {
    if (!m_loop || wall >= m_scene.walls.size()) return "no such wall";
    if (!std::isfinite(metresPerSecond) || std::abs(metresPerSecond) > 100.0)
        return "belt speed: must be within ±100 m/s (got " + std::to_string(metresPerSecond) + ")";
    Wall& w = m_scene.walls[wall];
    const Vec3 dir =
        w.surfaceVelocity.isZero() ? Vec3::UnitX() : Vec3(w.surfaceVelocity.normalized());
    w.surfaceVelocity = dir * metresPerSecond;
    m_loop->post([wall, v = w.surfaceVelocity](World& world) {
        if (wall < world.walls().size()) world.walls()[wall].surfaceVelocity = v;
    });
    return std::nullopt;
}

std::optional<std::string> Session::setEmitterRate(size_t emitter, double perSecond) {
    if (!m_loop || emitter >= m_scene.emitters.size()) return "no such emitter";
    if (!std::isfinite(perSecond) || !(perSecond > 0.0) || perSecond > 1e7)
        return "emitter rate: must be > 0 and <= 1e7 per second (got " + std::to_string(perSecond) +
               ")";
    m_scene.emitters[emitter].rate = perSecond;
    m_loop->post([emitter, perSecond](World& world) {
        if (emitter < world.emitters().size()) world.emitters()[emitter].spec.rate = perSecond;
    });
    return std::nullopt;
}

std::optional<std::string> Session::setParticleCount(size_t generator, int count) {
    if (count < 1 || count > 5'000'000)
        return "particle count: must be within 1 … 5 000 000 (got " + std::to_string(count) + ")";
    // The lattice generator has already expanded into particles in the scene; the count is a
    // --set override of the file, applied on reload.
    std::vector<Override> overrides = m_overrides;
    overrides.push_back(
        {"particles." + std::to_string(generator) + ".count", std::to_string(count)});
    Expected<Scene> scene = parseSceneText(m_sourceText, m_path, overrides);
    if (!scene) return scene.error().message;
    scene->settings = m_scene.settings;
    scene->materials = m_scene.materials;
    m_scene = std::move(*scene);
    m_overrides = std::move(overrides);
    return std::nullopt;
}

void Session::exportVtk(const std::string& directory) {
    if (!m_loop) return;
    m_loop->post([this, directory](World& world) {
        VtkSeries series(directory);
        if (auto e = series.writeFrame(world))
            report(e->message);
        else
            report("VTK frame written to " + directory + "/ (open particles.pvd in ParaView)");
    });
}

void Session::saveState(const std::string& path) {
    if (!m_loop) return;
    m_loop->post(
        [this, path, scene = CheckpointScene{m_sourceText, m_path, m_overrides}](World& world) {
            if (auto e = writeCheckpoint(path, scene, world.saveState()))
                report(e->message);
            else
                report("state saved to " + path + " (open it to go on from here, bit for bit)");
        });
}

std::vector<std::string> Session::takeMessages() {
    std::lock_guard lock(m_messagesMutex);
    return std::exchange(m_messages, {});
}

void Session::report(std::string message) {
    std::lock_guard lock(m_messagesMutex);
    m_messages.push_back(std::move(message));
}

}  // namespace ndem::app
