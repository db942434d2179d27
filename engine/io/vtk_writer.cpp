#include "io/vtk_writer.hpp"

#include "world/world.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <numbers>
#include <system_error>
#include <type_traits>

namespace ndem {
namespace {

namespace fs = std::filesystem;

// The files declare byte_order="LittleEndian" and the arrays are copied out of memory as is.
static_assert(std::endian::native == std::endian::little, "VTK output assumes little endian");
static_assert(sizeof(Vec3) == 3 * sizeof(double));

constexpr std::array<const char*, 3> kKinds{"particles", "contacts", "walls"};
constexpr double kMinPlaneHalfSize = 0.1;  ///< m
// 48 facets put the flat faces within 0.2 % of R (1 − cos(π/48)).
constexpr int kCylinderFacets = 48;
constexpr std::array<std::array<double, 2>, 4> kSquareCorners{{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}};

// ---------------------------------------------------------------------------------------------
// PolyData assembly and serialisation
// ---------------------------------------------------------------------------------------------

/// XML elements of a Piece, in the order VTK's own writer emits them.
enum class Section : int { PointData, CellData, Points, Verts, Lines, Polys };
constexpr std::array<const char*, 6> kSectionTags{"PointData", "CellData", "Points",
                                                  "Verts",     "Lines",    "Polys"};

template <class T>
constexpr const char* vtkType() {
    if constexpr (std::is_same_v<T, double>)
        return "Float64";
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return "Int64";
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return "Int32";
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return "UInt32";
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return "UInt16";
    else {
        static_assert(std::is_same_v<T, std::uint8_t>, "no VTK type for T");
        return "UInt8";
    }
}

struct DataArray {
    Section section;
    std::string name;
    const char* type;
    int components;
    std::string bytes;  ///< raw little-endian values
};

/// One PolyData piece: element counts and its arrays in the order they are appended. Arrays
/// are stored in the order added, so Points, added first everywhere, sit at offset 0.
struct PolyData {
    std::int64_t points = 0, verts = 0, lines = 0, polys = 0;
    std::vector<DataArray> arrays;

    template <class T>
    void add(Section section, std::string name, const std::vector<T>& values, int components = 1) {
        DataArray& a =
            arrays.emplace_back(DataArray{section, std::move(name), vtkType<T>(), components, {}});
        a.bytes.resize(values.size() * sizeof(T));
        if (!values.empty()) std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
    }

    /// Cells as VTK stores them: all point indices in a row, and the end of each cell.
    void addCells(Section section, const std::vector<std::int64_t>& connectivity,
                  const std::vector<std::int64_t>& offsets) {
        add(section, "connectivity", connectivity);
        add(section, "offsets", offsets);
    }

    std::string serialize() const;
};

std::string PolyData::serialize() const {
    std::string out =
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
        "header_type=\"UInt64\">\n"
        "  <PolyData>\n";
    out += "    <Piece NumberOfPoints=\"" + std::to_string(points) + "\" NumberOfVerts=\"" +
           std::to_string(verts) + "\" NumberOfLines=\"" + std::to_string(lines) +
           "\" NumberOfStrips=\"0\" NumberOfPolys=\"" + std::to_string(polys) + "\">\n";

    // Each appended array is a UInt64 byte count followed by the bytes; offsets count from the
    // first byte after the '_' marker.
    std::vector<std::uint64_t> offsets(arrays.size());
    std::uint64_t end = 0;
    for (size_t i = 0; i < arrays.size(); ++i) {
        offsets[i] = end;
        end += sizeof(std::uint64_t) + arrays[i].bytes.size();
    }
    for (size_t s = 0; s < kSectionTags.size(); ++s) {
        bool open = false;
        for (size_t i = 0; i < arrays.size(); ++i) {
            const DataArray& a = arrays[i];
            if (static_cast<size_t>(a.section) != s) continue;
            if (!open) out += std::string("      <") + kSectionTags[s] + ">\n";
            open = true;
            out += std::string("        <DataArray type=\"") + a.type + "\" Name=\"" + a.name +
                   "\" NumberOfComponents=\"" + std::to_string(a.components) +
                   "\" format=\"appended\" offset=\"" + std::to_string(offsets[i]) + "\"/>\n";
        }
        if (open) out += std::string("      </") + kSectionTags[s] + ">\n";
    }
    out += "    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _";

    out.reserve(out.size() + end + 64);
    for (const DataArray& a : arrays) {
        const std::uint64_t size = a.bytes.size();
        out.append(reinterpret_cast<const char*>(&size), sizeof size);
        out += a.bytes;
    }
    out += "\n  </AppendedData>\n</VTKFile>\n";
    return out;
}

std::vector<double> flatten(const std::vector<Vec3>& vectors) {
    std::vector<double> out;
    out.reserve(3 * vectors.size());
    for (const Vec3& v : vectors)
        out.insert(out.end(), {v.x(), v.y(), v.z()});
    return out;
}

/// Connectivity and offsets of `count` cells of `size` consecutive points each.
void addUniformCells(PolyData& data, Section section, std::int64_t count, std::int64_t size) {
    std::vector<std::int64_t> connectivity(count * size), offsets(count);
    for (std::int64_t i = 0; i < count * size; ++i)
        connectivity[i] = i;
    for (std::int64_t i = 0; i < count; ++i)
        offsets[i] = (i + 1) * size;
    data.addCells(section, connectivity, offsets);
}

// ---------------------------------------------------------------------------------------------
// The three kinds of frame
// ---------------------------------------------------------------------------------------------

PolyData particleData(const ParticleStore& particles) {
    const auto n = static_cast<std::int64_t>(particles.size());
    PolyData data;
    data.points = n;
    data.verts = n;
    data.add(Section::Points, "Points", flatten(particles.position), 3);
    addUniformCells(data, Section::Verts, n, 1);

    std::vector<double> speed(particles.size());
    for (size_t i = 0; i < speed.size(); ++i)
        speed[i] = particles.velocity[i].norm();
    data.add(Section::PointData, "radius", particles.radius);
    data.add(Section::PointData, "velocity", flatten(particles.velocity), 3);
    data.add(Section::PointData, "angular_velocity", flatten(particles.angularVelocity), 3);
    data.add(Section::PointData, "speed", speed);
    data.add(Section::PointData, "id", particles.id);
    data.add(Section::PointData, "material", particles.material);
    data.add(Section::PointData, "aggregate", particles.aggregate);  // -1: free (model reduction)
    return data;
}

PolyData contactData(const World& world) {
    const ContactSet& contacts = world.contacts();
    const ParticleStore& particles = world.particles();
    // The solvers store impulses over the step; dividing by h gives the mean force (N).
    const double h = world.settings().timeStep;

    std::vector<double> points, normalForce, tangentialForce, overlap;
    std::vector<std::uint8_t> impact;
    const double loaded = loadThreshold(contacts);
    for (size_t i = 0; i < contacts.size(); ++i) {
        const std::uint8_t flags = contacts.flags[i];
        if (!inNetwork(contacts, i, loaded)) continue;
        const Vec3& a = particles.position[contacts.bodyA[i]];
        const Vec3 b = (flags & kWallContact) ? Vec3(a + contacts.leverA[i])
                                              : particles.position[contacts.bodyB[i]];
        points.insert(points.end(), {a.x(), a.y(), a.z(), b.x(), b.y(), b.z()});
        normalForce.push_back(contacts.normalImpulse[i] / h);
        tangentialForce.push_back(contacts.frictionImpulse[i].norm() / h);
        overlap.push_back(contacts.overlap[i]);
        impact.push_back((flags & kImpact) ? 1 : 0);
    }

    PolyData data;
    data.lines = static_cast<std::int64_t>(overlap.size());
    data.points = 2 * data.lines;
    data.add(Section::Points, "Points", points, 3);
    addUniformCells(data, Section::Lines, data.lines, 2);
    data.add(Section::CellData, "normal_force", normalForce);
    data.add(Section::CellData, "tangential_force", tangentialForce);
    data.add(Section::CellData, "overlap", overlap);
    data.add(Section::CellData, "impact", impact);
    return data;
}

/// Polygons collected wall by wall, each wall's points kept apart so faces stay flat-shaded.
struct PolygonSoup {
    std::vector<double> points;
    std::vector<std::int64_t> connectivity, offsets;
    std::vector<std::int32_t> wall;

    std::int64_t pointCount() const { return static_cast<std::int64_t>(points.size() / 3); }
    void addPoint(const Vec3& p) { points.insert(points.end(), {p.x(), p.y(), p.z()}); }
    /// Corner indices are relative to `base`, the first point of the current wall.
    void addPolygon(std::int64_t base, std::initializer_list<std::int64_t> corners, int w) {
        for (std::int64_t c : corners)
            connectivity.push_back(base + c);
        offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
        wall.push_back(w);
    }
};

/// A plane is infinite; draw a square a little larger than the particle cloud so both fit the
/// same view.
double planeHalfSize(const ParticleStore& particles) {
    Eigen::AlignedBox3d box;
    for (const Vec3& x : particles.position)
        box.extend(x);
    const double diagonal = particles.empty() ? 0.0 : box.diagonal().norm();
    return std::max(kMinPlaneHalfSize, 0.6 * diagonal);
}

void addWall(PolygonSoup& soup, const Wall& wall, int index, const World& world, double planeSize) {
    const std::int64_t base = soup.pointCount();
    switch (wall.shape) {
        case WallShape::Plane:
            for (const auto& [x, y] : kSquareCorners)
                soup.addPoint(wall.toWorld(Vec3(x * planeSize, y * planeSize, 0.0)));
            soup.addPolygon(base, {0, 1, 2, 3}, index);
            break;
        case WallShape::Box: {
            // Corner c has local coordinate k at +halfExtents[k] when bit k of c is set.
            for (int c = 0; c < 8; ++c) {
                const Vec3 sign((c & 1) ? 1.0 : -1.0, (c & 2) ? 1.0 : -1.0, (c & 4) ? 1.0 : -1.0);
                soup.addPoint(wall.toWorld(sign.cwiseProduct(wall.halfExtents)));
            }
            // Counter-clockwise seen from outside: −x, +x, −y, +y, −z, +z.
            soup.addPolygon(base, {0, 4, 6, 2}, index);
            soup.addPolygon(base, {1, 3, 7, 5}, index);
            soup.addPolygon(base, {0, 1, 5, 4}, index);
            soup.addPolygon(base, {2, 6, 7, 3}, index);
            soup.addPolygon(base, {0, 2, 3, 1}, index);
            soup.addPolygon(base, {4, 5, 7, 6}, index);
            break;
        }
        case WallShape::Cylinder:
            // Point 2k is on the bottom rim, 2k + 1 above it on the top rim.
            for (int k = 0; k < kCylinderFacets; ++k) {
                const double angle = 2.0 * std::numbers::pi * k / kCylinderFacets;
                const Vec3 rim(wall.radius * std::cos(angle), wall.radius * std::sin(angle), 0.0);
                soup.addPoint(wall.toWorld(rim));
                soup.addPoint(wall.toWorld(rim + Vec3(0.0, 0.0, wall.height)));
            }
            for (int k = 0; k < kCylinderFacets; ++k) {
                const int next = (k + 1) % kCylinderFacets;
                soup.addPolygon(base, {2 * k, 2 * next, 2 * next + 1, 2 * k + 1}, index);
            }
            break;
        case WallShape::Mesh: {
            // World::create validates mesh indices; a bad one here draws nothing rather than
            // reading out of bounds.
            if (wall.mesh < 0 || wall.mesh >= static_cast<int>(world.meshes().size())) break;
            const TriangleMesh& mesh = world.meshes()[wall.mesh];
            for (const Vec3& v : mesh.vertices)
                soup.addPoint(wall.toWorld(v));
            for (const auto& t : mesh.triangles)
                soup.addPolygon(base, {t[0], t[1], t[2]}, index);
            break;
        }
    }
}

PolyData wallData(const World& world) {
    const double planeSize = planeHalfSize(world.particles());
    PolygonSoup soup;
    for (size_t w = 0; w < world.walls().size(); ++w)
        if (world.walls()[w].enabled)
            addWall(soup, world.walls()[w], static_cast<int>(w), world, planeSize);

    PolyData data;
    data.points = soup.pointCount();
    data.polys = static_cast<std::int64_t>(soup.offsets.size());
    data.add(Section::Points, "Points", soup.points, 3);
    data.addCells(Section::Polys, soup.connectivity, soup.offsets);
    data.add(Section::CellData, "wall", soup.wall);
    return data;
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

Error failure(const fs::path& path, const std::string& reason) {
    return Error{"vtk: " + path.string() + ": " + reason};
}

std::string frameFile(const char* kind, int frame) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%06d.vtp", kind, frame);
    return name;
}

/// Shortest text that reads back to exactly `value`, whatever the C locale.
std::string exactDecimal(double value) {
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

std::string collection(const char* kind, const std::vector<double>& times) {
    std::string out =
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
        "  <Collection>\n";
    for (size_t k = 0; k < times.size(); ++k)
        out += "    <DataSet timestep=\"" + exactDecimal(times[k]) +
               "\" group=\"\" part=\"0\" file=\"" + frameFile(kind, static_cast<int>(k)) + "\"/>\n";
    out += "  </Collection>\n</VTKFile>\n";
    return out;
}

/// Writes `<path>.tmp` and renames it over `path`: readers (ParaView polling a running
/// simulation, or a run killed mid-write) only ever see complete files under the final name.
/// C stdio rather than ofstream because fopen/fwrite/fclose report the reason in errno.
std::optional<Error> writeAtomically(const fs::path& path, const std::string& content) {
    fs::path tmp = path;
    tmp += ".tmp";
    std::error_code ignored;
    std::FILE* file = std::fopen(tmp.c_str(), "wb");
    if (!file) return failure(tmp, std::generic_category().message(errno));
    const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
    const int writeErrno = errno;
    if (std::fclose(file) != 0 || !written) {
        const int reason = written ? errno : writeErrno;
        fs::remove(tmp, ignored);
        return failure(tmp, "write failed: " + std::generic_category().message(reason));
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ignored);
        return failure(path, "rename failed: " + ec.message());
    }
    return std::nullopt;
}

std::optional<Error> ensureDirectory(const fs::path& directory) {
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec) return failure(directory, "cannot create directory: " + ec.message());
    if (!fs::is_directory(directory, ec)) return failure(directory, "not a directory");
    return std::nullopt;
}

}  // namespace

VtkSeries::VtkSeries(std::string directory) : m_directory(std::move(directory)) {}

std::optional<Error> VtkSeries::writeFrame(const World& world) {
    const fs::path directory = m_directory.empty() ? fs::path(".") : fs::path(m_directory);
    if (auto error = ensureDirectory(directory)) return error;

    const int frame = frameCount();
    const std::array<PolyData, 3> data{particleData(world.particles()), contactData(world),
                                       wallData(world)};
    for (size_t k = 0; k < kKinds.size(); ++k)
        if (auto error =
                writeAtomically(directory / frameFile(kKinds[k], frame), data[k].serialize()))
            return error;

    // A frame counts only once the collections list it; a failed frame is retried under the
    // same number, so the series never has a gap.
    m_times.push_back(world.time());
    for (const char* kind : kKinds) {
        if (auto error = writeAtomically(directory / (std::string(kind) + ".pvd"),
                                         collection(kind, m_times))) {
            m_times.pop_back();
            return error;
        }
    }
    return std::nullopt;
}

}  // namespace ndem
