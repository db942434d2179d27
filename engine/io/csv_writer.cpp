#include "io/csv_writer.hpp"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

namespace ndem {

std::optional<Error> writeCsv(const std::string& path, const Table& table) {
    size_t rows = 0;
    for (const auto& [name, column] : table)
        rows = std::max(rows, column.size());
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return Error{"csv: " + path + ": cannot write"};
        bool first = true;
        for (const auto& [name, column] : table) {
            out << (first ? "" : ",") << name;
            first = false;
        }
        out << '\n';
        char buffer[32];
        for (size_t r = 0; r < rows; ++r) {
            first = true;
            for (const auto& [name, column] : table) {
                if (!first) out << ',';
                first = false;
                if (r < column.size()) {
                    // Shortest round-trip text: what is read back is what was measured.
                    const auto res = std::to_chars(buffer, buffer + sizeof buffer, column[r]);
                    out.write(buffer, res.ptr - buffer);
                }
            }
            out << '\n';
        }
        if (!out) {
            std::remove(tmp.c_str());
            return Error{"csv: " + path + ": write failed"};
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return Error{"csv: " + path + ": " + ec.message()};
    }
    return std::nullopt;
}

std::string measurementFileBase(const std::string& name, int occurrence) {
    std::string base = name;
    if (occurrence > 0) base.append("_").append(std::to_string(occurrence + 1));
    return base;
}

std::optional<Error> writeMeasurementCsvs(const std::string& directory,
                                          const std::vector<MeasurementResult>& results) {
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) return Error{"csv: " + directory + ": " + ec.message()};
    std::map<std::string, int> seen;
    for (const MeasurementResult& r : results) {
        const int n = seen[r.name]++;
        std::string base = directory;
        base.append("/").append(measurementFileBase(r.name, n));
        if (!r.series.empty())
            if (auto e = writeCsv(base + ".csv", r.series)) return e;
        for (const auto& [name, table] : r.tables)
            if (auto e = writeCsv(base + "_" + name + ".csv", table)) return e;
    }
    return std::nullopt;
}

}  // namespace ndem
