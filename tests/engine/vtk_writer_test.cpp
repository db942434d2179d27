// ParaView output: the written files decode back to the world's state, the collections list
// every frame with its time, no temporary file survives, and a bad directory is an Error.
#include "io/vtk_writer.hpp"

#include "bench_scenes.hpp"
#include "test_util.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ndem {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Value of the first `attribute="..."` at or after `from` in an XML text ("" if absent).
std::string attribute(const std::string& xml, const std::string& attribute, size_t from = 0) {
    const std::string key = attribute + "=\"";
    const size_t start = xml.find(key, from);
    if (start == std::string::npos) return "";
    const size_t begin = start + key.size();
    return xml.substr(begin, xml.find('"', begin) - begin);
}

size_t countOf(const std::string& text, const std::string& word) {
    size_t count = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
        ++count;
    return count;
}

/// A fresh directory under the system temp dir, removed with everything in it afterwards.
class VtkWriter : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        m_root = fs::temp_directory_path() /
                 ("ndem_vtk_" + std::string(info->name()) + "_" + std::to_string(stamp));
        fs::create_directories(m_root);
    }
    void TearDown() override { fs::remove_all(m_root); }

    /// A small bed settled for 50 steps of 5 ms: particles at rest on each other and the floor.
    static World settledBed() {
        StepSettings settings;
        settings.timeStep = 5e-3;
        World world = test::makeWorld(scenes::bed(200, 0.01, scenes::servinGrain(), settings));
        for (int i = 0; i < 50; ++i)
            world.step();
        return world;
    }

    fs::path m_root;
};

TEST_F(VtkWriter, TwoFramesDecodeToTheWorldState) {
    World world = settledBed();
    const fs::path out = m_root / "run" / "vtk";  // does not exist yet: the series creates it
    VtkSeries series(out.string());

    std::vector<double> times;
    for (int frame = 0; frame < 2; ++frame) {
        if (frame > 0)
            for (int i = 0; i < 10; ++i)
                world.step();
        const auto error = series.writeFrame(world);
        ASSERT_FALSE(error) << error->message;
        times.push_back(world.time());
    }
    EXPECT_EQ(series.frameCount(), 2);

    // Particles of the last frame: the header counts them, the Points array (the first in the
    // appended block) holds the exact positions behind its UInt64 byte count.
    const ParticleStore& p = world.particles();
    const std::string particles = readFile(out / "particles_000001.vtp");
    ASSERT_FALSE(particles.empty());
    EXPECT_EQ(attribute(particles, "header_type"), "UInt64");
    EXPECT_EQ(attribute(particles, "NumberOfPoints"), std::to_string(p.size()));
    EXPECT_EQ(attribute(particles, "NumberOfVerts"), std::to_string(p.size()));
    EXPECT_EQ(attribute(particles, "offset", particles.find("<Points>")), "0");
    for (const char* name :
         {"radius", "velocity", "angular_velocity", "speed", "id", "material", "aggregate"})
        EXPECT_NE(particles.find("Name=\"" + std::string(name) + "\""), std::string::npos) << name;

    const size_t appended = particles.find("<AppendedData encoding=\"raw\">");
    ASSERT_NE(appended, std::string::npos);
    const size_t data = particles.find('_', appended) + 1;
    std::uint64_t bytes = 0;
    ASSERT_LE(data + sizeof bytes, particles.size());
    std::memcpy(&bytes, particles.data() + data, sizeof bytes);
    ASSERT_EQ(bytes, 3 * sizeof(double) * p.size());
    ASSERT_LE(data + sizeof bytes + bytes, particles.size());
    std::vector<double> positions(3 * p.size());
    std::memcpy(positions.data(), particles.data() + data + sizeof bytes, bytes);
    for (size_t i = 0; i < p.size(); ++i)
        for (int k = 0; k < 3; ++k)
            ASSERT_EQ(positions[3 * i + k], p.position[i][k]) << i;

    // One line per touching contact, and the bed does have some.
    const ContactSet& c = world.contacts();
    size_t touching = 0;
    for (size_t i = 0; i < c.size(); ++i)
        touching += (c.flags[i] & kTouching) ? 1 : 0;
    EXPECT_GT(touching, p.size());
    const std::string contacts = readFile(out / "contacts_000001.vtp");
    EXPECT_EQ(attribute(contacts, "NumberOfLines"), std::to_string(touching));
    EXPECT_EQ(attribute(contacts, "NumberOfPoints"), std::to_string(2 * touching));

    // The bed's floor and four side planes: one square each.
    const std::string walls = readFile(out / "walls_000001.vtp");
    EXPECT_EQ(attribute(walls, "NumberOfPolys"), "5");
    EXPECT_EQ(attribute(walls, "NumberOfPoints"), "20");

    // Each collection lists both frames with the time they were written at.
    for (const char* kind : {"particles", "contacts", "walls"}) {
        const std::string pvd = readFile(out / (std::string(kind) + ".pvd"));
        EXPECT_EQ(countOf(pvd, "<DataSet "), 2u) << kind;
        size_t at = 0;
        for (int frame = 0; frame < 2; ++frame) {
            at = pvd.find("<DataSet ", at) + 1;
            EXPECT_EQ(std::stod(attribute(pvd, "timestep", at)), times[frame]) << kind;
            EXPECT_EQ(attribute(pvd, "file", at),
                      std::string(kind) + "_00000" + std::to_string(frame) + ".vtp");
        }
    }

    // Exactly the nine final files: no temporary survives.
    int files = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
        EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
        ++files;
    }
    EXPECT_EQ(files, 9);
}

TEST_F(VtkWriter, RegularFileAsDirectoryIsAnErrorNamingThePath) {
    World world = settledBed();
    const fs::path file = m_root / "not_a_directory";
    std::ofstream(file) << "x";
    VtkSeries series(file.string());

    const auto error = series.writeFrame(world);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message.rfind("vtk: ", 0), 0u) << error->message;
    EXPECT_NE(error->message.find(file.string()), std::string::npos) << error->message;
    EXPECT_EQ(series.frameCount(), 0);
    EXPECT_EQ(readFile(file), "x");
}

}  // namespace
}  // namespace ndem
