#include "gui/session.hpp"

#include "core/material_properties.hpp"
#include "io/run_report.hpp"
#include "io/vtk_writer.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
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
    Expected<Scene> scene = loadSceneFile(path, overrides);
    if (!scene) return scene.error().message;
    Expected<World> world = World::create(*scene);
    if (!world) return path + ": " + world.error().message;
    // The app plots the residual of every sweep; the headless runs leave this off.
    world->setRecordResidualHistory(true);
    m_scene = std::move(*scene);
    m_path = path;
    m_overrides = overrides;
    if (m_loop)
        m_loop->replaceWorld(std::move(*world));
    else
        m_loop = std::make_unique<SimLoop>(std::move(*world), m_onPublished);
    return std::nullopt;
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
            if (!x.angularVelocity.isZero() || x.name == name) x.angularVelocity = axis * radPerSecond;
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
    const Vec3 dir = w.surfaceVelocity.isZero() ? Vec3::UnitX() : Vec3(w.surfaceVelocity.normalized());
    w.surfaceVelocity = dir * metresPerSecond;
    m_loop->post([wall, v = w.surfaceVelocity](World& world) {
        if (wall < world.walls().size()) world.walls()[wall].surfaceVelocity = v;
    });
    return std::nullopt;
}

std::optional<std::string> Session::setEmitterRate(size_t emitter, double perSecond) {
    if (!m_loop || emitter >= m_scene.emitters.size()) return "no such emitter";
    if (!std::isfinite(perSecond) || !(perSecond > 0.0) || perSecond > 1e7)
        return "emitter rate: must be > 0 and <= 1e7 per second (got " + std::to_string(perSecond) + ")";
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
    overrides.push_back({"particles." + std::to_string(generator) + ".count", std::to_string(count)});
    Expected<Scene> scene = loadSceneFile(m_path, overrides);
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
    std::string source;
    if (auto e = readText(m_path, source)) {
        report(*e);
        return;
    }
    m_loop->post([this, source, path, scene = m_scene](World& world) {
        if (auto e = writeStateScene(world, scene, source, path))
            report(*e);
        else
            report("state saved to " + path + " (open it to continue from here)");
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

std::optional<std::string> writeStateScene(const World& world, const Scene& scene,
                                           const std::string& sourceText, const std::string& path) {
    using Json = nlohmann::json;
    Json j = Json::parse(sourceText, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return scene.sourcePath + ": not a JSON object";
    j["settings"] = Json::parse(settingsJson(world));
    Json materials = Json::array();
    for (const Material& m : world.materials().materials()) {
        Json x;
        x["name"] = m.name;
        x["density"] = m.density;
        visitMaterialProperties(m, [&](const SettingInfo& info, double v) { x[info.key] = v; });
        materials.push_back(x);
    }
    j["materials"] = materials;
    const ParticleStore& p = world.particles();
    Json items = Json::array();
    for (size_t i = 0; i < p.size(); ++i) {
        Json item;
        item["position"] = {p.position[i].x(), p.position[i].y(), p.position[i].z()};
        item["velocity"] = {p.velocity[i].x(), p.velocity[i].y(), p.velocity[i].z()};
        item["angularVelocity"] = {p.angularVelocity[i].x(), p.angularVelocity[i].y(),
                                   p.angularVelocity[i].z()};
        item["radius"] = p.radius[i];
        item["material"] = world.materials().materials()[p.material[i]].name;
        items.push_back(item);
    }
    j["particles"] = Json::array({Json{{"type", "list"}, {"items", items}}});
    // The emitters already placed what is in the list; a reopened state must not add them again.
    j.erase("emitters");
    Json sensors = Json::array();
    for (const SplitSensor& s : world.sensors()) {
        const Eigen::AngleAxisd r(s.orientation);
        Json x{{"name", s.name},
               {"type", kSensorShapeNames[static_cast<size_t>(s.shape)]},
               {"enabled", s.enabled},
               {"position", {s.position.x(), s.position.y(), s.position.z()}},
               {"velocity", {s.velocity.x(), s.velocity.y(), s.velocity.z()}}};
        if (s.shape == SensorShape::Box) x["halfExtents"] = {s.halfExtents.x(), s.halfExtents.y(), s.halfExtents.z()};
        if (s.shape != SensorShape::Box) x["radius"] = s.radius;
        if (s.shape == SensorShape::Cylinder) x["height"] = s.height;
        if (s.shape != SensorShape::Sphere && r.angle() != 0.0)
            x["rotation"] = {{"axis", {r.axis().x(), r.axis().y(), r.axis().z()}},
                             {"angle", r.angle() * 180.0 / 3.14159265358979323846}};
        sensors.push_back(x);
    }
    if (sensors.empty())
        j.erase("sensors");
    else
        j["sensors"] = sensors;
    std::ostringstream description;
    description << "State of " << scene.name << " at t = " << world.time() << " s";
    j["description"] = description.str();

    // Written next to the target and renamed, so a failed write never leaves half a file.
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out) return path + ": cannot write here";
        out << j.dump(1) << '\n';
        if (!out.flush()) {
            out.close();
            std::remove(tmp.c_str());
            return path + ": write failed";
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return path + ": " + ec.message();
    }
    return std::nullopt;
}

}  // namespace ndem::app
