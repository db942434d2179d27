// Inclination of the top surface of a collapsing granular block (servin-wang Sec. 4,
// Fig. 10): "the plane defined by the particles on the top surface of the granular cube,
// discarding any particles that disconnect from the main contact network".
#include "measure/measurement_state.hpp"
#include "measure/measurements.hpp"
#include "measure/sample_window.hpp"
#include "measure/surface_fit.hpp"
#include "world/world.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>

namespace ndem {

namespace {

constexpr double kDegrees = 180.0 / std::numbers::pi;

class SlopeAngleMeasurement final : public Measurement {
  public:
    SlopeAngleMeasurement(Vec3 min, Vec3 max, double bin, double track, double drop,
                          SampleWindow window)
        : m_min(min), m_max(max), m_bin(bin), m_track(track), m_drop(drop), m_window(window) {}

    std::string name() const override { return "slopeAngle"; }

    void sample(const World& world, const StepStats& stats) override {
        if (!m_window.takes(stats, world.settings().timeStep)) return;
        const ParticleStore& p = world.particles();
        const int n = static_cast<int>(p.size());
        if (n == 0) return;
        markMainNetwork(world);
        const VerticalFrame frame = verticalFrame(world.gravity());

        // Candidates: in the region and in the main network. Grains thrown off the block
        // (flying, or a few rolling apart together) would otherwise pose as the surface.
        double diameter = 0.0;
        int dynamic = 0;
        m_candidates.clear();
        m_candidateIds.clear();
        for (int i = 0; i < n; ++i) {
            if (p.invMass[i] == 0.0) continue;
            diameter += 2.0 * p.radius[i];
            ++dynamic;
            const Vec3& x = p.position[i];
            if ((x.array() < m_min.array()).any() || (x.array() > m_max.array()).any()) continue;
            if (m_root[i] != m_mainRoot) continue;
            // (across1, across2, height of the top)
            m_candidates.emplace_back(x.dot(frame.across1), x.dot(frame.across2),
                                      x.dot(frame.up) + p.radius[i]);
            m_candidateIds.push_back(p.id[i]);
        }
        if (m_candidates.size() < 3) return;
        const double bin = m_bin > 0.0 ? m_bin : diameter / dynamic;

        // The highest top per square bin is the surface there. The bin grid is anchored at the
        // region's corner, not at a grain: lattice-placed grains would sit on bin edges.
        double cornerU = std::numeric_limits<double>::infinity(), cornerW = cornerU;
        for (int corner = 0; corner < 8; ++corner) {
            const Vec3 x((corner & 1) ? m_max.x() : m_min.x(), (corner & 2) ? m_max.y() : m_min.y(),
                         (corner & 4) ? m_max.z() : m_min.z());
            cornerU = std::min(cornerU, x.dot(frame.across1));
            cornerW = std::min(cornerW, x.dot(frame.across2));
        }
        auto cell = [&](double coordinate, double corner) {
            return static_cast<int>(std::floor((coordinate - corner) / bin));
        };
        int u0 = INT_MAX, w0 = INT_MAX, u1 = INT_MIN, w1 = INT_MIN;
        for (const Vec3& c : m_candidates) {
            u0 = std::min(u0, cell(c.x(), cornerU));
            u1 = std::max(u1, cell(c.x(), cornerU));
            w0 = std::min(w0, cell(c.y(), cornerW));
            w1 = std::max(w1, cell(c.y(), cornerW));
        }
        const int nu = u1 - u0 + 1;
        std::vector<int> highest(static_cast<size_t>(nu) * (w1 - w0 + 1), -1);
        for (size_t k = 0; k < m_candidates.size(); ++k) {
            const Vec3& c = m_candidates[k];
            int& h = highest[static_cast<size_t>(cell(c.y(), cornerW) - w0) * nu +
                             (cell(c.x(), cornerU) - u0)];
            if (h < 0 || c.z() > m_candidates[h].z()) h = static_cast<int>(k);
        }
        std::vector<Vec3> surface, allTracked;
        const bool tracking =
            m_track >= 0.0 && stats.time >= m_track - 1e-6 * world.settings().timeStep;
        if (tracking && m_tracked.empty()) {
            std::vector<std::pair<std::uint32_t, double>> top;
            for (int h : highest)
                if (h >= 0) top.emplace_back(m_candidateIds[h], m_candidates[h].z());
            std::sort(top.begin(), top.end());
            for (const auto& [id, z] : top) {
                m_tracked.push_back(id);
                m_trackedHeight.push_back(z);
            }
        }
        if (tracking) {
            // Servin & Wang's plane: the grains that formed the top surface when tracking began,
            // wherever they are now (those still in the main network and the region); with
            // `drop`, only those that have come down by more than it since: the slope, not the
            // plateau the collapse left standing behind it.
            for (size_t k = 0; k < m_candidates.size(); ++k) {
                const auto at =
                    std::lower_bound(m_tracked.begin(), m_tracked.end(), m_candidateIds[k]);
                if (at == m_tracked.end() || *at != m_candidateIds[k]) continue;
                allTracked.push_back(m_candidates[k]);
                const double start = m_trackedHeight[static_cast<size_t>(at - m_tracked.begin())];
                if (m_drop > 0.0 && start - m_candidates[k].z() <= m_drop) continue;
                surface.push_back(m_candidates[k]);
            }
        } else {
            for (int h : highest)
                if (h >= 0) surface.push_back(m_candidates[h]);
        }
        const auto fit = fitPlane(surface);
        if (!fit) return;
        const double angle = std::atan(std::hypot(fit->b, fit->c)) * kDegrees;
        m_series["t"].push_back(stats.time);
        m_series["angle"].push_back(angle);
        m_series["surfaceParticles"].push_back(static_cast<double>(surface.size()));
        m_series["fitResidual"].push_back(fit->rms);
        if (m_drop > 0.0) {  // and the one plane through every tracked grain, beside it
            const auto all = fitPlane(allTracked);
            m_series["angleAllTracked"].push_back(
                all ? std::atan(std::hypot(all->b, all->c)) * kDegrees : std::nan(""));
        }
    }

    MeasurementResult result() const override {
        MeasurementResult r;
        r.name = "slopeAngle";
        if (m_series.empty()) {
            r.headline = "slope angle: no surface found in the region";
            r.notes["status"] = r.headline;
            return r;
        }
        r.series = m_series;
        const std::vector<double>& angle = m_series.at("angle");
        r.scalars["finalAngle"] = angle.back();
        r.scalars["maxAngle"] = *std::max_element(angle.begin(), angle.end());
        r.scalars["finalFitResidual"] = m_series.at("fitResidual").back();
        if (m_series.count("angleAllTracked"))
            r.scalars["finalAngleAllTracked"] = m_series.at("angleAllTracked").back();
        char line[160];
        std::snprintf(line, sizeof line, "top surface at %.1f° (steepest %.1f°)",
                      r.scalars["finalAngle"], r.scalars["maxAngle"]);
        r.headline = line;
        return r;
    }

    /// The tracked grains and the series. The union-find is rebuilt at every sample.
    void archive(StateArchive& a) override {
        a.field("tracked", m_tracked);
        // States written before `drop` have no heights: a run restored from one fits them all.
        if (!a.loading() || a.has("trackedHeight")) a.field("trackedHeight", m_trackedHeight);
        if (m_trackedHeight.size() != m_tracked.size())
            m_trackedHeight.assign(m_tracked.size(), std::numeric_limits<double>::infinity());
        archiveTable(a, "series", m_series);
    }

  private:
    /// Labels each particle with the root of its touching-contact cluster (union-find); all
    /// walls are one body, so everything resting on the floor is one network. The main
    /// network is the cluster with the most particles.
    void markMainNetwork(const World& world) {
        const int n = static_cast<int>(world.particles().size());
        m_root.resize(n + 1);
        std::iota(m_root.begin(), m_root.end(), 0);
        auto find = [&](int i) {
            while (m_root[i] != i)
                i = m_root[i] = m_root[m_root[i]];
            return i;
        };
        const ContactSet& c = world.contacts();
        for (size_t k = 0; k < c.size(); ++k) {
            if (!(c.flags[k] & kTouching)) continue;
            const int a = find(c.bodyA[k]);
            const int b = find((c.flags[k] & kWallContact) ? n : c.bodyB[k]);
            if (a != b) m_root[std::max(a, b)] = std::min(a, b);
        }
        m_size.assign(n + 1, 0);
        for (int i = 0; i < n; ++i)
            ++m_size[m_root[i] = find(i)];
        m_mainRoot =
            static_cast<int>(std::max_element(m_size.begin(), m_size.end()) - m_size.begin());
    }

    Vec3 m_min, m_max;  ///< region of particle centres (m)
    double m_bin;       ///< square bin side (m); 0 = mean diameter
    double m_track;     ///< from this time on, fit the grains that were the surface then (< 0: off)
    double m_drop;      ///< with tracking: fit only grains that came down more than this (m)
    std::vector<std::uint32_t> m_tracked;  ///< ids of the tracked surface grains, sorted
    std::vector<double> m_trackedHeight;   ///< their tops when tracking began (m), as m_tracked
    SampleWindow m_window;
    std::vector<int> m_root, m_size;  ///< union-find over particles + one node for the walls
    int m_mainRoot = 0;
    std::vector<Vec3> m_candidates;  ///< reused between samples
    std::vector<std::uint32_t> m_candidateIds;
    Table m_series;  ///< t, angle, surfaceParticles, fitResidual
};

}  // namespace

extern const MeasurementFactory kSlopeAngleMeasurement{
    "slopeAngle",
    "inclination of the plane fitted to the top-surface particles of the main contact network "
    "(degrees); series t, angle; final and steepest angle",
    {{"min", MeasurementParameter::List, "[x, y, z] lower corner of the region (m)"},
     {"max", MeasurementParameter::List, "[x, y, z] upper corner of the region (m)"},
     {"bin", MeasurementParameter::Number, "square bin side (m, default: mean diameter)"},
     {"track", MeasurementParameter::Number,
      "from this time on, fit the grains that formed the top surface then (s; default: the "
      "current surface at every sample)"},
     {"drop", MeasurementParameter::Number,
      "with track: fit only the tracked grains whose tops came down by more than this since "
      "(m; default 0: all of them); the plane through all of them is then reported beside "
      "(series angleAllTracked, scalar finalAngleAllTracked)"},
     kWindowEvery,
     kWindowFrom,
     kWindowUntil},
    [](const MeasurementRequest& r, const World&) -> Expected<std::unique_ptr<Measurement>> {
        const std::vector<double> lo = r.list("min", {}), hi = r.list("max", {});
        if (lo.size() != 3 || hi.size() != 3)
            return Error{"measurement 'slopeAngle': min, max: expected [x, y, z] each"};
        const Vec3 min(lo[0], lo[1], lo[2]), max(hi[0], hi[1], hi[2]);
        if ((min.array() >= max.array()).any())
            return Error{"measurement 'slopeAngle': min must be below max in x, y and z"};
        const double bin = r.number("bin", 0.0);
        if (bin < 0.0) return Error{"measurement 'slopeAngle': bin must be positive"};
        const double track = r.number("track", -1.0), drop = r.number("drop", 0.0);
        if (drop < 0.0) return Error{"measurement 'slopeAngle': drop must be 0 or positive"};
        if (drop > 0.0 && track < 0.0)
            return Error{"measurement 'slopeAngle': drop needs track (the time it counts from)"};
        return std::unique_ptr<Measurement>(
            new SlopeAngleMeasurement(min, max, bin, track, drop, SampleWindow::fromRequest(r)));
    }};

}  // namespace ndem
