#include "sweep_runs.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace ndem::cli {

namespace {

/// JSON has no NaN or infinity: they are written as null and read back as NaN.
nlohmann::json number(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}
double number(const nlohmann::json& j) {
    return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

nlohmann::json table(const Table& t) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [column, values] : t) {
        nlohmann::json& list = out[column] = nlohmann::json::array();
        for (double v : values)
            list.push_back(number(v));
    }
    return out;
}

Table table(const nlohmann::json& j) {
    Table t;
    for (const auto& [column, values] : j.items())
        for (const auto& v : values)
            t[column].push_back(number(v));
    return t;
}

}  // namespace

std::string sweepRunPath(const std::string& outDir, size_t index) {
    return outDir + "/runs/run-" + std::to_string(index) + ".json";
}

std::string sweepIdentity(const std::string& sceneText, const std::string& length) {
    std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : sceneText)
        hash = (hash ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return std::string("scene ") + hex + ", " + length;
}

std::optional<std::string> saveSweepRun(const std::string& path, const SweepRun& run,
                                        const std::string& identity) {
    nlohmann::json j;
    j["identity"] = identity;
    for (const Override& o : run.overrides)
        j["overrides"].push_back({{"key", o.key}, {"value", o.value}});
    for (const auto& [name, v] : run.figures)
        j["figures"][name] = number(v);
    j["results"] = nlohmann::json::array();
    for (const MeasurementResult& r : run.results) {
        nlohmann::json m{{"name", r.name}, {"headline", r.headline}, {"series", table(r.series)}};
        for (const auto& [k, v] : r.scalars)
            m["scalars"][k] = number(v);
        for (const auto& [k, t] : r.tables)
            m["tables"][k] = table(t);
        for (const auto& [k, v] : r.notes)
            m["notes"][k] = v;
        j["results"].push_back(m);
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    const std::string temporary = path + ".writing";
    {
        std::ofstream out(temporary);
        out << j.dump();
        if (!out.flush()) return path + ": cannot write the run's results";
    }
    fs::rename(temporary, path, ec);
    if (ec) return path + ": " + ec.message();
    return std::nullopt;
}

std::optional<SweepRun> loadSweepRun(const std::string& path, const std::string& identity,
                                     const std::vector<Override>& overrides) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || j.value("identity", std::string()) != identity) return std::nullopt;
    SweepRun run;
    try {
        for (const auto& o : j.at("overrides"))
            run.overrides.push_back(
                {o.at("key").get<std::string>(), o.at("value").get<std::string>()});
        if (run.overrides.size() != overrides.size()) return std::nullopt;
        for (size_t k = 0; k < overrides.size(); ++k)
            if (run.overrides[k].key != overrides[k].key ||
                run.overrides[k].value != overrides[k].value)
                return std::nullopt;
        for (const auto& [name, v] : j.at("figures").items())
            run.figures[name] = number(v);
        for (const auto& m : j.at("results")) {
            MeasurementResult r;
            r.name = m.at("name").get<std::string>();
            r.headline = m.value("headline", std::string());
            r.series = table(m.at("series"));
            if (m.contains("scalars"))
                for (const auto& [k, v] : m["scalars"].items())
                    r.scalars[k] = number(v);
            if (m.contains("tables"))
                for (const auto& [k, t] : m["tables"].items())
                    r.tables[k] = table(t);
            if (m.contains("notes"))
                for (const auto& [k, v] : m["notes"].items())
                    r.notes[k] = v.get<std::string>();
            run.results.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;  // not a run file this ndem wrote: run it again
    }
    return run;
}

}  // namespace ndem::cli
