#include "io/checkpoint.hpp"

#include <hdf5.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace ndem {

namespace {

constexpr const char* kFormat = "ndem-checkpoint";
constexpr std::int64_t kVersion = 1;
/// The first bytes of the file: HDF5's user block, where ndem writes a line of its own, the
/// size and checksum of the HDF5 data that follows. A file that lost its tail or had bytes
/// changed is refused before libhdf5 reads a byte of it: libhdf5 trusts the structures it
/// reads, and a damaged or forged file can crash it.
constexpr hsize_t kHeaderBytes = 512;
constexpr const char* kMagic = "NDEM checkpoint\n";

/// FNV-1a (64 bits) of a file's bytes from `offset` on; false if it cannot be read.
bool checksumFrom(const std::string& path, std::uint64_t offset, std::uint64_t& hash,
                  std::uint64_t& bytes) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    bool ok = std::fseek(f, static_cast<long>(offset), SEEK_SET) == 0;
    hash = 1469598103934665603ull;
    bytes = 0;
    std::vector<unsigned char> buffer(1 << 16);
    while (ok) {
        const size_t got = std::fread(buffer.data(), 1, buffer.size(), f);
        for (size_t k = 0; k < got; ++k)
            hash = (hash ^ buffer[k]) * 1099511628211ull;
        bytes += got;
        if (got < buffer.size()) {
            ok = std::ferror(f) == 0;
            break;
        }
    }
    std::fclose(f);
    return ok;
}

/// Writes the header line into the user block of a closed checkpoint file.
bool seal(const std::string& path) {
    std::uint64_t hash = 0, bytes = 0;
    if (!checksumFrom(path, kHeaderBytes, hash, bytes)) return false;
    char header[kHeaderBytes] = {};
    std::snprintf(header, sizeof header, "%spayload %llu fnv1a64 %016llx\n", kMagic,
                  static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(hash));
    std::FILE* f = std::fopen(path.c_str(), "r+b");
    if (!f) return false;
    const bool ok = std::fwrite(header, 1, sizeof header, f) == sizeof header;
    return std::fclose(f) == 0 && ok;
}

/// Checks the header line against the data after it; the error says what is wrong.
std::optional<std::string> checkSeal(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return "cannot open the checkpoint";
    char header[kHeaderBytes] = {};
    const size_t got = std::fread(header, 1, sizeof header, f);
    std::fclose(f);
    const std::string magic = kMagic;
    if (got < magic.size() || std::string(header, magic.size()) != magic)
        return std::string("not a checkpoint (no \"NDEM checkpoint\" line at its start)");
    header[kHeaderBytes - 1] = 0;
    unsigned long long bytes = 0, hash = 0;
    if (got < kHeaderBytes ||
        std::sscanf(header + magic.size(), "payload %llu fnv1a64 %llx", &bytes, &hash) != 2)
        return std::string("damaged checkpoint: its header line is cut or garbled");
    std::uint64_t actualHash = 0, actualBytes = 0;
    if (!checksumFrom(path, kHeaderBytes, actualHash, actualBytes))
        return "cannot read the checkpoint";
    if (actualBytes != bytes)
        return "damaged checkpoint: " + std::to_string(actualBytes) + " bytes of data where " +
               std::to_string(bytes) + " were written (cut short or appended to)";
    if (actualHash != hash)
        return std::string("damaged checkpoint: its checksum does not match what was written");
    return std::nullopt;
}

/// Closes an HDF5 handle when it goes out of scope.
class Handle {
  public:
    Handle(hid_t id, herr_t (*close)(hid_t)) : m_id(id), m_close(close) {}
    ~Handle() {
        if (m_id >= 0) m_close(m_id);
    }
    Handle(Handle&& other) noexcept : m_id(other.m_id), m_close(other.m_close) { other.m_id = -1; }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle& operator=(Handle&&) = delete;
    hid_t get() const { return m_id; }
    bool ok() const { return m_id >= 0; }

  private:
    hid_t m_id;
    herr_t (*m_close)(hid_t);
};

/// HDF5 prints a stack of its own for every failed call; the errors here say it in one line.
void silenceHdf5() {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

Handle stringType() {
    Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(t.get(), H5T_VARIABLE);
    H5Tset_cset(t.get(), H5T_CSET_UTF8);
    return t;
}

bool writeString(hid_t file, const std::string& name, const std::string& value, hid_t lcpl) {
    const Handle type = stringType();
    const Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    const Handle set(
        H5Dcreate2(file, name.c_str(), type.get(), space.get(), lcpl, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    const char* data = value.c_str();
    return set.ok() && H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data) >= 0;
}

bool readString(hid_t set, std::string& out) {
    const Handle type = stringType();
    char* data = nullptr;
    if (H5Dread(set, type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data) < 0 || !data) return false;
    out = data;
    H5free_memory(data);
    return true;
}

template <class T>
bool writeArray(hid_t file, const std::string& name, const std::vector<T>& v, hid_t memType,
                hid_t fileType, hid_t lcpl) {
    const hsize_t size = v.size();
    const Handle space(H5Screate_simple(1, &size, nullptr), H5Sclose);
    const Handle set(
        H5Dcreate2(file, name.c_str(), fileType, space.get(), lcpl, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    if (!set.ok()) return false;
    return v.empty() || H5Dwrite(set.get(), memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0;
}

bool writeAttribute(hid_t file, const char* name, const std::string& value) {
    const Handle type = stringType();
    const Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    const Handle attr(H5Acreate2(file, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                      H5Aclose);
    const char* data = value.c_str();
    return attr.ok() && H5Awrite(attr.get(), type.get(), &data) >= 0;
}

bool writeAttribute(hid_t file, const char* name, std::int64_t value) {
    const Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    const Handle attr(H5Acreate2(file, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                      H5Aclose);
    return attr.ok() && H5Awrite(attr.get(), H5T_NATIVE_INT64, &value) >= 0;
}

std::optional<std::string> readStringAttribute(hid_t file, const char* name) {
    if (H5Aexists(file, name) <= 0) return std::nullopt;
    const Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose);
    const Handle type = stringType();
    char* data = nullptr;
    if (!attr.ok() || H5Aread(attr.get(), type.get(), &data) < 0 || !data) return std::nullopt;
    std::string out = data;
    H5free_memory(data);
    return out;
}

std::optional<std::int64_t> readIntegerAttribute(hid_t file, const char* name) {
    if (H5Aexists(file, name) <= 0) return std::nullopt;
    const Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose);
    std::int64_t value = 0;
    if (!attr.ok() || H5Aread(attr.get(), H5T_NATIVE_INT64, &value) < 0) return std::nullopt;
    return value;
}

/// Makes sure the bytes of a renamed file and the rename itself reach the disk.
void syncPath(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

bool writeFile(const std::string& path, const CheckpointScene& scene, const StateArchive& state) {
    const Handle create(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    H5Pset_userblock(create.get(), kHeaderBytes);
    const Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, create.get(), H5P_DEFAULT), H5Fclose);
    if (!file.ok()) return false;
    // Entries named a/b/c create their groups on the way.
    const Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    H5Pset_create_intermediate_group(lcpl.get(), 1);
    nlohmann::json overrides = nlohmann::json::array();
    for (const Override& o : scene.overrides)
        overrides.push_back({{"key", o.key}, {"value", o.value}});
    bool ok = writeAttribute(file.get(), "format", kFormat) &&
              writeAttribute(file.get(), "version", kVersion) &&
              writeAttribute(file.get(), "ndem", NDEM_VERSION) &&
              writeString(file.get(), "scene/text", scene.text, lcpl.get()) &&
              writeString(file.get(), "scene/source", scene.source, lcpl.get()) &&
              writeString(file.get(), "scene/overrides", overrides.dump(), lcpl.get());
    for (const auto& [name, v] : state.reals())
        ok = ok && writeArray(file.get(), "real/" + name, v, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE,
                              lcpl.get());
    for (const auto& [name, v] : state.integers())
        ok = ok && writeArray(file.get(), "integer/" + name, v, H5T_NATIVE_INT64, H5T_STD_I64LE,
                              lcpl.get());
    for (const auto& [name, v] : state.texts())
        ok = ok && writeString(file.get(), "text/" + name, v, lcpl.get());
    return ok && H5Fflush(file.get(), H5F_SCOPE_GLOBAL) >= 0;
}

struct Collected {
    StateArchive::Reals reals;
    StateArchive::Integers integers;
    StateArchive::Texts texts;
    std::string error;
};

/// H5Ovisit callback: every dataset under /real, /integer and /text into the maps.
herr_t collect(hid_t root, const char* name, const H5O_info_t* info, void* data) {
    Collected& out = *static_cast<Collected*>(data);
    if (info->type != H5O_TYPE_DATASET) return 0;
    const std::string path = name;
    const auto slash = path.find('/');
    if (slash == std::string::npos) return 0;
    const std::string kind = path.substr(0, slash), key = path.substr(slash + 1);
    const Handle set(H5Dopen2(root, name, H5P_DEFAULT), H5Dclose);
    const Handle space(H5Dget_space(set.get()), H5Sclose);
    if (!set.ok() || !space.ok()) {
        out.error = "cannot read '" + path + "'";
        return -1;
    }
    if (kind == "text") {
        if (!readString(set.get(), out.texts[key])) out.error = "'" + path + "' is not a string";
        return out.error.empty() ? 0 : -1;
    }
    if (kind != "real" && kind != "integer") return 0;
    if (H5Sget_simple_extent_ndims(space.get()) != 1) {
        out.error = "'" + path + "' is not a list of numbers";
        return -1;
    }
    hsize_t size = 0;
    H5Sget_simple_extent_dims(space.get(), &size, nullptr);
    if (size > (hsize_t{1} << 34)) {
        out.error = "'" + path + "' is too large";
        return -1;
    }
    herr_t status = 0;
    if (kind == "real") {
        std::vector<double>& v = out.reals[key];
        v.resize(size);
        if (size > 0)
            status = H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    } else {
        std::vector<std::int64_t>& v = out.integers[key];
        v.resize(size);
        if (size > 0)
            status = H5Dread(set.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    }
    if (status < 0) {
        out.error = "'" + path + "' cannot be read as numbers";
        return -1;
    }
    return 0;
}

}  // namespace

std::optional<Error> writeCheckpoint(const std::string& path, const CheckpointScene& scene,
                                     const StateArchive& state) {
    namespace fs = std::filesystem;
    silenceHdf5();
    const std::string temporary = path + ".writing";
    if (!writeFile(temporary, scene, state) || !seal(temporary)) {
        std::error_code ec;
        fs::remove(temporary, ec);
        return Error{path + ": cannot write the checkpoint"};
    }
    syncPath(temporary);
    std::error_code ec;
    fs::rename(temporary, path, ec);
    if (ec) {
        fs::remove(temporary, ec);
        return Error{path + ": cannot write the checkpoint (" + ec.message() + ")"};
    }
    const fs::path parent = fs::path(path).parent_path();
    syncPath(parent.empty() ? std::string(".") : parent.string());
    return std::nullopt;
}

Expected<Checkpoint> readCheckpoint(const std::string& path) {
    silenceHdf5();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return Error{path + ": no such checkpoint file"};
    if (auto damage = checkSeal(path)) return Error{path + ": " + *damage};
    if (H5Fis_hdf5(path.c_str()) <= 0) return Error{path + ": not a checkpoint (not an HDF5 file)"};
    const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.ok()) return Error{path + ": cannot open the checkpoint"};
    if (readStringAttribute(file.get(), "format") != std::string(kFormat))
        return Error{path + ": not an NDEM checkpoint (no format = \"ndem-checkpoint\")"};
    const auto version = readIntegerAttribute(file.get(), "version");
    if (version != kVersion)
        return Error{path + ": checkpoint version " + (version ? std::to_string(*version) : "?") +
                     ", this ndem reads version " + std::to_string(kVersion)};
    Checkpoint c;
    auto text = [&](const char* name, std::string& out) {
        if (H5Lexists(file.get(), "scene", H5P_DEFAULT) <= 0 ||
            H5Lexists(file.get(), name, H5P_DEFAULT) <= 0)
            return false;
        const Handle set(H5Dopen2(file.get(), name, H5P_DEFAULT), H5Dclose);
        return set.ok() && readString(set.get(), out);
    };
    std::string overrides;
    if (!text("scene/text", c.scene.text) || !text("scene/source", c.scene.source) ||
        !text("scene/overrides", overrides))
        return Error{path +
                     ": the checkpoint has no scene (scene/text, scene/source, scene/overrides)"};
    const nlohmann::json list = nlohmann::json::parse(overrides, nullptr, false);
    if (!list.is_array()) return Error{path + ": scene/overrides is not a JSON list"};
    for (const auto& o : list) {
        if (!o.is_object() || !o.contains("key") || !o.contains("value") || !o["key"].is_string() ||
            !o["value"].is_string())
            return Error{path + ": scene/overrides: expected {\"key\", \"value\"} strings"};
        c.scene.overrides.push_back(
            Override{o["key"].get<std::string>(), o["value"].get<std::string>()});
    }
    Collected collected;
    if (H5Ovisit(file.get(), H5_INDEX_NAME, H5_ITER_NATIVE, collect, &collected) < 0)
        return Error{
            path + ": " +
            (collected.error.empty() ? std::string("cannot read the state") : collected.error)};
    c.state = StateArchive::loadingFrom(std::move(collected.reals), std::move(collected.integers),
                                        std::move(collected.texts));
    return c;
}

}  // namespace ndem
