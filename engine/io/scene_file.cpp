#include "io/scene_file.hpp"

#include "core/geometry_builders.hpp"
#include "core/parallel.hpp"
#include "core/radius_distribution.hpp"
#include "core/random.hpp"
#include "io/json_fields.hpp"
#include "measure/measurements.hpp"
#include "solve/settings_keys.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>

namespace ndem {

using io::Fields;
using io::Json;
using io::LoadError;
using io::Range;

namespace {

constexpr Range kPositive{0.0, std::numeric_limits<double>::infinity(), true};
constexpr Range kNonNegative{0.0};
constexpr Range kUnit{0.0, 1.0};

/// More grains than a scene file may generate: far past what a step can take on a desktop,
/// and a bound on what a mistyped region or count costs before the error says so.
constexpr double kMaxGeneratedParticles = 4e6;

/// Throws at `path` if `more` generated grains would take the scene past kMaxGeneratedParticles.
void checkRoomFor(const Scene& scene, double more, const std::string& path) {
    if (static_cast<double>(scene.particles.size()) + more > kMaxGeneratedParticles)
        throw LoadError(path, "would take the scene to " +
                                  std::to_string(static_cast<long long>(
                                      static_cast<double>(scene.particles.size()) + more)) +
                                  " particles, more than the 4000000 a scene file may generate");
}

const char* const kSections[] = {
    "name",  "description", "duration", "settings", "materials", "contactMaterials",
    "walls", "particles",   "emitters", "sinks",    "sensors",   "measurements",
    "phases"};

// ---------------------------------------------------------------------------------------
// --set overrides on the JSON tree
// ---------------------------------------------------------------------------------------

std::vector<std::string> splitKey(const std::string& key) {
    std::vector<std::string> parts;
    std::stringstream ss(key);
    std::string part;
    while (std::getline(ss, part, '.'))
        parts.push_back(part);
    return parts;
}

bool isSection(const std::string& s) {
    for (const char* k : kSections)
        if (s == k) return true;
    return false;
}

/// Applies one override; returns the canonical dotted path it wrote (array names resolved
/// to indices) so that errors at that path can name the --set that caused them.
std::string applyOverride(Json& root, const Override& o) {
    std::vector<std::string> parts = splitKey(o.key);
    if (parts.empty() || std::any_of(parts.begin(), parts.end(), [](auto& p) { return p.empty(); }))
        throw LoadError(o.key, "malformed key");
    if (!isSection(parts[0])) parts.insert(parts.begin(), "settings");
    Json* node = &root;
    std::string canonical;
    for (size_t i = 0; i < parts.size(); ++i) {
        const std::string& part = parts[i];
        const bool last = i + 1 == parts.size();
        std::string step = part;
        if (node->is_array()) {
            // By index, or by an element's "name".
            size_t index = node->size();
            const bool numeric = !part.empty() && std::all_of(part.begin(), part.end(), ::isdigit);
            if (numeric) index = std::stoul(part);
            // By "name"; measurements have none, so their "type" addresses them too.
            for (size_t k = 0; !numeric && k < node->size(); ++k)
                if ((*node)[k].is_object() && (*node)[k].value("name", "") == part) index = k;
            for (size_t k = 0; !numeric && index == node->size() && k < node->size(); ++k)
                if ((*node)[k].is_object() && (*node)[k].value("type", "") == part) index = k;
            if (index >= node->size())
                throw LoadError(io::joinPath(canonical, part), "no such element");
            step = std::to_string(index);
            node = &(*node)[index];
        } else {
            if (!node->is_object()) throw LoadError(canonical, "is not an object");
            if (!node->contains(part) && !last) (*node)[part] = Json::object();
            node = &(*node)[part];
        }
        canonical = io::joinPath(canonical, step);
        if (last) {
            Json value = Json::parse(o.value, nullptr, false);
            *node = value.is_discarded() ? Json(o.value) : value;
        }
    }
    return canonical;
}

// ---------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------

/// Flattens nested objects into dotted leaf keys (arrays are leaves: vectors).
void flatten(const Json& j, const std::string& prefix, std::map<std::string, const Json*>& out) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string key = io::joinPath(prefix, it.key());
        if (it->is_object())
            flatten(*it, key, out);
        else
            out[key] = &*it;
    }
}

/// Reads `settings` through visitSettings, the one list of setting keys.
struct SettingsReader {
    std::map<std::string, const Json*> leaves;
    std::set<std::string> used;
    std::string prefix = "settings.";  ///< where the object is, for the errors

    const Json* find(const SettingInfo& info) {
        used.insert(info.key);
        auto it = leaves.find(info.key);
        return it == leaves.end() ? nullptr : it->second;
    }
    std::string path(const SettingInfo& info) const { return prefix + info.key; }
    static Range range(const SettingInfo& info) {
        return Range{info.min, info.max, info.minExclusive, false};
    }
    void operator()(const SettingInfo& info, double& v) {
        if (const Json* j = find(info)) v = Fields::checkNumber(*j, path(info), range(info));
    }
    void operator()(const SettingInfo& info, int& v) {
        if (const Json* j = find(info)) {
            if (!j->is_number_integer())
                throw LoadError(path(info), "expected an integer (got " + io::show(*j) + ")");
            v = static_cast<int>(Fields::checkNumber(*j, path(info), range(info)));
        }
    }
    void operator()(const SettingInfo& info, bool& v) {
        if (const Json* j = find(info)) {
            if (!j->is_boolean())
                throw LoadError(path(info), "expected true or false (got " + io::show(*j) + ")");
            v = j->get<bool>();
        }
    }
    void operator()(const SettingInfo& info, Vec3& v) {
        if (const Json* j = find(info)) v = Fields::checkVec3(*j, path(info));
    }
    void operator()(const SettingInfo& info, int& v, ChoiceNames names) {
        const Json* j = find(info);
        if (!j) return;
        std::string options;
        for (size_t i = 0; i < names.size(); ++i) {
            options += (i ? " | " : "") + std::string(names[i]);
            if (j->is_string() && j->get<std::string>() == names[i]) {
                v = static_cast<int>(i);
                return;
            }
        }
        throw LoadError(path(info), "expected one of " + options + " (got " + io::show(*j) + ")");
    }
};

/// The settings object at `where` on top of `base`; `keys` receives the keys it sets.
StepSettings readSettings(const Json* j, StepSettings base = {},
                          const std::string& where = "settings",
                          std::vector<std::string>* keys = nullptr) {
    StepSettings s = base;
    if (!j) return s;
    if (!j->is_object()) throw LoadError(where, "expected an object");
    SettingsReader reader;
    reader.prefix = where + ".";
    flatten(*j, "", reader.leaves);
    visitSettings(s, reader);
    for (const auto& [key, value] : reader.leaves) {
        if (!reader.used.count(key)) throw LoadError(where + "." + key, "unknown key");
        if (keys) keys->push_back(key);
    }
    return s;
}

/// `phases`: [{ "at": t, "settings": { ... } }, ...] in increasing t.
void readPhases(const Json* j, Scene& scene) {
    if (!j) return;
    if (!j->is_array()) throw LoadError("phases", "expected an array of {at, settings}");
    StepSettings current = scene.settings;
    double last = 0.0;
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "phases." + std::to_string(i));
        SettingsPhase phase;
        phase.at = f.number("at", 0.0, Range{last, std::numeric_limits<double>::infinity(), i > 0});
        const Json* settings = f.raw("settings");
        if (!settings)
            throw LoadError(f.pathOf("settings"), "missing (the settings this phase sets)");
        phase.settings = readSettings(settings, current, f.pathOf("settings"), &phase.keys);
        f.finish();
        if (auto e = validate(phase.settings)) throw LoadError(f.pathOf("settings"), e->message);
        if (phase.settings.dimension != scene.settings.dimension)
            throw LoadError(f.pathOf("settings.dimension"), "fixed for a run");
        current = phase.settings;
        last = phase.at;
        scene.phases.push_back(std::move(phase));
    }
}

std::vector<Material> readMaterials(const Json* j) {
    std::vector<Material> out;
    if (!j) return {Material{}};
    if (!j->is_array() || j->empty()) throw LoadError("materials", "expected a non-empty array");
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "materials." + std::to_string(i));
        Material m;
        m.name = f.string("name", "");
        if (m.name.empty()) throw LoadError(f.pathOf("name"), "every material needs a name");
        for (const Material& other : out)
            if (other.name == m.name)
                throw LoadError(f.pathOf("name"), "duplicate material '" + m.name + "'");
        m.density = f.number("density", m.density, kPositive);
        m.youngsModulus = f.number("youngsModulus", m.youngsModulus, kPositive);
        m.poissonRatio = f.number("poissonRatio", m.poissonRatio, Range{0.0, 0.5, false, true});
        m.friction = f.number("friction", m.friction, kNonNegative);
        m.rollingResistance = f.number("rollingResistance", m.rollingResistance, kNonNegative);
        m.restitution = f.number("restitution", m.restitution, kUnit);
        m.damping = f.number("damping", m.damping, kNonNegative);
        m.linearStiffness = f.number("linearStiffness", m.linearStiffness, kNonNegative);
        f.finish();
        out.push_back(m);
    }
    return out;
}

MaterialId materialRef(Fields& f, const std::vector<Material>& materials) {
    const std::string name = f.string("material", materials.front().name);
    for (size_t i = 0; i < materials.size(); ++i)
        if (materials[i].name == name) return static_cast<MaterialId>(i);
    throw LoadError(f.pathOf("material"), "unknown material \"" + name + "\"");
}

std::vector<ContactMaterialOverride> readContactMaterials(const Json* j,
                                                          const std::vector<Material>& materials) {
    std::vector<ContactMaterialOverride> out;
    if (!j) return out;
    if (!j->is_array()) throw LoadError("contactMaterials", "expected an array");
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "contactMaterials." + std::to_string(i));
        ContactMaterialOverride o;
        const Json* pair = f.raw("materials");
        if (!pair || !pair->is_array() || pair->size() != 2 || !(*pair)[0].is_string() ||
            !(*pair)[1].is_string())
            throw LoadError(f.pathOf("materials"), "expected two material names");
        o.first = (*pair)[0].get<std::string>();
        o.second = (*pair)[1].get<std::string>();
        for (const std::string& name : {o.first, o.second})
            if (std::none_of(materials.begin(), materials.end(),
                             [&](const Material& m) { return m.name == name; }))
                throw LoadError(f.pathOf("materials"), "unknown material \"" + name + "\"");
        o.youngsModulus = f.optionalNumber("youngsModulus", kPositive);
        o.poissonRatio = f.optionalNumber("poissonRatio", Range{0.0, 0.5, false, true});
        o.friction = f.optionalNumber("friction", kNonNegative);
        o.rollingResistance = f.optionalNumber("rollingResistance", kNonNegative);
        o.restitution = f.optionalNumber("restitution", kUnit);
        o.damping = f.optionalNumber("damping", kNonNegative);
        o.linearStiffness = f.optionalNumber("linearStiffness", kNonNegative);
        f.finish();
        out.push_back(o);
    }
    return out;
}

/// Orientation from an optional {"axis": [...], "angle": degrees} rotation after aligning
/// local z with `zAxis`.
Quat readOrientation(Fields& f, const Vec3& zAxis) {
    Quat q = Quat::FromTwoVectors(Vec3::UnitZ(), zAxis);
    if (const Json* r = f.raw("rotation")) {
        Fields rf(*r, f.pathOf("rotation"));
        const Vec3 axis = rf.direction("axis", Vec3::UnitZ());
        const double angle = rf.number("angle", 0.0) * std::numbers::pi / 180.0;
        rf.finish();
        q = Quat(Eigen::AngleAxisd(angle, axis)) * q;
    }
    return q;
}

/// An axis-aligned box {"min": [...], "max": [...]}, max > min on every axis.
void readBox(Fields& f, Vec3& lo, Vec3& hi) {
    lo = f.vec3("min", Vec3::Zero());
    hi = f.vec3("max", Vec3::Zero());
    if ((hi.array() < lo.array()).any())
        throw LoadError(f.pathOf("max"), "every component must be >= min");
}

/// Stress control of a wall; `walls` is the whole walls array (names for areaWalls).
ServoControl readServo(const Json& j, const std::string& path, const Wall& wall,
                       const Json& walls) {
    Fields f(j, path);
    ServoControl s;
    s.active = true;
    s.direction = f.direction("direction", wall.orientation * Vec3::UnitZ());
    s.stress = f.number("stress", 0.0, kNonNegative);
    s.gain = f.number("gain", s.gain, kPositive);
    s.mass = f.number("mass", s.mass, kNonNegative);
    s.relaxation = f.number("relaxation", s.relaxation, kUnit);
    s.integral = f.number("integral", s.integral, kUnit);
    if (s.integral > 0.0 && s.relaxation <= 0.0)
        throw LoadError(f.pathOf("integral"),
                        "needs a relaxation (the integral term scales by the same stiffness)");
    if (s.mass > 0.0 && s.relaxation > 0.0)
        throw LoadError(f.pathOf("relaxation"), "give a mass or a relaxation, not both");
    s.maxSpeed = f.number("maxSpeed", s.maxSpeed, kPositive);
    s.constantFrom = f.number("constantFrom", s.constantFrom, kNonNegative);
    s.constantSpeed = f.number("constantSpeed", s.constantSpeed);
    if (const Json* names = f.raw("areaWalls")) {
        if (!names->is_array() || (names->size() != 4 && names->size() != 2))
            throw LoadError(f.pathOf("areaWalls"),
                            "expected four wall names [a, b, c, d] (or two in the plane: [a, b])");
        for (int k = 0; k < static_cast<int>(names->size()); ++k) {
            const std::string name = (*names)[k].is_string() ? (*names)[k].get<std::string>() : "";
            for (size_t w = 0; w < walls.size(); ++w)
                if (walls[w].is_object() && walls[w].value("name", "") == name)
                    s.areaWalls[k] = static_cast<int>(w);
            if (s.areaWalls[k] < 0)
                throw LoadError(f.pathOf("areaWalls") + "." + std::to_string(k),
                                "no wall named \"" + name + "\"");
        }
    } else {
        s.area = f.number("area", 0.0, kPositive);
        if (s.area <= 0.0) throw LoadError(f.pathOf("area"), "give area (m²) or areaWalls");
    }
    f.finish();
    return s;
}

void readWalls(const Json* j, const std::vector<Material>& materials, Scene& scene) {
    if (!j) return;
    if (!j->is_array()) throw LoadError("walls", "expected an array");
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "walls." + std::to_string(i));
        const std::string type = f.string("type", "");
        const std::string name = f.string("name", "wall" + std::to_string(i));
        const MaterialId material = materialRef(f, materials);
        if (type == "drum") {
            DrumSpec d;
            d.name = name;
            d.material = material;
            d.capMaterial = f.has("capMaterial") ? [&] {
                const std::string cap = f.string("capMaterial", "");
                for (size_t m = 0; m < materials.size(); ++m)
                    if (materials[m].name == cap) return static_cast<MaterialId>(m);
                throw LoadError(f.pathOf("capMaterial"), "unknown material \"" + cap + "\"");
            }() : material;
            d.center = f.vec3("center", d.center);
            d.axis = f.direction("axis", d.axis);
            d.diameter = f.number("diameter", d.diameter, kPositive);
            d.length = f.number("length", d.length, kPositive);
            d.speed = f.number("speed", d.speed);
            d.teeth = f.integer("teeth", d.teeth, Range{0.0, 10000.0});
            d.toothHeight = f.number("toothHeight", d.toothHeight, kPositive);
            d.attackAngle = f.number("attackAngle", d.attackAngle, Range{1.0, 89.0});
            if (d.teeth > 0 && d.toothHeight >= 0.5 * d.diameter)
                throw LoadError(f.pathOf("toothHeight"), "must be smaller than the drum radius");
            f.finish();
            buildDrum(d, scene.walls, scene.meshes);
            continue;
        }
        Wall w;
        w.name = name;
        w.material = material;
        w.enabled = f.boolean("enabled", true);
        w.position = f.vec3("position", Vec3::Zero());
        w.linearVelocity = f.vec3("velocity", Vec3::Zero());
        w.angularVelocity = f.vec3("angularVelocity", Vec3::Zero());
        w.surfaceVelocity = f.vec3("surfaceVelocity", Vec3::Zero());
        w.disableAt = f.number("disableAt", w.disableAt, kNonNegative);
        w.stopAt = f.number("stopAt", w.stopAt, kNonNegative);
        const Json* servo = f.raw("servo");
        if (type == "plane") {
            w.shape = WallShape::Plane;
            w.orientation = readOrientation(f, f.direction("normal", Vec3::UnitZ()));
        } else if (type == "box") {
            w.shape = WallShape::Box;
            w.halfExtents = f.vec3("halfExtents", w.halfExtents);
            if ((w.halfExtents.array() <= 0.0).any())
                throw LoadError(f.pathOf("halfExtents"), "every half extent must be > 0");
            w.orientation = readOrientation(f, Vec3::UnitZ());
        } else if (type == "cylinder") {
            w.shape = WallShape::Cylinder;
            w.radius = f.number("radius", w.radius, kPositive);
            w.height = f.number("height", w.height, kPositive);
            w.orientation = readOrientation(f, f.direction("axis", Vec3::UnitZ()));
        } else if (type == "mesh") {
            w.shape = WallShape::Mesh;
            TriangleMesh mesh;
            const Json* v = f.raw("vertices");
            const Json* t = f.raw("triangles");
            if (!v || !v->is_array() || v->empty())
                throw LoadError(f.pathOf("vertices"), "expected an array of [x, y, z]");
            for (size_t k = 0; k < v->size(); ++k)
                mesh.vertices.push_back(
                    Fields::checkVec3((*v)[k], f.pathOf("vertices") + "." + std::to_string(k)));
            if (!t || !t->is_array() || t->empty())
                throw LoadError(f.pathOf("triangles"), "expected an array of [i, j, k]");
            for (size_t k = 0; k < t->size(); ++k) {
                const std::string at = f.pathOf("triangles") + "." + std::to_string(k);
                const Json& tri = (*t)[k];
                if (!tri.is_array() || tri.size() != 3) throw LoadError(at, "expected [i, j, k]");
                std::array<int, 3> ids{};
                for (int c = 0; c < 3; ++c) {
                    if (!tri[c].is_number_integer() || tri[c].get<long>() < 0 ||
                        tri[c].get<size_t>() >= mesh.vertices.size())
                        throw LoadError(at,
                                        "vertex index out of range (got " + io::show(tri) + ")");
                    ids[c] = tri[c].get<int>();
                }
                mesh.triangles.push_back(ids);
            }
            w.orientation = readOrientation(f, Vec3::UnitZ());
            w.mesh = static_cast<int>(scene.meshes.size());
            scene.meshes.push_back(std::move(mesh));
        } else {
            throw LoadError(f.pathOf("type"),
                            "expected plane | box | cylinder | mesh | drum (got \"" + type + "\")");
        }
        if (servo) w.servo = readServo(*servo, f.pathOf("servo"), w, *j);
        f.finish();
        scene.walls.push_back(w);
    }
}

RadiusDistribution readRadii(Fields& f) {
    RadiusDistribution d;
    const int given = f.has("radius") + f.has("radiusRange") + f.has("radii");
    if (given != 1) throw LoadError(f.path(), "give exactly one of radius, radiusRange, radii");
    if (f.has("radius")) {
        d.lo = d.hi = f.number("radius", 0.0, kPositive);
    } else if (f.has("radiusRange")) {
        const Json* r = f.raw("radiusRange");
        if (!r->is_array() || r->size() != 2)
            throw LoadError(f.pathOf("radiusRange"), "expected [min, max]");
        d.lo = Fields::checkNumber((*r)[0], f.pathOf("radiusRange.0"), kPositive);
        d.hi = Fields::checkNumber((*r)[1], f.pathOf("radiusRange.1"), Range{d.lo});
    } else {
        const Json* r = f.raw("radii");
        if (!r->is_array() || r->empty())
            throw LoadError(f.pathOf("radii"), "expected [{\"radius\": r, \"fraction\": f}, ...]");
        double cumulative = 0.0;
        for (size_t k = 0; k < r->size(); ++k) {
            Fields e((*r)[k], f.pathOf("radii") + "." + std::to_string(k));
            const double radius = e.number("radius", 0.0, kPositive);
            cumulative += e.number("fraction", 1.0, kPositive);
            e.finish();
            d.mixture.push_back({radius, cumulative});
        }
    }
    return d;
}

void readParticle(Fields& f, const std::vector<Material>& materials, ParticleSpec& p) {
    p.material = materialRef(f, materials);
    p.velocity = f.vec3("velocity", p.velocity);
    p.angularVelocity = f.vec3("angularVelocity", p.angularVelocity);
    if (f.boolean("kinematic", false)) p.flags |= kKinematic;
    if (f.boolean("fixedRotation", false)) p.flags |= kFixedRotation;
}

void readParticles(const Json* j, const std::vector<Material>& materials, Scene& scene) {
    if (!j) return;
    if (!j->is_array()) throw LoadError("particles", "expected an array");
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "particles." + std::to_string(i));
        const std::string type = f.string("type", "");
        f.string("name", "");
        if (type == "list") {
            const Json* items = f.raw("items");
            if (!items || !items->is_array())
                throw LoadError(f.pathOf("items"), "expected an array of particles");
            for (size_t k = 0; k < items->size(); ++k) {
                Fields e((*items)[k], f.pathOf("items") + "." + std::to_string(k));
                ParticleSpec p;
                p.position = e.vec3("position", p.position);
                p.radius = e.number("radius", p.radius, kPositive);
                p.mass = e.number("mass", 0.0, kNonNegative);
                readParticle(e, materials, p);
                e.finish();
                scene.particles.push_back(p);
            }
        } else if (type == "column") {
            ParticleSpec p;
            const int count = f.integer("count", 10, Range{1.0, 1e6});
            checkRoomFor(scene, count, f.pathOf("count"));
            p.radius = f.number("radius", p.radius, kPositive);
            const Vec3 base = f.vec3("base", Vec3::Zero());
            const double gap = f.number("gap", 0.0, kNonNegative);
            readParticle(f, materials, p);
            for (int k = 0; k < count; ++k) {
                p.position = base + Vec3(0.0, 0.0, p.radius + k * (2.0 * p.radius + gap));
                scene.particles.push_back(p);
            }
        } else if (type == "lattice") {
            // A jittered simple cubic lattice filling a region from the bottom up
            // (servin-2014 Sec. 4.2.1: "a regular cubic grid with slight perturbation").
            RadiusDistribution radii = readRadii(f);
            const double spacing = f.number("spacing", 1.05, Range{1.0, 100.0}) * 2.0 * radii.max();
            const int count = f.integer("count", 0, Range{0.0, kMaxGeneratedParticles});
            const double jitter = f.number("jitter", 0.05, Range{0.0, 0.5}) * 2.0 * radii.max();
            Random random(static_cast<std::uint64_t>(f.integer("seed", 1, Range{0.0, 2e9})));
            ParticleSpec proto;
            readParticle(f, materials, proto);
            const Json* region = f.raw("region");
            if (!region) throw LoadError(f.pathOf("region"), "missing (a box or a cylinder)");
            Fields rf(*region, f.pathOf("region"));
            const std::string shape = rf.string("shape", "box");
            // Candidate lattice points over the region's bounding box; a point is kept if a
            // grain of the largest radius fits inside (half a spacing from every boundary).
            Vec3 lo, hi, base = Vec3::Zero(), axis = Vec3::UnitZ();
            double cylRadius = 0.0, height = 0.0;
            if (shape == "box") {
                readBox(rf, lo, hi);
            } else if (shape == "cylinder") {
                base = rf.vec3("center", Vec3::Zero());
                axis = rf.direction("axis", Vec3::UnitZ());
                cylRadius = rf.number("radius", 0.0, kPositive);
                height = rf.number("height", 0.0, kPositive);
                const Vec3 radial = (Vec3::Ones() - axis.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
                lo = base.cwiseMin(base + height * axis) - cylRadius * radial;
                hi = base.cwiseMax(base + height * axis) + cylRadius * radial;
            } else {
                throw LoadError(rf.pathOf("shape"),
                                "expected box | cylinder (got \"" + shape + "\")");
            }
            rf.finish();
            // A 2D scene's lattice is the region's cut by the plane y = 0 (a box's rectangle, a
            // cylinder along y's disk).
            const bool planar = scene.settings.dimension == 2;
            auto inside = [&](const Vec3& p) {
                const double m = 0.5 * spacing;
                if (shape == "box") {
                    for (int c = 0; c < 3; ++c)
                        if (!(planar && c == 1) &&
                            (p[c] - lo[c] < m - 1e-12 || hi[c] - p[c] < m - 1e-12))
                            return false;
                    return true;
                }
                if (planar && std::abs(std::abs(axis.y()) - 1.0) < 1e-12)
                    return std::hypot(p.x() - base.x(), p.z() - base.z()) <= cylRadius - m;
                const double along = (p - base).dot(axis);
                return along >= m && along <= height - m &&
                       (p - base - along * axis).norm() <= cylRadius - m;
            };
            // Counted in doubles: a region millions of spacings wide overflows an int. The lattice
            // is scanned layer by layer from the bottom and stops once `count` points are found,
            // so a tall region costs only the layers the bed fills.
            Vec3 cells = ((hi - lo) / spacing).array().floor().max(1.0);
            if (planar) cells.y() = 1.0;
            const double maxScan = 2.0 * kMaxGeneratedParticles;
            const auto tooMany = [&] {
                return LoadError(
                    f.pathOf("region"),
                    "holds more than 8000000 lattice points at this spacing below the grains asked "
                    "for: shrink the region, widen the spacing or give a smaller count");
            };
            if (!(cells.x() * cells.y() <= maxScan)) throw tooMany();
            // Centre the lattice in the bounding box: a narrow cylinder keeps its symmetric
            // points (a 3 d silo holds 4 per layer, not 1).
            const Vec3 offset = 0.5 * ((hi - lo) - spacing * cells);
            std::vector<Vec3> points;
            double scanned = 0.0;
            for (double z = 0.0; z < cells.z(); z += 1.0) {
                if (count > 0 && points.size() >= static_cast<size_t>(count)) break;
                scanned += cells.x() * cells.y();
                if (scanned > maxScan) throw tooMany();
                for (double y = 0.0; y < cells.y(); y += 1.0)
                    for (double x = 0.0; x < cells.x(); x += 1.0) {
                        Vec3 p = lo + offset + spacing * Vec3(x + 0.5, y + 0.5, z + 0.5);
                        if (planar) p.y() = 0.0;
                        if (inside(p)) points.push_back(p);
                    }
            }
            // Fill from the bottom up so that `count` grains form a bed, whatever the shape.
            std::stable_sort(points.begin(), points.end(),
                             [](const Vec3& a, const Vec3& b) { return a.z() < b.z(); });
            if (count > 0 && static_cast<size_t>(count) > points.size())
                throw LoadError(f.pathOf("count"),
                                "the region holds only " + std::to_string(points.size()) +
                                    " particles (got " + std::to_string(count) + ")");
            const size_t take = count > 0 ? static_cast<size_t>(count) : points.size();
            checkRoomFor(scene, static_cast<double>(take), f.pathOf("count"));
            for (size_t k = 0; k < take; ++k) {
                ParticleSpec p = proto;
                p.radius = radii.sample(random);
                p.position = points[k];
                for (int c = 0; c < 3; ++c)
                    if (!(planar && c == 1)) p.position[c] += random.uniform(-jitter, jitter);
                scene.particles.push_back(p);
            }
        } else {
            throw LoadError(f.pathOf("type"),
                            "expected list | column | lattice (got \"" + type + "\")");
        }
        f.finish();
    }
}

void readEmitters(const Json* j, const std::vector<Material>& materials, Scene& scene) {
    if (!j) return;
    if (!j->is_array()) throw LoadError("emitters", "expected an array");
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "emitters." + std::to_string(i));
        EmitterSpec e;
        e.name = f.string("name", "emitter" + std::to_string(i));
        const Json* region = f.raw("region");
        if (!region)
            throw LoadError(f.pathOf("region"), "missing ({\"min\": [...], \"max\": [...]})");
        Fields rf(*region, f.pathOf("region"));
        readBox(rf, e.min, e.max);
        rf.finish();
        e.rate = f.number("rate", e.rate, kPositive);
        e.start = f.number("start", e.start, kNonNegative);
        e.stop =
            f.number("stop", e.stop, Range{e.start, std::numeric_limits<double>::infinity(), true});
        e.maxCount = f.integer("maxCount", 0, Range{0.0, 1e9});
        e.radii = readRadii(f);
        e.velocity = f.vec3("velocity", e.velocity);
        e.material = materialRef(f, materials);
        e.seed = static_cast<std::uint64_t>(f.integer("seed", 1, Range{0.0, 2e9}));
        f.finish();
        scene.emitters.push_back(e);
    }
}

void readSinks(const Json* j, Scene& scene) {
    if (!j) return;
    if (!j->is_array()) throw LoadError("sinks", "expected an array");
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "sinks." + std::to_string(i));
        SinkSpec s;
        s.name = f.string("name", "sink" + std::to_string(i));
        readBox(f, s.min, s.max);
        f.finish();
        scene.sinks.push_back(s);
    }
}

void readSensors(const Json* j, Scene& scene) {
    if (!j) return;
    if (!j->is_array()) throw LoadError("sensors", "expected an array");
    for (size_t i = 0; i < j->size(); ++i) {
        Fields f((*j)[i], "sensors." + std::to_string(i));
        SplitSensor s;
        s.name = f.string("name", "sensor" + std::to_string(i));
        const std::string type = f.string("type", "box");
        s.enabled = f.boolean("enabled", true);
        s.position = f.vec3("position", Vec3::Zero());
        s.velocity = f.vec3("velocity", Vec3::Zero());
        if (type == "box") {
            s.shape = SensorShape::Box;
            s.halfExtents = f.vec3("halfExtents", s.halfExtents);
            if ((s.halfExtents.array() <= 0.0).any())
                throw LoadError(f.pathOf("halfExtents"), "every half extent must be > 0");
            s.orientation = readOrientation(f, Vec3::UnitZ());
        } else if (type == "sphere") {
            s.shape = SensorShape::Sphere;
            s.radius = f.number("radius", s.radius, kPositive);
        } else if (type == "cylinder") {
            s.shape = SensorShape::Cylinder;
            s.radius = f.number("radius", s.radius, kPositive);
            s.height = f.number("height", s.height, kPositive);
            s.orientation = readOrientation(f, f.direction("axis", Vec3::UnitZ()));
        } else {
            throw LoadError(f.pathOf("type"),
                            "expected box | sphere | cylinder (got \"" + type + "\")");
        }
        f.finish();
        scene.sensors.push_back(s);
    }
}

void readMeasurements(const Json* j, Scene& scene) {
    if (!j) return;
    if (!j->is_array()) throw LoadError("measurements", "expected an array");
    for (size_t i = 0; i < j->size(); ++i) {
        const std::string at = "measurements." + std::to_string(i);
        const Json& m = (*j)[i];
        if (!m.is_object()) throw LoadError(at, "expected an object");
        MeasurementRequest r;
        for (auto it = m.begin(); it != m.end(); ++it) {
            if (it.key() == "type" && it->is_string())
                r.type = it->get<std::string>();
            else if (it->is_number())
                r.numbers.push_back({it.key(), it->get<double>()});
            else if (it->is_string())
                r.words.push_back({it.key(), it->get<std::string>()});
            else if (it->is_array() && std::all_of(it->begin(), it->end(),
                                                   [](const Json& x) { return x.is_number(); }))
                r.lists.push_back({it.key(), it->get<std::vector<double>>()});
            else
                throw LoadError(
                    at + "." + it.key(),
                    "expected a number, a string or a list of numbers (got " + io::show(*it) + ")");
        }
        if (auto e = checkMeasurementRequest(r)) throw LoadError(at, *e);
        scene.measurements.push_back(r);
    }
}

Scene readScene(const Json& root) {
    Fields top(root, "");
    Scene scene;
    scene.name = top.string("name", "scene");
    scene.description = top.string("description", "");
    scene.duration = top.number("duration", 1.0, kPositive);
    scene.settings = readSettings(top.raw("settings"));
    readPhases(top.raw("phases"), scene);
    scene.materials = readMaterials(top.raw("materials"));
    scene.contactMaterials = readContactMaterials(top.raw("contactMaterials"), scene.materials);
    readWalls(top.raw("walls"), scene.materials, scene);
    readParticles(top.raw("particles"), scene.materials, scene);
    readEmitters(top.raw("emitters"), scene.materials, scene);
    readSinks(top.raw("sinks"), scene);
    readSensors(top.raw("sensors"), scene);
    readMeasurements(top.raw("measurements"), scene);
    top.finish();
    if (auto e = validate(scene.settings)) throw LoadError("settings", e->message);
    return scene;
}

/// "line L, column C" of a byte offset, for JSON syntax errors.
std::string lineColumn(const std::string& text, size_t offset) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

/// Arrays and objects nested deeper than any scene needs: the JSON library recurses once per
/// level when it prints or walks a value, so 100 000 levels overflow the stack.
constexpr int kMaxNesting = 64;

/// The byte offset where `text` opens its (kMaxNesting + 1)-th nested level, if it does.
std::optional<size_t> tooDeep(const std::string& text) {
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxNesting) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::nullopt;
}

}  // namespace

Expected<Override> parseOverride(const std::string& text) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) return Error{"--set " + text + ": expected key=value"};
    return Override{text.substr(0, eq), text.substr(eq + 1)};
}

Expected<Override> parseThreadsFlag(const std::string& text) {
    const bool digits =
        !text.empty() && text.size() <= 5 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int n = digits ? std::stoi(text) : 0;
    if (n < 1 || n > kMaxThreads)
        return Error{"--threads " + text + ": expected a whole number of threads from 1 to " +
                     std::to_string(kMaxThreads) + " (leave --threads out to use every core)"};
    return Override{"threads", std::to_string(n)};
}

Expected<Scene> parseSceneText(const std::string& text, const std::string& source,
                               const std::vector<Override>& overrides) {
    if (const auto at = tooDeep(text))
        return Error{source + ":" + lineColumn(text, *at) +
                     ": arrays and objects nested more than " + std::to_string(kMaxNesting) +
                     " levels deep"};
    for (const Override& o : overrides)
        if (tooDeep(o.value))
            return Error{"--set " + o.key + ": the value nests arrays and objects more than " +
                         std::to_string(kMaxNesting) + " levels deep"};
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error& e) {
        std::string what = e.what();
        const size_t cut = what.find("parse error");
        return Error{source + ":" + lineColumn(text, e.byte > 0 ? e.byte - 1 : 0) +
                     ": invalid JSON: " + (cut == std::string::npos ? what : what.substr(cut))};
    } catch (const Json::out_of_range& e) {
        // A number beyond a double (1e500): the message quotes it, so it can be found.
        std::string what = e.what();
        const size_t open = what.find('\''), close = what.rfind('\'');
        const std::string literal = open != std::string::npos && close > open
                                        ? what.substr(open + 1, close - open - 1)
                                        : "";
        const size_t at = literal.empty() ? std::string::npos : text.find(literal);
        const size_t cut = what.find("] ");
        return Error{source + (at == std::string::npos ? "" : ":" + lineColumn(text, at)) +
                     ": invalid JSON: " + (cut == std::string::npos ? what : what.substr(cut + 2))};
    }
    std::map<std::string, const Override*> overridden;
    try {
        for (const Override& o : overrides) {
            try {
                overridden[applyOverride(root, o)] = &o;
            } catch (const LoadError& e) {
                return Error{"--set " + o.key + "=" + o.value + ": " + e.path + ": " + e.what()};
            }
        }
        Scene scene = readScene(root);
        scene.sourcePath = source;
        return scene;
    } catch (const LoadError& e) {
        // Blame the --set whose key is (a prefix of) the failing key, else the file.
        for (const auto& [path, o] : overridden)
            if (e.path == path || e.path.rfind(path + ".", 0) == 0 ||
                path.rfind(e.path + ".", 0) == 0 || ("settings." + o->key) == e.path)
                return Error{"--set " + o->key + "=" + o->value + ": " + e.path + ": " + e.what()};
        return Error{source + ": " + (e.path.empty() ? "" : e.path + ": ") + e.what()};
    } catch (const std::exception& e) {
        return Error{source + ": " + e.what()};
    }
}

Expected<Scene> loadSceneFile(const std::string& path, const std::vector<Override>& overrides) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open the scene file"};
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parseSceneText(buffer.str(), path, overrides);
}

}  // namespace ndem
