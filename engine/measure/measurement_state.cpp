#include "measure/measurement_state.hpp"

#include <cmath>

namespace ndem {

namespace {

template <class V>
std::vector<std::string> keysOf(const std::map<std::string, V>& map) {
    std::vector<std::string> keys;
    keys.reserve(map.size());
    for (const auto& entry : map)
        keys.push_back(entry.first);
    return keys;
}

/// A map under `name/`: its keys as one text, the value of the k-th key archived by
/// each("k", value). Loading replaces the whole map.
template <class V, class F>
void archiveMap(StateArchive& a, const std::string& name, std::map<std::string, V>& map, F&& each) {
    const auto scope = a.scope(name);
    std::vector<std::string> keys = keysOf(map);
    archiveNames(a, "keys", keys);
    if (!a.loading()) {
        for (size_t k = 0; k < keys.size(); ++k)
            each(std::to_string(k), map[keys[k]]);
        return;
    }
    std::map<std::string, V> loaded;
    for (size_t k = 0; k < keys.size(); ++k)
        each(std::to_string(k), loaded[keys[k]]);
    map = std::move(loaded);
}

}  // namespace

void archiveTable(StateArchive& a, const std::string& name, Table& table) {
    archiveMap(a, name, table,
               [&](const std::string& k, std::vector<double>& column) { a.realArray(k, column); });
}

void archiveScalars(StateArchive& a, const std::string& name,
                    std::map<std::string, double>& values) {
    const auto scope = a.scope(name);
    std::vector<std::string> keys = keysOf(values);
    std::vector<double> numbers;
    numbers.reserve(values.size());
    for (const auto& entry : values)
        numbers.push_back(entry.second);
    archiveNames(a, "keys", keys);
    a.realArray("values", numbers);
    if (!a.loading()) return;
    if (numbers.size() != keys.size()) {
        a.failEntry("values", "has " + std::to_string(numbers.size()) + " numbers for " +
                                  std::to_string(keys.size()) + " names");
        return;
    }
    values.clear();
    for (size_t k = 0; k < keys.size(); ++k)
        values[keys[k]] = numbers[k];
}

void archiveResult(StateArchive& a, const std::string& name, MeasurementResult& r) {
    const auto scope = a.scope(name);
    a.text("name", r.name);
    a.text("headline", r.headline);
    archiveScalars(a, "scalars", r.scalars);
    archiveTable(a, "series", r.series);
    archiveMap(a, "tables", r.tables,
               [&](const std::string& k, Table& table) { archiveTable(a, k, table); });
    archiveMap(a, "notes", r.notes,
               [&](const std::string& k, std::string& note) { a.text(k, note); });
}

void archiveSampledLength(StateArchive& a, const std::string& name, double& length) {
    a.field(name, length);
    if (a.loading() && std::isnan(length)) a.failEntry(name, "is not a number");
}

}  // namespace ndem
