// Measurements that follow single bodies or walls: a particle's trajectory, a two-body
// restitution, the force on a wall, and the height of a resting column against Hertz theory.
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "solve/rows/contact_law.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace ndem {

namespace {

/// Position and velocity of one particle (by stable id), sampled every `every` steps.
class TrackMeasurement final : public Measurement {
  public:
    TrackMeasurement(std::uint32_t id, int every) : m_id(id), m_every(every) {}
    std::string name() const override { return "track"; }
    void sample(const World& world, const StepStats& stats) override {
        if (stats.step % m_every != 0) return;
        const Index i = world.particles().indexOfId()[m_id];
        if (i < 0) return;  // removed by a sink
        const Vec3& x = world.particles().position[i];
        const Vec3& v = world.particles().velocity[i];
        m_r.series["t"].push_back(stats.time);
        const char* names[6] = {"x", "y", "z", "vx", "vy", "vz"};
        for (int k = 0; k < 3; ++k) {
            m_r.series[names[k]].push_back(x[k]);
            m_r.series[names[3 + k]].push_back(v[k]);
        }
        m_r.scalars["finalSpeed"] = v.norm();
        m_r.scalars["finalX"] = x.x();
        m_r.scalars["finalY"] = x.y();
        m_r.scalars["finalZ"] = x.z();
    }
    MeasurementResult result() const override {
        MeasurementResult r = m_r;
        r.name = "track";
        r.scalars["particle"] = m_id;
        if (!m_r.series.empty()) {
            char line[160];
            std::snprintf(line, sizeof line,
                          "particle %u ends at (%.4g, %.4g, %.4g) m moving %.4g m/s", m_id,
                          r.scalars["finalX"], r.scalars["finalY"], r.scalars["finalZ"],
                          r.scalars["finalSpeed"]);
            r.headline = line;
        }
        return r;
    }
    void archive(StateArchive& a) override { archiveResult(a, "result", m_r); }

  private:
    std::uint32_t m_id;
    int m_every;
    MeasurementResult m_r;
};

/// Relative normal speed of two particles before their first contact and after they part:
/// the measured coefficient of restitution.
class RestitutionMeasurement final : public Measurement {
  public:
    RestitutionMeasurement(std::uint32_t a, std::uint32_t b) : m_a(a), m_b(b) {}
    std::string name() const override { return "restitution"; }
    void sample(const World& world, const StepStats&) override {
        const auto& p = world.particles();
        const Index ia = p.indexOfId()[m_a], ib = p.indexOfId()[m_b];
        if (ia < 0 || ib < 0) return;
        const Vec3 d = p.position[ib] - p.position[ia];
        const double gap = d.norm() - p.radius[ia] - p.radius[ib];
        const double rate = (p.velocity[ib] - p.velocity[ia]).dot(d.normalized());
        // Before contact the pair closes (rate < 0); remember the last closing speed seen while
        // apart, and the first separating speed once apart again.
        if (!m_touched) {
            if (gap > 0.0)
                m_before = rate;
            else
                m_touched = true;
        } else if (!m_done && gap > 0.0) {
            m_after = rate;
            m_done = true;
        }
        if (!m_touched && m_before < 0.0 && gap <= -m_before * world.settings().timeStep)
            m_touched = true;  // an impact stage can reverse the pair before they overlap
    }
    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "restitution";
        r.scalars["approachSpeed"] = -m_before;
        r.scalars["separationSpeed"] = m_done ? m_after : 0.0;
        r.scalars["restitution"] = (m_done && m_before < 0.0) ? m_after / -m_before : 0.0;
        char line[160];
        if (m_done)
            std::snprintf(line, sizeof line,
                          "restitution %.4f (approach %.4g m/s, separation %.4g m/s)",
                          r.scalars["restitution"], -m_before, m_after);
        else
            std::snprintf(line, sizeof line, "the pair did not separate during the run");
        r.headline = line;
        if (!m_done) r.notes["status"] = "the pair did not separate during the run";
        return r;
    }
    void archive(StateArchive& a) override {
        a.field("before", m_before);
        a.field("after", m_after);
        a.field("touched", m_touched);
        a.field("done", m_done);
    }

  private:
    std::uint32_t m_a, m_b;
    double m_before = 0.0, m_after = 0.0;
    bool m_touched = false, m_done = false;
};

/// Contact force on one wall, every `every` steps, and its mean over the run.
class WallForceMeasurement final : public Measurement {
  public:
    WallForceMeasurement(int wall, std::string wallName, int every)
        : m_wall(wall), m_name(std::move(wallName)), m_every(every) {}
    std::string name() const override { return "wallForce"; }
    void sample(const World& world, const StepStats& stats) override {
        const Vec3& f = world.walls()[m_wall].force;
        m_sum += f;
        ++m_count;
        if (stats.step % m_every != 0) return;
        m_r.series["t"].push_back(stats.time);
        m_r.series["fx"].push_back(f.x());
        m_r.series["fy"].push_back(f.y());
        m_r.series["fz"].push_back(f.z());
        m_r.scalars["finalFx"] = f.x();
        m_r.scalars["finalFy"] = f.y();
        m_r.scalars["finalFz"] = f.z();
        // The weight of the particles, to read the force as a fraction of it (Janssen).
        double mass = 0.0;
        for (size_t i = 0; i < world.particles().size(); ++i)
            if (world.particles().invMass[i] > 0.0) mass += world.particles().mass[i];
        const Vec3 g = world.gravity();
        const double weight = mass * g.norm();
        m_r.scalars["particleWeight"] = weight;
        // Force along gravity, as a share of the weight: 1 for a floor carrying everything.
        const double carried = g.norm() > 0.0 ? f.dot(g.normalized()) : 0.0;
        m_r.scalars["finalWeightFraction"] = weight > 0.0 ? carried / weight : 0.0;
    }
    MeasurementResult result() const override {
        MeasurementResult r = m_r;
        r.name = "wallForce";
        r.notes["wall"] = m_name;
        if (r.scalars.count("particleWeight")) {
            char line[160];
            std::snprintf(line, sizeof line,
                          "%s carries %.1f %% of the particles' weight (%.4g N of %.4g N)",
                          m_name.c_str(), 100.0 * r.scalars.at("finalWeightFraction"),
                          r.scalars.at("finalWeightFraction") * r.scalars.at("particleWeight"),
                          r.scalars.at("particleWeight"));
            r.headline = line;
        }
        if (m_count > 0) {
            r.scalars["meanFx"] = m_sum.x() / m_count;
            r.scalars["meanFy"] = m_sum.y() / m_count;
            r.scalars["meanFz"] = m_sum.z() / m_count;
        }
        return r;
    }
    void archive(StateArchive& a) override {
        a.field("sum", m_sum);
        a.field("count", m_count);
        archiveResult(a, "result", m_r);
    }

  private:
    int m_wall;
    std::string m_name;
    int m_every;
    Vec3 m_sum = Vec3::Zero();
    long m_count = 0;
    MeasurementResult m_r;
};

/// Height of a vertical column resting on a plane against the Hertz prediction, and the
/// column-height error ε_l = (l − l_Nit)/l of wang-servin-berglund (Eq. 12).
class ColumnHeightMeasurement final : public Measurement {
  public:
    std::string name() const override { return "columnHeight"; }
    void sample(const World& world, const StepStats& stats) override {
        const auto& p = world.particles();
        if (p.empty()) return;
        std::vector<Index> order(p.size());
        for (size_t i = 0; i < p.size(); ++i)
            order[i] = static_cast<Index>(i);
        std::sort(order.begin(), order.end(),
                  [&](Index a, Index b) { return p.position[a].z() < p.position[b].z(); });
        const Index top = order.back();
        m_height = p.position[top].z() + p.radius[top];
        // Analytic: each contact carries the weight above it, δ = (W/k)^{1/(2e_H−1)}; the bottom
        // sphere rests on the first wall (a wall counts as d* = d).
        const double g = world.gravity().norm();
        const StepSettings& s = world.settings();
        const MaterialId wallMaterial =
            world.walls().empty() ? p.material[order[0]] : world.walls()[0].material;
        double height = 0.0, above = 0.0;
        for (size_t k = order.size(); k-- > 0;) {
            const Index i = order[k];
            above += p.mass[i];
            const bool bottom = (k == 0);
            const MaterialId other = bottom ? wallMaterial : p.material[order[k - 1]];
            const double di = 2.0 * p.radius[i];
            const double dj = bottom ? di : 2.0 * p.radius[order[k - 1]];
            const double dStar = bottom ? di : di * dj / (di + dj);
            const NormalLaw law =
                normalLaw(world.materials().pair(p.material[i], other),
                          s.mode == StepMode::Nonsmooth ? ContactLaw::Linear : s.contactLaw, dStar,
                          0.5 * (di + dj), s.referenceOverlap);
            const double overlap =
                s.mode == StepMode::Nonsmooth
                    ? 0.0
                    : std::pow(above * g / law.stiffness, 1.0 / (2.0 * law.exponent - 1.0));
            height += (bottom ? 0.5 * di : 0.5 * (di + dj)) - overlap;
        }
        m_analytic = height + p.radius[top] + world.walls().front().position.z();
        m_r.series["t"].push_back(stats.time);
        m_r.series["height"].push_back(m_height);
    }
    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "columnHeight";
        r.series = m_r.series;
        r.scalars["height"] = m_height;
        r.scalars["analyticHeight"] = m_analytic;
        r.scalars["heightError"] = m_analytic > 0.0 ? (m_analytic - m_height) / m_analytic : 0.0;
        char line[160];
        std::snprintf(line, sizeof line,
                      "column height %.6g m, Hertz theory %.6g m, error eps_l = %.3g", m_height,
                      m_analytic, r.scalars["heightError"]);
        r.headline = line;
        return r;
    }
    void archive(StateArchive& a) override {
        a.field("height", m_height);
        a.field("analyticHeight", m_analytic);
        archiveResult(a, "result", m_r);
    }

  private:
    double m_height = 0.0, m_analytic = 0.0;
    MeasurementResult m_r;
};

/// Stable id parameter `key`, if a particle with that id exists.
std::optional<std::uint32_t> particleId(const MeasurementRequest& r, const char* key,
                                        const World& world) {
    const auto& ids = world.particles().indexOfId();
    const double id = r.number(key, 0.0);
    if (id >= ids.size() || ids[static_cast<size_t>(id)] < 0) return std::nullopt;
    return static_cast<std::uint32_t>(id);
}

int every(const MeasurementRequest& r) {
    return std::max(1, static_cast<int>(r.number("every", 1.0)));
}

}  // namespace

extern const MeasurementFactory kTrackMeasurement{
    "track",
    "series t, x, y, z, vx, vy, vz; final position and speed",
    {{"particle", MeasurementParameter::Whole, "particle id (creation order)"},
     {"every", MeasurementParameter::Whole, "sample every N steps (default 1)"}},
    [](const MeasurementRequest& r, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        auto id = particleId(r, "particle", w);
        if (!id) return Error{"measurement 'track': no particle with that id"};
        return std::unique_ptr<Measurement>(new TrackMeasurement(*id, every(r)));
    }};

extern const MeasurementFactory kRestitutionMeasurement{
    "restitution",
    "approach and separation speed of the pair, their ratio e",
    {{"a", MeasurementParameter::Whole, "first particle id"},
     {"b", MeasurementParameter::Whole, "second particle id"}},
    [](const MeasurementRequest& r, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        auto a = particleId(r, "a", w), b = particleId(r, "b", w);
        if (!a || !b || *a == *b) return Error{"measurement 'restitution': needs two particle ids"};
        return std::unique_ptr<Measurement>(new RestitutionMeasurement(*a, *b));
    }};

extern const MeasurementFactory kWallForceMeasurement{
    "wallForce",
    "force on the wall over time (N), its mean, the weight of the particles and its share",
    {{"wall", MeasurementParameter::Word, "wall name"},
     {"every", MeasurementParameter::Whole, "sample every N steps (default 1)"}},
    [](const MeasurementRequest& r, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        const std::string name = r.word("wall", "");
        for (size_t k = 0; k < w.walls().size(); ++k)
            if (w.walls()[k].name == name)
                return std::unique_ptr<Measurement>(
                    new WallForceMeasurement(static_cast<int>(k), name, every(r)));
        return Error{"measurement 'wallForce': no wall named '" + name + "'"};
    }};

extern const MeasurementFactory kColumnHeightMeasurement{
    "columnHeight",
    "height of a resting column against Hertz theory: eps_l (wang-servin-berglund Eq. 12)",
    {},
    [](const MeasurementRequest&, const World& w) -> Expected<std::unique_ptr<Measurement>> {
        if (w.walls().empty()) return Error{"measurement 'columnHeight': the scene has no wall"};
        return std::unique_ptr<Measurement>(new ColumnHeightMeasurement());
    }};

}  // namespace ndem
