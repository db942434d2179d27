#include "io/run_report.hpp"

#include "io/json_fields.hpp"
#include "io/scene_file.hpp"
#include "solve/settings_keys.hpp"
#include "world/world.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <type_traits>
#include <utility>

namespace ndem {

using io::Json;

void RunRecorder::record(const StepStats& s) {
    ++m_steps;
    m_last = s;
    m_phases.collide += s.seconds.collide;
    m_phases.impact += s.seconds.impact;
    m_phases.solve += s.seconds.solve;
    m_phases.integrate += s.seconds.integrate;
    m_phases.measure += s.seconds.measure;
    m_phases.reduce += s.seconds.reduce;
    contacts.add(s.contacts);
    iterations.add(s.iterations);
    residual.add(s.residual);
    kineticEnergy.add(s.kineticEnergy);
    meanOverlap.add(s.meanOverlap);
    maxOverlap.add(s.maxOverlap);
    impacts.add(s.impacts);
    reductionLevel.add(s.reductionLevel);
    aggregates.add(s.aggregates);
    members.add(s.members);
    if (s.fallback) {
        ++fallbacks;
        lastFallback = s.fallback;
    }
    servosClosingIn += s.servosClosingIn ? 1 : 0;
    staticRunawaySteps += s.staticRunaways > 0 ? 1 : 0;
    if (s.step % m_every == 0 || s.step == 1)
        m_samples.push_back({s.time, s.kineticEnergy, s.residual, s.meanOverlap, s.maxOverlap,
                             s.seconds.total(), s.contacts, s.iterations, s.impacts,
                             s.reductionLevel, s.aggregates, s.solverResidual, s.fallback ? 1 : 0});
}

namespace {

void archiveStat(StateArchive& a, const std::string& name, RunningStat& s) {
    const auto scope = a.scope(name);
    a.field("sum", s.sum);
    a.field("max", s.max);
    a.field("last", s.last);
    a.field("count", s.count);
}

void archivePhases(StateArchive& a, const std::string& name, PhaseTimes& t) {
    const auto scope = a.scope(name);
    a.field("collide", t.collide);
    a.field("impact", t.impact);
    a.field("solve", t.solve);
    a.field("integrate", t.integrate);
    a.field("measure", t.measure);
    a.field("reduce", t.reduce);
}

void archiveStats(StateArchive& a, const std::string& name, StepStats& s) {
    const auto scope = a.scope(name);
    a.field("step", s.step);
    a.field("time", s.time);
    archivePhases(a, "seconds", s.seconds);
    a.field("particles", s.particles);
    a.field("threads", s.threads);
    a.field("emitted", s.emitted);
    a.field("removed", s.removed);
    a.field("contacts", s.contacts);
    a.field("speculativeContacts", s.speculativeContacts);
    a.field("impacts", s.impacts);
    a.field("iterations", s.iterations);
    a.field("impactIterations", s.impactIterations);
    a.field("residual", s.residual);
    a.field("maxResidual", s.maxResidual);
    a.field("normalResidual", s.normalResidual);
    if (!a.loading() || a.has("solverResidual")) a.field("solverResidual", s.solverResidual);
    if (!a.loading() || a.has("converged")) a.field("converged", s.converged);
    // The fallback's text is the method's; a checkpoint keeps whether there was one.
    int fellBack = s.fallback ? 1 : 0;
    if (!a.loading() || a.has("fallback")) a.field("fallback", fellBack);
    if (a.loading()) s.fallback = fellBack ? "a fallback (read from a checkpoint)" : nullptr;
    if (!a.loading() || a.has("servosClosingIn")) a.field("servosClosingIn", s.servosClosingIn);
    if (!a.loading() || a.has("staticRunaways")) {
        a.field("staticRunaways", s.staticRunaways);
        a.field("staticRunawayDiameters", s.staticRunawayDiameters);
    }
    a.field("kineticEnergy", s.kineticEnergy);
    a.field("meanOverlap", s.meanOverlap);
    a.field("maxOverlap", s.maxOverlap);
    a.field("reductionEnabled", s.reductionEnabled);
    a.field("reductionLevel", s.reductionLevel);
    a.field("aggregates", s.aggregates);
    a.field("members", s.members);
    a.field("merged", s.merged);
    a.field("split", s.split);
}

}  // namespace

void RunRecorder::archive(StateArchive& a) {
    a.field("every", m_every);
    a.field("steps", m_steps);
    archivePhases(a, "phases", m_phases);
    archiveStats(a, "last", m_last);
    for (auto [name, stat] : {std::pair<const char*, RunningStat*>{"contacts", &contacts},
                              {"iterations", &iterations},
                              {"residual", &residual},
                              {"kineticEnergy", &kineticEnergy},
                              {"meanOverlap", &meanOverlap},
                              {"maxOverlap", &maxOverlap},
                              {"impacts", &impacts},
                              {"reductionLevel", &reductionLevel},
                              {"aggregates", &aggregates},
                              {"members", &members}})
        archiveStat(a, name, *stat);
    if (!a.loading() || a.has("fallbacks")) a.field("fallbacks", fallbacks);
    if (!a.loading() || a.has("servosClosingIn")) a.field("servosClosingIn", servosClosingIn);
    if (!a.loading() || a.has("staticRunawaySteps"))
        a.field("staticRunawaySteps", staticRunawaySteps);
    // The samples as one array per field.
    const auto scope = a.scope("samples");
    auto column = [&](const char* name, auto member) {
        using F = std::remove_reference_t<decltype(m_samples[0].*member)>;
        std::vector<std::conditional_t<std::is_integral_v<F>, std::int64_t, double>> v;
        for (const Sample& s : m_samples)
            v.push_back(s.*member);
        a.field(name, v);
        if (!a.loading()) return;
        if (v.size() != m_samples.size())
            return a.fail(std::string("recorder samples of different lengths (") + name + ")");
        for (size_t i = 0; i < v.size(); ++i)
            m_samples[i].*member = static_cast<F>(v[i]);
    };
    // The first column read decides how many samples there are.
    std::vector<double> times;
    for (const Sample& s : m_samples)
        times.push_back(s.time);
    a.field("time", times);
    if (a.loading()) {
        m_samples.assign(times.size(), Sample{});
        for (size_t i = 0; i < times.size(); ++i)
            m_samples[i].time = times[i];
    }
    column("kineticEnergy", &Sample::kineticEnergy);
    column("residual", &Sample::residual);
    column("meanOverlap", &Sample::meanOverlap);
    column("maxOverlap", &Sample::maxOverlap);
    column("stepSeconds", &Sample::stepSeconds);
    column("contacts", &Sample::contacts);
    column("iterations", &Sample::iterations);
    column("impacts", &Sample::impacts);
    column("reductionLevel", &Sample::reductionLevel);
    column("aggregates", &Sample::aggregates);
    if (!a.loading() || a.has("solverResidual"))  // states from before it: zeros
        column("solverResidual", &Sample::solverResidual);
    if (!a.loading() || a.has("fallback")) column("fallback", &Sample::fallback);
}

namespace {

/// Writes settings as nested JSON objects by their dotted keys.
struct SettingsWriter {
    Json out = Json::object();
    Json& slot(const char* key) {
        Json* node = &out;
        std::string k = key;
        size_t dot;
        while ((dot = k.find('.')) != std::string::npos) {
            node = &(*node)[k.substr(0, dot)];
            k = k.substr(dot + 1);
        }
        return (*node)[k];
    }
    void operator()(const SettingInfo& i, const double& v) { slot(i.key) = v; }
    void operator()(const SettingInfo& i, const int& v) { slot(i.key) = v; }
    void operator()(const SettingInfo& i, const bool& v) { slot(i.key) = v; }
    void operator()(const SettingInfo& i, const Vec3& v) { slot(i.key) = {v.x(), v.y(), v.z()}; }
    void operator()(const SettingInfo& i, const int& v, ChoiceNames names) {
        slot(i.key) = names[static_cast<size_t>(v)];
    }
};

Json statJson(const RunningStat& s) {
    return {{"mean", s.mean()}, {"max", s.count ? s.max : 0.0}, {"final", s.last}};
}

}  // namespace

std::string settingsJson(const World& world) {
    SettingsWriter w;
    visitSettings(world.settings(), w);
    return w.out.dump();
}

std::optional<Error> writeRunReport(const std::string& path, const Scene& scene,
                                    const std::vector<Override>& overrides, const World& world,
                                    const RunRecorder& rec, double wallSeconds) {
    Json report;
    report["ndem"] = {{"version", NDEM_VERSION}};
    report["scene"] = {{"name", scene.name},
                       {"file", scene.sourcePath},
                       {"description", scene.description},
                       {"particles", world.particles().size()},
                       {"walls", world.walls().size()}};
    SettingsWriter sw;
    visitSettings(world.settings(), sw);
    report["settings"] = sw.out;
    Json sets = Json::array();
    for (const Override& o : overrides)
        sets.push_back(o.key + "=" + o.value);
    report["overrides"] = sets;

    const double simulated = world.time();
    const PhaseTimes& p = rec.phaseTotals();
    report["run"] = {{"steps", rec.steps()},
                     {"simulatedTime", simulated},
                     {"wallSeconds", wallSeconds},
                     {"stepsPerSecond", wallSeconds > 0 ? rec.steps() / wallSeconds : 0.0},
                     {"realTimeFactor", wallSeconds > 0 ? simulated / wallSeconds : 0.0}};
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx",
                  static_cast<unsigned long long>(stateHash(world.particles())));
    report["summary"] = {{"stateHash", hash},
                         {"contacts", statJson(rec.contacts)},
                         {"iterations", statJson(rec.iterations)},
                         {"residual", statJson(rec.residual)},
                         {"kineticEnergy", statJson(rec.kineticEnergy)},
                         {"meanOverlap", statJson(rec.meanOverlap)},
                         {"maxOverlap", statJson(rec.maxOverlap)},
                         {"impacts", statJson(rec.impacts)},
                         {"reductionLevel", statJson(rec.reductionLevel)},
                         {"aggregates", statJson(rec.aggregates)},
                         {"members", statJson(rec.members)},
                         {"fallbacks", rec.fallbacks},
                         {"servosClosingIn", rec.servosClosingIn},
                         {"staticRunawaySteps", rec.staticRunawaySteps},
                         {"phaseSeconds",
                          {{"collide", p.collide},
                           {"impact", p.impact},
                           {"solve", p.solve},
                           {"integrate", p.integrate},
                           {"measure", p.measure},
                           {"reduce", p.reduce},
                           {"total", p.total()}}}};
    Json warnings = Json::array();
    for (const RunWarning& w : world.warnings())
        warnings.push_back(
            {{"step", w.step}, {"time", w.time}, {"kind", w.kind}, {"message", w.message}});
    report["warnings"] = warnings;
    if (const auto& d = world.divergence())
        report["divergence"] = {{"step", d->step},
                                {"time", d->time},
                                {"particle", d->particle},
                                {"quantity", d->quantity},
                                {"message", d->message}};
    Json series;
    series["every"] = rec.sampleEvery();
    for (const auto& s : rec.samples()) {
        series["t"].push_back(s.time);
        series["contacts"].push_back(s.contacts);
        series["iterations"].push_back(s.iterations);
        series["impacts"].push_back(s.impacts);
        series["residual"].push_back(s.residual);
        series["kineticEnergy"].push_back(s.kineticEnergy);
        series["meanOverlap"].push_back(s.meanOverlap);
        series["maxOverlap"].push_back(s.maxOverlap);
        series["stepSeconds"].push_back(s.stepSeconds);
        series["reductionLevel"].push_back(s.reductionLevel);
        series["aggregates"].push_back(s.aggregates);
        series["solverResidual"].push_back(s.solverResidual);
        series["fallback"].push_back(s.fallback);
    }
    report["series"] = series;
    Json measurements = Json::array();
    for (const auto& m : world.measurements()) {
        const MeasurementResult r = m->result();
        measurements.push_back({{"name", r.name},
                                {"headline", r.headline},
                                {"scalars", r.scalars},
                                {"series", r.series},
                                {"tables", r.tables},
                                {"notes", r.notes}});
    }
    report["measurements"] = measurements;

    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return Error{"report: " + path + ": cannot write"};
        out << report.dump(2) << '\n';
        if (!out) {
            std::remove(tmp.c_str());
            return Error{"report: " + path + ": write failed"};
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return Error{"report: " + path + ": " + ec.message()};
    }
    return std::nullopt;
}

}  // namespace ndem
