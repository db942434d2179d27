// The force network of servin-2014 Sec. 4.1: particles (and walls) as nodes, the normal force
// magnitude as edge weight. Reports one snapshot of the network, its strong part (contacts
// above the mean force, which carry most of the load) and the distribution P(f/⟨f⟩).
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "world/world.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace ndem {

namespace {

/// Bins of the normalised force distribution: width 0.25 ⟨f⟩ up to 5 ⟨f⟩.
constexpr double kBinWidth = 0.25;
constexpr int kBins = 20;
/// Relative round-off of a mean of forces (–).
constexpr double kMeanRoundOff = 1e-12;

/// One edge of the network.
struct NetworkEdge {
    double idA = 0.0, idB = 0.0;  ///< stable ids; a wall k is −1 − k
    double normalForce = 0.0;     ///< f_n (N)
    double frictionForce = 0.0;   ///< |f_t| (N)
    double overlap = 0.0;         ///< δ (m)
    Vec3 positionA = Vec3::Zero(), positionB = Vec3::Zero();  ///< x_A, x_B or the wall point (m)
};

struct NetworkSummary {
    long contacts = 0;
    double meanForce = 0.0;         ///< ⟨f_n⟩ (N)
    double maxForce = 0.0;          ///< (N)
    double strongFraction = 0.0;    ///< share of contacts with f_n > ⟨f_n⟩ (–)
    double strongForceShare = 0.0;  ///< share of Σ f_n those contacts carry (–)
};

NetworkSummary summarize(const std::vector<NetworkEdge>& edges) {
    NetworkSummary s;
    s.contacts = static_cast<long>(edges.size());
    if (edges.empty()) return s;
    double total = 0.0;
    for (const NetworkEdge& e : edges) {
        total += e.normalForce;
        s.maxForce = std::max(s.maxForce, e.normalForce);
    }
    s.meanForce = total / s.contacts;
    // A contact that equals the mean up to round-off is not above it: without the guard, a
    // resting column's middle contact (exactly the mean) would flip with summation order.
    const double strongBelow = s.meanForce * (1.0 + kMeanRoundOff);
    long strong = 0;
    double strongTotal = 0.0;
    for (const NetworkEdge& e : edges)
        if (e.normalForce > strongBelow) {
            ++strong;
            strongTotal += e.normalForce;
        }
    s.strongFraction = static_cast<double>(strong) / s.contacts;
    s.strongForceShare = strongTotal / total;
    return s;
}

class ForceNetworkMeasurement final : public Measurement {
  public:
    ForceNetworkMeasurement(SampleWindow window, std::optional<double> at)
        : m_window(window), m_at(at) {}
    std::string name() const override { return "forceNetwork"; }

    void sample(const World& world, const StepStats& stats) override {
        const double h = world.settings().timeStep;
        if (!m_window.takes(stats, h)) return;
        collect(world, m_current);
        const NetworkSummary s = summarize(m_current);
        m_series["t"].push_back(stats.time);
        m_series["meanForce"].push_back(s.meanForce);
        m_series["strongFraction"].push_back(s.strongFraction);
        m_series["contacts"].push_back(static_cast<double>(s.contacts));

        // Keep the snapshot by swapping buffers, so a long run reuses two vectors instead of
        // copying the network every step.
        const bool wanted = m_at ? (!m_snapshotTaken && stats.time >= *m_at - 1e-6 * h) : true;
        if (!wanted) return;
        std::swap(m_current, m_snapshot);
        m_snapshotTaken = true;
        m_snapshotTime = stats.time;
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "forceNetwork";
        r.series = m_series;
        if (!m_snapshotTaken) {
            char why[120];
            if (m_at)
                std::snprintf(why, sizeof why, "no sample at or after t = %.6g s in the window",
                              *m_at);
            else
                std::snprintf(why, sizeof why, "no step fell inside the sampling window");
            r.headline = why;
            r.notes["status"] = r.headline;
            return r;
        }
        const NetworkSummary s = summarize(m_snapshot);
        r.scalars["time"] = m_snapshotTime;
        r.scalars["contacts"] = static_cast<double>(s.contacts);
        r.scalars["meanForce"] = s.meanForce;
        r.scalars["maxForce"] = s.maxForce;
        r.scalars["strongFraction"] = s.strongFraction;
        r.scalars["strongForceShare"] = s.strongForceShare;

        Table& contacts = r.tables["contacts"];
        for (const NetworkEdge& e : m_snapshot) {
            contacts["idA"].push_back(e.idA);
            contacts["idB"].push_back(e.idB);
            contacts["fn"].push_back(e.normalForce);
            contacts["ft"].push_back(e.frictionForce);
            contacts["overlap"].push_back(e.overlap);
            const char* names[6] = {"xA", "yA", "zA", "xB", "yB", "zB"};
            for (int k = 0; k < 3; ++k) {
                contacts[names[k]].push_back(e.positionA[k]);
                contacts[names[3 + k]].push_back(e.positionB[k]);
            }
        }

        // P(f/⟨f⟩) as a density, so it integrates to one over all contacts; forces beyond
        // 5 ⟨f⟩ fall outside the bins and are counted in `beyondRange`.
        std::vector<double> counts(kBins, 0.0);
        long beyond = 0;
        for (const NetworkEdge& e : m_snapshot) {
            const double x = e.normalForce / s.meanForce;
            const int bin = static_cast<int>(x / kBinWidth);
            if (bin < kBins)
                counts[bin] += 1.0;
            else if (x <= kBins * kBinWidth)
                counts[kBins - 1] += 1.0;  // exactly 5 ⟨f⟩ closes the last bin
            else
                ++beyond;
        }
        Table& distribution = r.tables["distribution"];
        for (int k = 0; k < kBins && s.contacts > 0; ++k) {
            distribution["center"].push_back((k + 0.5) * kBinWidth);
            distribution["probabilityDensity"].push_back(counts[k] / (s.contacts * kBinWidth));
        }
        r.scalars["beyondRange"] = s.contacts ? static_cast<double>(beyond) / s.contacts : 0.0;

        char line[160];
        std::snprintf(line, sizeof line,
                      "%ld contacts, %.0f %% strong (above the mean) carrying %.0f %% of the force",
                      s.contacts, 100.0 * s.strongFraction, 100.0 * s.strongForceShare);
        r.headline = line;
        return r;
    }

    /// The snapshot kept and the series; m_current is refilled at every sample.
    void archive(StateArchive& a) override {
        a.field("snapshotTaken", m_snapshotTaken);
        a.field("snapshotTime", m_snapshotTime);
        archiveTable(a, "series", m_series);
        const auto scope = a.scope("snapshot");
        archiveMember(a, "idA", m_snapshot, &NetworkEdge::idA, RecordCount::Loaded);
        archiveMember(a, "idB", m_snapshot, &NetworkEdge::idB);
        archiveMember(a, "normalForce", m_snapshot, &NetworkEdge::normalForce);
        archiveMember(a, "frictionForce", m_snapshot, &NetworkEdge::frictionForce);
        archiveMember(a, "overlap", m_snapshot, &NetworkEdge::overlap);
        archiveMember(a, "positionA", m_snapshot, &NetworkEdge::positionA);
        archiveMember(a, "positionB", m_snapshot, &NetworkEdge::positionB);
    }

  private:
    /// The loaded contacts of the step's network (inNetwork). f_n counts the impact stage
    /// too, as the wall forces do, so the edges at a wall add up to wallForce's normal part.
    static void collect(const World& world, std::vector<NetworkEdge>& edges) {
        edges.clear();
        const ContactSet& c = world.contacts();
        const ParticleStore& p = world.particles();
        const double invH = 1.0 / world.settings().timeStep;
        const double loaded = loadThreshold(c);
        for (size_t i = 0; i < c.size(); ++i) {
            if (!inNetwork(c, i, loaded)) continue;
            const double fn = (c.normalImpulse[i] + c.impactImpulse[i]) * invH;
            if (!(fn > 0.0)) continue;
            NetworkEdge& e = edges.emplace_back();
            const Index a = c.bodyA[i];
            e.idA = p.id[a];
            e.normalForce = fn;
            e.frictionForce = c.frictionImpulse[i].norm() * invH;
            e.overlap = c.overlap[i];
            e.positionA = p.position[a];
            if (c.flags[i] & kWallContact) {
                e.idB = -1.0 - c.bodyB[i];
                e.positionB = p.position[a] + c.leverA[i];
            } else {
                e.idB = p.id[c.bodyB[i]];
                e.positionB = p.position[c.bodyB[i]];
            }
        }
    }

    SampleWindow m_window;
    std::optional<double> m_at;  ///< snapshot time (s); none = the last sample
    std::vector<NetworkEdge> m_current, m_snapshot;
    bool m_snapshotTaken = false;
    double m_snapshotTime = 0.0;
    Table m_series;
};

}  // namespace

extern const MeasurementFactory kForceNetworkMeasurement{
    "forceNetwork",
    "force network at the last sample (or at `at`): table of contacts (ids, fn, ft, overlap, "
    "positions), mean and max force, strong-network share, P(f/<f>); series of the mean force",
    {kWindowEvery,
     kWindowFrom,
     kWindowUntil,
     {"at", MeasurementParameter::Number,
      "snapshot at the first sample at or after this time (s, default: the last sample)"}},
    [](const MeasurementRequest& r, const World&) -> Expected<std::unique_ptr<Measurement>> {
        const SampleWindow window = SampleWindow::fromRequest(r);
        if (window.until < window.from)
            return Error{"measurement 'forceNetwork': 'until' is before 'from'"};
        std::optional<double> at;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        if (const double t = r.number("at", nan); !std::isnan(t)) at = t;
        return std::unique_ptr<Measurement>(new ForceNetworkMeasurement(window, at));
    }};

}  // namespace ndem
