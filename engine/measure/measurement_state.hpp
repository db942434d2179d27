// The shapes that measurements accumulate, as StateArchive entries (Measurement::archive):
// lists of names, tables, named scalars and notes, whole results, and vectors of records.
// Names that come from data (column names, scalar keys) go into one text, never into entry
// names: the entries are numbered, so any name survives a checkpoint file's groups.
#pragma once

#include "core/state_archive.hpp"
#include "measure/measurement.hpp"

#include <map>
#include <string>
#include <vector>

namespace ndem {

/// A table under `name/`: its column names as one text, column k as the real array `name/k`.
/// Loading replaces the whole table.
void archiveTable(StateArchive& a, const std::string& name, Table& table);

/// Named numbers under `name/`: the names as one text, the values as one real array.
void archiveScalars(StateArchive& a, const std::string& name,
                    std::map<std::string, double>& values);

/// Everything a result holds (name, headline, scalars, series, tables, notes) under `name/`.
void archiveResult(StateArchive& a, const std::string& name, MeasurementResult& r);

/// A length that the first sample fixes (0 until then). Loading refuses NaN: it would turn
/// into an index past the strips or slices it divides the wall into.
void archiveSampledLength(StateArchive& a, const std::string& name, double& length);

/// A vector whose length the configuration fixes (bins, cells): loading one of another length
/// is an error, since the state then belongs to another measurement.
template <class T>
void archiveFixedLength(StateArchive& a, const std::string& name, std::vector<T>& v) {
    if (!a.loading()) {
        a.field(name, v);
        return;
    }
    std::vector<T> saved = v;
    a.field(name, saved);
    if (saved.size() != v.size())
        a.failEntry(name, "has " + std::to_string(saved.size()) + " entries, the measurement " +
                              std::to_string(v.size()));
    else
        v = std::move(saved);
}

/// Where the number of records comes from when loading them (archiveMember).
enum class RecordCount {
    Kept,    ///< the records there are: the configuration fixed it, or an earlier field loaded it
    Loaded,  ///< this field's saved length: the first field of records the samples decide
};

/// One member of every record, as one array: a vector of structs saved as a struct of arrays,
/// so each field keeps its type (doubles as doubles, Vec3 and Mat3 as their components).
template <class T, class F>
void archiveMember(StateArchive& a, const std::string& name, std::vector<T>& records, F T::*member,
                   RecordCount count = RecordCount::Kept) {
    std::vector<F> column;
    column.reserve(records.size());
    for (const T& record : records)
        column.push_back(record.*member);
    a.field(name, column);
    if (!a.loading()) return;
    if (count == RecordCount::Loaded) records.resize(column.size());
    if (column.size() != records.size()) {
        a.failEntry(name, "has " + std::to_string(column.size()) + " records, expected " +
                              std::to_string(records.size()));
        return;
    }
    for (size_t i = 0; i < records.size(); ++i)
        records[i].*member = column[i];
}

}  // namespace ndem
